/// A Chinese value written in Japanese: kana (の, を, ボタン) in a zh-Hans or zh-Hant text, left from
/// a Japanese catalog copied in or a translation pasted into the wrong file. The value is to be
/// translated, not corrected: the script, quotation mark and punctuation checks leave such a text
/// alone (its kanji, 「」 and marks are Japanese's), and `--fix` does not touch it.
struct JapaneseInChineseRule: TextRule {
    static let description = AuditRuleDescription(
        id: "japanese-in-chinese", severity: .warning, scope: .text, locales: .chinese,
        triggering: [.values(("share", "en", "Tap the Share button"), ("share", "zh-Hans", "「共有」ボタンをタップ")),
                     .values(("budget", "en", "Household budget"), ("budget", "zh-Hans", "家計の予算編成"))],
        nonTriggering: [.values(("share", "en", "Tap the Share button"), ("share", "zh-Hans", "点击“共享”按钮")),
                        .values(("language.ja", "en", "日本語"), ("language.ja", "zh-Hant", "日本語")),
                        .values(("title", "en", "Tokyo・Osaka"), ("title", "zh-Hant", "東京・大阪")),
                        .values(("shop", "en", "Little Joys Shop"), ("shop", "zh-Hant", "小確幸の店"))])

    func check(_ text: TextContext) {
        guard text.isJapanese else { return }
        text.report(Self.description, [Self.kana(in: text.text)], value: text.text)
    }

    /// Whether `text` holds Japanese: two kana letters or more (the middle dot ・ and the long
    /// vowel mark ー, which Chinese text borrows, do not count), or in Simplified Chinese text one:
    /// Taiwan's text borrows の (小確幸の店), the mainland's does not (家計の予算編成 is Japanese).
    static func isJapanese(_ text: String, inSimplified: Bool = false) -> Bool {
        let needed = inSimplified ? 1 : 2
        var count = 0
        for scalar in text.unicodeScalars where isKana(scalar) {
            count += 1
            if count >= needed { return true }
        }
        return false
    }

    /// Whether `text` holds any kana: `--fix` leaves its characters to a person (converting the
    /// kanji around kana gives neither language: 家计の予算编成).
    static func holdsKana(_ text: String) -> Bool { text.unicodeScalars.contains(where: isKana) }

    static func isKana(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3041...0x3096, 0x309D...0x309F, 0x30A1...0x30FA, 0x30FD...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9D: true
        default: false
        }
    }

    /// The first few kana of the text, to show which.
    static func kana(in text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter(isKana).prefix(4)))
    }
}
