import AlmanacCore

/// A value that uses a plural variable (`%#@folders@`) with no forms defined for it: the app
/// shows the variable's name.
struct PluralUndefinedVariableRule: ValueRule {
    static let description = AuditRuleDescription(
        id: "plural-undefined-variable", severity: .error, scope: .value, locales: .every,
        triggering: [.plurals(("moved", "en", "%#@files@ in %#@folders@", ["files.one": "%d file", "files.other": "%d files"]))],
        nonTriggering: [.plurals(("moved", "en", "%#@files@ in %#@folders@",
                                  ["files.one": "%d file", "files.other": "%d files", "folders.one": "%d folder", "folders.other": "%d folders"]))])

    func check(_ value: ValueContext) {
        guard let text = value.translation.value, let substitutions = value.translation.substitutions else { return }
        for variable in PlaceholderList(text).variables where substitutions[variable] == nil {
            value.report(Self.description, [variable], value: text)
        }
    }
}
