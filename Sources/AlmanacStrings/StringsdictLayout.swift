import AlmanacBytes

/// Where the pieces of a `.stringsdict`'s XML text are: the text through the top `<dict>`, each
/// entry (`<key>…</key>` and its value, as written: indentation, comments, variable order, rule
/// types Almanac does not model), the whitespace and comments before each, and the text from the
/// closing `</dict>` on. The codec writes an entry that still holds what it held as its text (so a
/// file keeps its layout); the Foundation reader takes the top keys' order and lines from it.
package struct StringsdictLayout {
    /// One top-level entry: its key, where its text is (from `<key>`), where its value starts, and
    /// where what comes before it starts (the end of the entry before).
    package struct Entry {
        package var key: String
        package var text: Range<Int>
        package var valueStart: Int
        package var before: Range<Int>
    }

    package let bytes: [UInt8]
    /// Through the top `<dict>`.
    package var head: Range<Int>
    package var entries: [Entry]
    /// Whitespace and comments after the last entry.
    package var trail: Range<Int>
    /// From the closing `</dict>` to the end of the file.
    package var tail: Range<Int>

    /// The layout of a text property list; nil when it is not one this scanner follows (a parser
    /// has already accepted the XML, so this only declines unusual shapes).
    package init?(_ bytes: [UInt8]) {
        self.bytes = bytes
        var scanner = Scanner(bytes: bytes)
        guard scanner.skip(past: Array("<plist".utf8)), scanner.skip(past: [ASCII.greaterThan]) else { return nil }
        scanner.skipSpaceAndComments()
        guard scanner.startsWith("<dict>") else { return nil }
        scanner.position += 6
        head = 0..<scanner.position
        entries = []
        while true {
            let beforeStart = scanner.position
            scanner.skipSpaceAndComments()
            if scanner.startsWith("</dict>") {
                trail = beforeStart..<scanner.position
                tail = scanner.position..<bytes.count
                return
            }
            let start = scanner.position
            guard scanner.startsWith("<key>") else { return nil }
            scanner.position += 5
            let keyStart = scanner.position
            guard scanner.skip(past: Array("</key>".utf8)) else { return nil }
            let key = XMLEscaping.unescaped(String(decoding: bytes[keyStart..<(scanner.position - 6)], as: UTF8.self))
            scanner.skipSpaceAndComments()
            let valueStart = scanner.position
            guard scanner.skipElement() else { return nil }
            entries.append(Entry(key: key, text: start..<scanner.position, valueStart: valueStart, before: beforeStart..<start))
        }
    }

    /// The text of a piece.
    package func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    /// The indentation of one level: a tab, or the spaces before the first entry's key.
    package var indentUnit: String {
        guard let before = entries.first.map({ text($0.before) }),
              let line = before.split(separator: "\n", omittingEmptySubsequences: false).last,
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
