import AlmanacCore
import AlmanacStrings

/// Changes of a few target texts in an XLIFF file, made in its bytes: the `<target>` of a
/// `<trans-unit>` gets a new text (and, for a draft, `state="needs-review-translation"`), or a unit
/// without one gets a `<target>` after its `<source>`, indented as the source is. Everything else —
/// the other units, attributes, notes, comments, spacing — stays byte for byte, which writing the
/// catalog again through libxml2 would not keep.
public enum XLIFFPatch {
    /// One text to set: the unit of `key` at `path` (a path of `Translation.texts`) in the `<file>`
    /// whose target language is `locale`.
    public struct Edit: Sendable {
        public var key: String
        public var path: String
        public var locale: String
        public var text: String
        /// The state to mark (`needs_review` is written `needs-review-translation`); nil keeps it.
        public var state: Translation.State?

        public init(key: String, path: String, locale: String, text: String, state: Translation.State? = nil) {
            self.key = key
            self.path = path
            self.locale = locale
            self.text = text
            self.state = state
        }
    }

    /// The bytes with the edits made; nil when a unit is not found once, or the file is not read
    /// as expected (then nothing is changed).
    public static func apply(_ edits: [Edit], to bytes: [UInt8]) -> [UInt8]? {
        guard var text = String(validating: bytes, as: UTF8.self) else { return nil }
        // From the last place in the file to the first, so that earlier offsets stay right.
        var replacements: [(range: Range<String.Index>, with: String)] = []
        // The units found once, by language and id (the same id twice in one language: no single unit).
        guard let units = units(in: text) else { return nil }
        for edit in edits {
            let id = edit.path.isEmpty ? edit.key : edit.key + XLIFFCodec.separator + XLIFFCodec.xliffPath(edit.path)
            guard let found = units[UnitID(locale: edit.locale, id: id)] ?? units[UnitID(locale: nil, id: id)], let unit = found,
                  let replacement = replacement(for: edit, unit: unit, in: text) else {
                return nil
            }
            replacements.append(replacement)
        }
        replacements.sort { $0.range.lowerBound > $1.range.lowerBound }
        for (index, replacement) in replacements.enumerated() where index > 0 {
            guard replacement.range.upperBound <= replacements[index - 1].range.lowerBound else { return nil }
        }
        for replacement in replacements { text.replaceSubrange(replacement.range, with: replacement.with) }
        return Array(text.utf8)
    }

    struct UnitID: Hashable {
        var locale: String?
        var id: String
    }

    /// The span of each `<trans-unit>`, by its `<file>`'s target language and its id; nil for an id
    /// two units of one language share. Nil when a unit is not closed.
    static func units(in text: String) -> [UnitID: Range<String.Index>?]? {
        var result: [UnitID: Range<String.Index>?] = [:]
        var fileLanguage: String?
        var position = text.startIndex
        while let open = next(tag: ["file", "trans-unit"], in: text, from: position) {
            let tag = text[open.range]
            if open.name == "file" {
                fileLanguage = attribute("target-language", in: tag)
                position = open.range.upperBound
                continue
            }
            guard let close = text.range(of: "</trans-unit>", range: open.range.upperBound..<text.endIndex) else { return nil }
            if let id = attribute("id", in: tag) {
                let key = UnitID(locale: fileLanguage, id: id)
                result[key] = result[key] == nil ? .some(open.range.lowerBound..<close.upperBound) : .some(nil)
            }
            position = close.upperBound
        }
        return result
    }

    /// The next start tag of one of `names` from `position`, past comments and CDATA sections.
    static func next(tag names: [String], in text: String, from position: String.Index) -> (name: String, range: Range<String.Index>)? {
        var position = position
        while let lt = text[position...].firstIndex(of: "<") {
            let rest = text[lt...]
            if rest.hasPrefix("<!--") {
                guard let end = text.range(of: "-->", range: lt..<text.endIndex) else { return nil }
                position = end.upperBound
                continue
            }
            if rest.hasPrefix("<![CDATA[") {
                guard let end = text.range(of: "]]>", range: lt..<text.endIndex) else { return nil }
                position = end.upperBound
                continue
            }
            guard let gt = rest.firstIndex(of: ">") else { return nil }
            let after = text.index(after: lt)
            for name in names where text[after...].hasPrefix(name) {
                let end = text.index(after, offsetBy: name.count)
                if end < text.endIndex, " \t\r\n>/".contains(text[end]) { return (name, lt..<text.index(after: gt)) }
            }
            position = text.index(after: lt)
        }
        return nil
    }

    /// An attribute's value in a start tag, unescaped.
    static func attribute(_ name: String, in tag: Substring) -> String? {
        var search = tag.startIndex
        while let match = tag.range(of: name, range: search..<tag.endIndex) {
            search = match.upperBound
            guard match.lowerBound > tag.startIndex, " \t\r\n".contains(tag[tag.index(before: match.lowerBound)]) else { continue }
            var index = match.upperBound
            while index < tag.endIndex, " \t\r\n".contains(tag[index]) { index = tag.index(after: index) }
            guard index < tag.endIndex, tag[index] == "=" else { continue }
            index = tag.index(after: index)
            while index < tag.endIndex, " \t\r\n".contains(tag[index]) { index = tag.index(after: index) }
            guard index < tag.endIndex, tag[index] == "\"" || tag[index] == "'" else { continue }
            let quote = tag[index]
            let start = tag.index(after: index)
            guard let end = tag[start...].firstIndex(of: quote) else { return nil }
            return XMLEscaping.unescaped(String(tag[start..<end]))
        }
        return nil
    }

    /// What replaces which part of the unit for the edit.
    static func replacement(for edit: Edit, unit: Range<String.Index>, in text: String) -> (Range<String.Index>, String)? {
        let escaped = XMLEscaping.escaped(edit.text).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
        let state = edit.state.map { XLIFFCodec.stateText($0) }
        if let open = next(tag: ["target"], in: text, from: unit.lowerBound), open.range.upperBound <= unit.upperBound {
            var tag = String(text[open.range])
            if tag.hasSuffix("/>") {
                // <target/>: an empty target, given its text.
                tag = String(tag.dropLast(2)).trimmingTrailingSpaces() + ">"
                return (open.range, withState(tag, state) + escaped + "</target>")
            }
            guard let close = text.range(of: "</target>", range: open.range.upperBound..<unit.upperBound) else { return nil }
            return (open.range.lowerBound..<close.lowerBound, withState(tag, state) + escaped)
        }
        // No target: one after the source, on a line of its own indented as the source's.
        guard let sourceClose = text.range(of: "</source>", range: unit) else { return nil }
        let lineStart = text[unit.lowerBound..<sourceClose.lowerBound].lastIndex(of: "\n").map { text.index(after: $0) }
        var indent = ""
        if let lineStart { indent = String(text[lineStart...].prefix { $0 == " " || $0 == "\t" }) }
        let target = "<target" + (state.map { " state=\"\($0)\"" } ?? "") + ">" + escaped + "</target>"
        return (sourceClose.upperBound..<sourceClose.upperBound, (lineStart == nil ? "" : "\n" + indent) + target)
    }

    /// The start tag with its `state` attribute set to `state` (nil: as it is).
    static func withState(_ tag: String, _ state: String?) -> String {
        guard let state else { return tag }
        let body = Substring(tag)
        if let value = attribute("state", in: body), let range = tag.range(of: "state=\"" + XMLEscaping.escaped(value) + "\"") ?? tag.range(of: "state='" + value + "'") {
            return tag.replacingCharacters(in: range, with: "state=\"\(state)\"")
        }
        return String(tag.dropLast()) + " state=\"\(state)\">"
    }
}
