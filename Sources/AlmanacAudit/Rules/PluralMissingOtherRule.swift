/// Plural forms without `other`, the form every language falls back to.
struct PluralMissingOtherRule: ValueRule {
    static let description = AuditRuleDescription(
        id: "plural-missing-other", severity: .error, scope: .value, locales: .every,
        triggering: [.plurals(("items", "en", "%#@count@", ["count.one": "%d item"]))],
        nonTriggering: [.plurals(("items", "en", "%#@count@", ["count.one": "%d item", "count.other": "%d items"]))])

    func check(_ value: ValueContext) {
        for (path, forms) in PluralForms.groups(value.translation) where forms[.other] == nil {
            value.report(Self.description, variant: path)
        }
    }
}
