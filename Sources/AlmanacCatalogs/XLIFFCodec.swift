public import AlmanacCore
import AlmanacICU
import AlmanacXML

/// XLIFF 1.2 as Xcode exports and imports it (`Export Localizations…`): one target language,
/// a `<file>` per table, a `<trans-unit>` per string with variants addressed in its id
/// (`key|==|plural.one`, `key|==|device.mac`, `key|==|substitutions.days.plural.other`).
public struct XLIFFCodec: Codec {
    public init() {}

    static let namespace = "urn:oasis:names:tc:xliff:document:1.2"
    static let separator = "|==|"

    /// Built once: registries ask every codec for it on every file.
    public var format: FormatDescription { Self.formatDescription }
    static let formatDescription = XLIFFCodec().makeFormat()

    func makeFormat() -> FormatDescription {
        FormatDescription(
            id: "xliff",
            name: "XLIFF 1.2",
            summary: "What Xcode exports for translators (.xliff inside .xcloc): source and target text, notes, plural and device variants.",
            aliases: ["xlf", "xcloc"],
            extensions: [".xliff", ".xlf"],
            mediaTypes: ["application/x-xliff+xml"],
            model: .catalog,
            options: [.init(name: "locale", summary: "The target language to write (default: the catalog's one translation language).")],
            examples: [
                .init(summary: "A plural string exported for zh-Hant", input: """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
                      <file original="RetireTime/Localizable.xcstrings" source-language="en" target-language="zh-Hant" datatype="plaintext">
                        <header>
                          <tool tool-id="com.apple.dt.xcode" tool-name="Xcode" tool-version="16.0"/>
                        </header>
                        <body>
                          <trans-unit id="countdown.days-left|==|plural.one" xml:space="preserve">
                            <source>%lld day left</source>
                            <target state="translated">還有 %lld 天</target>
                            <note>Days until the event</note>
                          </trans-unit>
                          <trans-unit id="countdown.days-left|==|plural.other" xml:space="preserve">
                            <source>%lld days left</source>
                            <target state="translated">還有 %lld 天</target>
                            <note>Days until the event</note>
                          </trans-unit>
                        </body>
                      </file>
                    </xliff>

                    """),
            ])
    }

    public func identify(_ probe: Probe) -> Identification {
        let text = probe.text.prefix(4096)
        guard text.contains("<xliff") else { return text.drop { $0.isWhitespace }.hasPrefix("<") ? .cannotTell : .no }
        return .yes
    }

    // MARK: Reading

    public func decode(_ input: CodecInput, context: CodecContext) throws(Diagnostic) -> Decoded {
        let file = input.fileName
        let document = try XMLInput.document(input)
        guard document.root.localName == "xliff" else {
            throw Diagnostic.error(.xliffNotXliff(root: document.root.name), at: SourceLocation(file: file, line: document.root.line))
        }
        if let version = document.root["version"], version != "1.2", version != "1.1" {
            throw Diagnostic.error(.xliffVersion(version: version), at: SourceLocation(file: file, line: document.root.line))
        }
        var catalog = Catalog()
        var diagnostics: [Diagnostic] = []
        var index: [String: Int] = [:]
        for fileElement in document.root.elements(named: "file") {
            let source = fileElement["source-language"] ?? "en"
            let target = fileElement["target-language"]
            // Locales become folder names (`zh-Hant.lproj`): checked where they are read.
            let here = SourceLocation(file: file, line: fileElement.line)
            try LanguageTag.check(source, at: here)
            if let target { try LanguageTag.check(target, at: here) }
            catalog.sourceLanguage = source
            if catalog.presentation[TableSource.self]?.table == nil, let original = fileElement["original"] {
                catalog.presentation[TableSource.self] = TableSource(table: CatalogPath.table(ofPath: original), original: original)
            }
            // The locale an export was made for: what writing it back as `.strings` writes.
            if let target, target != source {
                catalog.presentation[Layout.self, default: Layout()].target = switch catalog.presentation[Layout.self]?.target {
                case nil: .one(target)
                case .one(let first) where first == target: .one(target)
                default: .several
                }
            }
            if let tool = fileElement.element(named: "header")?.element(named: "tool") {
                catalog.presentation[Layout.self, default: Layout()].toolVersion = tool["tool-version"]
            }
            for unit in Self.units(in: fileElement.element(named: "body") ?? fileElement) {
                guard let id = unit["id"] else {
                    diagnostics.append(.warning(.xliffUnitWithoutId, at: SourceLocation(file: file, line: unit.line)))
                    continue
                }
                let location = SourceLocation(file: file, line: unit.line, keyPath: id)
                let (key, path) = Self.split(id)
                let sourceText = unit.element(named: "source")?.text ?? ""
                let targetElement = unit.element(named: "target")
                let note = unit.elements(named: "note").map(\.text).filter { !$0.isEmpty }.joined(separator: "\n")
                let doNotTranslate = unit["translate"] == "no"
                let position: Int
                if let existing = index[key] {
                    position = existing
                } else {
                    position = catalog.entries.count
                    index[key] = position
                    catalog.entries.append(CatalogEntry(key: key, comment: note.isEmpty ? nil : note,
                                                        extractionState: Self.extractionState(of: unit),
                                                        shouldTranslate: doNotTranslate ? false : nil))
                    if fileElement["original"] != catalog.presentation[TableSource.self]?.original {
                        catalog.entries[position].presentation[TableSource.self] = TableSource(original: fileElement["original"])
                    }
                }
                if Self.context(Self.sourceAbsentContext, of: unit) == nil {
                    var translation = catalog.entries[position].translations[source] ?? Translation()
                    try Self.set(sourceText, at: path, in: &translation, location: location)
                    Self.applySubstitutionContexts(of: unit, at: path, to: &translation)
                    translation.presentation.origin = translation.presentation.origin ?? location
                    catalog.entries[position].translations[source] = translation
                }
                if let target, let targetElement {
                    var translation = catalog.entries[position].translations[target] ?? Translation()
                    try Self.set(targetElement.text, at: path, in: &translation, location: location)
                    Self.applySubstitutionContexts(of: unit, at: path, to: &translation)
                    if let state = Self.state(targetElement["state"]) {
                        // A device variant has its own state; another text keeps its own among the
                        // translation's (see `settleTextStates`); the translation's is the least advanced.
                        if path.first == "device", path.count >= 2 {
                            translation.devices?[path[1]]?.state = state
                        } else {
                            translation.textStates = (translation.textStates ?? [:]).merging([Self.modelPath(path): state]) { $1 }
                        }
                        translation.state = translation.state.map { Translation.State.leastAdvanced($0, state) } ?? state
                    }
                    translation.presentation.origin = translation.presentation.origin ?? location
                    catalog.entries[position].translations[target] = translation
                }
            }
        }
        for position in catalog.entries.indices {
            for locale in catalog.entries[position].translations.keys {
                Self.settleTextStates(&catalog.entries[position].translations[locale]!)
            }
        }
        return Decoded(document: .catalog(catalog), diagnostics: diagnostics, encoding: "UTF-8")
    }

    /// Keeps a text's own state only where it differs from the translation's.
    static func settleTextStates(_ translation: inout Translation) {
        guard let states = translation.textStates else { return }
        let differing = states.filter { $0.value != translation.state }
        translation.textStates = differing.isEmpty ? nil : differing
    }

    /// A text's path in the model (`Translation.texts`) from its path in a unit's id:
    /// `substitutions.days.plural.one` is `substitution.days.one`.
    static func modelPath(_ path: [String]) -> String {
        if path.count == 4, path[0] == "substitutions", path[2] == "plural" { return "substitution.\(path[1]).\(path[3])" }
        return path.joined(separator: ".")
    }

    /// How an XLIFF was read, kept on its catalog: the locale it was made for, and the version of
    /// the tool that wrote it (written back in its header).
    struct Layout: PresentationLayout {
        enum Target: Hashable, Sendable {
            /// Every `<file>` names this `target-language` (`zh-Hant`).
            case one(String)
            /// Its files name different ones.
            case several
        }
        var target: Target?
        var toolVersion: String?
    }

    /// The one locale an XLIFF read into `catalog` was made for, if it was read from one.
    public static func target(of catalog: Catalog) -> String? {
        if case .one(let target) = catalog.presentation[Layout.self]?.target { return target }
        return nil
    }

    /// Trans-units, also inside `<group>`s.
    static func units(in element: XMLElement) -> [XMLElement] {
        element.elements.flatMap { child -> [XMLElement] in
            switch child.localName {
            case "trans-unit": [child]
            case "group": units(in: child)
            default: []
            }
        }
    }

    static func split(_ id: String) -> (key: String, path: [String]) {
        guard let range = id.range(of: separator, options: .backwards) else { return (id, []) }
        return (String(id[..<range.lowerBound]), id[range.upperBound...].split(separator: ".").map(String.init))
    }

    /// Puts a text where a variant path says (`[]`, `plural.one`, `device.mac`, `device.mac.plural.one`,
    /// `substitutions.days.plural.one`).
    static func set(_ text: String, at path: [String], in translation: inout Translation, location: SourceLocation) throws(Diagnostic) {
        switch path.first {
        case nil:
            translation.value = text
        case "plural":
            guard path.count == 2, let category = PluralCategory(rawValue: path[1]) else {
                throw Diagnostic.error(.xliffBadVariant(path: path.joined(separator: ".")), at: location)
            }
            translation.plural = (translation.plural ?? [:]).merging([category: text]) { $1 }
        case "device":
            guard path.count >= 2 else { throw Diagnostic.error(.xliffBadVariant(path: path.joined(separator: ".")), at: location) }
            var variant = translation.devices?[path[1]] ?? Translation()
            try set(text, at: Array(path.dropFirst(2)), in: &variant, location: location)
            translation.devices = (translation.devices ?? [:]).merging([path[1]: variant]) { $1 }
        case "substitutions":
            guard path.count == 4, path[2] == "plural", let category = PluralCategory(rawValue: path[3]) else {
                throw Diagnostic.error(.xliffBadVariant(path: path.joined(separator: ".")), at: location)
            }
            var substitution = translation.substitutions?[path[1]] ?? Substitution(plural: [:])
            substitution.plural[category] = text
            translation.substitutions = (translation.substitutions ?? [:]).merging([path[1]: substitution]) { $1 }
        default:
            throw Diagnostic.error(.xliffBadVariant(path: path.joined(separator: ".")), at: location)
        }
    }

    /// What a String Catalog holds besides texts travels in XLIFF 1.2's context groups, with
    /// Almanac's private context types (`x-…`, which translation tools keep and show; Xcode has
    /// none for these): an entry's extraction state, and a substitution's argument number and
    /// format specifier (`lld` stays `lld`).
    static let extractionStateContext = "x-almanac-extraction-state"
    static let argumentContext = "x-almanac-arg-num"
    static let formatSpecifierContext = "x-almanac-format-specifier"
    /// A text only the target has (a translation that varies by device where the source does not,
    /// an entry with no source text, one not to translate): its unit's source is the key, which
    /// XLIFF requires, not a source text of its own.
    static let sourceAbsentContext = "x-almanac-source-absent"

    static func context(_ type: String, of unit: XMLElement) -> String? {
        unit.elements(named: "context-group").flatMap { $0.elements(named: "context") }.first { $0["context-type"] == type }?.text
    }

    static func extractionState(of unit: XMLElement) -> String? { context(extractionStateContext, of: unit) }

    /// A substitution's argument and format specifier, from its unit's contexts.
    static func applySubstitutionContexts(of unit: XMLElement, at path: [String], to translation: inout Translation) {
        guard path.first == "substitutions", path.count >= 2, var substitution = translation.substitutions?[path[1]] else { return }
        if let specifier = context(formatSpecifierContext, of: unit) { substitution.formatSpecifier = specifier }
        if let argument = context(argumentContext, of: unit).flatMap(Int.init) { substitution.argument = argument }
        translation.substitutions?[path[1]] = substitution
    }

    /// The contexts of a unit at a variant path: the entry's extraction state, a substitution's facts.
    static func contexts(_ entry: CatalogEntry, _ translations: [Translation?], path: String) -> [(String, String)] {
        var result: [(String, String)] = []
        if let extraction = entry.extractionState { result.append((extractionStateContext, extraction)) }
        let parts = path.split(separator: ".")
        if parts.count >= 2, parts[0] == "substitution",
           let substitution = translations.lazy.compactMap({ $0?.substitutions?[String(parts[1])] }).first {
            result.append((formatSpecifierContext, substitution.formatSpecifier))
            if let argument = substitution.argument { result.append((argumentContext, String(argument))) }
        }
        return result
    }

    /// The state of the text at a variant path: a device variant's own, else the translation's.
    static func state(of translation: Translation?, at path: String) -> Translation.State? {
        let parts = path.split(separator: ".", maxSplits: 2)
        if parts.count >= 2, parts[0] == "device", let variant = translation?.devices?[String(parts[1])], let state = variant.state {
            return state
        }
        return translation?.state(at: path)
    }

    static func state(_ text: String?) -> Translation.State? {
        switch text {
        case "new", "needs-translation": .new
        case "translated", "final", "signed-off": .translated
        case "needs-review-translation", "needs-review-l10n", "needs-review-adaptation", "needs-adaptation", "needs-l10n": .needsReview
        default: nil
        }
    }

    static func stateText(_ state: Translation.State?) -> String {
        switch state {
        case .new?: "new"
        case .needsReview?: "needs-review-translation"
        case .stale?: "needs-review-translation"
        case .translated?, nil: "translated"
        }
    }

    // MARK: Writing

    public func encode(_ document: Document, context: CodecContext) throws(Diagnostic) -> Encoded {
        guard case .catalog(let catalog) = document else {
            throw Diagnostic.error(.convertModelMismatch(model: document.kind.rawValue, format: format.id, expected: ModelKind.catalog.rawValue))
        }
        let source = catalog.sourceLanguage
        let targets = catalog.locales.filter { $0 != source }
        let target: String
        if let chosen = context.options["locale"] ?? context.locale.map({ CatalogLocales.catalogName($0.bcp47, among: targets) }) {
            target = chosen
        } else if targets.count == 1 {
            target = targets[0]
        } else if targets.isEmpty {
            target = source
        } else {
            throw Diagnostic.error(.catalogChooseLocale(format: format.id, locales: targets.joined(separator: ", ")))
        }
        let table = catalog.presentation[TableSource.self]
        let original = table?.original ?? (table?.table ?? "Localizable") + ".xcstrings"
        var units: [XMLNode] = []
        var losses = Losses()
        for entry in catalog.entries {
            let sourceTranslation = entry.translations[source]
            // XLIFF gives the source text no state: a source string marked for review is said.
            if let state = sourceTranslation?.state, state != .translated, target != source { losses.dropped("state", of: entry.key) }
            let targetTranslation = entry.translations[target]
            var paths = Set((sourceTranslation?.texts ?? []).map(\.path) + (targetTranslation?.texts ?? []).map(\.path))
            // An entry with no text yet (a key not to translate, or not translated anywhere) is a unit of its key.
            if paths.isEmpty { paths = [""] }
            for path in Self.ordered(paths) {
                let id = path.isEmpty ? entry.key : entry.key + Self.separator + Self.xliffPath(path)
                var children: [XMLNode] = [.element(XMLElement("source", text: Self.text(sourceTranslation, path) ?? entry.key))]
                if let text = Self.text(targetTranslation, path) {
                    children.append(.element(XMLElement("target", text: text,
                                                        attributes: [XMLAttribute(name: "state", value: Self.stateText(Self.state(of: targetTranslation, at: path)))])))
                }
                children.append(.element(XMLElement("note", text: entry.comment ?? "")))
                var contexts = Self.contexts(entry, [targetTranslation, sourceTranslation], path: path)
                if Self.text(sourceTranslation, path) == nil { contexts.append((Self.sourceAbsentContext, "yes")) }
                if !contexts.isEmpty {
                    children.append(.element(XMLElement("context-group", attributes: [XMLAttribute(name: "purpose", value: "information")],
                                                        children: contexts.map { type, text in
                        .element(XMLElement("context", text: text, attributes: [XMLAttribute(name: "context-type", value: type)]))
                    })))
                }
                var attributes = [XMLAttribute(name: "id", value: id), XMLAttribute(name: "xml:space", value: "preserve")]
                if entry.shouldTranslate == false { attributes.append(XMLAttribute(name: "translate", value: "no")) }
                units.append(.element(XMLElement("trans-unit", attributes: attributes, children: children)))
            }
        }
        var fileAttributes = [XMLAttribute(name: "original", value: original), XMLAttribute(name: "source-language", value: source)]
        fileAttributes.append(XMLAttribute(name: "target-language", value: target))
        fileAttributes.append(XMLAttribute(name: "datatype", value: "plaintext"))
        let header = XMLElement("header", children: [.element(XMLElement("tool", attributes: [
            XMLAttribute(name: "tool-id", value: "com.apple.dt.xcode"), XMLAttribute(name: "tool-name", value: "Xcode"),
            XMLAttribute(name: "tool-version", value: catalog.presentation[Layout.self]?.toolVersion ?? "16.0"),
        ]))])
        let file = XMLElement("file", attributes: fileAttributes, children: [.element(header), .element(XMLElement("body", children: units))])
        let root = XMLElement("xliff", attributes: [XMLAttribute(name: "version", value: "1.2")], children: [.element(file)],
                              namespaceDeclarations: [.init(prefix: nil, uri: Self.namespace)]).indented(by: "  ")
        do {
            return Encoded(bytes: try XMLDocument(root: root).serialized() + [ASCII.lineFeed], diagnostics: losses.diagnostics(target: format.id))
        } catch {
            throw Diagnostic.error(.xmlUnwritable(reason: error.message))
        }
    }

    /// `plural.one` stays; `substitution.days.one` is written `substitutions.days.plural.one`.
    static func xliffPath(_ path: String) -> String {
        var parts = path.split(separator: ".").map(String.init)
        var index = 0
        while index < parts.count {
            if parts[index] == "substitution", index + 2 < parts.count {
                parts[index] = "substitutions"
                parts.insert("plural", at: index + 2)
                index += 3
            } else {
                index += 1
            }
        }
        return parts.joined(separator: ".")
    }

    static func text(_ translation: Translation?, _ path: String) -> String? {
        translation?.texts.first { $0.path == path }?.text
    }

    /// The value first, then variants in CLDR order.
    static func ordered(_ paths: Set<String>) -> [String] {
        func rank(_ path: String) -> [Int] {
            let parts = path.split(separator: ".")
            return parts.indices.map { index in
                // device.other is a device's name, not the plural form.
                if index > 0 && parts[index - 1] == "device" { return 100 }
                return PluralCategory(rawValue: String(parts[index])).map { PluralCategory.allCases.firstIndex(of: $0)! } ?? 100
            }
        }
        return paths.sorted { lhs, rhs in
            if lhs.isEmpty != rhs.isEmpty { return lhs.isEmpty }
            let left = lhs.split(separator: ".").dropLast().joined(separator: "."), right = rhs.split(separator: ".").dropLast().joined(separator: ".")
            if left != right { return left < right }
            let (leftRank, rightRank) = (rank(lhs), rank(rhs))
            // Names that are not plural forms (device.ipad, device.mac) rank alike: by name then,
            // or the order would be the set's, which changes from run to run.
            return leftRank != rightRank ? leftRank.lexicographicallyPrecedes(rightRank) : lhs < rhs
        }
    }
}
