import AlmanacBytes
import AlmanacCore

/// Where the pieces of a `.stringsdict`'s XML text are, so a file written back keeps its layout:
/// the text through the top `<dict>`, each entry's own text (`<key>…</key>` and its value, as
/// written: indentation, comments, variable order, rule types Almanac does not model), the
/// whitespace and comments before each, and the text from the closing `</dict>` on. The codec
/// writes an entry that still holds what it held as its text and a changed or new one in the
/// file's indentation.
struct StringsdictLayout {
    var head: String
    /// Each top-level entry in the file's order: its key, its text, and what is before it.
    var entries: [(key: String, text: String, before: String)]
    /// Whitespace and comments after the last entry.
    var trail: String
    /// From the closing `</dict>` to the end of the file.
    var tail: String

    /// The layout of a text property list; nil when it is not one this scanner follows (the
    /// parser has already accepted the XML, so this only declines unusual shapes).
    init?(_ bytes: [UInt8]) {
        var scanner = Scanner(bytes: bytes)
        guard scanner.skip(past: Array("<plist".utf8)), scanner.skip(past: [ASCII.greaterThan]) else { return nil }
        scanner.skipSpaceAndComments()
        guard scanner.startsWith("<dict>") else { return nil }
        scanner.position += 6
        let headEnd = scanner.position
        var entries: [(String, String, String)] = []
        while true {
            let beforeStart = scanner.position
            scanner.skipSpaceAndComments()
            if scanner.startsWith("</dict>") {
                head = String(decoding: bytes[0..<headEnd], as: UTF8.self)
                self.entries = entries
                trail = String(decoding: bytes[beforeStart..<scanner.position], as: UTF8.self)
                tail = String(decoding: bytes[scanner.position...], as: UTF8.self)
                return
            }
            let start = scanner.position
            guard scanner.startsWith("<key>") else { return nil }
            scanner.position += 5
            let keyStart = scanner.position
            guard scanner.skip(past: Array("</key>".utf8)) else { return nil }
            let key = StringsdictFile.unescapeXML(String(decoding: bytes[keyStart..<(scanner.position - 6)], as: UTF8.self))
            scanner.skipSpaceAndComments()
            guard scanner.skipElement() else { return nil }
            entries.append((key, String(decoding: bytes[start..<scanner.position], as: UTF8.self),
                            String(decoding: bytes[beforeStart..<start], as: UTF8.self)))
        }
    }

    /// The indentation of one level: a tab, or the spaces before the first entry's key.
    var indentUnit: String {
        guard let before = entries.first?.before, let line = before.split(separator: "\n", omittingEmptySubsequences: false).last,
              !line.isEmpty, line.allSatisfy({ $0 == " " || $0 == "\t" }) else { return "\t" }
        return String(line)
    }

    /// A cursor over the XML text.
    struct Scanner {
        let bytes: [UInt8]
        var position = 0

        func startsWith(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard position + count <= bytes.count else { return false }
            return text.withUTF8Buffer { bytes[position..<(position + count)].elementsEqual($0) }
        }

        /// Moves past the next `marker`; false when there is none.
        mutating func skip(past marker: [UInt8]) -> Bool {
            guard let found = bytes[position...].firstRange(of: marker) else { return false }
            position = found.upperBound
            return true
        }

        mutating func skipSpaceAndComments() {
            while position < bytes.count {
                if [ASCII.space, ASCII.tab, ASCII.lineFeed, ASCII.carriageReturn].contains(bytes[position]) {
                    position += 1
                } else if startsWith("<!--") {
                    guard skip(past: Array("-->".utf8)) else { position = bytes.count; return }
                } else {
                    return
                }
            }
        }

        /// Moves past one element (with what it holds): `<string>…</string>`, `<dict>…</dict>`, `<true/>`.
        mutating func skipElement() -> Bool {
            var depth = 0
            while position < bytes.count {
                guard bytes[position] == ASCII.lessThan else {
                    position += 1
                    continue
                }
                if startsWith("<!--") {
                    guard skip(past: Array("-->".utf8)) else { return false }
                    continue
                }
                if startsWith("<![CDATA[") {
                    guard skip(past: Array("]]>".utf8)) else { return false }
                    continue
                }
                let closing = position + 1 < bytes.count && bytes[position + 1] == ASCII.slash
                guard skip(past: [ASCII.greaterThan]) else { return false }
                let selfClosing = bytes[position - 2] == ASCII.slash
                if closing { depth -= 1 } else if !selfClosing { depth += 1 }
                if depth == 0 { return true }
            }
            return false
        }
    }
}
