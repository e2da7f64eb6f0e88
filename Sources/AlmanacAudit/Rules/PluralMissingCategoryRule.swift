/// Plural forms that lack a category the language needs, by ICU's plural rules for the locale
/// (English needs `one`; Chinese only `other`).
struct PluralMissingCategoryRule: ValueRule {
    static let description = AuditRuleDescription(
        id: "plural-missing-category", severity: .error, scope: .value, locales: .every,
        triggering: [.plurals(("items", "en", "%#@count@", ["count.other": "%d items"]))],
        nonTriggering: [.plurals(("items", "en", "%#@count@", ["count.one": "%d item", "count.other": "%d items"]),
                                 ("items", "zh-Hans", "%#@count@", ["count.other": "%d 项"]))])

    func check(_ value: ValueContext) {
        let groups = PluralForms.groups(value.translation)
        guard !groups.isEmpty else { return }
        let needed = value.auditor.categories(value.locale)
        for (path, forms) in groups {
            let missing = needed.subtracting(forms.keys).subtracting([.other])
            if !missing.isEmpty { value.report(Self.description, variant: path, [missing.sorted().map(\.rawValue).joined(separator: ", ")]) }
        }
    }
}
