import AlmanacCore

/// A translation that is the base's text, word for word, in another language: text that reads as a
/// sentence or a phrase (two words or more, not a short Title Case name such as Pocket Casts Plus). Not reported: values that read as names
/// rather than text (acronyms such as CPU, names such as MonitorControl or iCloud, @handles,
/// addresses, values without letters, a language's own name such as Español or Українська in an
/// English base, a copyright line, a debug screen's `DEBUG:` text, Interface Builder's `<dnl>` markers and design-time texts (Lorem ipsum in any table), the
/// app's name in Info.plist), another variety of the
/// base's language (en-GB for en), and Chinese compared with Chinese. A single word, or a title of up
/// to three capitalised words, is `untranslated-term`'s, a note: Chinese UIs keep many (App, Null,
/// Metal HUD, an app icon's name) and translate others (Date, Light Contrast). `--allow TEXT` lets
/// others through.
struct UntranslatedRule: TextRule {
    static let description = AuditRuleDescription(
        id: "untranslated", severity: .warning, scope: .text, locales: .translations,
        triggering: [.values(("update", "en", "Check for updates"), ("update", "zh-Hant", "Check for updates")),
                     .values(("update", "en", "Check for updates"), ("update", "de", "Check for updates"))],
        nonTriggering: [.values(("settings", "en", "Check for updates"), ("settings", "zh-Hant", "檢查更新")),
                        .values(("color", "en", "Color"), ("color", "en-GB", "Color")),
                        .values(("ok", "zh-Hans", "好的"), ("ok", "zh-Hant", "好的"), base: "zh-Hans"),
                        .values(("size", "en", "%@ × %@"), ("size", "zh-Hans", "%@ × %@")),
                        .values(("cpu", "en", "CPU"), ("cpu", "zh-Hans", "CPU"), ("app", "en", "MonitorControl"), ("app", "zh-Hans", "MonitorControl"),
                                ("sync", "en", "iCloud"), ("sync", "zh-Hans", "iCloud")),
                        .values(("spanish", "en", "Español"), ("spanish", "zh-Hans", "Español"),
                                ("legal", "en", "© 2021 and onwards The vChewing Project."), ("legal", "zh-Hans", "© 2021 and onwards The vChewing Project.")),
                        .values(("status", "en", "Status"), ("status", "de", "Status")),
                        .values(("debug.prompt", "en", "DEBUG: Override the system prompt"), ("debug.prompt", "zh-Hans", "DEBUG: Override the system prompt")),
                        .values(("Lorem ipsum dolor sit amet, consectetur", "en", "Lorem ipsum dolor sit amet, consectetur"),
                                ("Lorem ipsum dolor sit amet, consectetur", "zh-Hant", "Lorem ipsum dolor sit amet, consectetur")),
                        .values(("date", "en", "Date"), ("date", "zh-Hant", "Date"), alsoFinds: ["untranslated-term"]),
                        .values(("plus", "en", "Pocket Casts Plus"), ("plus", "zh-Hant", "Pocket Casts Plus"), alsoFinds: ["untranslated-term"]),
                        // A product's name with its version, a brand's: names, for a person to decide.
                        .values(("WMV3 DESC.", "en", "Windows Media Video 9"), ("WMV3 DESC.", "zh-Hant", "Windows Media Video 9"),
                                ("X264 DESC.", "en", "Open Source H.264"), ("X264 DESC.", "zh-Hant", "Open Source H.264"),
                                ("Movie-M4V", "en", "iTunes Video Podcast"), ("Movie-M4V", "zh-Hant", "iTunes Video Podcast"),
                                alsoFinds: ["untranslated-term"])])

    func check(_ text: TextContext) {
        if Self.untranslatedWords(text) >= 2, !Self.isTitle(text.text) { text.report(Self.description, value: text.text, base: text.reference) }
    }

    /// A short title, every word capitalised (or a brand's, with a capital inside: iTunes) and no
    /// sentence's punctuation: a name as often as a label (Pocket Casts Plus, Patron Chrome,
    /// iTunes Video Podcast; Light Contrast, Play Video). A version or model number (9, V2, H.264,
    /// 1252) is part of a name, not one of its three words (Windows Media Video 9, Open Source H.264).
    static func isTitle(_ text: String) -> Bool {
        let words = text.split(whereSeparator: { $0.isWhitespace }).filter { !isVersion($0) }
        guard !words.isEmpty, words.count <= 3, !words.contains(where: { $0.contains(where: { ".:!?,".contains($0) }) }) else { return false }
        return words.allSatisfy { word in
            (word.first.map { !$0.isLetter || $0.isUppercase } ?? true) || word.dropFirst().contains(where: \.isUppercase)
        }
    }

    /// A version or model number: digits (9, 1252, 2.4), after at most two capitals (V2, H.264),
    /// in brackets or not.
    static func isVersion(_ token: Substring) -> Bool {
        let core = token.drop { $0 == "(" || $0 == "[" }.reversed().drop { $0 == ")" || $0 == "]" }.reversed()
        guard let firstDigit = core.firstIndex(where: \.isNumber) else { return false }
        let prefix = core[..<firstDigit], number = core[firstDigit...]
        let letters = prefix.filter { $0 != "." }
        guard letters.count <= 2, letters.allSatisfy({ $0.isUppercase }), prefix.first.map({ $0.isLetter }) ?? true else { return false }
        return number.allSatisfy { $0.isNumber || $0 == "." || $0 == "-" } && number.last?.isNumber == true
    }

    /// How many words of `text` are the base's, left untranslated; 0 where the check does not apply.
    static func untranslatedWords(_ text: TextContext) -> Int {
        guard let reference = text.reference, reference == text.text else { return 0 }
        let traits = text.traits, baseTraits = text.auditor.locale(text.value.key.baseLocale)
        guard !(baseTraits.isChinese && traits.isChinese), traits.languageForComparison != baseTraits.languageForComparison,
              !text.auditor.options.allowUntranslated.contains(text.text), !readsAsName(text.text, baseLanguage: baseTraits.language),
              !text.value.key.isDesignTimeText, !appNameKeys.contains(text.value.key.entry.key) else { return 0 }
        let words = Self.words(in: text.text)
        // A language written in the base's script keeps many single words as they are.
        return words >= (traits.script != nil && traits.script == baseTraits.script ? 2 : 1) ? words : 0
    }

    /// Info.plist's keys for the app's name, which most apps keep as it is.
    static let appNameKeys: Set<String> = ["CFBundleName", "CFBundleDisplayName"]

    /// Text that is the same in every language by design: a language's own name in a list of
    /// languages (letters an English text does not have: Español, Türkçe, Українська), a copyright
    /// line, a marker such as Interface Builder's `<dnl>` or `<< do not localize >>`, a unit's symbol,
    /// a name marked ® or ™, a markup document.
    static func readsAsName(_ text: String, baseLanguage: String) -> Bool {
        if baseLanguage == "en", text.unicodeScalars.contains(where: { $0.value > 0x7F && $0.properties.isAlphabetic }) { return true }
        return isSameInEveryLanguage(text) || isUnitSymbol(text) || isMarkedName(text) || isMarkupDocument(text) || isDebugText(text)
    }

    /// A debug screen's text, for the developer's eyes (`DEBUG: Override System Prompt`, `[DEBUG] …`).
    static func isDebugText(_ text: String) -> Bool {
        let start = text.hasPrefix("[") ? text.dropFirst() : Substring(text)
        guard start.hasPrefix("DEBUG") else { return false }
        return start.dropFirst(5).first.map { !$0.isLetter } ?? true
    }

    /// A copyright line or a marker: kept as written in every language, so neither left
    /// untranslated nor missing.
    static func isSameInEveryLanguage(_ text: String) -> Bool {
        text.contains("©") || text.hasPrefix("Copyright ") || isMarker(text)
    }

    /// A unit's symbol (`ft lbf`, `mm Hg`, `cir in`): every word of the text is one. Chinese UIs
    /// keep them; a unit's name (`inches Hg`, `acre ft`) is text.
    static func isUnitSymbol(_ text: String) -> Bool {
        let tokens = text.split(whereSeparator: { $0.isWhitespace || $0 == "-" || $0 == "·" || $0 == "⋅" })
        return !tokens.isEmpty && tokens.allSatisfy { unitSymbols.contains(String($0)) }
    }

    static let unitSymbols: Set<String> = ["in", "ft", "yd", "mi", "nmi", "lb", "lbf", "oz", "ozf", "gr", "gal", "qt", "pt", "fl",
                                           "cir", "sq", "cu", "mm", "cm", "km", "mg", "kg", "ml", "Hg", "psi", "mph", "kph", "rpm",
                                           "kWh", "Wh", "BTU", "hp", "kn", "ac", "ms", "bpm", "fps", "Hz", "px",
                                           "kHz", "MHz", "GHz", "bps", "kbps", "Mbps", "Gbps", "dB", "dBm", "mW", "mAh", "KB", "MB", "GB", "TB"]

    /// A count with a unit's symbol (`%lld bpm`, `%@ ms`, `1400 bps`): the symbol, its placeholders
    /// and numbers aside.
    static func readsAsUnits(_ text: String) -> Bool {
        var stripped = text
        for placeholder in PlaceholderList(text).placeholders.reversed() {
            stripped = stripped.replacingOccurrences(of: placeholder.text, with: " ")
        }
        let tokens = stripped.split(whereSeparator: { $0.isWhitespace }).filter { !isNumber($0) }
        return !tokens.isEmpty && isUnitSymbol(tokens.joined(separator: " "))
    }

    /// Digits, with a decimal point or group separators (`1400`, `2.4`, `1,000`).
    static func isNumber(_ token: Substring) -> Bool {
        token.first?.isASCII == true && token.first!.isNumber && token.allSatisfy { ($0.isASCII && $0.isNumber) || $0 == "." || $0 == "," }
    }

    /// A product's name (`Circuit Tools® (.vbo)`): a short text with ® or ™.
    static func isMarkedName(_ text: String) -> Bool {
        (text.contains("®") || text.contains("™")) && words(in: text) <= 3
    }

    /// A document in markup (an HTML export's header with its style sheet): code, not text.
    static func isMarkupDocument(_ text: String) -> Bool {
        let start = text.drop { $0.isWhitespace }.prefix(9).lowercased()
        return start.hasPrefix("<!doctype") || start.hasPrefix("<html") || start.hasPrefix("<?xml")
    }

    /// A marker, not text: Interface Builder's `<dnl>`, or one that says so in words (Quicksilver's
    /// `<< do not localize >>`).
    static func isMarker(_ text: String) -> Bool {
        if text.hasPrefix("<"), text.hasSuffix(">"), !text.contains(" ") { return true }
        return text.count <= 40 && (text.range(of: "do not localize", options: .caseInsensitive) != nil
                                    || text.range(of: "don't localize", options: .caseInsensitive) != nil)
    }

    /// The words of the text that read as words to translate, not as names: printf placeholders,
    /// acronyms (CPU), names with a capital inside (MonitorControl, iCloud, macOS), @handles,
    /// addresses, tokens with digits and a log line's `name=value` pairs are not counted.
    static func words(in text: String) -> Int {
        var stripped = text
        for placeholder in PlaceholderList(text).placeholders.reversed() {
            stripped = stripped.replacingOccurrences(of: placeholder.text, with: " ")
        }
        var count = 0
        for token in stripped.split(whereSeparator: { $0.isWhitespace }) {
            let core = token.drop { !$0.isLetter && !$0.isNumber && $0 != "@" }.reversed().drop { !$0.isLetter && !$0.isNumber }.reversed()
            let letters = core.filter(\.isLetter)
            guard letters.count >= 2, !token.contains("="), !core.contains("@"), !core.contains(where: \.isNumber),
                  !core.contains("."), !core.contains("/") else { continue }
            // An acronym, or a name with a capital after its first letter.
            if letters.allSatisfy(\.isUppercase) || letters.dropFirst().contains(where: \.isUppercase) { continue }
            count += 1
        }
        return count
    }
}

/// A single word, or a short title, that is the base's text in another language: a label left in
/// English (Date, Light Contrast), or a name Chinese UIs keep as it is (App, Null, Metal HUD, Pocket
/// Casts Plus). For a person to decide: a note.
struct UntranslatedTermRule: TextRule {
    static let description = AuditRuleDescription(
        id: "untranslated-term", severity: .note, scope: .text, locales: .translations,
        triggering: [.values(("settings", "en", "Settings"), ("settings", "zh-Hant", "Settings"))],
        nonTriggering: [.values(("settings", "en", "Settings"), ("settings", "zh-Hant", "設定")),
                        .values(("update", "en", "Check for updates"), ("update", "zh-Hans", "Check for updates"), alsoFinds: ["untranslated"])])

    func check(_ text: TextContext) {
        let words = UntranslatedRule.untranslatedWords(text)
        if words == 1 || words > 1 && UntranslatedRule.isTitle(text.text) { text.report(Self.description, value: text.text, base: text.reference) }
    }
}
