public import AlmanacCore
import AlmanacBytes
import AlmanacICU

/// Xcode String Catalogs (`.xcstrings`, JSON): every locale of a table in one file, with review
/// states, extraction states, plural and device variations and substitutions. Written exactly in
/// Xcode's layout (keys sorted, two-space indent, `" : "`), so opening and saving the file in
/// Xcode after Almanac wrote it changes nothing, and a file read and written unchanged is the same
/// bytes.
public struct XCStringsCodec: Codec {
    public init() {}

    /// Built once: registries ask every codec for it on every file.
    public var format: FormatDescription { Self.formatDescription }
    static let formatDescription = XCStringsCodec().makeFormat()

    func makeFormat() -> FormatDescription {
        FormatDescription(
            id: "xcstrings",
            name: "Xcode String Catalog",
            summary: "Localizable.xcstrings: every locale of a table in one JSON file, with states, plural and device variations.",
            aliases: ["string-catalog"],
            extensions: [".xcstrings"],
            mediaTypes: ["application/json"],
            model: .catalog,
            options: [],
            examples: [
                .init(summary: "A countdown in three languages", input: """
                    {
                      "sourceLanguage" : "en",
                      "strings" : {
                        "countdown.days-left" : {
                          "comment" : "Days until the event",
                          "extractionState" : "manual",
                          "localizations" : {
                            "en" : {
                              "variations" : {
                                "plural" : {
                                  "one" : {
                                    "stringUnit" : {
                                      "state" : "translated",
                                      "value" : "%lld day left"
                                    }
                                  },
                                  "other" : {
                                    "stringUnit" : {
                                      "state" : "translated",
                                      "value" : "%lld days left"
                                    }
                                  }
                                }
                              }
                            },
                            "zh-Hans" : {
                              "stringUnit" : {
                                "state" : "translated",
                                "value" : "还有 %lld 天"
                              }
                            },
                            "zh-Hant" : {
                              "stringUnit" : {
                                "state" : "needs_review",
                                "value" : "還有 %lld 天"
                              }
                            }
                          }
                        }
                      },
                      "version" : "1.0"
                    }
                    """),
            ])
    }

    public func identify(_ probe: Probe) -> Identification {
        let text = probe.text.prefix(4096).drop { $0.isWhitespace }
        guard text.hasPrefix("{") else { return .no }
        return text.contains("\"sourceLanguage\"") && text.contains("\"strings\"") ? .yes : .cannotTell
    }

    // MARK: Reading

    public func decode(_ input: CodecInput, context: CodecContext) throws(Diagnostic) -> Decoded {
        var diagnostics: [Diagnostic] = []
        let catalog = try XCStringsFile.catalog(try input.readAll(), fileName: input.fileName, diagnostics: &diagnostics)
        return Decoded(document: .catalog(catalog), diagnostics: diagnostics, encoding: "UTF-8")
    }

    // MARK: Writing

    public func encode(_ document: Document, context: CodecContext) throws(Diagnostic) -> Encoded {
        guard case .catalog(let catalog) = document else {
            throw Diagnostic.error(.convertModelMismatch(model: document.kind.rawValue, format: format.id, expected: ModelKind.catalog.rawValue))
        }
        if let text = Self.inSourceLayout(catalog) { return Encoded(bytes: Array(text.utf8)) }
        // A catalog read from a string catalog keeps its order; others are sorted as Xcode sorts.
        let layout = catalog.presentation[XCStringsFile.CatalogLayout.self]
        let entries = layout?.version != nil ? catalog.entries : catalog.entries.sorted { XcodeKeyOrder.precedes($0.key, $1.key) }
        let top: JSONValue = .object([("sourceLanguage", .string(catalog.sourceLanguage)), ("strings", .object(entries.map { ($0.key, Self.json($0)) })),
                                      ("version", .string(catalog.stringCatalogVersion ?? "1.0"))])
        let writer = XcodeJSON(escapesSlash: layout?.escapesSlash == true)
        return Encoded(bytes: Array(writer.text(top).utf8))
    }

    /// A catalog read from a string catalog, written in that file's layout: each entry that still
    /// holds what it held is its text as read, a changed or new one is written in the file's
    /// style, and the text around the entries is as it was (so a file read and written unchanged
    /// is the same bytes, and a one-key change is a one-entry diff, whoever wrote the file). Nil
    /// when the catalog was not read so, has no entries, or changed its source language.
    static func inSourceLayout(_ catalog: Catalog) -> String? {
        guard let layout = catalog.presentation[XCStringsFile.CatalogLayout.self], let file = layout.text,
              file.sourceLanguage == catalog.sourceLanguage, !catalog.entries.isEmpty else { return nil }
        // Kept in the file's order; new keys go where Xcode's order puts them when the file was in it.
        let read = catalog.entries.filter { $0.presentation[XCStringsFile.EntryLayout.self]?.text != nil }
        let wasSorted = zip(read, read.dropFirst()).allSatisfy { XcodeKeyOrder.precedes($0.key, $1.key) }
        let entries = wasSorted ? catalog.entries.sorted { XcodeKeyOrder.precedes($0.key, $1.key) } : catalog.entries
        let style = file.style
        let separator = file.separator ?? ("," + (file.lead.isEmpty && style.spacedSeparator ? " " : file.lead))
        var text = file.head
        for (index, entry) in entries.enumerated() {
            let kept = entry.presentation[XCStringsFile.EntryLayout.self]
            if index == 0 {
                text += file.lead
            } else if let before = kept?.before, before.contains(",") {
                text += before
            } else {
                text += separator
            }
            if let original = kept?.text, kept?.fingerprint == entry.hashValue {
                text += original
            } else {
                text += Self.text(of: entry, style: style, escapingSlash: layout.escapesSlash)
            }
        }
        return text + file.trail + file.tail
    }

    /// One entry, `"key" : { … }`, written in a file's style at the depth of `strings`' members.
    static func text(of entry: CatalogEntry, style: XCStringsStyle, escapingSlash: Bool) -> String {
        let jsonLayout = layout(style, escapingSlash: escapingSlash)
        // An object holding the one member, at the depth of `strings` (its members one level in).
        var writer = JSONWriter(layout: jsonLayout, capacity: 1024, level: 1)
        writer.value(.object([(entry.key, json(entry))]))
        var bytes = writer.take()
        if let indent = style.indent {
            // Drop `{`, the line break and indent before the member, and the line break, indent and `}` after it.
            let open = 2 + 2 * indent
            let close = 2 + indent
            bytes = Array(bytes[open..<(bytes.count - close)])
        } else {
            bytes = Array(bytes[1..<(bytes.count - 1)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// How JSON is written in a file of this style.
    static func layout(_ style: XCStringsStyle, escapingSlash: Bool) -> JSONWriter.Layout {
        if style.isXcode { return .xcode(escapingSlash: escapingSlash) }
        let colon: StaticString
        switch style.colon {
        case .spaced: colon = " : "
        case .trailing: colon = ": "
        case .bare: colon = ":"
        }
        return JSONWriter.Layout(indent: style.indent, colon: colon, separator: style.spacedSeparator ? ", " : ",",
                                 escaping: escapingSlash ? .slash : [], emptyContainersOnThreeLines: style.isXcode)
    }

    /// The style a catalog read from a String Catalog was written in, nil for one from elsewhere.
    static func style(of catalog: Catalog) -> XCStringsStyle? {
        catalog.presentation[XCStringsFile.CatalogLayout.self]?.text?.style
    }

    /// An entry's members as Xcode orders them.
    static func json(_ entry: CatalogEntry) -> JSONValue {
        var members: [(String, JSONValue)] = []
        if let comment = entry.comment { members.append(("comment", .string(comment))) }
        if let state = entry.extractionState { members.append(("extractionState", .string(state))) }
        if !entry.translations.isEmpty {
            members.append(("localizations", .object(entry.translations.sorted { XcodeKeyOrder.precedes($0.key, $1.key) }.map { ($0.key, Self.json($0.value)) })))
        }
        if let flag = entry.shouldTranslate { members.append(("shouldTranslate", .bool(flag))) }
        if let extra = entry.presentation[XCStringsFile.EntryLayout.self]?.extra, let json = try? JSONValue(parsing: Array(extra.utf8)),
           let more = json.object {
            members += more
        }
        return .object(members.sorted { XcodeKeyOrder.precedes($0.0, $1.0) })
    }

    static func unit(_ value: String, _ state: Translation.State?) -> JSONValue {
        var members: [(String, JSONValue)] = []
        members.append(("state", .string((state ?? .translated).rawValue)))
        members.append(("value", .string(value)))
        return .object([("stringUnit", .object(members))])
    }

    /// Plural forms, each with its state (that of `translation` at `prefix` + the category).
    static func pluralJSON(_ forms: [PluralCategory: String], of translation: Translation, prefix: String) -> JSONValue {
        .object(forms.sorted { $0.key.rawValue < $1.key.rawValue }.map {
            ($0.key.rawValue, unit($0.value, translation.state(at: prefix + $0.key.rawValue)))
        })
    }

    static func json(_ translation: Translation) -> JSONValue {
        var members: [(String, JSONValue)] = []
        if let value = translation.value, translation.plural == nil || translation.substitutions != nil {
            members += unit(value, translation.state(at: "")).object!
        }
        if let substitutions = translation.substitutions {
            members.append(("substitutions", .object(substitutions.sorted { XcodeKeyOrder.precedes($0.key, $1.key) }.map { name, substitution in
                var parts: [(String, JSONValue)] = []
                if let argument = substitution.argument { parts.append(("argNum", .integer(argument))) }
                parts.append(("formatSpecifier", .string(substitution.formatSpecifier)))
                parts.append(("variations", .object([("plural", pluralJSON(substitution.plural, of: translation, prefix: "substitution.\(name)."))])))
                return (name, .object(parts))
            })))
        }
        var variations: [(String, JSONValue)] = []
        if let devices = translation.devices {
            variations.append(("device", .object(devices.sorted { XcodeKeyOrder.precedes($0.key, $1.key) }.map { ($0.key, json($0.value)) })))
        }
        if let plural = translation.plural { variations.append(("plural", pluralJSON(plural, of: translation, prefix: "plural."))) }
        if !variations.isEmpty { members.append(("variations", .object(variations))) }
        if let extra = translation.presentation[XCStringsFile.UnmodeledMembers.self]?.json, let json = try? JSONValue(parsing: Array(extra.utf8)),
           let more = json.object {
            members += more
        }
        return .object(members.sorted { XcodeKeyOrder.precedes($0.0, $1.0) })
    }
}

/// JSON the way Xcode writes string catalogs: two-space indent, `" : "` between key and value,
/// empty containers over three lines, non-ASCII text as is (`JSONWriter.Layout.xcode`).
struct XcodeJSON {
    var escapesSlash = false

    func text(_ value: JSONValue) -> String {
        var writer = JSONWriter(layout: .xcode(escapingSlash: escapesSlash), capacity: 64 * 1024)
        writer.value(value)
        return String(decoding: writer.take(), as: UTF8.self)
    }
}
