public import AlmanacCore
import AlmanacICU
import AlmanacXML
import Foundation

/// Android string resources (`res/values-zh-rTW/strings.xml`): `<string>`, `<plurals>` and
/// `<string-array>`, with the comment above an entry as its comment. Format specifiers are
/// translated between the platforms (`%@` ↔ `%s`, `%ld` → `%d`: Java has no length modifiers),
/// Android's escapes (`\'`, `\"`, `\n`, `\@`, `\uXXXX`, quoted spans) are read and written, and
/// keys Android cannot name (`countdown.days-left`) are kept in a `tools:` attribute.
///
/// Shipped as the plugin executable `almanac-codec-android`, built with `CodecPlugin`.
public struct AndroidStringsCodec: Codec {
    public init() {}

    static let toolsNamespace = "http://schemas.android.com/tools"

    /// Built once: registries ask every codec for it on every file.
    public var format: FormatDescription { Self.formatDescription }
    static let formatDescription = AndroidStringsCodec().makeFormat()

    func makeFormat() -> FormatDescription {
        FormatDescription(
            id: "android-strings",
            name: "Android string resources",
            summary: "res/values-*/strings.xml: <string>, <plurals> and <string-array>, for an Android port of the apps.",
            aliases: ["android", "strings-xml"],
            extensions: [".xml"],
            mediaTypes: ["application/xml"],
            model: .catalog,
            options: [
                .init(name: "locale", summary: "The locale of the file (default: from its values-… folder, else en)."),
                .init(name: "source-language", summary: "The language the keys are written in.", defaultValue: "en"),
            ],
            examples: [.init(summary: "Two strings and a plural", input: """
                <?xml version="1.0" encoding="utf-8"?>
                <resources xmlns:tools="http://schemas.android.com/tools">
                    <!-- Button: save changes -->
                    <string name="action.save">Save</string>
                    <string name="greeting">Hello, %1$s! It\\'s %2$d°C.</string>
                    <plurals name="countdown_days_left" tools:almanacKey="countdown.days-left">
                        <item quantity="one">%d day left</item>
                        <item quantity="other">%d days left</item>
                    </plurals>
                </resources>

                """)])
    }

    public func identify(_ probe: Probe) -> Identification {
        let text = probe.text.prefix(4096)
        return text.contains("<resources") && (text.contains("<string") || text.contains("<plurals")) ? .yes : .no
    }

    /// The locale a `values-…` folder holds (`values-zh-rTW` → zh-Hant, `values-b+zh+Hans` → zh-Hans,
    /// `values-en-night` → en); nil for a folder of other qualifiers only (`values-night`,
    /// `values-v21`) or none, whose files hold the default locale. Android's order of qualifiers:
    /// mobile country and network codes first, then the language (two or three letters, or `b+`
    /// and a BCP 47 tag) and its region (`rTW`), then the rest.
    public static func locale(ofPath path: String?) -> String? {
        guard let path else { return nil }
        let parts = path.split(separator: "/")
        guard parts.count >= 2, parts[parts.count - 2].hasPrefix("values-") else { return nil }
        var qualifiers = parts[parts.count - 2].dropFirst("values-".count).split(separator: "-")[...]
        while let first = qualifiers.first, first.hasPrefix("mcc") || first.hasPrefix("mnc") { qualifiers.removeFirst() }
        guard let language = qualifiers.popFirst() else { return nil }
        let tag: String
        if language.hasPrefix("b+") {
            tag = language.dropFirst(2).replacingOccurrences(of: "+", with: "-")
        } else {
            guard (2...3).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLowercase }) else { return nil }
            let region = qualifiers.first.flatMap { next -> Substring? in
                let code = next.dropFirst()
                guard next.first == "r", (code.count == 2 && code.allSatisfy { $0.isASCII && $0.isUppercase })
                    || (code.count == 3 && code.allSatisfy { $0.isASCII && $0.isNumber }) else { return nil }
                return code
            }
            tag = region.map { language + "-" + $0 } ?? String(language)
        }
        guard LanguageTag.isWellFormed(tag) else { return nil }
        return CatalogLocales.catalogName(tag, among: ["en", "zh-Hans", "zh-Hant"])
    }

    // MARK: Reading

    public func decode(_ input: CodecInput, context: CodecContext) throws(Diagnostic) -> Decoded {
        let file = input.fileName
        let bytes = try input.readAll()
        let document: XMLDocument
        do { document = try XMLDocument(parsing: bytes) } catch {
            throw Diagnostic.error(.xmlInvalid(reason: error.message), at: SourceLocation(file: file ?? "input", line: error.line > 0 ? error.line : nil,
                                                                                 column: error.column > 0 ? error.column : nil))
        }
        guard document.root.localName == "resources" else {
            throw Diagnostic.error(.androidNotResources(root: document.root.name), at: SourceLocation(file: file, line: document.root.line))
        }
        let locale = Self.locale(ofPath: file) ?? context.options["locale"] ?? context.locale.map { CatalogLocales.catalogName($0.bcp47, among: []) } ?? "en"
        try LanguageTag.check(locale, at: SourceLocation(file: file))
        var catalog = Catalog(sourceLanguage: context.options["source-language"] ?? "en")
        var diagnostics: [Diagnostic] = []
        var pendingComment: String?
        var seen: [String: Int] = [:]
        for node in document.root.children {
            switch node {
            case .comment(let text):
                pendingComment = text.trimmingCharacters(in: .whitespacesAndNewlines)
                continue
            case .text(let text) where text.allSatisfy(\.isWhitespace):
                continue
            case .element(let element):
                let comment = pendingComment
                pendingComment = nil
                guard let name = element["name"] else {
                    diagnostics.append(.warning(.androidNoName(element: element.localName), at: SourceLocation(file: file, line: element.line)))
                    continue
                }
                if element["translatable"] == "false" && locale != catalog.sourceLanguage { continue }
                let key = element.attributes.first { $0.localName == "almanacKey" }?.value ?? name
                let location = SourceLocation(file: file, line: element.line, keyPath: key)
                if let line = seen[key] {
                    diagnostics.append(.warning(.catalogDuplicateKey(key: key, line: String(line), otherLine: String(element.line)), at: location))
                }
                seen[key] = element.line
                var entries: [(String, Translation)] = []
                switch element.localName {
                case "string":
                    entries.append((key, Translation(value: Self.unescape(element.text))))
                case "plurals":
                    var forms: [PluralCategory: String] = [:]
                    for item in element.elements(named: "item") {
                        guard let quantity = item["quantity"].flatMap(PluralCategory.init(rawValue:)) else {
                            diagnostics.append(.warning(.androidBadQuantity(quantity: item["quantity"] ?? ""), at: SourceLocation(file: file, line: item.line)))
                            continue
                        }
                        forms[quantity] = Self.unescape(item.text)
                    }
                    entries.append((key, Translation(plural: forms)))
                case "string-array":
                    for (index, item) in element.elements(named: "item").enumerated() {
                        entries.append(("\(key)[\(index)]", Translation(value: Self.unescape(item.text))))
                    }
                default:
                    diagnostics.append(.note(.androidSkipped(element: element.localName), at: SourceLocation(file: file, line: element.line)))
                    continue
                }
                for (entryKey, var translation) in entries {
                    translation = Self.fromAndroid(translation)
                    translation.presentation.origin = location
                    var entry = CatalogEntry(key: entryKey, comment: comment, translations: [locale: translation])
                    if element["translatable"] == "false" { entry.shouldTranslate = false }
                    catalog.entries.append(entry)
                }
            default:
                continue
            }
        }
        return Decoded(document: .catalog(catalog), diagnostics: diagnostics, encoding: "UTF-8")
    }

    /// Android's escapes and whitespace rules: `\'` `\"` `\\` `\n` `\t` `\@` `\?` `\uXXXX`;
    /// runs of white space collapse to one space outside double quotes, which are removed.
    static func unescape(_ text: String) -> String {
        var result = ""
        var quoted = false
        var lastWasSpace = false
        var iterator = Array(text.unicodeScalars)[...]
        while let scalar = iterator.popFirst() {
            switch scalar {
            case "\\":
                guard let next = iterator.popFirst() else { break }
                lastWasSpace = false
                switch next {
                case "n": result += "\n"
                case "t": result += "\t"
                case "u":
                    let hex = String(String.UnicodeScalarView(iterator.prefix(4)))
                    if hex.count == 4, let value = UInt32(hex, radix: 16), let unicode = Unicode.Scalar(value) {
                        result.unicodeScalars.append(unicode)
                        iterator = iterator.dropFirst(4)
                    } else {
                        result += "u"
                    }
                default: result.unicodeScalars.append(next)
                }
            case "\"":
                quoted.toggle()
            case " ", "\n", "\t", "\r":
                if quoted {
                    result.unicodeScalars.append(scalar)
                } else if !lastWasSpace {
                    result += " "
                    lastWasSpace = true
                }
                continue
            default:
                result.unicodeScalars.append(scalar)
            }
            lastWasSpace = false
        }
        // Outside quotes, white space at the ends is dropped (a quoted value keeps it).
        return text.contains("\"") ? result : result.trimmingCharacters(in: .whitespaces)
    }

    static func escape(_ text: String) -> String {
        var result = ""
        for (index, scalar) in text.unicodeScalars.enumerated() {
            switch scalar {
            case "\\": result += "\\\\"
            case "'": result += "\\'"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "@" where index == 0, "?" where index == 0: result += "\\" + String(scalar)
            default: result.unicodeScalars.append(scalar)
            }
        }
        // Leading, trailing or repeated spaces survive only inside quotes.
        if text.hasPrefix(" ") || text.hasSuffix(" ") || text.contains("  ") { return "\"" + result + "\"" }
        return result
    }

    // MARK: Format specifiers

    /// `%@` → `%s`, `%1$@` → `%1$s`, `%ld` `%lld` `%lu` → `%d`, `%lf` → `%f`.
    static func toAndroid(_ text: String) -> String {
        var result = text
        for placeholder in PlaceholderList(text).placeholders.reversed() {
            let conversion: String = switch placeholder.conversion {
            case "@": "s"
            case "u", "i", "D", "U": "d"
            default: String(placeholder.conversion)
            }
            // Flags, width and precision stay (`%.2f`); length modifiers go (Java has none).
            var head = String(placeholder.text.dropLast())
            if !placeholder.length.isEmpty, head.hasSuffix(placeholder.length) { head = String(head.dropLast(placeholder.length.count)) }
            let replacement = head + conversion
            if placeholder.variable != nil { continue }
            let start = result.utf8.index(result.utf8.startIndex, offsetBy: placeholder.offset)
            let end = result.utf8.index(start, offsetBy: placeholder.text.utf8.count)
            result.replaceSubrange(start..<end, with: replacement)
        }
        return result
    }

    /// `%s` → `%@` (and `%1$s` → `%1$@`); the rest is the same on both platforms.
    static func fromAndroid(_ text: String) -> String {
        var result = text
        for placeholder in PlaceholderList(text).placeholders.reversed() where placeholder.conversion == "s" || placeholder.conversion == "S" {
            let start = result.utf8.index(result.utf8.startIndex, offsetBy: placeholder.offset)
            let end = result.utf8.index(start, offsetBy: placeholder.text.utf8.count)
            result.replaceSubrange(start..<end, with: "%" + (placeholder.position.map { "\($0)$" } ?? "") + "@")
        }
        return result
    }

    static func fromAndroid(_ translation: Translation) -> Translation {
        var result = translation
        result.value = translation.value.map(fromAndroid)
        result.plural = translation.plural?.mapValues(fromAndroid)
        return result
    }

    // MARK: Writing

    /// An Android resource name: letters, digits, `_` and `.`; anything else becomes `_`.
    static func resourceName(_ key: String) -> String {
        var name = String(key.unicodeScalars.map { scalar -> Character in
            (scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "_" || scalar == ".")) ? Character(scalar) : "_"
        })
        if let first = name.unicodeScalars.first, !(first.properties.isAlphabetic || first == "_") { name = "_" + name }
        return name
    }

    /// A value's plural forms when the value is one plural variable (`%#@count@` with its text
    /// around it folded into each form), or nil when Android cannot say it.
    static func pluralForms(_ translation: Translation) -> [PluralCategory: String]? {
        if let plural = translation.plural { return plural }
        guard let value = translation.value, let substitutions = translation.substitutions, substitutions.count == 1,
              let (name, substitution) = substitutions.first, PlaceholderList(value).variables == [name],
              let variable = PlaceholderList(value).placeholders.first(where: { $0.variable == name }) else { return nil }
        return substitution.plural.mapValues { form in
            value.replacingOccurrences(of: variable.text, with: form.replacingOccurrences(of: "%arg", with: "%" + substitution.formatSpecifier))
        }
    }

    public func encode(_ document: Document, context: CodecContext) throws(Diagnostic) -> Encoded {
        guard case .catalog(let catalog) = document else {
            throw Diagnostic.error(.convertModelMismatch(model: document.kind.rawValue, format: format.id, expected: ModelKind.catalog.rawValue))
        }
        let locales = catalog.locales
        let locale = context.options["locale"] ?? context.locale.map { CatalogLocales.catalogName($0.bcp47, among: locales) }
            ?? (locales.count == 1 ? locales[0] : catalog.sourceLanguage)
        var children: [XMLNode] = []
        var diagnostics: [Diagnostic] = []
        var arrays: [String: [String]] = [:]
        var arrayOrder: [String] = []
        var arrayComments: [String: String] = [:]
        for entry in catalog.entries {
            guard let translation = entry.translations[locale] else { continue }
            // name[0], name[1]…: one string-array.
            if entry.key.hasSuffix("]"), let open = entry.key.lastIndex(of: "["), Int(entry.key[entry.key.index(after: open)..<entry.key.index(before: entry.key.endIndex)]) != nil {
                let name = String(entry.key[..<open])
                if arrays[name] == nil {
                    arrayOrder.append(name)
                    arrays[name] = []
                    children.append(.processingInstruction(target: "almanac-array", data: name))
                    if let comment = entry.comment { arrayComments[name] = comment }
                }
                arrays[name]!.append(Self.toAndroid(translation.value ?? ""))
                continue
            }
            if let comment = entry.comment { children.append(.comment(" " + comment.replacingOccurrences(of: "--", with: "- -") + " ")) }
            let name = Self.resourceName(entry.key)
            var attributes = [XMLAttribute(name: "name", value: name)]
            if name != entry.key { attributes.append(XMLAttribute(name: "tools:almanacKey", value: entry.key)) }
            if entry.shouldTranslate == false { attributes.append(XMLAttribute(name: "translatable", value: "false")) }
            if let forms = Self.pluralForms(translation) {
                let items = PluralCategory.allCases.compactMap { category in
                    forms[category].map { XMLNode.element(XMLElement("item", text: Self.escape(Self.toAndroid($0)),
                                                                     attributes: [XMLAttribute(name: "quantity", value: category.rawValue)])) }
                }
                children.append(.element(XMLElement("plurals", attributes: attributes, children: items)))
            } else if let value = translation.value {
                if translation.substitutions != nil || translation.devices != nil {
                    diagnostics.append(.warning(.androidSimplified(key: entry.key)))
                }
                children.append(.element(XMLElement("string", text: Self.escape(Self.toAndroid(value)), attributes: attributes)))
            } else if let devices = translation.devices, let any = devices["iphone"] ?? devices["other"] ?? devices.values.first, let value = any.value {
                diagnostics.append(.warning(.androidSimplified(key: entry.key)))
                children.append(.element(XMLElement("string", text: Self.escape(Self.toAndroid(value)), attributes: attributes)))
            }
        }
        // Arrays where their first item stood.
        children = children.flatMap { node -> [XMLNode] in
            guard case .processingInstruction("almanac-array", let name) = node, let items = arrays[name] else { return [node] }
            var nodes: [XMLNode] = []
            if let comment = arrayComments[name] { nodes.append(.comment(" " + comment + " ")) }
            nodes.append(.element(XMLElement("string-array", attributes: [XMLAttribute(name: "name", value: Self.resourceName(name))],
                                             children: items.map { .element(XMLElement("item", text: Self.escape($0))) })))
            return nodes
        }
        let root = XMLElement("resources", children: children, namespaceDeclarations: [.init(prefix: "tools", uri: Self.toolsNamespace)])
            .indented(by: "    ")
        do {
            return Encoded(bytes: try XMLDocument(root: root, declaredEncoding: "utf-8").serialized() + [ASCII.lineFeed], diagnostics: diagnostics)
        } catch {
            throw Diagnostic.error(.xmlUnwritable(reason: error.message))
        }
    }
}
