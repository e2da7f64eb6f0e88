public import AlmanacCore
import AlmanacCatalogs
import AlmanacICU
import Foundation

/// A table to audit: one catalog with every locale, and the files it came from.
public struct AuditTable: Sendable {
    public var name: String
    public var catalog: Catalog
    public var files: [String]
    /// Problems met while reading (unreadable files, duplicate keys).
    public var diagnostics: [Diagnostic]

    public init(name: String, catalog: Catalog, files: [String], diagnostics: [Diagnostic] = []) {
        self.name = name
        self.catalog = catalog
        self.files = files
        self.diagnostics = diagnostics
    }

    /// The catalog formats the audit reads when no registry is given.
    public static let catalogFormats = FormatRegistry([StringsCodec(), StringsdictCodec(), XCStringsCodec(), XLIFFCodec()])

    /// Reads `.lproj` folders (anywhere under a directory) and catalog files of any format the
    /// registry reads as a catalog (String Catalogs, XLIFF, a codec plugin's); files of the same
    /// table (`Localizable.strings` in several `.lproj` folders) merge.
    public static func load(_ paths: [String], registry: FormatRegistry = catalogFormats,
                            context: CodecContext = CodecContext(options: ["layout": "no"])) -> [AuditTable] {
        var tables: [AuditTable] = []
        func add(_ table: AuditTable) {
            if let index = tables.firstIndex(where: { $0.name == table.name }) {
                tables[index].catalog.merge(table.catalog, replacing: table.files.allSatisfy { $0.hasSuffix(".stringsdict") })
                tables[index].files += table.files
                tables[index].diagnostics += table.diagnostics
            } else {
                tables.append(table)
            }
        }
        let catalogCodecs = registry.codecs.filter { $0.format.model == .catalog && $0.format.canRead }
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                tables.append(AuditTable(name: path, catalog: Catalog(), files: [path],
                                         diagnostics: [.error("input.not-found", at: SourceLocation(file: path))]))
                continue
            }
            if isDirectory.boolValue {
                for table in CatalogTree.read(path, context: context) {
                    add(AuditTable(name: table.name, catalog: table.catalog, files: table.files, diagnostics: table.diagnostics))
                }
                // Other catalogs in the folder (String Catalogs, XLIFF): files a catalog format
                // names by extension and recognises by content. `.lproj` trees were read above;
                // a loose `.strings` file says no locale.
                let others = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []).filter { relative in
                    let parts = relative.split(separator: "/")
                    let inTree = parts.count >= 2 && parts[parts.count - 2].hasSuffix(".lproj")
                    return !inTree && !relative.hasSuffix(".strings") && !relative.hasSuffix(".stringsdict")
                        && catalogCodecs.contains { $0.format.extensionMatch(relative) > 0 }
                }.sorted()
                for relative in others {
                    let file = path.hasSuffix("/") ? path + relative : path + "/" + relative
                    if let table = self.file(file, registry: registry, context: context, found: true) { add(table) }
                }
            } else if let table = file(path, registry: registry, context: context, found: false) {
                add(table)
            }
        }
        return tables
    }

    /// A catalog file read through the registry. A file found in a folder that is not a catalog
    /// (an XML file of another kind) is left out; one given by name is an error.
    static func file(_ path: String, registry: FormatRegistry, context: CodecContext, found: Bool) -> AuditTable? {
        let name = StringsCodec.table(ofPath: path) ?? path
        do throws(Diagnostic) {
            let (codec, input) = try registry.open(.file(path), codec: nil)
            guard codec.format.model == .catalog else {
                if found { return nil }
                return AuditTable(name: name, catalog: Catalog(), files: [path],
                                  diagnostics: [.error("audit.not-a-catalog", codec.format.name, at: SourceLocation(file: path))])
            }
            let decoded = try codec.decode(input, context: context)
            guard case .catalog(let catalog) = decoded.document else { return AuditTable(name: name, catalog: Catalog(), files: [path]) }
            return AuditTable(name: name, catalog: catalog, files: [path], diagnostics: decoded.diagnostics.map { $0.inFile(path) })
        } catch {
            if found && error.code == "format.undetected" { return nil }
            return AuditTable(name: name, catalog: Catalog(), files: [path], diagnostics: [error.inFile(path)])
        }
    }
}

/// Checks catalogs the way a localization lead would before a release: what is missing, what
/// would crash or read wrong, and what does not read as the locale's own language.
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

        public init() {}
    }

    public let options: Options
    let purity: ScriptPurity
    let vocabulary: MainlandVocabulary
    var pluralCategories: [String: Set<PluralCategory>] = [:]
    var localeNames: [String: AuditLocale] = [:]

    public init(options: Options = Options()) throws(Diagnostic) {
        self.options = options
        do { purity = try ScriptPurity() } catch { throw Diagnostic.error("catalog.no-transliterator", "\(error)") }
        vocabulary = MainlandVocabulary(allowing: options.allowVocabulary)
    }

    public func audit(_ tables: [AuditTable]) -> AuditReport {
        var findings: [Finding] = []
        var coverage: [AuditReport.Coverage] = []
        for table in tables {
            findings += readingFindings(table)
            let (tableFindings, tableCoverage) = audit(table)
            findings += tableFindings
            coverage += tableCoverage
        }
        findings += localeNameFindings(tables)
        if let used = options.usedKeys {
            findings += sourceFindings(tables, used: used)
        }
        return AuditReport(base: options.base, findings: findings, coverage: coverage, baselined: 0,
                           files: tables.flatMap(\.files))
    }

    /// Duplicate keys and unreadable files, from reading.
    func readingFindings(_ table: AuditTable) -> [Finding] {
        table.diagnostics.compactMap { diagnostic in
            switch diagnostic.code {
            case "catalog.duplicate-key-same":
                // The same text twice: Apple keeps the last, and it reads the same; worth tidying.
                return Finding(check: "duplicate-identical", severity: .warning, table: table.name, key: diagnostic.message.arguments.first ?? "",
                               locale: diagnostic.location?.file.flatMap(StringsCodec.locale(ofPath:)), location: diagnostic.location,
                               arguments: Array(diagnostic.message.arguments))
            case "catalog.duplicate-key":
                return Finding(check: "duplicate-key", severity: .error, table: table.name, key: diagnostic.message.arguments.first ?? "",
                               locale: diagnostic.location?.file.flatMap(StringsCodec.locale(ofPath:)), location: diagnostic.location,
                               arguments: Array(diagnostic.message.arguments))
            case _ where diagnostic.severity == .error:
                return Finding(check: "unreadable", severity: .error, table: table.name, key: "", location: diagnostic.location,
                               arguments: [diagnostic.message.rendered()])
            default:
                return nil
            }
        }
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

    func audit(_ table: AuditTable) -> ([Finding], [AuditReport.Coverage]) {
        let catalog = table.catalog
        let base = options.base
        // `--locales zh-Hant` selects a `zh_TW.lproj` folder too: names match as ICU reads them.
        // A locale asked for that the catalog lacks is still checked: every key is missing there.
        let locales = options.locales.map { wanted in
            wanted.flatMap { name -> [String] in
                if catalog.locales.contains(name) { return [name] }
                let matches = catalog.locales.filter { locale($0).resolved == locale(name).resolved }
                return matches.isEmpty ? [name] : matches
            }
        } ?? catalog.locales
        let checked = Set(locales).union([base]).sorted()
        var findings: [Finding] = []
        var translated: [String: Int] = [:]
        var baseKeys = 0
        // Keys that are the source text (SwiftUI's Text("Move Screen")): the base table is empty,
        // absent or `"" = "";`, and every other locale has the key. The base's value is then the
        // key itself; `extra-key` stays for keys only some locales have.
        let others = locales.filter { $0 != base }
        var sourceTextKeys = 0
        func isSourceText(_ entry: CatalogEntry) -> Bool {
            entry.translations[base] == nil && !entry.key.isEmpty && !others.isEmpty && others.allSatisfy { entry.translations[$0] != nil }
        }
        for entry in catalog.entries where entry.shouldTranslate != false {
            // `"" = "";`, which Xcode leaves in a table of source-text keys, is no entry.
            if entry.key.isEmpty && entry.translations.values.allSatisfy({ $0.texts.allSatisfy { $0.text.isEmpty } }) { continue }
            let keyIsText = isSourceText(entry)
            if keyIsText { sourceTextKeys += 1 }
            let baseTranslation = keyIsText ? Translation(value: entry.key) : entry.translations[base]
            func finding(_ check: String, _ severity: Diagnostic.Severity, locale: String, variant: String = "", _ arguments: [String] = [],
                         value: String? = nil, baseValue: String? = nil) -> Finding {
                Finding(check: check, severity: severity, table: table.name, key: entry.key, locale: locale, variant: variant,
                        location: entry.translations[locale]?.presentation.origin ?? baseTranslation?.presentation.origin,
                        arguments: [entry.key] + arguments, value: value, base: baseValue)
            }
            guard baseTranslation != nil else {
                // A key the base does not have.
                for locale in locales where entry.translations[locale] != nil {
                    findings.append(finding("extra-key", .warning, locale: locale, [locale, base]))
                }
                continue
            }
            baseKeys += 1
            for locale in checked {
                if locale == base && keyIsText {
                    // The source text is the base's value; it has no file of its own to check.
                    translated[locale, default: 0] += 1
                    continue
                }
                guard let translation = entry.translations[locale] else {
                    if locale != base { findings.append(finding("missing-key", .error, locale: locale, [locale])) }
                    continue
                }
                translated[locale, default: 0] += 1
                check(entry, translation, locale: locale, base: locale == base ? nil : baseTranslation) { check, severity, variant, arguments, value, baseValue in
                    findings.append(finding(check, severity, locale: locale, variant: variant, arguments, value: value, baseValue: baseValue))
                }
            }
        }
        if sourceTextKeys > 0 {
            findings.append(Finding(check: "source-text-keys", severity: .note, table: table.name, key: "", locale: base,
                                    location: table.files.first.map { SourceLocation(file: $0) },
                                    arguments: [table.name, String(sourceTextKeys), base]))
        }
        let coverage = checked.map { locale in
            AuditReport.Coverage(table: table.name, locale: locale, keys: baseKeys, translated: translated[locale] ?? 0,
                                 errors: findings.filter { $0.locale == locale && $0.severity == .error }.count,
                                 warnings: findings.filter { $0.locale == locale && $0.severity == .warning }.count)
        }
        return (findings, coverage)
    }

    func check(_ entry: CatalogEntry, _ translation: Translation, locale: String, base: Translation?,
               add: (String, Diagnostic.Severity, String, [String], String?, String?) -> Void) {
        let isBase = base == nil
        let texts = translation.texts
        if texts.isEmpty || texts.allSatisfy({ $0.text.isEmpty }) {
            add("empty-value", .warning, "", [locale], nil, nil)
            return
        }
        let baseTexts = base?.texts ?? []
        func lookup(_ path: String) -> String? { baseTexts.first { $0.path == path }?.text }
        func baseText(for path: String) -> String? {
            if let exact = lookup(path) { return exact }
            // Plural forms compare with the base's `other` form of the same variable; a plain
            // value with the base's plural `other`.
            let parent = path.split(separator: ".").dropLast().joined(separator: ".")
            return lookup(parent.isEmpty ? "plural.other" : parent + ".other") ?? lookup("plural.other") ?? lookup("")
        }
        let traits = self.locale(locale), baseTraits = self.locale(options.base)
        let chinese = traits.isChinese
        let sameLanguage = traits.languageForComparison == baseTraits.languageForComparison
        let baseIsChinese = baseTraits.isChinese
        /// The base's app tokens at `path` (`%0`, `{name}`): a `%0` counts when some translation
        /// repeats it (else it is a stray percent of the base's own).
        func baseTokens(_ path: String, baseValue: String?) -> [String] {
            guard let baseValue else { return [] }
            return AppTokens.find(in: baseValue).tokens.filter { token in
                !token.hasPrefix("%") || entry.translations.contains { other in
                    other.key != options.base && other.value.texts.contains { $0.path == path && AppTokens.find(in: $0.text).tokens.contains(token) }
                }
            }
        }
        for (path, text) in texts {
            let list = PlaceholderList(text)
            let reference = isBase ? text : baseText(for: path)
            let expectedTokens = baseTokens(path, baseValue: reference)
            let found = AppTokens.find(in: text)
            // A `%0` the base has and a translation repeats is the app's placeholder, not a stray.
            let appPercents = Set(zip(found.tokens.filter { $0.hasPrefix("%") }, found.percentOffsets)
                .filter { expectedTokens.contains($0.0) }.map(\.1))
            if list.stray.contains(where: { !appPercents.contains($0) }) { add("stray-percent", .error, path, [locale], text, nil) }
            if !isBase, let reference {
                let foundTokens = found.tokens.filter { !$0.hasPrefix("%") || expectedTokens.contains($0) }
                if foundTokens.sorted() != expectedTokens.sorted() {
                    add("app-token-mismatch", .error, path, [locale, Self.listed(expectedTokens), Self.listed(foundTokens)], text, reference)
                }
            }
            if list.mixesPositional { add("mixed-positional", .error, path, [locale], text, nil) }
            for position in list.conflicts { add("placeholder-conflict", .error, path, [locale, String(position)], text, nil) }
            if !isBase, let reference {
                let expected = PlaceholderList(reference)
                if Self.signature(list, substitutions: translation.substitutions) != Self.signature(expected, substitutions: base?.substitutions) {
                    add("placeholder-mismatch", .error, path, [locale, Self.describe(expected), Self.describe(list)], text, reference)
                }
                if reference == text, !baseIsChinese || !chinese, !sameLanguage, Self.hasLetters(text),
                   !options.allowUntranslated.contains(text) {
                    add("untranslated", .warning, path, [locale], text, reference)
                }
                if Self.edgeSpace(reference) != Self.edgeSpace(text) { add("whitespace-mismatch", .warning, path, [locale], text, reference) }
                if reference.utf8.filter({ $0 == 0x0A }).count != text.utf8.filter({ $0 == 0x0A }).count {
                    add("newline-mismatch", .warning, path, [locale], text, reference)
                }
            }
            if Self.has(text, "...") { add("ellipsis", .warning, path, [locale], text, nil) }
            if chinese {
                self.chinese(text, path: path, locale: locale, traits: traits, add: add)
            }
        }
        plurals(translation, locale: locale, add: add)
    }

    func chinese(_ text: String, path: String, locale: String, traits: AuditLocale,
                 add: (String, Diagnostic.Severity, String, [String], String?, String?) -> Void) {
        if traits.isTraditional {
            let characters = purity.simplifiedCharacters(in: text)
            if !characters.isEmpty { add("simplified-in-hant", .error, path, [locale, characters], text, nil) }
            else if traits.isTaiwan {
                for (word, taiwan) in vocabulary.find(in: text) { add("mainland-vocabulary", .warning, path, [locale, word, taiwan], text, nil) }
            }
            if Self.has(text, "“") || Self.has(text, "”") || Self.has(text, "‘") || Self.has(text, "’") {
                add("quote-style", .warning, path, [locale, "「」"], text, nil)
            }
        } else {
            let characters = purity.traditionalCharacters(in: text)
            if !characters.isEmpty { add("traditional-in-hans", .error, path, [locale, characters], text, nil) }
            if Self.has(text, "「") || Self.has(text, "」") { add("quote-style", .warning, path, [locale, "“”"], text, nil) }
        }
        if let mark = Self.halfWidthPunctuation(in: text) { add("halfwidth-punctuation", .warning, path, [locale, mark], text, nil) }
    }

    func plurals(_ translation: Translation, locale: String, add: (String, Diagnostic.Severity, String, [String], String?, String?) -> Void) {
        var groups: [(String, [PluralCategory: String])] = []
        if let plural = translation.plural { groups.append(("plural", plural)) }
        for (name, substitution) in (translation.substitutions ?? [:]).sorted(by: { $0.key < $1.key }) {
            groups.append(("substitution.\(name)", substitution.plural))
        }
        let needed = categories(locale)
        for (path, forms) in groups {
            let present = Set(forms.keys)
            if !present.contains(.other) { add("plural-missing-other", .error, path, [locale], nil, nil) }
            let missing = needed.subtracting(present).subtracting([.other])
            if !missing.isEmpty {
                add("plural-missing-category", .error, path, [locale, missing.sorted().map(\.rawValue).joined(separator: ", ")], nil, nil)
            }
            // zero, one and two are also read for exact numbers in Apple's rules; others are unused.
            let unused = present.subtracting(needed).subtracting([.zero, .one, .two, .other])
            if !unused.isEmpty {
                add("plural-unused-category", .warning, path, [locale, unused.sorted().map(\.rawValue).joined(separator: ", ")], nil, nil)
            }
        }
        if let value = translation.value, let substitutions = translation.substitutions {
            for variable in PlaceholderList(value).variables where substitutions[variable] == nil {
                add("plural-undefined-variable", .error, "", [locale, variable], value, nil)
            }
        }
    }

    /// One note for each locale name read through ICU's likely subtags (`zh_TW` as zh-Hant-TW),
    /// so that a reader sees which checks its folder got; at the first file of that locale.
    func localeNameFindings(_ tables: [AuditTable]) -> [Finding] {
        var seen: Set<String> = []
        var findings: [Finding] = []
        for table in tables {
            for name in table.catalog.locales where !seen.contains(name) && locale(name).isReadByLikelySubtags {
                seen.insert(name)
                let file = table.files.first { StringsCodec.locale(ofPath: $0) == name }
                findings.append(Finding(check: "locale-name", severity: .note, table: table.name, key: "", locale: name,
                                        location: file.map { SourceLocation(file: $0) }, arguments: [name, locale(name).resolved]))
            }
        }
        return findings
    }

    // MARK: Pieces

    /// Arguments by position with their types; a plural variable counts as the type its forms use.
    static func signature(_ list: PlaceholderList, substitutions: [String: Substitution]?) -> [Int: Placeholder.ArgumentType] {
        var result = list.arguments
        var next = 1
        for placeholder in list.placeholders {
            let position = placeholder.position ?? next
            next = position + 1
            if placeholder.type == .pluralVariable { result[position] = .integer }
        }
        return result
    }

    static func listed(_ tokens: [String]) -> String { tokens.isEmpty ? "—" : tokens.joined(separator: " ") }

    static func describe(_ list: PlaceholderList) -> String {
        list.placeholders.isEmpty ? "—" : list.placeholders.map(\.text).joined(separator: " ")
    }

    static func hasLetters(_ text: String) -> Bool {
        let stripped = PlaceholderList(text).placeholders.reduce(text) { $0.replacingOccurrences(of: $1.text, with: "") }
        return stripped.unicodeScalars.contains { $0.properties.isAlphabetic }
    }

    static func edgeSpace(_ text: String) -> (Bool, Bool) {
        (text.first.map { $0 == " " || $0 == "\t" } ?? false, text.last.map { $0 == " " || $0 == "\t" } ?? false)
    }

    /// Whether `text` holds `part`, by bytes (String.contains(String) goes through Foundation).
    static func has(_ text: String, _ part: StaticString) -> Bool {
        let needle = UnsafeBufferPointer(start: part.utf8Start, count: part.utf8CodeUnitCount)
        var text = text
        return text.withUTF8 { haystack in
            guard haystack.count >= needle.count, let first = needle.first else { return false }
            var index = 0
            while index + needle.count <= haystack.count {
                if haystack[index] == first, (1..<needle.count).allSatisfy({ haystack[index + $0] == needle[$0] }) { return true }
                index += 1
            }
            return false
        }
    }

    static func isCJK(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        switch scalar.value {
        case 0x3000...0x303F, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF00...0xFF60: return true
        default: return false
        }
    }

    /// A half-width `, . : ; ? !` right after Chinese text (and not inside a number or a name
    /// like `iOS 18.1`), which should be full-width in Chinese.
    static func halfWidthPunctuation(in text: String) -> String? {
        // Most values have none of , . : ; ? ! at all.
        guard text.utf8.contains(where: { $0 == 0x2C || $0 == 0x2E || $0 == 0x3A || $0 == 0x3B || $0 == 0x3F || $0 == 0x21 }) else { return nil }
        let characters = Array(text)
        for (index, character) in characters.enumerated() where ",.:;?!".contains(character) {
            guard index > 0, isCJK(characters[index - 1]) else { continue }
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            if let next, next.isNumber || next.isLetter && next.isASCII { continue }
            if character == "." && index + 2 < characters.count && characters[index + 1] == "." { continue }  // "..." has its own check
            return String(character)
        }
        return nil
    }

    // MARK: Sources

    func sourceFindings(_ tables: [AuditTable], used: [String: SourceLocation]) -> [Finding] {
        var known: [String: String] = [:]
        for table in tables { for entry in table.catalog.entries where known[entry.key] == nil { known[entry.key] = table.name } }
        var findings: [Finding] = []
        for (key, location) in used.sorted(by: { $0.key < $1.key }) where known[key] == nil {
            findings.append(Finding(check: "missing-in-catalog", severity: .error, table: "", key: key, location: location, arguments: [key]))
        }
        for table in tables {
            for entry in table.catalog.entries where used[entry.key] == nil {
                findings.append(Finding(check: "unused-key", severity: .warning, table: table.name, key: entry.key,
                                        location: entry.translations[options.base]?.presentation.origin ?? entry.translations.values.first?.presentation.origin,
                                        arguments: [entry.key]))
            }
        }
        return findings
    }
}
