public import AlmanacCore

/// One problem an audit found: which check, how serious, where (file, line, column, table, key,
/// locale, variant), and the values involved.
public struct Finding: Hashable, Sendable, Codable {
    /// The check that found it (its spelling: `missing-key`, `placeholder-mismatch`).
    public var check: AuditCheck
    public var severity: Diagnostic.Severity
    public var table: String
    public var key: String
    public var locale: String?
    /// The variant inside a value (`plural.one`, `substitution.days.other`), empty for the value.
    public var variant: String
    public var location: SourceLocation?
    /// The message arguments (the check's message is `audit.<check>`).
    public var arguments: [String]
    /// The value in the locale, and in the base locale, when they matter.
    public var value: String?
    public var base: String?
    /// The text as a fix `--fix` applies only when asked would make it (see
    /// ``AuditFixer/suggestedOnly``), for a person to apply or not.
    public var suggestion: String?

    public init(check: AuditCheck, severity: Diagnostic.Severity, table: String, key: String, locale: String? = nil, variant: String = "",
                location: SourceLocation? = nil, arguments: [String] = [], value: String? = nil, base: String? = nil) {
        self.check = check
        self.severity = severity
        self.table = table
        self.key = key
        self.locale = locale
        self.variant = variant
        self.location = location
        self.arguments = arguments
        self.value = value
        self.base = base
    }

    public var message: Message { Message(key: "audit." + check.id, arguments, table: ModuleMessages.table) }

    /// Identifies a finding across runs (for baselines): the check, table, key, locale and variant,
    /// but not the line, which moves when other entries change.
    public var fingerprint: String {
        StableHash.hex([check.id, table, key, locale ?? "", variant].joined(separator: "\u{1F}"), padded: true)
    }
}

/// What an audit found, with per-locale coverage.
public struct AuditReport: Sendable, Codable {
    public struct Coverage: Hashable, Sendable, Codable {
        public var table: String
        public var locale: String
        /// Keys of the base locale.
        public var keys: Int
        /// Keys with a value in this locale.
        public var translated: Int
        public var errors: Int
        public var warnings: Int

        public var percent: Double { keys == 0 ? 100 : Double(translated) * 100 / Double(keys) }
    }

    public var base: String
    public var findings: [Finding]
    public var coverage: [Coverage]
    /// Findings left out because the baseline accepts them.
    public var baselined: Int
    public var files: [String]
    /// What `--fix` changed before this report was made.
    public var fixes: [AuditFixer.Fix] = []

    public func count(_ severity: Diagnostic.Severity) -> Int { findings.filter { $0.severity == severity }.count }
}
