public import AlmanacCore
import AlmanacCatalogs
import AlmanacICU

/// Checks catalogs the way a localization lead would before a release: what is missing, what
/// would crash or read wrong, and what does not read as the locale's own language. The checks are
/// the rules of `AuditRules.all`; the auditor walks each table once — key by key, locale by
/// locale, text by text — and gives each rule what it looks at, in the locales it applies to.
public final class Auditor {
    public struct Options: Sendable {
        /// The locale every other is compared with.
        public var base: String = "en"
        /// The locales to check (nil: every locale a table has).
        public var locales: [String]?
        /// Values that may stay the same as the base's (brand names, "OK", "iCloud").
        public var allowUntranslated: Set<String> = []
        /// Words the mainland-vocabulary check lets through.
        public var allowVocabulary: Set<String> = MainlandVocabulary.defaultAllowList
        /// Keys used in source code (from `SourceScanner`), when sources were given.
        public var usedKeys: [String: SourceLocation]?
        /// Rules not to run.
        public var disabled: Set<AuditCheck> = []

        public init() {}
    }

    public let options: Options
    let vocabulary: MainlandVocabulary
    var pluralCategories: [String: Set<PluralCategory>] = [:]
    var localeNames: [String: AuditLocale] = [:]

    let keyRules: [any KeyRule]
    let valueRules: [any ValueRule]
    let textRules: [any TextRule]
    let tableRules: [any TableRule]
    let projectRules: [any ProjectRule]

    /// The rules of a locale (those that apply to it), worked out once per locale name.
    struct LocaleRules {
        let traits: AuditLocale
        let empty: [any ValueRule]
        let value: [any ValueRule]
        let text: [any TextRule]
    }
    var localeRules: [String: LocaleRules] = [:]
    /// Only these keys' entries are checked, and no table rule runs (the fixer's passes after the
    /// first look again only at what they changed); nil: every entry.
    var keysToCheck: Set<String>?

    /// Fails when ICU lacks the transforms the Chinese checks need.
    public init(options: Options = Options()) throws(Diagnostic) {
        self.options = options
        vocabulary = MainlandVocabulary(allowing: options.allowVocabulary)
        let rules = AuditRules.all.filter { !options.disabled.contains($0.check) }.map { $0.init() }
        keyRules = rules.compactMap { $0 as? any KeyRule }
        valueRules = rules.compactMap { $0 as? any ValueRule }
        textRules = rules.compactMap { $0 as? any TextRule }
        tableRules = rules.compactMap { $0 as? any TableRule }
        projectRules = rules.compactMap { $0 as? any ProjectRule }
    }

    public func audit(_ tables: [AuditTable]) -> AuditReport {
        let findings = FindingList()
        var coverage: [AuditReport.Coverage] = []
        var locales: [[String]] = []
        for table in tables {
            let (tableCoverage, tableLocales) = audit(table, into: findings)
            coverage += tableCoverage
            locales.append(tableLocales)
        }
        let project = ProjectContext(auditor: self, findings: findings, tables: tables, baseLocale: options.base, usedKeys: options.usedKeys,
                                     coverage: coverage, locales: locales)
        for rule in projectRules { rule.check(project) }
        // Errors and warnings per table and locale, as the report has them (project rules may
        // have gathered several findings into one).
        var counts: [String: (errors: Int, warnings: Int)] = [:]
        for finding in findings.items where finding.severity != .note {
            let id = finding.table + "\u{1F}" + (finding.locale ?? "")
            if finding.severity == .error { counts[id, default: (0, 0)].errors += 1 } else { counts[id, default: (0, 0)].warnings += 1 }
        }
        for index in coverage.indices {
            let count = counts[coverage[index].table + "\u{1F}" + coverage[index].locale]
            coverage[index].errors = count?.errors ?? 0
            coverage[index].warnings = count?.warnings ?? 0
        }
        return AuditReport(base: options.base, findings: findings.items, coverage: coverage, baselined: 0,
                           files: tables.flatMap(\.files))
    }

    func categories(_ locale: String) -> Set<PluralCategory> {
        if let known = pluralCategories[locale] { return known }
        let result = (try? LocaleID(locale)).flatMap { try? PluralRules(locale: $0) }.map { Set($0.categories) } ?? [.other]
        pluralCategories[locale] = result
        return result
    }

    /// How a locale name reads (`zh_TW` → zh-Hant-TW), worked out once per name.
    func locale(_ name: String) -> AuditLocale {
        if let known = localeNames[name] { return known }
        let locale = AuditLocale(name)
        localeNames[name] = locale
        return locale
    }

    func rules(for locale: String) -> LocaleRules {
        if let known = localeRules[locale] { return known }
        let traits = self.locale(locale)
        let isBase = locale == options.base || CatalogLocales.code(ofLegacyName: locale) == options.base
        func applies(_ rule: any AuditRule) -> Bool { type(of: rule).description.locales.applies(to: traits, isBase: isBase) }
        let value = valueRules.filter(applies)
        let rules = LocaleRules(traits: traits, empty: value.filter { type(of: $0).checksEmptyValues },
                                value: value.filter { !type(of: $0).checksEmptyValues }, text: textRules.filter(applies))
        localeRules[locale] = rules
        return rules
    }

    /// Whether Interface Builder's comment marks the object's text not to localize (`Note = "Do not
    /// localize"`, which ibtool writes for a text the app replaces).
    static func markedDoNotLocalize(_ entry: CatalogEntry) -> Bool {
        entry.comment.map { TextScan.has($0, "Note = \"Do not localize\"") } ?? false
    }

    /// The text rules over a value's texts in each of `locales`, with no base text to compare with.
    private func checkTexts(of entry: CatalogEntry, in locales: [(String, LocaleRules)], value: ValueContext, text: TextContext) {
        for (localeName, rules) in locales {
            guard let translation = entry.translations[localeName] else { continue }
            value.load(locale: localeName, traits: rules.traits, translation: translation)
            for (path, string) in translation.texts where !string.isEmpty {
                text.load(path: path, text: string, reference: nil)
                for rule in rules.text { rule.check(text) }
            }
        }
    }

    /// Runs the key, value, text and table rules over one table; returns its coverage and its
    /// locales.
    func audit(_ table: AuditTable, into findings: FindingList) -> ([AuditReport.Coverage], [String]) {
        // Entries are taken one at a time: a table read from `.lproj` folders is a store, whose
        // entries are made when asked and let go after their checks.
        let content = table.content
        let catalogLocales = content.locales
        // The base as the table's folders name it: `en`, or `English` in an older Mac app's.
        let base = CatalogLocales.named(options.base, among: catalogLocales) ?? options.base
        // `--locales zh-Hant` selects a `zh_TW.lproj` folder too: names match as ICU reads them.
        // A locale asked for that the catalog lacks is still checked: every key is missing there.
        let locales = options.locales.map { wanted in
            wanted.flatMap { name -> [String] in
                if catalogLocales.contains(name) { return [name] }
                let matches = catalogLocales.filter { locale($0).resolved == locale(name).resolved }
                return matches.isEmpty ? [name] : matches
            }
        } ?? catalogLocales
        let checked = Set(locales).union([base]).sorted()
        // The rules of each locale checked, in `checked`'s order.
        let localeRules = checked.map { rules(for: $0) }
        let others = locales.filter { $0 != base }
        // The locales checked that localize the table's interface file itself, as ICU reads names
        // (`--locales zh-Hans` is the `zh_CN.lproj` holding `MainMenu.xib`).
        let interfaceLocales = Set(checked.filter { name in
            table.interfaceFiles.keys.contains { $0 == name || locale($0).resolved == locale(name).resolved }
        })
        let key = KeyContext(auditor: self, findings: findings, table: table.name, baseLocale: base, locales: checked,
                             tableKeys: TableKeys(content), interfaceLocales: interfaceLocales, interfaceObjects: table.interfaceObjects)
        let value = ValueContext(key: key)
        let text = TextContext(value: value)
        var translated = Array(repeating: 0, count: checked.count)
        var baseKeys = 0
        var sourceTextKeys = 0
        let startOfTable = findings.items.count
        // A base with no text at all (absent, empty, or only `"" = "";`): the table's keys are the
        // source text, so a key one translation has and another lacks is that one's missing
        // translation, not a key the base lost.
        let baseIsEmpty = !(0..<content.count).contains { row in
            content.translation(at: row, locale: base)?.texts.contains { !$0.text.isEmpty } == true && !content.key(at: row).isEmpty
        }
        // In a String Catalog a key with no base text is the source text itself (Xcode shows the
        // key), unless Xcode marked it stale. An Info.plist table's base text is in Info.plist.
        let isStringCatalog = !table.files.isEmpty && table.files.allSatisfy { $0.hasSuffix(".xcstrings") }
        let isInfoPlist = table.name.lowercased().hasSuffix("infoplist")
        for row in 0..<content.count {
            let entry = content.entry(at: row)
            guard entry.shouldTranslate != false && !Self.markedDoNotLocalize(entry) && keysToCheck.map({ $0.contains(entry.key) }) ?? true else { continue }
            // `"" = "";`, which Xcode leaves in a table of source-text keys, is no entry.
            if entry.key.isEmpty && entry.translations.values.allSatisfy({ $0.texts.allSatisfy { $0.text.allSatisfy(\.isWhitespace) } }) { continue }
            let baseLacksKey = entry.translations[base] == nil && !entry.key.isEmpty
            let everyTranslationHasIt = !others.isEmpty && others.allSatisfy { entry.translations[$0] != nil }
            let readsAsText = (isStringCatalog && entry.extractionState != "stale") || KeyContext.readsAsText(entry.key)
            // The base text is in a file the audit does not read: a storyboard's or xib's (the key
            // of an Interface Builder object, `8Gx-Ya-zhp.title`, with no base table), Info.plist, or
            // the code (`NSLocalizedString("Onboarding.Title", value: "Welcome to %@", …)`: an
            // identifier every translation has and the base table lacks). The translations' own
            // texts are still checked.
            if baseLacksKey && (isInfoPlist || !readsAsText && (baseIsEmpty || everyTranslationHasIt)) {
                key.load(entry, keyIsSourceText: false)
                checkTexts(of: entry, in: zip(checked, localeRules).filter { $0.0 != base }, value: value, text: text)
                continue
            }
            // Keys that are the source text (SwiftUI's Text("Move Screen")): the key reads as text
            // (or is a String Catalog's) and the base lacks it. The key is then the base's value.
            let keyIsSourceText = baseLacksKey && !others.isEmpty && readsAsText
            if keyIsSourceText { sourceTextKeys += 1 }
            key.load(entry, keyIsSourceText: keyIsSourceText)
            for rule in keyRules { rule.check(key) }
            guard key.base != nil else { continue }
            baseKeys += 1
            for (localeIndex, localeName) in checked.enumerated() {
                let rules = localeRules[localeIndex]
                // The source text is the base's value; it has no file of its own to check.
                if localeName == base && keyIsSourceText {
                    translated[localeIndex] += 1
                    continue
                }
                guard let translation = entry.translations[localeName] else { continue }
                translated[localeIndex] += 1
                value.load(locale: localeName, traits: rules.traits, translation: translation)
                let texts = localeName == base ? key.baseTexts : translation.texts
                if texts.allSatisfy({ $0.text.isEmpty }) {
                    for rule in rules.empty { rule.check(value) }
                    continue
                }
                for (path, string) in texts {
                    text.load(path: path, text: string, reference: localeName == base ? string : key.baseText(for: path))
                    for rule in rules.text { rule.check(text) }
                }
                for rule in rules.value { rule.check(value) }
            }
        }
        // What reading the files met comes first in the report, as the files were read first.
        var own = Array(findings.items[startOfTable...])
        let unreadable = UnreadableRule.unreadableFolders(table)
        if !unreadable.isEmpty {
            let missingThere = Set(checked.filter { name in unreadable.contains { $0 == name || locale($0).resolved == locale(name).resolved } })
            own.removeAll { $0.check == MissingKeyRule.check && missingThere.contains($0.locale ?? "") }
        }
        findings.items.removeSubrange(startOfTable...)
        let context = TableContext(auditor: self, findings: findings, table: table, baseLocale: base, sourceTextKeys: sourceTextKeys)
        if keysToCheck == nil { for rule in tableRules { rule.check(context) } }
        findings.items += own
        return (checked.enumerated().map { index, locale in
            AuditReport.Coverage(table: table.name, locale: locale, keys: baseKeys, translated: translated[index], errors: 0, warnings: 0)
        }, catalogLocales)
    }
}
