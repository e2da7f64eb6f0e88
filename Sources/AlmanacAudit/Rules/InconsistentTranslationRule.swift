import AlmanacCore

/// The same source text translated more than one way in one locale across the app: a zh-Hans text
/// its zh-Hant translations render differently (全天 as 全天 in some keys, 整天 in others), or a
/// base text of two words or more (en) a Chinese locale renders differently. The finding names each
/// rendering with its keys, at the least used one.
///
/// A warning where the renderings are certainly one text written two ways: they differ only in
/// spacing, marks or 你/您, or one key has both (the same string in two tables). Otherwise the
/// renderings differ in words, which a translator does for a place as often as by mistake (a
/// button's 確定 for I Accept, a full title beside a short one): a note, `inconsistent-wording`.
///
/// Not reported: renderings of one zh-Hans text whose base texts differ (Deadline, Due date: 截止日期
/// in zh-Hans, 截止日期 and 到期日 in zh-Hant, which follows the base), or whose keys differ where
/// the table has no base text; a rendering that holds another (名稱 and 依名稱 of a sort menu's Name, 目標 and 儲蓄
/// 目標): the longer says where it stands; a one-word base text (Open, Name), which English uses for
/// more than one thing; drafts waiting for review, keys not to translate, texts without words.
struct InconsistentTranslationRule: ProjectRule {
    static let description = AuditRuleDescription(
        id: "inconsistent-translation", severity: .warning, scope: .project, locales: .chinese,
        triggering: [.values(("zip", "en", "ZIP archive"), ("zip", "zh-Hant", "ZIP 封存檔"), ("zip.menu", "en", "ZIP archive"),
                             ("zip.menu", "zh-Hant", "ZIP封存檔")),
                     // One key, two tables (a String Catalog and the storyboard's strings).
                     .files(("en.lproj/Localizable.strings", "\"Extract the archive\" = \"Extract the archive\";\n"),
                            ("zh-Hant.lproj/Localizable.strings", "\"Extract the archive\" = \"解壓縮封存檔\";\n"),
                            ("en.lproj/Main.strings", "\"Extract the archive\" = \"Extract the archive\";\n"),
                            ("zh-Hant.lproj/Main.strings", "\"Extract the archive\" = \"擷取封存檔\";\n")),
                     .values(("account", "en", "Your account"), ("account", "zh-Hant", "您的帳戶"), ("sign-in.account", "en", "Your account"),
                             ("sign-in.account", "zh-Hant", "你的帳戶"))],
        nonTriggering: [.values(("day.all", "en", "All day"), ("day.all", "zh-Hans", "全天"), ("day.all", "zh-Hant", "全天"),
                                ("event.all", "en", "All day"), ("event.all", "zh-Hans", "全天"), ("event.all", "zh-Hant", "整天")),
                        .values(("day.all", "en", "All day"), ("day.all", "zh-Hans", "全天"), ("day.all", "zh-Hant", "整天"),
                                ("event.all", "en", "All-day"), ("event.all", "zh-Hans", "全天"), ("event.all", "zh-Hant", "整天")),
                        .values(("name", "en", "Name"), ("name", "zh-Hant", "名稱"), ("sort.name", "en", "Name"), ("sort.name", "zh-Hant", "依名稱")),
                        .values(("open", "en", "Open"), ("open", "zh-Hant", "開啟"), ("status.open", "en", "Open"), ("status.open", "zh-Hant", "營業中")),
                        // The zh-Hans text is one, the base's are two (Deadline, Due date): zh-Hant follows the base.
                        .values(("goal.deadline", "en", "Deadline"), ("goal.deadline", "zh-Hans", "截止日期"), ("goal.deadline", "zh-Hant", "截止日期"),
                                ("sort.due", "en", "Due date"), ("sort.due", "zh-Hans", "截止日期"), ("sort.due", "zh-Hant", "到期日")),
                        // Spaces that pad a label to its column: one text.
                        .values(("login.user", "en", "User ID"), ("login.user", "zh-Hans", "账   号"), ("user", "en", "User ID"),
                                ("user", "zh-Hans", "账号")),
                        // No base text: the keys (Kind, Type) are the texts, and they differ.
                        .values(("Kind", "zh-Hans", "类型"), ("Kind", "zh-Hant", "種類"), ("Type", "zh-Hans", "类型"), ("Type", "zh-Hant", "類型"))])

    /// Renderings named in a finding, each with this many keys at most.
    static let keysNamed = 2

    func check(_ project: ProjectContext) {
        Self.check(project, notes: !project.auditor.options.disabled.contains(InconsistentWordingRule.check), warnings: true)
    }

    /// One walk for both checks: warnings, notes, or both.
    static func check(_ project: ProjectContext, notes: Bool, warnings: Bool) {
        let auditor = project.auditor
        // Locales as ICU reads them (`zh_TW.lproj` and `zh-Hant.lproj` are one), across tables.
        var names: [String: String] = [:]
        for locales in project.locales {
            for locale in locales { names[auditor.locale(locale).resolved] = names[auditor.locale(locale).resolved] ?? locale }
        }
        let chinese = names.keys.sorted().filter { auditor.locale($0).isChinese }
        let simplified = chinese.first { auditor.locale($0).isSimplified }
        let base = auditor.locale(project.baseLocale).resolved
        // A text another check finds wrong (a lost placeholder, Simplified characters) differs for
        // that reason, said there.
        var wrong: [String: Set<String>] = [:]   // table and locale → keys
        for finding in project.findings.items where finding.severity != .note {
            wrong[finding.table + "\u{1F}" + auditor.locale(finding.locale ?? "").resolved, default: []].insert(finding.key)
        }
        // Which renderings to compare: each Chinese locale from the base, and a Traditional one
        // from zh-Hans too.
        var pairs: [(source: String, target: String, words: Int)] = []
        for target in chinese {
            var sources = [base]
            if auditor.locale(target).isTraditional, let simplified { sources.append(simplified) }
            for source in sources where source != target {
                pairs.append((source, target, source == base && !auditor.locale(source).isChinese ? 2 : 1))
            }
        }
        guard !pairs.isEmpty else { return }
        // Each source text's renderings, by pair, in the order met, each with its uses: one walk
        // over the entries for every pair.
        var renderings = Array(repeating: [Source: [(text: String, uses: [Use])]](), count: pairs.count)
        var order = Array(repeating: [Source](), count: pairs.count)
        for (tableIndex, (table, locales)) in zip(project.tables, project.locales).enumerated() {
            func name(_ resolved: String) -> String? { locales.first { auditor.locale($0).resolved == resolved } }
            let baseName = name(base)
            let here = pairs.map { (source: name($0.source), target: name($0.target), wrong: wrong[table.name + "\u{1F}" + $0.target] ?? []) }
            guard here.contains(where: { $0.source != nil && $0.target != nil }) else { continue }
            for (entryIndex, entry) in table.content.entries.enumerated() where entry.shouldTranslate != false {
                for (index, names) in here.enumerated() {
                    guard let sourceName = names.source, let targetName = names.target, let sourceText = entry.translations[sourceName]?.value,
                          let translation = entry.translations[targetName], translation.state != .needsReview, translation.state != .new,
                          let rendered = translation.value, !rendered.isEmpty, !names.wrong.contains(entry.key) else { continue }
                    // A zh-Hans text stands for what its base text says: keys with other base texts are
                    // other texts (zh-Hans writes Deadline and Due date alike).
                    // Without a base text, the key stands for it: a table keyed by its English (Kind,
                    // Type) says which text each is, and two ids (36.title, 55.title) are not known to
                    // be one text.
                    let baseText = pairs[index].source == base ? "" : baseName.flatMap { entry.translations[$0]?.value } ?? entry.key
                    let text = Source(text: sourceText, base: baseText)
                    let use = Use(table: tableIndex, entry: entryIndex)
                    if renderings[index][text] == nil { order[index].append(text) }
                    if let place = renderings[index][text]?.firstIndex(where: { $0.text == rendered }) {
                        renderings[index][text]![place].uses.append(use)
                    } else {
                        renderings[index][text, default: []].append((rendered, [use]))
                    }
                }
            }
        }
        var reported: Set<[String]> = []
        for (index, pair) in pairs.enumerated() {
            report(project, renderings[index], order: order[index], source: pair.source, target: pair.target, words: pair.words,
                   notes: notes, warnings: warnings, reported: &reported)
        }
    }

    /// A source text, with the base's text where the source is zh-Hans.
    struct Source: Hashable {
        var text: String
        var base: String
    }

    /// Where a rendering is used: the table's and the entry's places in the project.
    struct Use {
        var table: Int
        var entry: Int
    }

    /// The findings of one pair of locales. `words`: how many words a source text needs (two in an
    /// English base); `reported`: the keys of each finding made, so that renderings found from
    /// zh-Hans and from the base are said once.
    private static func report(_ project: ProjectContext, _ renderings: [Source: [(text: String, uses: [Use])]], order: [Source],
                               source: String, target: String, words: Int, notes: Bool, warnings: Bool, reported: inout Set<[String]>) {
        let auditor = project.auditor
        let targetName = auditor.locale(target).name, sourceName = auditor.locale(source).name
        for text in order {
            // A rendering inside another (名稱 in 依名稱) says the same where it stands.
            guard let all = renderings[text], all.count > 1 else { continue }
            let shown = text.text
            guard Self.isText(shown), Self.words(shown) >= words else { continue }
            let ways = all.filter { way in !all.contains { $0.text != way.text && ($0.text.contains(way.text) || way.text.contains($0.text)) } }
            func key(_ use: Use) -> String { project.tables[use.table].content.key(at: use.entry) }
            // Spaces between two Han characters pad a form's label to its column (账   号 beside
            // 密   码): the same text as 账号.
            guard Set(ways.map { Self.unpadded($0.text) }).count > 1 else { continue }
            guard ways.count > 1, reported.insert(ways.flatMap { $0.uses.map { project.tables[$0.table].name + "\u{1F}" + key($0) } }.sorted() + [target]).inserted
            else { continue }
            // One text written two ways: the same key has both, or they differ only in form.
            let keys = ways.map { Set($0.uses.map(key)) }
            let sameKey = keys.indices.contains { one in keys.indices.contains { other in other > one && !keys[one].isDisjoint(with: keys[other]) } }
            let forms = ways.map { Self.form(of: $0.text) }
            let rule = sameKey || Set(forms).count < forms.count ? Self.description : InconsistentWordingRule.description
            guard rule.severity == .note ? notes : warnings else { continue }
            let sorted = ways.enumerated().sorted { $0.element.uses.count != $1.element.uses.count ? $0.element.uses.count > $1.element.uses.count : $0.offset < $1.offset }
                .map(\.element)
            let named = sorted.map { way in
                let keys = way.uses.prefix(Self.keysNamed).map(key).joined(separator: ", ") + (way.uses.count > Self.keysNamed ? ", …" : "")
                return "“\(way.text)” (\(way.uses.count): \(keys))"
            }.joined(separator: "; ")
            // At the least used rendering: most often the one to change.
            guard let least = sorted.last?.uses.first else { continue }
            let entry = project.tables[least.table].content.entry(at: least.entry)
            let locale = project.locales[least.table].first { auditor.locale($0).resolved == target } ?? targetName
            project.report(rule, table: project.tables[least.table].name, key: entry.key, locale: targetName,
                           location: entry.translations[locale]?.presentation.origin, [shown, sourceName, String(ways.count), targetName, named])
        }
    }

    /// A rendering with what only its form says taken out: spaces, the width and kind of its marks,
    /// 您 (the polite 你).
    static func form(of text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !scalar.properties.isWhitespace {
            switch scalar.value {
            case 0xFF01...0xFF5E: result.append(Unicode.Scalar(scalar.value - 0xFEE0)!)
            default:
                switch scalar {
                case "您": result.append("你")
                case "。": result.append(".")
                case "、": result.append(",")
                case "…": result.append(contentsOf: "...".unicodeScalars)
                case "「", "」", "『", "』", "“", "”", "‘", "’", "\"", "'": result.append("\"")
                default: result.append(scalar)
                }
            }
        }
        return String(result)
    }

    /// The text without the spaces that stand between two Han characters.
    static func unpadded(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index].properties.isWhitespace, let previous = result.last, ScriptPurity.isHan(previous.value) {
                var end = index
                while end < scalars.count, scalars[end].properties.isWhitespace { end += 1 }
                if end < scalars.count, ScriptPurity.isHan(scalars[end].value) {
                    index = end
                    continue
                }
            }
            result.append(scalars[index])
            index += 1
        }
        return String(result)
    }

    /// How many words a Latin text has (separated by spaces, hyphens or slashes).
    static func words(_ text: String) -> Int {
        text.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "/" }).filter { $0.contains(where: \.isLetter) }.count
    }

    /// A text with words in it, of two characters or more: not a placeholder, a number or a mark.
    static func isText(_ text: String) -> Bool {
        let letters = PlaceholderList(text).placeholders.reduce(text) { $0.replacingOccurrences(of: $1.text, with: "") }
        return letters.unicodeScalars.filter { $0.properties.isAlphabetic }.count >= 2
    }
}

/// Renderings of one source text that differ in words (全天 and 整天 of All day), which a place can
/// ask for: a note for a person to decide. Found by `InconsistentTranslationRule`'s walk, which
/// this runs only when that check is turned off.
struct InconsistentWordingRule: ProjectRule {
    static let description = AuditRuleDescription(
        id: "inconsistent-wording", severity: .note, scope: .project, locales: .chinese,
        triggering: [.values(("day.all", "en", "All day"), ("day.all", "zh-Hans", "全天"), ("day.all", "zh-Hant", "全天"),
                             ("event.all", "en", "All day"), ("event.all", "zh-Hans", "全天"), ("event.all", "zh-Hant", "整天")),
                     .values(("save", "en", "Save file"), ("save", "zh-Hant", "儲存檔案"), ("save.menu", "en", "Save file"),
                             ("save.menu", "zh-Hant", "保存檔案"), alsoFinds: ["taiwan-word-choice"])],
        nonTriggering: [.values(("day.all", "en", "All day"), ("day.all", "zh-Hans", "全天"), ("day.all", "zh-Hant", "整天"),
                                ("event.all", "en", "All-day"), ("event.all", "zh-Hans", "全天"), ("event.all", "zh-Hant", "整天"))])

    func check(_ project: ProjectContext) {
        guard project.auditor.options.disabled.contains(InconsistentTranslationRule.check) else { return }
        InconsistentTranslationRule.check(project, notes: true, warnings: false)
    }
}
