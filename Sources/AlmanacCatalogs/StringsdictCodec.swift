public import AlmanacCore
import AlmanacICU
import AlmanacXML

/// Reading XML inputs with located errors.
enum XMLInput {
    static func document(_ input: CodecInput) throws(Diagnostic) -> XMLDocument {
        try document(try input.readAll(), fileName: input.fileName)
    }

    static func document(_ bytes: [UInt8], fileName: String?) throws(Diagnostic) -> XMLDocument {
        do {
            return try XMLDocument(parsing: bytes)
        } catch {
            throw Diagnostic.error(.xmlInvalid(reason: error.message), at: SourceLocation(file: fileName ?? "input",
                                                                                 line: error.line > 0 ? error.line : nil,
                                                                                 column: error.column > 0 ? error.column : nil))
        }
    }
}

extension PropertyList {
    /// Reads the element of a `<plist>` (or any value element).
    init(_ element: XMLElement, fileName: String?) throws(Diagnostic) {
        switch element.localName {
        case "plist":
            guard let first = element.elements.first else {
                throw Diagnostic.error(.plistEmpty, at: SourceLocation(file: fileName, line: element.line))
            }
            self = try PropertyList(first, fileName: fileName)
        case "dict":
            var members: [(String, PropertyList)] = []
            let children = element.elements
            var index = 0
            while index < children.count {
                let keyElement = children[index]
                guard keyElement.localName == "key" else {
                    throw Diagnostic.error(.plistExpectedKey(element: keyElement.localName), at: SourceLocation(file: fileName, line: keyElement.line))
                }
                guard index + 1 < children.count else {
                    throw Diagnostic.error(.plistMissingValue(key: keyElement.text), at: SourceLocation(file: fileName, line: keyElement.line))
                }
                members.append((keyElement.text, try PropertyList(children[index + 1], fileName: fileName)))
                index += 2
            }
            self = .dictionary(members, line: element.line)
        case "array": self = .array(try element.elements.map { (child) throws(Diagnostic) in try PropertyList(child, fileName: fileName) })
        case "string": self = .string(element.text)
        case "integer": self = .integer(Int(element.text.trimmingCharacters(in: .whitespaces)) ?? 0)
        case "real": self = .real(element.text)
        case "true": self = .bool(true)
        case "false": self = .bool(false)
        default: self = .other(element.localName)
        }
    }

    /// The element for this value (dictionaries keep their order).
    var element: XMLElement {
        switch self {
        case .string(let text): XMLElement("string", text: text)
        case .integer(let value): XMLElement("integer", text: String(value))
        case .real(let text): XMLElement("real", text: text)
        case .bool(let flag): XMLElement(flag ? "true" : "false")
        case .array(let items): XMLElement("array", children: items.map { .element($0.element) }, writesEmptyAsPair: true)
        case .dictionary(let members, _):
            XMLElement("dict", children: members.flatMap { [.element(XMLElement("key", text: $0.0)), .element($0.1.element)] },
                       writesEmptyAsPair: true)
        case .other(let name): XMLElement(name)
        }
    }

    /// A property list as Xcode writes it: XML declaration, Apple's DOCTYPE, tab indentation.
    var documentBytes: [UInt8] {
        get throws(Diagnostic) {
            let root = XMLElement("plist", attributes: [XMLAttribute(name: "version", value: "1.0")], children: [.element(element)])
                .indented(by: "\t", indentChildren: { $0.name != "plist" })
            do {
                return try XMLDocument(root: root, doctype: .propertyList).serialized()
            } catch {
                throw Diagnostic.error(.xmlUnwritable(reason: error.message))
            }
        }
    }
}

/// `.stringsdict` files: plural rules (`NSStringPluralRuleType`) with one or several variables
/// (`%#@days@ and %#@hours@`), and device-specific variants (`NSStringDeviceSpecificRuleType`).
public struct StringsdictCodec: Codec {
    public init() {}

    /// Built once: registries ask every codec for it on every file.
    public var format: FormatDescription { Self.formatDescription }
    static let formatDescription = StringsdictCodec().makeFormat()

    func makeFormat() -> FormatDescription {
        FormatDescription(
            id: "stringsdict",
            name: "Apple stringsdict",
            summary: "Localizable.stringsdict: plural forms by CLDR category, several variables, device variants (a property list).",
            aliases: ["plurals"],
            extensions: [".stringsdict"],
            mediaTypes: ["application/x-plist"],
            model: .catalog,
            options: [
                .init(name: "locale", summary: "The locale of the file (default: from its .lproj folder)."),
                .init(name: "source-language", summary: "The language the keys are written in.", defaultValue: "en"),
            ],
            examples: [
                .init(summary: "“%d days left” in English", input: """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                    <plist version="1.0">
                    <dict>
                    \t<key>countdown.days-left</key>
                    \t<dict>
                    \t\t<key>NSStringLocalizedFormatKey</key>
                    \t\t<string>%#@days@</string>
                    \t\t<key>days</key>
                    \t\t<dict>
                    \t\t\t<key>NSStringFormatSpecTypeKey</key>
                    \t\t\t<string>NSStringPluralRuleType</string>
                    \t\t\t<key>NSStringFormatValueTypeKey</key>
                    \t\t\t<string>d</string>
                    \t\t\t<key>one</key>
                    \t\t\t<string>%d day left</string>
                    \t\t\t<key>other</key>
                    \t\t\t<string>%d days left</string>
                    \t\t</dict>
                    \t</dict>
                    </dict>
                    </plist>

                    """),
            ])
    }

    public func identify(_ probe: Probe) -> Identification {
        if StringsFile.isBinaryPropertyList(probe.prefix) {
            return probe.fileName?.lowercased().hasSuffix(".stringsdict") == true ? .yes : .cannotTell
        }
        let text = probe.text.prefix(4096)
        guard text.contains("<plist") || text.contains("<!DOCTYPE plist") else { return .no }
        return text.contains("NSStringLocalizedFormatKey") || text.contains("NSStringDeviceSpecificRuleType") ? .yes : .cannotTell
    }

    public func decode(_ input: CodecInput, context: CodecContext) throws(Diagnostic) -> Decoded {
        let file = input.fileName
        let bytes = try input.readAll()
        let members: [(String, PropertyList)]
        var encoding = "UTF-8"
        if StringsFile.isBinaryPropertyList(bytes) {
            // Compiled into a bundle: Foundation reads binary property lists, keys in sorted order.
            guard let top = try StringsdictFile.propertyList(bytes, fileName: file).dictionary else {
                throw Diagnostic.error(.plistExpectedDict, at: SourceLocation(file: file))
            }
            members = top
            encoding = Self.binaryDescription
        } else {
            let document = try XMLInput.document(bytes, fileName: file)
            guard document.root.localName == "plist" else {
                throw Diagnostic.error(.plistNotPlist(root: document.root.name), at: SourceLocation(file: file, line: document.root.line))
            }
            guard let top = try PropertyList(document.root, fileName: file).dictionary else {
                throw Diagnostic.error(.plistExpectedDict, at: SourceLocation(file: file, line: document.root.line))
            }
            members = top
        }
        var diagnostics: [Diagnostic] = []
        let locale = try StringsCodec.locale(for: input, context: context)
        var catalog = try StringsdictFile.catalog(members, locale: locale, sourceLanguage: context.options["source-language"] ?? "en",
                                                   fileName: file, diagnostics: &diagnostics)
        if encoding == "UTF-8" { Self.keepLayout(of: bytes, locale: locale, in: &catalog) }
        return Decoded(document: .catalog(catalog), diagnostics: diagnostics, encoding: encoding)
    }

    /// Records the file's layout for writing it back as it was: the text around the entries on
    /// the catalog, each entry's text and what is before it on its translation (a tree's files
    /// each keep their own), with a fingerprint of what the entry held.
    static func keepLayout(of bytes: [UInt8], locale: String, in catalog: inout Catalog) {
        guard let layout = StringsdictLayout(bytes), layout.entries.count == catalog.entries.count else { return }
        catalog.presentation[CatalogLayout.self] = CatalogLayout(head: layout.text(layout.head), trail: layout.text(layout.trail),
                                                                 tail: layout.text(layout.tail), indent: layout.indentUnit)
        for (index, piece) in layout.entries.enumerated() where piece.key == catalog.entries[index].key {
            let key = catalog.entries[index].key
            guard var translation = catalog.entries[index].translations[locale] else { continue }
            translation.presentation[EntryLayout.self] = EntryLayout(text: layout.text(piece.text), before: layout.text(piece.before),
                                                                     fingerprint: fingerprint(key, translation))
            catalog.entries[index].translations[locale] = translation
        }
    }

    /// How a `.stringsdict` was written around its entries, kept on its catalog.
    struct CatalogLayout: PresentationLayout {
        var head: String
        var trail: String
        var tail: String
        /// One level of indentation (a tab, or spaces).
        var indent: String
    }

    /// How one entry was written in one locale's file, kept on its translation (a tree's files
    /// each keep their own): its text, what stood before it, and a fingerprint of what it held.
    struct EntryLayout: PresentationLayout {
        var text: String
        var before: String
        var fingerprint: Int
    }

    /// What an entry holds in one locale, for telling a changed entry from one read as it is.
    static func fingerprint(_ key: String, _ translation: Translation) -> Int {
        var hasher = Hasher()
        hasher.combine(key)
        hasher.combine(translation)
        return hasher.finalize()
    }

    /// The text before the entries as Apple writes it.
    static let appleHead = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        """

    /// What `inspect` says a compiled file was read from.
    static let binaryDescription = "binary property list (compiled .stringsdict)"

    public func encode(_ document: Document, context: CodecContext) throws(Diagnostic) -> Encoded {
        guard case .catalog(let catalog) = document else {
            throw Diagnostic.error(.convertModelMismatch(model: document.kind.rawValue, format: format.id, expected: ModelKind.catalog.rawValue))
        }
        let locale = try StringsCodec.writtenLocale(catalog, context: context, format: format.id)
        var members: [(String, PropertyList)] = []
        var written: [Translation] = []
        var losses = Losses()
        for entry in catalog.entries {
            // Plain strings are kept too (real projects have them; Apple reads them as they are).
            guard let translation = entry.translations[locale], let value = Self.plist(translation) ?? translation.value.map(PropertyList.string)
            else { continue }
            // A .stringsdict has no comments (the .strings beside it, or a catalog, keeps them).
            if entry.comment != nil { losses.dropped("comment", of: entry.key) }
            StringsCodec.noteUnheld(entry, locale: locale, in: &losses)
            // The argument a substitution formats is its place in the format here, not a number of its own.
            if translation.substitutions?.values.contains(where: { $0.argument != nil }) == true {
                losses.dropped("substitutions.argNum", of: entry.key)
            }
            members.append((entry.key, value))
            written.append(translation)
        }
        if written.contains(where: { $0.presentation[EntryLayout.self] != nil }) {
            let text = try Self.inSourceLayout(catalog, members: members, translations: written)
            return Encoded(bytes: Array(text.utf8), diagnostics: losses.diagnostics(target: format.id))
        }
        return Encoded(bytes: try PropertyList.dictionary(members, line: 0).documentBytes, diagnostics: losses.diagnostics(target: format.id))
    }

    /// The file in the layout it was read in: an entry that holds what it held is its text as
    /// read, a changed or new one is written as Apple writes it in the file's indentation, and
    /// the text around the entries is as it was (Apple's where a tree's other locale had none).
    static func inSourceLayout(_ catalog: Catalog, members: [(String, PropertyList)], translations: [Translation]) throws(Diagnostic) -> String {
        let file = catalog.presentation[CatalogLayout.self]
        let unit = file?.indent ?? "\t"
        var head = file?.head
        var tail = file?.tail
        var text = ""
        for ((key, value), translation) in zip(members, translations) {
            let kept = translation.presentation[EntryLayout.self]
            if let kept, kept.fingerprint == fingerprint(key, translation) {
                text += kept.before + kept.text
                continue
            }
            // Apple's writing of a file with this one entry: its head and tail, and the entry re-indented.
            let document = String(decoding: try PropertyList.dictionary([(key, value)], line: 0).documentBytes, as: UTF8.self)
            guard let start = document.range(of: "\n\t<key>"), let end = document.range(of: "\n</dict>", options: .backwards) else { continue }
            head = head ?? String(document[..<start.lowerBound])
            tail = tail ?? String(document[document.index(after: end.lowerBound)...])
            let lines = document[document.index(start.lowerBound, offsetBy: 2)..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            let reindented = lines.enumerated().map { index, line in
                let tabs = line.prefix { $0 == "\t" }.count
                return String(repeating: unit, count: index == 0 ? 0 : tabs) + line.dropFirst(tabs)
            }
            text += (kept?.before ?? "\n" + unit) + reindented.joined(separator: "\n")
        }
        return (head ?? appleHead) + text + (file?.trail ?? "\n") + (tail ?? "</dict>\n</plist>\n")
    }

    /// The property list of a translation with plural or device variants (nil for a plain string).
    static func plist(_ translation: Translation) -> PropertyList? {
        if let devices = translation.devices {
            let members = devices.sorted { $0.key < $1.key }.compactMap { device, variant in
                (plist(variant) ?? variant.value.map(PropertyList.string)).map { (device, $0) }
            }
            return .dictionary([(StringsdictFile.deviceRule, .dictionary(members, line: 0))], line: 0)
        }
        if let plural = translation.plural {
            // A single variable named after its role.
            let specifier = StringsdictFile.pluralSpecifier(plural)
            return .dictionary([(StringsdictFile.formatKey, .string("%#@value@")), ("value", variable(Substitution(formatSpecifier: specifier, plural: plural)))],
                               line: 0)
        }
        guard let value = translation.value, let substitutions = translation.substitutions else { return nil }
        var members: [(String, PropertyList)] = [(StringsdictFile.formatKey, .string(value))]
        // Variables in the order the format names them, then any others.
        let order = PlaceholderList(value).variables
        for name in order + substitutions.keys.sorted() where !members.contains(where: { $0.0 == name }) {
            if let substitution = substitutions[name] { members.append((name, variable(substitution))) }
        }
        return .dictionary(members, line: 0)
    }

    static func variable(_ substitution: Substitution) -> PropertyList {
        var members: [(String, PropertyList)] = [(StringsdictFile.specType, .string(StringsdictFile.pluralRule)), (StringsdictFile.valueType, .string(substitution.formatSpecifier))]
        for category in PluralCategory.allCases {
            if let text = substitution.plural[category] { members.append((category.rawValue, .string(text))) }
        }
        return .dictionary(members, line: 0)
    }
}
