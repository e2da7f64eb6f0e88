/// Plural forms of a category the language never uses (`few` in Chinese): dead text that a
/// translator was paid for. `zero`, `one` and `two` are not reported: Apple also reads them for
/// exactly 0, 1 and 2.
struct PluralUnusedCategoryRule: ValueRule {
    static let description = AuditRuleDescription(
        id: "plural-unused-category", severity: .warning, scope: .value, locales: .every,
        triggering: [.plurals(("items", "en", "%#@count@", ["count.one": "%d item", "count.other": "%d items"]),
                              ("items", "zh-Hans", "%#@count@", ["count.few": "%d 项", "count.other": "%d 项"]))],
        nonTriggering: [.plurals(("items", "en", "%#@count@", ["count.one": "%d item", "count.other": "%d items"]),
                                 ("items", "zh-Hans", "%#@count@", ["count.zero": "没有项目", "count.other": "%d 项"]))])

    func check(_ value: ValueContext) {
        let groups = PluralForms.groups(value.translation)
        guard !groups.isEmpty else { return }
        let needed = value.auditor.categories(value.locale)
        for (path, forms) in groups {
            let unused = Set(forms.keys).subtracting(needed).subtracting([.zero, .one, .two, .other])
            if !unused.isEmpty { value.report(Self.description, variant: path, [unused.sorted().map(\.rawValue).joined(separator: ", ")]) }
        }
    }
}
