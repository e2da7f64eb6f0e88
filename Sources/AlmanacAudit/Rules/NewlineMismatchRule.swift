import AlmanacCore

/// A translation whose line breaks lose the base's structure: a paragraph (a break with an empty
/// line) the translation runs into the line before it, or a line break at the start or the end, where the app
/// joins this text to another, more or fewer. Not compared: HTML, where line breaks show nothing;
/// breaks that set a placeholder apart on a line of its own (`for⏎⏎%@⏎⏎is not allowed`), which the
/// word order of another language need not keep; paragraphs the translation adds; empty lines the
/// translation leaves out between paragraphs or items it keeps each on a line of its own. Other
/// differences (a sentence the base wraps, two lines run into one, those empty lines) are
/// `line-wrap-mismatch`'s, a note.
struct NewlineMismatchRule: TextRule {
    static let description = AuditRuleDescription(
        id: "newline-mismatch", severity: .warning, scope: .text, locales: .translations,
        triggering: [.values(("welcome", "en", "Access your server on the go.\n\nIt runs in your home."),
                             ("welcome", "zh-Hans", "随时随地访问您的服务器。它在您的家中运行。")),
                     .values(("item", "en", "  • Move a configuration\n"), ("item", "zh-Hans", "  • 移动一项配置"))],
        nonTriggering: [.values(("intro", "en", "Count the days.\nNever miss one."), ("intro", "zh-Hans", "倒数每一天。\n不错过任何一天。")),
                        .values(("steps", "en", "1. Open Settings\n\n2. Tap Privacy\n\n3. Allow access"),
                                ("steps", "zh-Hant", "1. 打開「設定」\n2. 點一下「隱私權」\n3. 允許取用")),
                        .values(("missing", "en", "Missing Info.plist for\n\n%@\n\nThis configuration must include one."),
                                ("missing", "zh-Hans", "缺少用于 %@ 的 Info.plist\n\n这个配置必须包含一个。")),
                        .values(("note", "en", "<p>When checked, it is shown.</p>\n<p>When not checked, it is hidden.</p>\n"),
                                ("note", "zh-Hans", "<p>勾选时显示。</p><p>未勾选时隐藏。</p>"))])

    func check(_ text: TextContext) {
        guard let reference = text.reference, let lines = LineBreaks(reference), let translated = LineBreaks(text.text, orNilWithout: false),
              lines.changesStructure(translated) else { return }
        text.report(Self.description, value: text.text, base: reference)
    }
}

/// Line breaks that differ from the base's without changing its paragraphs or its first and last
/// line break: a sentence the base wraps and the translation does not, two lines run into one, a
/// paragraph the translation adds. For a person to look at where the layout has room for a fixed
/// number of lines.
struct LineWrapMismatchRule: TextRule {
    static let description = AuditRuleDescription(
        id: "line-wrap-mismatch", severity: .note, scope: .text, locales: .translations,
        triggering: [.values(("broken", "en", "This %@ is broken and can’t be\nuploaded to Mastodon."),
                             ("broken", "zh-Hant", "此 %@ 已損毀，無法上傳至 Mastodon。"))],
        nonTriggering: [.values(("broken", "en", "This %@ is broken and can’t be\nuploaded to Mastodon."),
                                ("broken", "zh-Hant", "此 %@ 已損毀，\n無法上傳至 Mastodon。"))])

    func check(_ text: TextContext) {
        // Most texts have no line break in either.
        guard let reference = text.reference, reference.utf8.contains(ASCII.lineFeed) || text.text.utf8.contains(ASCII.lineFeed),
              let lines = LineBreaks(reference, orNilWithout: false),
              let translated = LineBreaks(text.text, orNilWithout: false),
              lines.count != translated.count, !lines.changesStructure(translated) else { return }
        text.report(Self.description, value: text.text, base: reference)
    }
}

/// The line breaks of a text, counted the ways the two checks compare them.
struct LineBreaks {
    /// Every line break.
    var count = 0
    /// Paragraph breaks: runs of line breaks with an empty line, one however many empty lines,
    /// not counting those beside a line that holds only a placeholder.
    var paragraphs = 0
    /// Lines that hold more than white space.
    var contentLines = 0
    var leading = false
    var trailing = false

    /// nil for a text without line breaks when `orNilWithout` (the common case, decided by bytes),
    /// and for HTML, whose line breaks show nothing.
    init?(_ text: String, orNilWithout: Bool = true) {
        if orNilWithout && !text.utf8.contains(ASCII.lineFeed) { return nil }
        if TextScan.has(text, "</") || TextScan.has(text, "<br") || TextScan.has(text, "<p>") { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        count = lines.count - 1
        leading = lines.count > 1 && lines.first?.isEmpty == true
        trailing = lines.count > 1 && lines.last?.isEmpty == true
        // Each run of empty lines between two lines of content.
        var previousContent: Int?
        for (index, line) in lines.enumerated() where !line.allSatisfy(\.isWhitespace) {
            contentLines += 1
            if let previous = previousContent, index - previous > 1,
               !Self.holdsOnlyPlaceholders(lines[previous]), !Self.holdsOnlyPlaceholders(line) {
                paragraphs += 1
            }
            previousContent = index
        }
    }

    /// A line that sets a value apart: placeholders only, with spaces and a closing colon or stop.
    static func holdsOnlyPlaceholders(_ line: Substring) -> Bool {
        var rest = String(line.drop { $0 == " " || $0 == "\t" })
        while let last = rest.last, " \t:：.。,，".contains(last) { rest.removeLast() }
        guard !rest.isEmpty else { return false }
        let placeholders = PlaceholderList(rest).placeholders
        guard !placeholders.isEmpty else { return false }
        for placeholder in placeholders { rest = rest.replacingOccurrences(of: placeholder.text, with: "") }
        return rest.allSatisfy(\.isWhitespace)
    }

    /// Whether `translated` loses this (the base's) structure: a paragraph run into the line before
    /// it (fewer paragraphs and fewer lines; a translation that keeps each paragraph or item on a
    /// line of its own and leaves out only the empty lines between them keeps the structure), or a
    /// line break at the start or the end.
    func changesStructure(_ translated: LineBreaks) -> Bool {
        translated.paragraphs < paragraphs && translated.contentLines < contentLines
            || leading != translated.leading || trailing != translated.trailing
    }
}

extension NewlineMismatchRule: TextFixingRule {
    static func fixed(_ text: String, base: String?, traditional: Bool, using fixes: TextFixes) -> String? {
        base.flatMap { TextFixes.edgeLineBreaks(text, base: $0) }
    }
}
