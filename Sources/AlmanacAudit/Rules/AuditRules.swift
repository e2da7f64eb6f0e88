/// Every check of the audit, in the order `almanac audit --list-checks` prints them and SARIF
/// numbers them. A new rule is a type in its own file, added here.
public enum AuditRules {
    public static let all: [any AuditRule.Type] = [
        // A key across locales
        MissingKeyRule.self, ExtraKeyRule.self,
        // What reading the files met
        DuplicateKeyRule.self, DuplicateIdenticalRule.self, UnreadableRule.self, SourceTextKeysRule.self, LocaleNameRule.self,
        LocalizedInterfaceRule.self,
        // A value in one locale
        EmptyValueRule.self, UntranslatedRule.self, UntranslatedTermRule.self, UntranslatedLocaleRule.self,
        // Placeholders
        PlaceholderMismatchRule.self, AppTokenMismatchRule.self, StrayPercentRule.self, MixedPositionalRule.self,
        PlaceholderConflictRule.self,
        // Plurals
        PluralMissingOtherRule.self, PluralMissingCategoryRule.self, PluralUnusedCategoryRule.self, PluralUndefinedVariableRule.self,
        // Chinese
        JapaneseInChineseRule.self, SimplifiedInHantRule.self, TraditionalInHansRule.self, MainlandVocabularyRule.self, TaiwanWordChoiceRule.self, QuoteStyleRule.self,
        HalfwidthPunctuationRule.self,
        // Typography against the base
        WhitespaceMismatchRule.self, NewlineMismatchRule.self, LineWrapMismatchRule.self, EllipsisRule.self,
        // Across the app
        InconsistentTranslationRule.self, InconsistentWordingRule.self,
        // Sources
        MissingInCatalogRule.self, UnusedKeyRule.self,
    ]

    /// The rules' descriptions, in the list's order.
    public static let descriptions: [AuditRuleDescription] = all.map { $0.description }

    /// The description of the rule with this id.
    public static func description(of id: String) -> AuditRuleDescription? {
        AuditCheck(spelling: id).flatMap(description(of:))
    }

    /// The description of the rule whose check this is.
    public static func description(of check: AuditCheck) -> AuditRuleDescription? {
        descriptions.first { $0.check == check }
    }

    /// Every check, in the list's order.
    public static let checks: [AuditCheck] = descriptions.map(\.check)
}
