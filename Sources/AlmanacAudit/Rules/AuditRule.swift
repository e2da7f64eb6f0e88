public import AlmanacCore

/// One check of the audit: a type that says what it finds (`description`) and finds it. Each rule
/// looks at one thing — a text, a value, a key across locales, a file, or the project — through
/// the protocol below that names it; the auditor walks the catalogs once and hands each rule what
/// it looks at. Every rule is listed in `AuditRules.all`.
public protocol AuditRule: Sendable {
    static var description: AuditRuleDescription { get }
    init()
}

/// What a rule is: its id, severity, what it looks at and in which locales, and examples that
/// trigger it and examples that do not (the tests run every one; `almanac audit --explain ID`
/// prints them). The sentence that describes it and the advice on fixing it are the messages
/// `audit.rule.<id>` and `audit.help.<id>`, in every language Almanac speaks.
public struct AuditRuleDescription: Sendable {
    /// The rule's identity.
    public let check: AuditCheck
    /// The check's spelling (`missing-key`).
    public var id: String { check.id }
    public let severity: Diagnostic.Severity
    public let scope: AuditScope
    public let locales: AuditRuleLocales
    public let triggering: [AuditExample]
    public let nonTriggering: [AuditExample]

    public init(id: String, severity: Diagnostic.Severity, scope: AuditScope, locales: AuditRuleLocales,
                triggering: [AuditExample], nonTriggering: [AuditExample]) {
        self.check = AuditCheck(declaring: id)
        self.severity = severity
        self.scope = scope
        self.locales = locales
        self.triggering = triggering
        self.nonTriggering = nonTriggering
    }

    /// One sentence: what the rule finds.
    public var summary: Message { Message(key: "audit.rule." + id, table: ModuleMessages.table) }
    /// What to do about a finding.
    public var help: Message { Message(key: "audit.help." + id, table: ModuleMessages.table) }
    /// `missing-key` → `MissingKey` (SARIF's rule name).
    public var name: String { id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined() }
}

/// What a rule looks at.
public enum AuditScope: String, Sendable, CaseIterable {
    /// One text of a value in one locale (a plural form, a device variant), with the base's.
    case text
    /// A key's value in one locale, with all its forms.
    case value
    /// A key across every locale.
    case key
    /// A table (one catalog, every locale's file): what reading its files met.
    case table
    /// Every table, and the sources when given.
    case project

    public var message: Message { Message(key: "audit.scope." + rawValue, table: ModuleMessages.table) }
}

/// The locales a rule applies to; the auditor runs a rule only there.
public enum AuditRuleLocales: String, Sendable, CaseIterable {
    /// Every locale, the base included.
    case every
    /// Every locale but the base (rules that compare with the base).
    case translations
    /// Chinese in either script.
    case chinese
    /// Traditional Chinese (zh-Hant, zh_TW, zh_HK).
    case traditional
    /// Simplified Chinese (zh-Hans, zh_CN, zh_SG).
    case simplified
    /// Traditional Chinese as written in Taiwan (zh-Hant-TW, zh_TW).
    case taiwan
    /// Not one locale: a table's files or the project.
    case none

    public var message: Message { Message(key: "audit.applies." + rawValue, table: ModuleMessages.table) }

    func applies(to locale: AuditLocale, isBase: Bool) -> Bool {
        switch self {
        case .every, .none: true
        case .translations: !isBase
        case .chinese: locale.isChinese
        case .traditional: locale.isTraditional
        case .simplified: locale.isChinese && !locale.isTraditional
        case .taiwan: locale.isTaiwan
        }
    }
}

/// A rule that looks at one text of one locale (`check` is called for every text the locale's
/// value has: the value, each plural form, each device variant).
protocol TextRule: AuditRule {
    func check(_ text: TextContext)
}

/// A rule that looks at a key's value in one locale, with its plural forms and substitutions.
/// Empty values are not given to value or text rules (`empty-value` reports them).
protocol ValueRule: AuditRule {
    /// Whether the rule looks at empty values (and only at them); false for every rule but
    /// `empty-value`.
    static var checksEmptyValues: Bool { get }
    func check(_ value: ValueContext)
}

extension ValueRule {
    static var checksEmptyValues: Bool { false }
}

/// A rule that looks at one key across the locales checked.
protocol KeyRule: AuditRule {
    func check(_ key: KeyContext)
}

/// A rule that looks at one table: what reading its files met, and what the key pass counted.
protocol TableRule: AuditRule {
    func check(_ table: TableContext)
}

/// A rule that looks at every table together, and at the sources when given.
protocol ProjectRule: AuditRule {
    func check(_ project: ProjectContext)
}
