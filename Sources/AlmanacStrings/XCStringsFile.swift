/// Xcode's string catalogs (`.xcstrings`, JSON) read into the catalog model: every locale, plural
/// and device variations, substitutions, states, comments and extraction states; members Almanac
/// does not model are kept as text for writing back. Needs no system library (the accessor
/// generator reads catalogs with it); the XCStringsCodec (AlmanacCatalogs) writes them.
public enum XCStringsFile {
    /// The catalog of an `.xcstrings` file (every locale it has).
    public static func catalog(_ bytes: [UInt8], fileName file: String?, diagnostics: inout [Diagnostic]) throws(Diagnostic) -> Catalog {
        let json = try JSONValue(parsing: bytes, fileName: file)
        guard let top = json.object else { throw Diagnostic.error(.xcstringsNotCatalog, at: SourceLocation(file: file, line: 1)) }
        let lines = Self.keyLines(bytes)
        var catalog = Catalog(sourceLanguage: Self.member(top, "sourceLanguage")?.string ?? "en")
        // Locales become folder names (`zh-Hant.lproj`): each is checked where it is read.
        try LanguageTag.check(catalog.sourceLanguage, at: SourceLocation(file: file, line: Self.line(of: catalog.sourceLanguage, in: bytes, from: 1),
                                                                        keyPath: "sourceLanguage"))
        catalog.presentation[TableSource.self] = TableSource(table: CatalogPath.table(ofPath: file))
        catalog.stringCatalogVersion = Self.member(top, "version")?.string
        catalog.presentation[CatalogLayout.self] = CatalogLayout(version: catalog.stringCatalogVersion,
                                                                 escapesSlash: String(decoding: bytes, as: UTF8.self).contains("\\/"))
        var wellFormed: Set<String> = [catalog.sourceLanguage]
        for (key, value) in Self.member(top, "strings")?.object ?? [] {
            let location = SourceLocation(file: file, line: lines[key], keyPath: key)
            guard let members = value.object else {
                throw Diagnostic.error(.xcstringsBadEntry(key: key), at: location)
            }
            var entry = CatalogEntry(key: key)
            var extra: [(String, JSONValue)] = []
            for (name, member) in members {
                switch name {
                case "comment": entry.comment = member.string
                case "extractionState": entry.extractionState = member.string
                case "shouldTranslate": if case .bool(let flag) = member { entry.shouldTranslate = flag }
                case "localizations":
                    for (locale, localization) in member.object ?? [] {
                        if !wellFormed.contains(locale) {
                            try LanguageTag.check(locale, at: SourceLocation(file: file, line: Self.line(of: locale, in: bytes, from: lines[key] ?? 1),
                                                                             keyPath: key))
                            wellFormed.insert(locale)
                        }
                        var translation = try Self.translation(localization, key: key, locale: locale, location: location,
                                                               diagnostics: &diagnostics)
                        translation.presentation.origin = location
                        entry.translations[locale] = translation
                    }
                default: extra.append((name, member))
                }
            }
            if !extra.isEmpty { entry.presentation[EntryLayout.self] = EntryLayout(extra: JSONValue.object(extra).serialized()) }
            catalog.entries.append(entry)
        }
        keepLayout(of: bytes, in: &catalog)
        return catalog
    }

    /// Records the file's layout in the catalog's presentation, for writing it back as it was: the
    /// text around the entries, each entry's text with a fingerprint of what it holds (an entry
    /// still holding that is written as its text), and the style of the first entry (for entries
    /// written anew).
    static func keepLayout(of bytes: [UInt8], in catalog: inout Catalog) {
        guard let layout = XCStringsLayout(bytes), layout.entries.count == catalog.entries.count else { return }
        catalog.presentation[CatalogLayout.self, default: CatalogLayout()].text = TextLayout(
            head: layout.head, lead: layout.lead, trail: layout.trail, tail: layout.tail, sourceLanguage: catalog.sourceLanguage,
            separator: layout.entries.count > 1 ? layout.entries[1].before : nil, style: layout.style)
        for index in catalog.entries.indices {
            var entry = catalog.entries[index].presentation[EntryLayout.self, default: EntryLayout()]
            entry.text = layout.entries[index].text
            entry.before = layout.entries[index].before
            entry.fingerprint = catalog.entries[index].hashValue
            catalog.entries[index].presentation[EntryLayout.self] = entry
        }
    }

    public static func member(_ members: [(String, JSONValue)], _ name: String) -> JSONValue? {
        members.first { $0.0 == name }?.1
    }

    /// The line of each key of `strings` (Xcode writes them four spaces in).
    public static func keyLines(_ bytes: [UInt8]) -> [String: Int] {
        var result: [String: Int] = [:]
        var line = 1
        var start = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == ASCII.lineFeed {
            let text = bytes[start..<index]
            if text.count > 6, text.starts(with: [ASCII.space, ASCII.space, ASCII.space, ASCII.space, ASCII.quote]),
               let key = try? JSONValue(parsing: Array(text.dropFirst(4).prefix { $0 != ASCII.lineFeed }.split(separator: ASCII.colon, maxSplits: 1)[0]
                   .reversed().drop { $0 == ASCII.space }.reversed())).string {
                if result[key] == nil { result[key] = line }
            }
            line += 1
            start = index + 1
        }
        return result
    }

    /// The line where `text` is first written as a JSON string at or after line `start` (where
    /// an error about it points), or `start` when it is written otherwise (with escapes).
    static func line(of text: String, in bytes: [UInt8], from start: Int) -> Int {
        var quoted: [UInt8] = []
        JSONValue.quote(text, into: &quoted)
        var line = 1
        var index = 0
        while line < start, let newline = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) {
            index = newline + 1
            line += 1
        }
        guard let found = bytes[index...].firstRange(of: quoted) else { return start }
        return line + bytes[index..<found.lowerBound].count { $0 == UInt8(ascii: "\n") }
    }

    /// How a string catalog was written, kept on its catalog for writing it back as it was.
    package struct CatalogLayout: PresentationLayout {
        /// The file's `version`: a catalog read from a string catalog keeps its entries' order.
        package var version: String?
        /// The file writes `/` as `\/`.
        package var escapesSlash = false
        /// The text around its entries and their style, when the file could be laid out so.
        package var text: TextLayout?

        package init(version: String? = nil, escapesSlash: Bool = false, text: TextLayout? = nil) {
            self.version = version
            self.escapesSlash = escapesSlash
            self.text = text
        }
    }

    /// The text around a string catalog's entries (see `XCStringsLayout`) and the style of its first
    /// entry, for entries written anew.
    package struct TextLayout: Hashable, Sendable {
        package var head: String
        package var lead: String
        package var trail: String
        package var tail: String
        /// The source language the file was read with (a catalog that changed it is written anew).
        package var sourceLanguage: String
        /// What stands between the first entry and the second; nil for a file of one entry.
        package var separator: String?
        package var style: XCStringsStyle
    }

    /// How one entry was written, kept on it.
    package struct EntryLayout: PresentationLayout {
        /// The entry's members the model does not hold, as JSON.
        package var extra: String?
        /// The entry as written, what stood before it, and a fingerprint of what it held then: an
        /// entry that still holds that is written as its text.
        package var text: String?
        package var before: String?
        package var fingerprint: Int?

        package init(extra: String? = nil, text: String? = nil, before: String? = nil, fingerprint: Int? = nil) {
            self.extra = extra
            self.text = text
            self.before = before
            self.fingerprint = fingerprint
        }
    }

    /// A localization's members the catalog model does not hold (an App Shortcut's `stringSet`),
    /// as JSON, kept on its translation: written back, and telling that the translation is not empty.
    public struct UnmodeledMembers: PresentationLayout {
        public var json: String

        public init(json: String) { self.json = json }
    }

    public static func state(_ unit: JSONValue?) -> Translation.State? {
        guard let unit, let members = unit.object, let text = member(members, "state")?.string else { return nil }
        return Translation.State(rawValue: text)
    }

    public static func unitValue(_ holder: [(String, JSONValue)]) -> (String?, Translation.State?) {
        guard let unit = member(holder, "stringUnit")?.object else { return (nil, nil) }
        return (member(unit, "value")?.string, state(.object(unit)))
    }

    /// The plural forms of `variations`, each form's state added to `states` by its path
    /// (`prefix` + the category).
    public static func plural(_ variations: [(String, JSONValue)]?, prefix: String = "plural.",
                              states: inout [(path: String, state: Translation.State)]) -> [PluralCategory: String]? {
        guard let forms = variations.flatMap({ member($0, "plural")?.object }) else { return nil }
        var result: [PluralCategory: String] = [:]
        for (name, form) in forms {
            guard let category = PluralCategory(rawValue: name), let holder = form.object else { continue }
            let (value, state) = unitValue(holder)
            if let value { result[category] = value }
            if let state { states.append((prefix + name, state)) }
        }
        return result
    }

    public static func translation(_ json: JSONValue, key: String, locale: String, location: SourceLocation,
                            diagnostics: inout [Diagnostic]) throws(Diagnostic) -> Translation {
        guard let members = json.object else { throw Diagnostic.error(.xcstringsBadEntry(key: key), at: location) }
        var translation = Translation()
        var states: [(path: String, state: Translation.State)] = []
        let (value, state) = unitValue(members)
        translation.value = value
        if let state { states.append(("", state)) }
        let variations = member(members, "variations")?.object
        translation.plural = plural(variations, states: &states)
        // A device variant is a translation with its own state (and its forms' states).
        var deviceStates: [Translation.State] = []
        if let devices = variations.flatMap({ member($0, "device")?.object }) {
            var result: [String: Translation] = [:]
            for (device, variant) in devices {
                result[device] = try self.translation(variant, key: key, locale: locale, location: location, diagnostics: &diagnostics)
                if let state = result[device]?.state { deviceStates.append(state) }
            }
            translation.devices = result
        }
        if let substitutions = member(members, "substitutions")?.object {
            var result: [String: Substitution] = [:]
            for (name, substitution) in substitutions {
                guard let parts = substitution.object else { continue }
                var argument: Int?
                if case .integer(let number)? = member(parts, "argNum") { argument = number }
                let forms = plural(member(parts, "variations")?.object, prefix: "substitution.\(name).", states: &states) ?? [:]
                result[name] = Substitution(argument: argument, formatSpecifier: member(parts, "formatSpecifier")?.string ?? "lld", plural: forms)
            }
            translation.substitutions = result
        }
        // One state for the translation: the least advanced of its units; the units that differ
        // from it keep their own.
        translation.state = (states.map(\.state) + deviceStates).reduce(nil) { least, state in
            least.map { Translation.State.leastAdvanced($0, state) } ?? state
        }
        let differing = states.filter { $0.state != translation.state }
        if !differing.isEmpty { translation.textStates = Dictionary(differing, uniquingKeysWith: { first, _ in first }) }
        // What the model does not hold (an App Shortcut's `stringSet` of phrases) is kept as text, to
        // be written back and to tell that the translation is not empty.
        let unmodeled = members.filter { !["stringUnit", "variations", "substitutions"].contains($0.0) }
        if !unmodeled.isEmpty { translation.presentation[UnmodeledMembers.self] = UnmodeledMembers(json: JSONValue.object(unmodeled).serialized()) }
        return translation
    }
}
