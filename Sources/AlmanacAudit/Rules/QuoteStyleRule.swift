import AlmanacCatalogs

/// Quotation marks of the other script's convention: Traditional Chinese quotes with 「」,
/// Simplified Chinese with “”. An apostrophe (’ between letters) is no quotation mark, nor is a mark
/// that touches no text on either side (名稱不能包含 “ ” ‘ ’ 等字元: the marks are the subject).
struct QuoteStyleRule: TextRule {
    static let description = AuditRuleDescription(
        id: "quote-style", severity: .warning, scope: .text, locales: .chinese,
        triggering: [.values(("hint", "en", "Tap “Save”"), ("hint", "zh-Hant", "請點按“儲存”")),
                     .values(("hint", "en", "Tap “Save”"), ("hint", "zh-Hans", "请点按「保存」"))],
        nonTriggering: [.values(("hint", "en", "Tap “Save”"), ("hint", "zh-Hant", "請點按「儲存」"), ("hint", "zh-Hans", "请点按“保存”")),
                        .values(("cask", "en", "Couldn’t find the cask"), ("cask", "zh-Hant", "找不到 Cork’s 的 cask")),
                        .values(("name", "en", "A name cannot contain “ ” ‘ ’ / or :"), ("name", "zh-Hant", "名稱不能包含 “ ” ‘ ’ / 或 :"))])

    func check(_ text: TextContext) {
        let value = text.text
        guard !text.isJapanese else { return }
        if text.traits.isTraditional {
            guard TextScan.has(value, "“") || TextScan.has(value, "”") || TextScan.has(value, "‘") || TextScan.has(value, "’") else { return }
            if Self.hasWesternQuote(in: value) { text.report(Self.description, ["「」"], value: value) }
        } else if TextScan.has(value, "「") || TextScan.has(value, "」") {
            text.report(Self.description, ["“”"], value: value)
        }
    }

    /// Whether `value` has a Western quotation mark in Chinese text: not a value without Chinese
    /// (English left untranslated is for the untranslated check), and not ’ between two letters,
    /// which is an apostrophe (Couldn’t, Cork’s).
    static func hasWesternQuote(in value: String) -> Bool {
        let characters = Array(value)
        guard characters.contains(where: TextScan.isCJK) else { return false }
        return characters.indices.contains {
            "“”‘’".contains(characters[$0]) && !ChineseConverter.isApostrophe(characters, at: $0) && !isNamedMark(characters, at: $0)
        }
    }

    /// Whether the quotation mark at `index` touches no text on either side: a mark named as itself
    /// (in a list of characters a name cannot hold: `“ ” ‘ ’ /`), which quotes nothing. Marks side by
    /// side (`’”`) are looked past together; a space, a list's separator or the end is no text.
    static func isNamedMark(_ characters: [Character], at index: Int) -> Bool {
        let marks: Set<Character> = ["“", "”", "‘", "’"]
        let separators: Set<Character> = ["/", "、", ",", "，", ";", "；", ":", "：", "|"]
        func isText(_ position: Int) -> Bool {
            guard characters.indices.contains(position) else { return false }
            return !characters[position].isWhitespace && !separators.contains(characters[position])
        }
        var first = index, last = index
        while first > 0, marks.contains(characters[first - 1]) { first -= 1 }
        while last + 1 < characters.count, marks.contains(characters[last + 1]) { last += 1 }
        return !isText(first - 1) && !isText(last + 1)
    }
}

extension QuoteStyleRule: TextFixingRule {
    static func fixed(_ text: String, base: String?, traditional: Bool, using fixes: TextFixes) -> String? {
        TextFixes.quotes(text, traditional: traditional)
    }
}
