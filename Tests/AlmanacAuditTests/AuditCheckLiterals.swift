import AlmanacAudit

/// Tests name checks by their spelling, as reports, baselines and `--disable` do: `"missing-key"`
/// is the check spelled so, and a spelling no rule has stops the test there. (The library has no
/// such conversion: its code compares checks, never spellings.)
extension AuditCheck: ExpressibleByStringLiteral {
    public init(stringLiteral spelling: String) {
        guard let check = AuditCheck(spelling: spelling) else { preconditionFailure("no check is spelled \(spelling)") }
        self = check
    }
}
