import AlmanacCore

/// Leading or trailing spaces that differ from the base's: text the app joins with other text
/// runs together or gains a gap. A space the translation adds is reported; one it lacks is where the
/// base's space joins (after `Name:`, before `%@`), but not where Chinese text ends or starts with a
/// Chinese character or full-width punctuation (`Name: ` → `名稱：`, `, ` → `、`). Not in HTML, where
/// spaces at the edges show nothing, and not where the translation is spaces only: the translator
/// kept the join and needs no word there (Eye-Test's ` Only` is ` ` in Chinese).
struct WhitespaceMismatchRule: TextRule {
    static let description = AuditRuleDescription(
        id: "whitespace-mismatch", severity: .warning, scope: .text, locales: .translations,
        triggering: [.values(("label", "en", "Name: %@"), ("label", "zh-Hant", "名稱：%@ ")),
                     .values(("bullet", "en", "• "), ("bullet", "zh-Hant", "•"))],
        nonTriggering: [.values(("label", "en", "Name: "), ("label", "zh-Hant", "名稱： ")),
                        .values(("label", "en", "Name: "), ("label", "zh-Hant", "名稱：")),
                        .values(("join", "en", ", "), ("join", "zh-Hans", "、")),
                        .values(("help", "en", "<h1>Help</h1> <p>Tap + to add one.</p> "), ("help", "zh-Hant", "<h1>說明</h1> <p>輕觸 + 新增一個。</p>")),
                        .values(("tap", "en", "Add a tap from an external address "), ("tap", "zh-Hant", "使用外部位址來新增 Tap")),
                        .values(("only", "en", " Only"), ("only", "zh-Hans", " "))])

    func check(_ text: TextContext) {
        // A substitution's form is a part of the translator's sentence, joined as the translator chose.
        guard let reference = text.reference, !text.path.contains("substitution.") else { return }
        let edges = Self.mismatch(text.text, base: reference)
        if edges.leading || edges.trailing {
            text.report(Self.description, value: text.text, base: reference)
        }
    }

    /// Which edges of `text` differ from `base`'s in a way that matters.
    static func mismatch(_ text: String, base reference: String) -> (leading: Bool, trailing: Bool) {
        let base = Self.edgeSpace(reference), translated = Self.edgeSpace(text)
        guard base != translated, !Self.isHTML(reference), !Self.isHTML(text),
              text.utf8.contains(where: { $0 != ASCII.space && $0 != ASCII.tab }) else { return (false, false) }
        let characters = Array(text), baseCharacters = Array(reference)
        // A space the base has and the translation lacks matters where the app joins text there: not
        // beside Chinese text, which needs none, and not beside a word or a sentence's end in the base
        // (`Add a tap from an external address `, ` Done`), where it is the base's slip or a gap the
        // translation's language does without.
        let chinese = characters.contains(where: TextScan.isCJK)
        func matters(translationEdge: Character?, baseNeighbour: Character?) -> Bool {
            guard let translationEdge, !TextScan.isCJK(translationEdge), let baseNeighbour else { return false }
            // Chinese text ending with punctuation needs no space after it (剩餘嘗試次數:3).
            if chinese, translationEdge.isPunctuation { return false }
            return !(baseNeighbour.isLetter || baseNeighbour.isNumber || ".…!?。".contains(baseNeighbour))
        }
        let baseNeighbours = (baseCharacters.first { $0 != " " && $0 != "\t" }, baseCharacters.last { $0 != " " && $0 != "\t" })
        let leading = base.0 != translated.0 && (translated.0 || matters(translationEdge: characters.first, baseNeighbour: baseNeighbours.0))
        let trailing = base.1 != translated.1 && (translated.1 || matters(translationEdge: characters.last, baseNeighbour: baseNeighbours.1))
        return (leading, trailing)
    }

    /// HTML, whose spaces at the edges show nothing (the newline check reads it the same way).
    static func isHTML(_ text: String) -> Bool {
        TextScan.has(text, "</") || TextScan.has(text, "<br") || TextScan.has(text, "<p>")
    }

    static func edgeSpace(_ text: String) -> (Bool, Bool) {
        // By bytes: a space or tab is one byte in UTF-8, and grapheme breaking is not needed.
        (text.utf8.first.map { $0 == ASCII.space || $0 == ASCII.tab } ?? false, text.utf8.last.map { $0 == ASCII.space || $0 == ASCII.tab } ?? false)
    }
}

extension WhitespaceMismatchRule: TextFixingRule {
    static func fixed(_ text: String, base: String?, traditional: Bool, using fixes: TextFixes) -> String? {
        base.flatMap { TextFixes.edgeSpaces(text, base: $0) }
    }
}
