import AlmanacCore

/// A translation whose line breaks lose or change the base's structure: a paragraph break (an empty
/// line) more or fewer, a line break at the start or the end more or fewer, or fewer line breaks than
/// the base has between its lines of content (a title and its detail, two sentences). A line break
/// that only wraps an English sentence (`can’t be⏎uploaded`) is no structure: a translation without
/// it is a note of `line-wrap-mismatch`, not this warning.
struct NewlineMismatchRule: TextRule {
    static let description = AuditRuleDescription(
        id: "newline-mismatch", severity: .warning, scope: .text, locales: .translations,
        triggering: [.values(("intro", "en", "Count the days.\nNever miss one."), ("intro", "zh-Hans", "倒数每一天，不错过任何一天。")),
                     .values(("welcome", "en", "Access your server on the go.\n\nIt runs in your home."),
                             ("welcome", "zh-Hans", "随时随地访问您的服务器。\n它在您的家中运行。"))],
        nonTriggering: [.values(("intro", "en", "Count the days.\nNever miss one."), ("intro", "zh-Hans", "倒数每一天。\n不错过任何一天。")),
                        .values(("broken", "en", "This %@ is broken and can’t be\nuploaded to Mastodon."),
                                ("broken", "zh-Hant", "此 %@ 已損毀，無法上傳至 Mastodon。"), alsoFinds: ["line-wrap-mismatch"])])

    func check(_ text: TextContext) {
        guard let reference = text.reference, let lines = LineBreaks(reference), let translated = LineBreaks(text.text, orNilWithout: false),
              lines.changesStructure(translated) else { return }
        text.report(Self.description, value: text.text, base: reference)
    }
}

/// Line breaks that differ from the base's only in how lines of a paragraph are wrapped: the base
/// wraps an English sentence the translation does not (or the other way round). For a person to
/// look at where the layout has room for a fixed number of lines.
struct LineWrapMismatchRule: TextRule {
    static let description = AuditRuleDescription(
        id: "line-wrap-mismatch", severity: .note, scope: .text, locales: .translations,
        triggering: [.values(("broken", "en", "This %@ is broken and can’t be\nuploaded to Mastodon."),
                             ("broken", "zh-Hant", "此 %@ 已損毀，無法上傳至 Mastodon。"))],
        nonTriggering: [.values(("broken", "en", "This %@ is broken and can’t be\nuploaded to Mastodon."),
                                ("broken", "zh-Hant", "此 %@ 已損毀，\n無法上傳至 Mastodon。"))])

    func check(_ text: TextContext) {
        guard let reference = text.reference, let lines = LineBreaks(reference, orNilWithout: false),
              let translated = LineBreaks(text.text, orNilWithout: false),
              lines.count != translated.count, !lines.changesStructure(translated) else { return }
        text.report(Self.description, value: text.text, base: reference)
    }
}

/// The line breaks of a text, counted the ways the two checks compare them.
struct LineBreaks {
    /// Every line break.
    var count = 0
    /// Line breaks that start an empty line (a paragraph break).
    var paragraphs = 0
    /// Line breaks that are not an English sentence's wrap: before them no sentence ends (a letter,
    /// digit, comma, hyphen or space) and after them it goes on in lower case.
    var structural = 0
    var leading = false
    var trailing = false

    /// nil for a text without line breaks when `orNilWithout` (the common case, decided by bytes).
    init?(_ text: String, orNilWithout: Bool = true) {
        if orNilWithout && !text.utf8.contains(ASCII.lineFeed) { return nil }
        let characters = Array(text)
        leading = characters.first?.isNewline == true
        trailing = characters.count > 1 && characters.last?.isNewline == true
        for (index, character) in characters.enumerated() where character.isNewline {
            count += 1
            var next = index + 1
            while next < characters.count, characters[next] == " " || characters[next] == "\t" { next += 1 }
            if next < characters.count, characters[next].isNewline { paragraphs += 1 }
            let before = index > 0 ? characters[index - 1] : nil
            let after = next < characters.count ? characters[next] : nil
            let wraps = before.map { $0.isLetter || $0.isNumber || ",- ".contains($0) } == true
                && after.map { $0.isLowercase && $0.isASCII } == true
            if !wraps { structural += 1 }
        }
    }

    /// Whether `translated` loses or changes this (the base's) structure.
    func changesStructure(_ translated: LineBreaks) -> Bool {
        paragraphs != translated.paragraphs || leading != translated.leading || trailing != translated.trailing
            || translated.count < structural
    }
}
