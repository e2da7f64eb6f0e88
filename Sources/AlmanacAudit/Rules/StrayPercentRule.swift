import AlmanacCore

/// A `%` that starts no printf placeholder in a format string: `String(format:)` drops it or
/// reads garbage (`%d%` for "50%" must be `%d%%`). Only text the app formats is checked: a value
/// with placeholders (its own or the base's). Text without any is shown as written ("100% sure"),
/// as is an Interface Builder object's, and one with the app's own `%0` tokens, which the app
/// replaces itself (`app-token-mismatch` checks those).
struct StrayPercentRule: TextRule {
    static let description = AuditRuleDescription(
        id: "stray-percent", severity: .error, scope: .text, locales: .every,
        triggering: [.values(("discount", "en", "%@ is 20% off")),
                     .values(("discount", "en", "%@ is 20%% off"), ("discount", "zh-Hant", "%@ 打 8 折，省 20%"))],
        nonTriggering: [.values(("discount", "en", "%@ is 20%% off"), ("discount", "zh-Hant", "%@ 打 8 折，省 20%%")),
                        .values(("sure", "en", "Not 100% sure"), ("sure", "zh-Hans", "不是 100% 确定")),
                        .values(("move", "en", "Move %0 to the Trash"), ("move", "zh-Hans", "将 %0 移到废纸篓")),
                        .values(("battery", "en", "%0% left"), ("battery", "zh-Hant", "剩餘 %0%")),
                        .files(("en.lproj/Main.strings", """
                            /* Class = "NSTextFieldCell"; title = "Snaps to 0%, 50% and 100% of %@"; ObjectID = "8Gx-Ya-zhp"; */
                            "8Gx-Ya-zhp.title" = "Snaps to 0%, 50% and 100% of %@";

                            """))])

    func check(_ text: TextContext) {
        guard !text.placeholders.stray.isEmpty, text.isPrintfFormat else { return }
        // Text the app formats: it has placeholders, or the base's text has.
        guard !text.placeholders.placeholders.isEmpty || text.reference.map({ !PlaceholderList($0).placeholders.isEmpty }) == true else { return }
        text.report(Self.description, value: text.text)
    }
}
