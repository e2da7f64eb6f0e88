/// A `%` that starts no printf placeholder: `String(format:)` drops it or reads garbage. A `%0`
/// the base has and a translation repeats is the app's own placeholder (`app-token-mismatch`
/// checks it), not a stray.
struct StrayPercentRule: TextRule {
    static let description = AuditRuleDescription(
        id: "stray-percent", severity: .error, scope: .text, locales: .every,
        triggering: [.values(("discount", "en", "Up to 20%")),
                     .values(("discount", "en", "Up to 20%%"), ("discount", "zh-Hant", "最高 8 折 %"))],
        nonTriggering: [.values(("discount", "en", "Up to 20%%"), ("discount", "zh-Hant", "最高 20%%")),
                        .values(("move", "en", "Move %0 to the Trash"), ("move", "zh-Hans", "将 %0 移到废纸篓"))])

    func check(_ text: TextContext) {
        // `placeholders` leaves out the app's own `%0` tokens.
        if !text.placeholders.stray.isEmpty { text.report(Self.description, value: text.text) }
    }
}
