import AlmanacCatalogs
import AlmanacCore

/// A table's keys, sorted when a rule first asks about them (few tables ever do).
final class TableKeys {
    private let content: CatalogContent
    private lazy var sorted: [String] = (0..<content.count).map { content.key(at: $0) }.sorted()

    init(_ content: CatalogContent) { self.content = content }

    /// Whether a key other than `prefix` begins with it. Keys that begin with a text sort right
    /// after it, so the first key greater than `prefix` decides.
    func hasKey(extending prefix: String) -> Bool {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] <= prefix { low = middle + 1 } else { high = middle }
        }
        return low < sorted.count && sorted[low].hasPrefix(prefix)
    }
}

/// The findings of one audit, as the rules report them.
final class FindingList {
    var items: [Finding] = []
}

/// One key across the locales checked, for key rules. The auditor fills it for each key in turn
/// (one object per table, so that the walk over 50,000 keys allocates nothing per key).
final class KeyContext {
    unowned let auditor: Auditor
    let findings: FindingList
    let table: String
    /// The base locale, and every locale checked (the base among them).
    let baseLocale: String
    let locales: [String]
    private(set) var entry = CatalogEntry(key: "")
    /// The base's value: its own, or the key itself when the key is the source text.
    private(set) var base: Translation?
    /// Whether the base lacks the key and every other locale has it: the key is the source text
    /// (SwiftUI's `Text("Move Screen")`) and serves as the base's value.
    private(set) var keyIsSourceText = false
    /// The base's texts by place (`""`, `plural.one`, `substitution.days.other`).
    private(set) var baseTexts: [(path: String, text: String)] = []
    /// Whether the key is an Interface Builder object's (`8Gx-Ya-zhp.title` in a storyboard's
    /// `Main.strings`): such text is shown as written, never formatted or substituted.
    private(set) var isInterfaceBuilder = false

    /// The table's keys, for a rule that asks what other keys there are.
    let tableKeys: TableKeys
    /// The locales that localize the table's interface file itself (`zh_CN.lproj/MainMenu.xib`):
    /// their text is there, not in a `.strings` table.
    let interfaceLocales: Set<String>
    /// The object ids of the table's interface file in the base's folder (nil: none read).
    let interfaceObjects: Set<String>?

    init(auditor: Auditor, findings: FindingList, table: String, baseLocale: String, locales: [String], tableKeys: TableKeys = TableKeys(CatalogContent()),
         interfaceLocales: Set<String> = [], interfaceObjects: Set<String>? = nil) {
        self.auditor = auditor
        self.findings = findings
        self.table = table
        self.baseLocale = baseLocale
        self.locales = locales
        self.tableKeys = tableKeys
        self.interfaceLocales = interfaceLocales
        self.interfaceObjects = interfaceObjects
    }

    /// Whether the key is an Interface Builder object's whose object the base's interface file
    /// has (true), has not (false: a dead entry), or nil where that is not known.
    var objectIsInInterface: Bool? {
        guard isInterfaceBuilder, let objects = interfaceObjects, let dot = entry.key.firstIndex(of: ".") else { return nil }
        return objects.contains(String(entry.key[..<dot]))
    }

    /// Whether the key names a group that other keys of the table extend: it ends with a separator
    /// and they begin with it (`menu.accountType.` before `menu.accountType.checking`), the way an
    /// app names a menu's choices, its empty first choice by the group's own key.
    var isGroupKey: Bool {
        guard let last = entry.key.utf8.last, last == ASCII.period || last == ASCII.underscore || last == ASCII.hyphen || last == ASCII.slash
        else { return false }
        return tableKeys.hasKey(extending: entry.key)
    }

    func load(_ entry: CatalogEntry, keyIsSourceText: Bool) {
        self.entry = entry
        self.keyIsSourceText = keyIsSourceText
        base = keyIsSourceText ? Translation(value: entry.key) : entry.translations[baseLocale]
        baseTexts = base?.texts ?? []
        isInterfaceBuilder = Self.isInterfaceBuilderKey(entry.key)
    }

    /// `ObjectID.property` as ibtool writes a storyboard's or xib's strings: an id of the form
    /// `abc-de-fgh` (or digits, in old xibs), a dot, and a property path (`title`,
    /// `headerCell.title`, `segmentTitles[0]`).
    static func isInterfaceBuilderKey(_ key: String) -> Bool {
        var key = key
        return key.withUTF8 { bytes in
            let isAlphanumeric = ASCII.isAlphanumeric, isLetter = ASCII.isLetter
            guard let dot = bytes.firstIndex(of: ASCII.period), dot > 0, dot + 1 < bytes.count, isLetter(bytes[dot + 1]) else { return false }
            let idIsIB = dot == 10
                ? (0..<10).allSatisfy { $0 == 3 || $0 == 6 ? bytes[$0] == ASCII.hyphen : isAlphanumeric(bytes[$0]) }
                : (0..<dot).allSatisfy { ASCII.isDigit(bytes[$0]) }
            return idIsIB && ((dot + 1)..<bytes.count).allSatisfy { isAlphanumeric(bytes[$0]) || bytes[$0] == ASCII.period || bytes[$0] == ASCII.openBracket || bytes[$0] == ASCII.closeBracket }
        }
    }

    /// Whether a key reads as text (`Move Screen`, `Cancel`, `1234`, `已完成`) rather than as an
    /// identifier (`settings.title`, `save_button`, `gpCwrM`, `ok`): a key the base table lacks that
    /// reads as text is the source text (an app whose English table holds only a few overrides).
    static func readsAsText(_ key: String) -> Bool {
        // An Interface Builder object's (`5v0-dJ-314.text`: its id may start with a digit).
        if isTaggedIdentifier(key) || isInterfaceBuilderKey(key) { return false }
        guard let first = key.unicodeScalars.first, key.unicodeScalars.allSatisfy({ $0.isASCII }),
              !key.unicodeScalars.contains(where: { $0 == " " }) else { return true }
        let identifierCharacters = key.unicodeScalars.allSatisfy { ASCII.isAlphanumeric(UInt8($0.value)) || "_.-".unicodeScalars.contains($0) }
        guard identifierCharacters, ASCII.isLetter(UInt8(first.value)) || first == "_" else { return true }
        let separated = key.unicodeScalars.contains { "_.-".unicodeScalars.contains($0) }
        let scalars = Array(key.unicodeScalars)
        let camelCase = zip(scalars, scalars.dropFirst()).contains { ASCII.isLowercase(UInt8($0.value)) && ASCII.isUppercase(UInt8($1.value)) }
        let lowercase = scalars.allSatisfy { !ASCII.isUppercase(UInt8($0.value)) }
        return !(separated || camelCase || lowercase)
    }

    /// A key that starts with a bracketed tag naming the string — a path (`[Settings/AppLock/title]`,
    /// `[Database/Load/Error] Incorrect database format`) or an identifier followed by one
    /// (`[ChallengeResponseError] notSupportedByDeviceOrSystem`): KeePassium's keys, whose English
    /// is in the code (`NSLocalizedString("[Settings/title]", value: "Settings", …)`).
    static func isTaggedIdentifier(_ key: String) -> Bool {
        let scalars = Array(key.unicodeScalars)
        guard scalars.first == "[", let close = scalars.firstIndex(of: "]"), close > 1 else { return false }
        let tag = scalars[1..<close]
        guard tag.allSatisfy({ $0.isASCII && (ASCII.isAlphanumeric(UInt8($0.value)) || "_.-/ ".unicodeScalars.contains($0)) }) else { return false }
        // A path may name its parts in words (`[File/In Trash/warning]`); a tag of one part may not.
        if tag.contains("/") { return true }
        guard !tag.contains(" ") else { return false }
        let rest = scalars[(close + 1)...].drop { $0 == " " }
        return !rest.isEmpty && !readsAsText(String(String.UnicodeScalarView(rest)))
    }

    /// Whether the base text is the designer's stand-in, replaced when the app runs: Lorem ipsum, or,
    /// for an Interface Builder object's key, `Label`, `Size Label`, one word repeated
    /// (`Title title title title`).
    var isDesignTimeText: Bool {
        guard let text = baseTexts.first?.text else { return false }
        // Lorem ipsum is a designer's stand-in in any table (an old nib's table is keyed by its
        // English text, not by Interface Builder's ids); the other stand-ins only in a storyboard's.
        if Self.isPlaceholderProse(text) { return true }
        return isInterfaceBuilder && Self.isDesignTimeText(text)
    }

    /// Lorem ipsum, the placeholder prose of designers.
    static func isPlaceholderProse(_ text: String) -> Bool { text.hasPrefix("Lorem ipsum") }

    static func isDesignTimeText(_ text: String) -> Bool {
        if isPlaceholderProse(text) { return true }
        let words = text.split(whereSeparator: { $0.isWhitespace }).map { $0.lowercased() }
        guard let last = words.last else { return false }
        if last == "label", words.count <= 2 { return true }
        return words.count >= 3 && Set(words).count == 1
    }

    /// The base's text at exactly this place.
    func baseText(exactly path: String) -> String? { baseTexts.first { $0.path == path }?.text }

    /// The base's text a translation's text at `path` compares with: the same place, else the
    /// base's `other` form of the same variable (a plural form the base lacks), else the base's
    /// plural `other` or plain value.
    func baseText(for path: String) -> String? {
        if let exact = baseText(exactly: path) { return exact }
        let parent = path.split(separator: ".").dropLast().joined(separator: ".")
        return baseText(exactly: parent.isEmpty ? "plural.other" : parent + ".other") ?? baseText(exactly: "plural.other") ?? baseText(exactly: "")
    }

    /// Adds a finding of `rule` for this key in `locale`; its message arguments are the key, the
    /// locale and `arguments`. It is located at the locale's value, or the base's when the locale
    /// has none.
    /// `naming` is what the message says for the locale (several locales, for one finding that
    /// stands for all of them); by default the locale's name.
    func report(_ rule: AuditRuleDescription, locale: String, naming: String? = nil, variant: String = "", _ arguments: [String] = [],
                value: String? = nil, base baseValue: String? = nil) {
        findings.items.append(Finding(check: rule.check, severity: rule.severity, table: table, key: entry.key, locale: locale,
                                      variant: variant,
                                      location: entry.translations[locale]?.presentation.origin ?? base?.presentation.origin,
                                      arguments: [entry.key, naming ?? locale] + arguments, value: value, base: baseValue))
    }
}

/// A key's value in one locale, for value rules.
final class ValueContext {
    let key: KeyContext
    private(set) var locale = ""
    private(set) var traits = AuditLocale("en")
    private(set) var isBase = false
    private(set) var translation = Translation()

    init(key: KeyContext) { self.key = key }

    func load(locale: String, traits: AuditLocale, translation: Translation) {
        self.locale = locale
        self.traits = traits
        self.translation = translation
        isBase = locale == key.baseLocale
    }

    var auditor: Auditor { key.auditor }

    func report(_ rule: AuditRuleDescription, variant: String = "", _ arguments: [String] = [], value: String? = nil, base: String? = nil) {
        key.report(rule, locale: locale, variant: variant, arguments, value: value, base: base)
    }
}

/// One text of a value (the value, a plural form, a device variant), for text rules, with what
/// several rules read from it worked out once.
final class TextContext {
    let value: ValueContext
    /// Where the text sits in the value: "" for the value, `plural.one`, `substitution.days.other`.
    private(set) var path = ""
    private(set) var text = ""
    /// The base's text at the same place (a plural form compares with the base's `other`); the
    /// text itself in the base locale.
    private(set) var reference: String?

    private var placeholderList: PlaceholderList?
    private var tokens: (tokens: [String], percentOffsets: [Int])?
    private var expected: [String]?
    private var simplified: String?
    private var mainlandWords: [MainlandVocabulary.Word]?

    init(value: ValueContext) { self.value = value }

    func load(path: String, text: String, reference: String?) {
        self.path = path
        self.text = text
        self.reference = reference
        placeholderList = nil
        tokens = nil
        expected = nil
        simplified = nil
        mainlandWords = nil
    }

    var locale: String { value.locale }
    var traits: AuditLocale { value.traits }

    /// Whether the app substitutes anything in the text: not for an Interface Builder object's.
    var isSubstituted: Bool { !value.key.isInterfaceBuilder }

    /// Whether the text is a printf format (`String(format:)`): not an Interface Builder
    /// object's, and not one with the app's own `%0` tokens, which the app replaces itself (a `%`
    /// there is a percent sign: "%0%" is "50%").
    var isPrintfFormat: Bool {
        isSubstituted && !expectedTokens.contains { $0.hasPrefix("%") }
    }
    var isBase: Bool { value.isBase }
    var auditor: Auditor { value.key.auditor }

    /// Whether the text is a name written the same in every locale, not a translation: the base's
    /// text, word for word, where the base is not Chinese (a language list's 日本語), or a Chinese
    /// script's own name for itself (简体中文 in a zh-Hant language list, 繁體中文 in a zh-Hans one,
    /// as pickers write each language in its own script).
    var isTheBaseName: Bool {
        if ScriptPurity.chineseAutonyms.contains(text) { return true }
        guard let reference, reference == text, !value.isBase else { return false }
        return !auditor.locale(value.key.baseLocale).isChinese
    }

    /// The printf placeholders of the text (printf rules ask `isPrintfFormat` first), a String
    /// Catalog's substitution tokens read as their arguments (`SubstitutionTokens`).
    var placeholders: PlaceholderList {
        if let placeholderList { return placeholderList }
        let list = PlaceholderList(SubstitutionTokens.resolved(text, path: path, in: value.translation))
        placeholderList = list
        return list
    }

    /// The printf placeholders of the base's text at `path` (by default, the text this one compares
    /// with), read as `placeholders` are.
    func basePlaceholders(at path: String? = nil) -> PlaceholderList? {
        let place = path ?? self.path
        guard let reference = path.map({ value.key.baseText(exactly: $0) }) ?? reference else { return nil }
        return PlaceholderList(SubstitutionTokens.resolved(reference, path: place, in: value.key.base))
    }

    /// The app's own tokens in the text (`%0`, `{name}`, `${name}`).
    var appTokens: (tokens: [String], percentOffsets: [Int]) {
        if let tokens { return tokens }
        let found = AppTokens.find(in: text)
        tokens = found
        return found
    }

    /// The app tokens the text should have: the reference's, where a `%0` counts only when some
    /// translation repeats it (else it is a stray percent of the base's own).
    var expectedTokens: [String] {
        if let expected { return expected }
        var result: [String] = []
        if let reference {
            let entry = value.key.entry, base = value.key.baseLocale, path = self.path
            result = AppTokens.find(in: reference).tokens.filter { token in
                !token.hasPrefix("%") || entry.translations.contains { other in
                    other.key != base && other.value.texts.contains { $0.path == path && AppTokens.find(in: $0.text).tokens.contains(token) }
                }
            }
        }
        expected = result
        return result
    }

    /// The mainland words of the text (for Taiwan's checks).
    var mainlandVocabulary: [MainlandVocabulary.Word] {
        if let mainlandWords { return mainlandWords }
        let found = auditor.vocabulary.find(in: text)
        mainlandWords = found
        return found
    }

    /// Whether the text is Japanese (kana): the Chinese script, word and mark checks leave it to
    /// `japanese-in-chinese`.
    var isJapanese: Bool { traits.isChinese && JapaneseInChineseRule.isJapanese(text, inSimplified: traits.isSimplified) }

    /// The characters of the text only Simplified Chinese writes (none in Japanese text).
    var simplifiedCharacters: String {
        if let simplified { return simplified }
        let found = isJapanese ? "" : ScriptPurity.simplifiedCharacters(in: text)
        simplified = found
        return found
    }

    func report(_ rule: AuditRuleDescription, _ arguments: [String] = [], value text: String? = nil, base: String? = nil) {
        value.report(rule, variant: path, arguments, value: text, base: base)
    }
}

/// One table, for table rules: its files, what reading them met, and what the key pass counted.
struct TableContext {
    let auditor: Auditor
    let findings: FindingList
    let table: AuditTable
    let baseLocale: String
    /// Keys checked as the source text (see `KeyContext.keyIsSourceText`).
    let sourceTextKeys: Int

    /// Adds a finding of `rule` for this table (`key` and `locale` when it is about one).
    func report(_ rule: AuditRuleDescription, key: String = "", locale: String? = nil, location: SourceLocation?, _ arguments: [String]) {
        findings.items.append(Finding(check: rule.check, severity: rule.severity, table: table.name, key: key, locale: locale,
                                      location: location, arguments: arguments))
    }
}

/// Every table, and the keys the sources use when sources were given, for project rules.
struct ProjectContext {
    let auditor: Auditor
    let findings: FindingList
    let tables: [AuditTable]
    let baseLocale: String
    /// Keys used in source code with where each is first used; nil when no sources were given.
    let usedKeys: [String: SourceLocation]?
    /// Each table's coverage by locale (how many keys have a value there).
    let coverage: [AuditReport.Coverage]
    /// Each table's locales (`tables[i].catalog.locales`, worked out once).
    let locales: [[String]]

    func report(_ rule: AuditRuleDescription, table: String, key: String = "", locale: String? = nil, location: SourceLocation?,
                _ arguments: [String]) {
        findings.items.append(Finding(check: rule.check, severity: rule.severity, table: table, key: key, locale: locale,
                                      location: location, arguments: arguments))
    }
}
