import AlmanacCore

/// A value with no text: the app shows nothing. The value's other checks are skipped.
struct EmptyValueRule: ValueRule {
    static let description = AuditRuleDescription(
        id: "empty-value", severity: .warning, scope: .value, locales: .every,
        triggering: [.values(("save", "en", "Save"), ("save", "zh-Hant", ""))],
        nonTriggering: [.values(("save", "en", "Save"), ("save", "zh-Hant", "儲存"))])

    static var checksEmptyValues: Bool { true }

    func check(_ value: ValueContext) {
        // A String Catalog localization of another kind (an App Shortcut's phrases) has text the
        // catalog model does not hold.
        guard value.translation.presentation[XCStringsFile.unmodeledMembers] == nil else { return }
        value.report(Self.description)
    }
}
