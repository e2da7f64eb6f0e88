import AlmanacBytes
public import AlmanacCore

/// Changes of a few texts in a String Catalog, made in its bytes: a `value` string gets a new text,
/// or an entry's `localizations` gets a new locale (a draft) written in the file's own style, where
/// Xcode's order puts it among the others. Everything else — the other members' order, spacing,
/// escapes — stays byte for byte; writing the entry again would order its localizations as Xcode
/// does and lay them out as the file's first entry is.
public enum XCStringsPatch {
    public struct Edit: Sendable {
        public var key: String
        public var locale: String
        /// The text's path (`Translation.texts`), for a new text.
        public var path: String
        public var text: String
        /// A new localization instead of a new text: written whole.
        public var translation: Translation?

        public init(key: String, locale: String, path: String, text: String) {
            self.key = key
            self.locale = locale
            self.path = path
            self.text = text
        }

        public init(key: String, locale: String, adding translation: Translation) {
            self.key = key
            self.locale = locale
            path = ""
            text = ""
            self.translation = translation
        }
    }

    /// The bytes with the edits made, given the catalog they decode to (for the file's style); nil
    /// when a text is not where the catalog says, or the file is laid out on one line.
    public static func apply(_ edits: [Edit], to bytes: [UInt8], catalog: Catalog) -> [UInt8]? {
        guard let style = XCStringsCodec.style(of: catalog) else { return nil }
        let layout = XCStringsCodec.layout(style, escapingSlash: catalog.presentation[XCStringsFile.CatalogLayout.self]?.escapesSlash == true)
        var replacements: [(range: Range<Int>, bytes: [UInt8])] = []
        var json = JSONBytes(bytes: bytes)
        guard let root = json.value(at: 0), let strings = json.member("strings", of: root) else { return nil }
        // The entries found once: a catalog of 50,000 keys is not walked again for each edit.
        var entries: [String: Range<Int>] = [:]
        for member in json.members(of: strings) where entries[member.key] == nil { entries[member.key] = member.value }
        for edit in edits {
            guard let entry = entries[edit.key] else { return nil }
            if let translation = edit.translation {
                guard let indent = style.indent, let localizations = json.member("localizations", of: entry),
                      json.member(edit.locale, of: localizations) == nil,
                      let insertion = insertion(of: edit.locale, translation, in: localizations, json: &json, layout: layout, indent: indent)
                else { return nil }
                replacements.append(insertion)
                continue
            }
            guard let localizations = json.member("localizations", of: entry), let localization = json.member(edit.locale, of: localizations),
                  let unit = json.path(edit.path, from: localization), let value = json.member("value", of: unit),
                  json.bytes[value.lowerBound] == ASCII.quote else { return nil }
            var writer = JSONWriter(layout: layout, capacity: edit.text.utf8.count + 16)
            writer.value(.string(edit.text))
            replacements.append((value, writer.take()))
        }
        replacements.sort { $0.range.lowerBound > $1.range.lowerBound }
        for (index, replacement) in replacements.enumerated() where index > 0 {
            guard replacement.range.upperBound <= replacements[index - 1].range.lowerBound else { return nil }
        }
        var result = bytes
        for replacement in replacements { result.replaceSubrange(replacement.range, with: replacement.bytes) }
        return result
    }

    /// A new member of `localizations`, after the member Xcode's order puts before it (or first),
    /// indented as its siblings are.
    static func insertion(of locale: String, _ translation: Translation, in localizations: Range<Int>, json: inout JSONBytes,
                          layout: JSONWriter.Layout, indent: Int) -> (range: Range<Int>, bytes: [UInt8])? {
        let members = json.members(of: localizations)
        guard let first = members.first else { return nil }
        // The text before a member: a line break and the siblings' indent.
        var lineStart = first.keyStart
        while lineStart > localizations.lowerBound, json.bytes[lineStart - 1] != ASCII.lineFeed { lineStart -= 1 }
        let siblingIndent = Array(json.bytes[lineStart..<first.keyStart])
        guard siblingIndent.allSatisfy({ $0 == ASCII.space || $0 == ASCII.tab }) else { return nil }
        // The member written at depth 0 in an object of its own, its lines then moved to the siblings' indent.
        var writer = JSONWriter(layout: layout, capacity: 512)
        writer.value(.object([(locale, XCStringsCodec.json(translation))]))
        let text = String(decoding: writer.take(), as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().dropLast().map(String.init)
        let unit = String(repeating: " ", count: indent)
        lines = lines.map { line in String(decoding: siblingIndent, as: UTF8.self) + (line.hasPrefix(unit) ? String(line.dropFirst(unit.count)) : line) }
        let member = Array(lines.joined(separator: "\n").utf8)
        if let before = members.last(where: { XcodeKeyOrder.precedes($0.key, locale) }) {
            // After the member that precedes it: `,` and a line break, then the member.
            return (before.valueEnd..<before.valueEnd, Array(",\n".utf8) + member)
        }
        // First: the member, `,` and a line break, then the first member's indent again.
        return (first.keyStart..<first.keyStart, Array(member.drop { $0 == ASCII.space || $0 == ASCII.tab }) + Array(",\n".utf8) + siblingIndent)
    }
}

/// Positions in JSON text (valid JSON, as a String Catalog that decoded is): the span of a value,
/// and the members of an object, found with the layout reader's scanner.
struct JSONBytes {
    let bytes: [UInt8]

    struct Member {
        var key: String
        var keyStart: Int
        var value: Range<Int>
        var valueEnd: Int { value.upperBound }
    }

    /// The span of the value starting at `start` (after spaces).
    func value(at start: Int) -> Range<Int>? {
        var scanner = XCStringsLayout.Scanner(bytes: bytes, position: start)
        scanner.skipSpace()
        let begin = scanner.position
        return scanner.skipValue() ? begin..<scanner.position : nil
    }

    /// The members of the object spanning `object`.
    func members(of object: Range<Int>) -> [Member] {
        var scanner = XCStringsLayout.Scanner(bytes: bytes, position: object.lowerBound)
        guard scanner.take(ASCII.openBrace) else { return [] }
        var result: [Member] = []
        while scanner.position < object.upperBound {
            scanner.skipSpace()
            let keyStart = scanner.position
            guard let key = scanner.string() else { return result }
            scanner.skipSpace()
            guard scanner.take(ASCII.colon) else { return result }
            scanner.skipSpace()
            let valueStart = scanner.position
            guard scanner.skipValue() else { return result }
            result.append(Member(key: key, keyStart: keyStart, value: valueStart..<scanner.position))
            scanner.skipSpace()
            guard scanner.take(ASCII.comma) else { return result }
        }
        return result
    }

    func member(_ name: String, of object: Range<Int>) -> Range<Int>? {
        members(of: object).first { $0.key == name }?.value
    }

    /// The `stringUnit` of a text at a path of `Translation.texts`, from a localization.
    func path(_ path: String, from localization: Range<Int>) -> Range<Int>? {
        var parts = path.split(separator: ".").map(String.init)
        var node = localization
        while !parts.isEmpty {
            let part = parts.removeFirst()
            switch part {
            case "plural", "device":
                guard let variations = member("variations", of: node), let kind = member(part, of: variations), !parts.isEmpty,
                      let next = member(parts.removeFirst(), of: kind) else { return nil }
                node = next
            case "substitution":
                guard parts.count >= 2, let substitutions = member("substitutions", of: node), let named = member(parts.removeFirst(), of: substitutions)
                else { return nil }
                node = named
                parts.insert("plural", at: 0)
            default:
                return nil
            }
        }
        return member("stringUnit", of: node)
    }
}
