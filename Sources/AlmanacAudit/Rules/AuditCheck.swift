/// Which check found something: the identity of a rule, as its findings, fixes, baselines and
/// options carry it. Rules declare theirs (`MissingKeyRule.check`); code compares these, never
/// their spellings. The spelling (`missing-key`) is the check's serialised form, the same in
/// every report, baseline, SARIF log and `--disable` option; it becomes a check again only through
/// `init(spelling:)`, which knows the rules there are.
public struct AuditCheck: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The check's stable id, as reports spell it (`missing-key`, `simplified-in-hant`).
    public let id: String

    /// A rule's own check (`AuditRuleDescription`'s initializer is the only caller).
    init(declaring id: String) { self.id = id }

    /// The check spelled `id`, or nil when no rule has that id.
    public init?(spelling id: String) {
        guard let rule = AuditRules.descriptions.first(where: { $0.check.id == id }) else { return nil }
        self = rule.check
    }

    public var description: String { id }

    public static func < (lhs: AuditCheck, rhs: AuditCheck) -> Bool { lhs.id < rhs.id }

    /// Read as its spelling; a spelling no rule has is kept as written (a baseline written by a
    /// later version may name a check this one lacks: its findings never match, and nothing fails).
    public init(from decoder: any Decoder) throws {
        id = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(id)
    }
}

extension AuditRule {
    /// The rule's check: what its findings carry.
    public static var check: AuditCheck { description.check }
}
