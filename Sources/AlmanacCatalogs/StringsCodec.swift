public import AlmanacCore

/// `.strings` files: one locale of one table. The locale comes from the folder (`zh-Hans.lproj`),
/// else the `locale` option, else `--locale`, else the source language.
public struct StringsCodec: Codec {
    public init() {}

    /// Built once: registries ask every codec for it on every file.
    public var format: FormatDescription { Self.formatDescription }
    static let formatDescription = StringsCodec().makeFormat()

    func makeFormat() -> FormatDescription {
        FormatDescription(
            id: "strings",
            name: "Apple strings file",
            summary: "Localizable.strings: \"key\" = \"value\"; with comments, in UTF-8 or UTF-16 (with or without a byte order mark); compiled ones (binary property lists, as in a built app) and XML property lists are read too and written as text.",
            aliases: ["apple-strings", "localizable-strings"],
            extensions: [".strings"],
            mediaTypes: ["text/x-apple-strings"],
            model: .catalog,
            options: [
                .init(name: "locale", summary: "The locale of the file (default: from its .lproj folder)."),
                .init(name: "source-language", summary: "The language the keys are written in.", defaultValue: "en"),
                .init(name: "encoding", summary: "The encoding to write (default: as read, else UTF-8; a compiled file is written as UTF-8 text); binary writes a compiled table, as Xcode puts in a bundle.",
                      values: StringsFile.TextEncoding.allCases.map(\.rawValue) + [Self.binary]),
                .init(name: "layout", summary: "Keep the file's layout to write it back unchanged; no reads faster and leaner.",
                      values: ["yes", "no"], defaultValue: "yes"),
            ],
            examples: [
                .init(summary: "Two entries of 知习's catalog",
                      input: "/* 首页标题 */\n\"home.title\" = \"今天学什么？\";\n\n/* %d: 天数 */\n\"streak.days\" = \"已连续学习 %d 天\";\n"),
            ])
    }

    public func identify(_ probe: Probe) -> Identification {
        if StringsFile.isBinaryPropertyList(probe.prefix) || StringsFile.isXMLPropertyList(Array(probe.prefix)) {
            // A .stringsdict is a property list too: the name tells them apart.
            return probe.fileName?.lowercased().hasSuffix(".strings") == true ? .yes : .cannotTell
        }
        guard let text = try? StringsFile.text(probe.prefix, fileName: nil).0 else { return .cannotTell }
        let trimmed = text.drop { $0.isWhitespace }
        // A `.strings` file may hold its entries in braces (an old-style property list dictionary):
        // the name decides there; elsewhere a brace is JSON's.
        if trimmed.hasPrefix("{") { return probe.fileName?.lowercased().hasSuffix(".strings") == true ? .cannotTell : .no }
        if trimmed.hasPrefix("<") || trimmed.hasPrefix("[") { return .no }
        // An entry near the start: "key" = "value";
        let start = String(trimmed.prefix(2048))
        if start.contains("\" = \"") || start.contains("\"=\"") {
            return start.hasPrefix("\"") || start.hasPrefix("/*") || start.hasPrefix("//") ? .yes : .cannotTell
        }
        return .cannotTell
    }

    /// The locale a file holds. The folder says (`zh-Hans.lproj`; `Base.lproj` is the source
    /// language's); the options are for files
    /// outside one (and for choosing what to write). A folder's name is checked like any locale
    /// read from an input: it becomes a folder name again when the catalog is written as a tree.
    static func locale(for input: CodecInput, context: CodecContext) throws(Diagnostic) -> String {
        // Base.lproj holds the development language's text, whatever locale is asked for.
        if CatalogPath.isBase(input.fileName) { return context.options["source-language"] ?? "en" }
        let locale = CatalogPath.locale(ofPath: input.fileName) ?? context.options["locale"]
            ?? context.locale.map { CatalogLocales.catalogName($0.bcp47, among: []) } ?? context.options["source-language"] ?? "en"
        try LanguageTag.check(locale, at: SourceLocation(file: input.fileName))
        return locale
    }

    public func decode(_ input: CodecInput, context: CodecContext) throws(Diagnostic) -> Decoded {
        let bytes = try input.readAll()
        if StringsFile.isBinaryPropertyList(bytes) {
            let parsed = try StringsFile.parseBinary(bytes, fileName: input.fileName)
            let catalog = StringsFile.catalog(parsed, locale: try Self.locale(for: input, context: context),
                                              sourceLanguage: context.options["source-language"] ?? "en", fileName: input.fileName, keepLayout: false)
            return Decoded(document: .catalog(catalog), diagnostics: parsed.diagnostics, encoding: Self.binaryDescription)
        }
        if StringsFile.isXMLPropertyList(bytes) {
            let parsed = try StringsFile.parseXMLPropertyList(bytes, fileName: input.fileName)
            let catalog = StringsFile.catalog(parsed, locale: try Self.locale(for: input, context: context),
                                              sourceLanguage: context.options["source-language"] ?? "en", fileName: input.fileName, keepLayout: false)
            return Decoded(document: .catalog(catalog), diagnostics: parsed.diagnostics, encoding: Self.xmlDescription)
        }
        let (text, encoding) = try StringsFile.text(bytes, fileName: input.fileName, declared: context.encoding)
        let keepLayout = context.options["layout"] != "no"
        var parsed = try StringsFile.parse(text, fileName: input.fileName, keepLayout: keepLayout)
        parsed.encoding = encoding
        var catalog = StringsFile.catalog(parsed, locale: try Self.locale(for: input, context: context),
                                          sourceLanguage: context.options["source-language"] ?? "en", fileName: input.fileName, keepLayout: keepLayout)
        catalog.presentation[StringsFile.CatalogLayout.self, default: .init()].encoding = encoding.rawValue
        // A file whose lines end in CRLF (written on Windows, or by a tool that does): what is
        // written into it (a draft, a new entry) ends its lines so too.
        if keepLayout, Self.endsLinesWithCRLF(text) { catalog.presentation[StringsFile.CatalogLayout.self, default: .init()].newline = "\r\n" }
        return Decoded(document: .catalog(catalog), diagnostics: parsed.diagnostics,
                       encoding: encoding.form.rawValue + (encoding.hasBOM ? " with BOM" : ""))
    }

    /// The file read straight into a store, as `decode` with `layout=no` reads it (the same
    /// entries, diagnostics and table layout) without a catalog in between: what an audit of a
    /// large table reads. A UTF-8 file is parsed from its bytes, not copied into a string first.
    public func decodeStore(_ input: CodecInput, context: CodecContext) throws(Diagnostic) -> (store: CatalogStore, diagnostics: [Diagnostic]) {
        let bytes = try input.readAll()
        let sourceLanguage = context.options["source-language"] ?? "en"
        if StringsFile.isBinaryPropertyList(bytes) || StringsFile.isXMLPropertyList(bytes) {
            var layoutless = context
            layoutless.options["layout"] = "no"
            let decoded = try decode(CodecInput(bytes: bytes, fileName: input.fileName), context: layoutless)
            guard case .catalog(let catalog) = decoded.document else { return (CatalogStore(sourceLanguage: sourceLanguage), decoded.diagnostics) }
            return (CatalogStore(catalog), decoded.diagnostics)
        }
        let encoding: StringsFile.TextEncoding
        let utf8: [UInt8]
        // UTF-8 without a byte order mark, as `StringsFile.text` tells it, valid to the end, is
        // parsed as it is; anything else is decoded first (which also says what is wrong).
        if context.encoding == nil, (try? StringsFile.encoding(of: bytes, fileName: input.fileName)) == .utf8,
           UTF8Validation.firstInvalidOffset(bytes) == nil {
            (encoding, utf8) = (.utf8, bytes)
        } else {
            let (text, found) = try StringsFile.text(bytes, fileName: input.fileName, declared: context.encoding)
            (encoding, utf8) = (found, Array(text.utf8))
        }
        var read = try StringsFile.store(utf8: utf8, locale: try Self.locale(for: input, context: context),
                                         sourceLanguage: sourceLanguage, fileName: input.fileName)
        read.store.presentation[StringsFile.CatalogLayout.self, default: .init()].encoding = encoding.rawValue
        return read
    }

    /// Whether the text's first line ends in CRLF.
    static func endsLinesWithCRLF(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == ASCII.lineFeed { return previous == ASCII.carriageReturn }
            previous = byte
        }
        return false
    }

    public func encode(_ document: Document, context: CodecContext) throws(Diagnostic) -> Encoded {
        guard case .catalog(let read) = document else {
            throw Diagnostic.error(.convertModelMismatch(model: document.kind.rawValue, format: format.id, expected: ModelKind.catalog.rawValue))
        }
        let catalog = read.withSourceText()
        let locale = try Self.writtenLocale(catalog, context: context, format: format.id)
        var diagnostics = Self.localesLeftOut(catalog, written: locale, context: context, format: format.id)
        if context.options["encoding"]?.lowercased() == Self.binary {
            let encoded = try binary(catalog, locale: locale)
            return Encoded(bytes: encoded.bytes, diagnostics: diagnostics + encoded.diagnostics)
        }
        let layout = catalog.presentation[StringsFile.CatalogLayout.self]
        // A braced file's `{` and what is before it.
        var text = layout?.leader ?? ""
        var first = true
        // Duplicate lines read from the file are written back where they were, with the key's
        // value now (a key since removed loses them).
        var values: [String: String]?
        var losses = Losses()
        func duplicates(_ json: String?) -> String {
            guard let json, let list = try? JSONValue(parsing: Array(json.utf8)).array else { return "" }
            if values == nil {
                values = Dictionary(catalog.entries.compactMap { entry in entry.translations[locale]?.value.map { (entry.key, $0) } }) { a, _ in a }
            }
            return list.compactMap { item -> String? in
                guard let fields = item.array?.compactMap(\.string), fields.count == 4, let now = values?[fields[0]] else { return nil }
                return fields[2] + (now == fields[1] ? fields[3] : StringsFile.entryText(key: fields[0], value: now))
            }.joined()
        }
        let newline = layout?.newline ?? "\n"
        for (entry, translation, value) in Self.texts(catalog, locale: locale, losses: &losses, diagnostics: &diagnostics) {
            text += duplicates(translation.presentation[StringsFile.EntryLayout.self]?.duplicates)
            text += Self.entry(entry, value: value, translation: translation, first: first, newline: newline)
            first = false
        }
        text += duplicates(layout?.duplicates)
        diagnostics += losses.diagnostics(target: format.id)
        text += layout?.trailer ?? (first ? "" : newline)
        let encoding = try Self.encoding(context.options["encoding"] ?? layout?.encoding)
        return Encoded(bytes: StringsFile.bytes(text, encoding: encoding), diagnostics: diagnostics)
    }

    /// The entries a table of one locale holds, each with its text: a plural's `other` form (said),
    /// never device variants (a `.stringsdict` holds them; said), with what a catalog says of an
    /// entry that such a table cannot hold.
    static func texts(_ catalog: Catalog, locale: String, losses: inout Losses, diagnostics: inout [Diagnostic])
        -> [(entry: CatalogEntry, translation: Translation, value: String)]
    {
        var result: [(CatalogEntry, Translation, String)] = []
        for entry in catalog.entries {
            guard let translation = entry.translations[locale] else { continue }
            noteUnheld(entry, locale: locale, in: &losses)
            guard let value = translation.flattened ?? translation.value ?? translation.plural?[.other] else {
                if translation.devices != nil { losses.dropped("devices", of: entry.key) }
                continue
            }
            // A plural (its forms, or a variable `%#@count@` a String Catalog gives forms) as its `other` form.
            if translation.value == nil || translation.flattened != nil {
                diagnostics.append(.warning(.catalogPluralFlattened(key: entry.key, locale: locale)))
            }
            result.append((entry, translation, value))
        }
        return result
    }

    /// What a String Catalog says of an entry written in this locale that `.strings` and
    /// `.stringsdict` files cannot: a state other than translated, how it was extracted, and that
    /// it is not to be translated. (An entry the locale lacks is not written: untranslated there.)
    static func noteUnheld(_ entry: CatalogEntry, locale: String, in losses: inout Losses) {
        if let state = entry.translations[locale]?.state, state != .translated { losses.dropped("state", of: entry.key) }
        if entry.extractionState != nil { losses.dropped("extractionState", of: entry.key) }
        if entry.shouldTranslate == false { losses.dropped("shouldTranslate", of: entry.key) }
    }

    /// What `encoding` is called for a compiled table, and what `inspect` says one was read from.
    public static let binary = "binary"
    public static let binaryDescription = "binary property list (compiled .strings)"
    static let xmlDescription = "XML property list (.strings as a plist; written back as text)"

    /// A compiled table: each entry's text (a plural's other form, said as for text), no comments.
    private func binary(_ catalog: Catalog, locale: String) throws(Diagnostic) -> Encoded {
        var entries: [(key: String, value: String)] = []
        var diagnostics: [Diagnostic] = []
        var losses = Losses()
        for (entry, _, value) in Self.texts(catalog, locale: locale, losses: &losses, diagnostics: &diagnostics) {
            if entry.comment != nil { losses.dropped("comment", of: entry.key) }
            entries.append((entry.key, value))
        }
        return Encoded(bytes: try StringsFile.binaryBytes(entries), diagnostics: diagnostics + losses.diagnostics(target: format.id))
    }

    /// The entry as it was read when neither its key, value nor comment changed; else as Xcode
    /// writes it, keeping the comments and blank lines that stood before it.
    /// `newline` ends the lines it writes itself (the file's: `\r\n` in a CRLF file).
    static func entry(_ entry: CatalogEntry, value: String, translation: Translation, first: Bool, newline: String = "\n") -> String {
        let layout = translation.presentation[StringsFile.EntryLayout.self]
        var result = layout?.before ?? (first ? "" : (entry.comment == nil ? newline : newline + newline))
        // The file's first entry, now after a new one (a draft of a key the file lacked), starts a
        // line of its own.
        if !first, layout?.isFirst == true, !result.unicodeScalars.starts(with: "\n".unicodeScalars),
           !result.unicodeScalars.starts(with: "\r\n".unicodeScalars) { result = newline + result }
        let oldComment = layout?.comment
        let commentUnchanged: Bool = if let oldComment {
            (try? StringsFile.parse(oldComment + "\"x\";", fileName: nil).entries.first?.comment) == entry.comment
        } else {
            entry.comment == nil
        }
        if let oldComment, commentUnchanged {
            result += oldComment
        } else if let comment = entry.comment {
            result += StringsFile.commentText(comment) + newline
        }
        if let old = layout?.text, let parsed = try? StringsFile.parse(old, fileName: nil).entries.first,
           parsed.key == entry.key, parsed.value == value || layout?.readValue == value {
            result += old
        } else if let old = layout?.text, let parsed = try? StringsFile.parse(old, fileName: nil).entries.first,
                  parsed.key == entry.key, let replaced = StringsFile.replacingValue(in: old, with: value) {
            // A new value in the entry as it was written.
            result += replaced
        } else {
            result += StringsFile.entryText(key: entry.key, value: value)
        }
        return result
    }

    static func encoding(_ name: String?) throws(Diagnostic) -> StringsFile.TextEncoding {
        guard let name else { return .utf8 }
        switch name.lowercased() {
        case "utf-16", "utf16": return .utf16LEBOM
        case "utf-8", "utf8": return .utf8
        default:
            guard let encoding = StringsFile.TextEncoding(rawValue: name.lowercased()) else {
                throw Diagnostic.error(.cliValueChoices(value: name, choices: StringsFile.TextEncoding.allCases.map(\.rawValue).joined(separator: ", ")))
            }
            return encoding
        }
    }

    /// The one locale a single-locale format writes: the `locale` option or `--locale`, else the
    /// catalog's only locale, else its source language.
    /// The locales a one-locale table leaves out when it chose the source language by itself
    /// (no `--locale`): one warning naming them, and where a tree of them goes.
    static func localesLeftOut(_ catalog: Catalog, written: String, context: CodecContext, format: String) -> [Diagnostic] {
        guard context.options["locale"] == nil, context.locale == nil else { return [] }
        let others = catalog.locales.filter { $0 != written }
        guard !others.isEmpty else { return [] }
        let shown = others.count > 8 ? others.prefix(8).joined(separator: ", ") + ", …" : others.joined(separator: ", ")
        return [.warning(.catalogLocalesLeftOut(format: format, written: written, count: String(others.count), locales: shown))]
    }

    static func writtenLocale(_ catalog: Catalog, context: CodecContext, format: String) throws(Diagnostic) -> String {
        if let locale = context.options["locale"] ?? context.locale.map({ CatalogLocales.catalogName($0.bcp47, among: catalog.locales) }) {
            return locale
        }
        let locales = catalog.locales
        if locales.count <= 1 { return locales.first ?? catalog.sourceLanguage }
        // An XLIFF export comes back as its translation, as Xcode imports it; drafts (`--to-locale`)
        // are what was asked for.
        if let target = XLIFFCodec.target(of: catalog), locales.contains(target) { return target }
        if let drafted = ScriptDrafts.draftedLocale(of: catalog), locales.contains(drafted) { return drafted }
        if locales.contains(catalog.sourceLanguage) { return catalog.sourceLanguage }
        throw Diagnostic.error(.catalogChooseLocale(format: format, locales: locales.joined(separator: ", ")))
    }
}
