import AlmanacBytes

/// Where the pieces of a string catalog's text are, so a catalog written back keeps the layout it
/// was read in: the text before the entries (`{`, `"sourceLanguage"`, `"strings" : {` and
/// whatever order and spacing a script or editor gave them), each entry's own text, the bytes
/// between entries, and the text after them. The codec writes an unchanged entry as its text and
/// a changed or new one in the source's style (`XCStringsStyle`), so a one-key change is a
/// one-entry diff whatever tool wrote the file.
package struct XCStringsLayout: Sendable {
    /// From the file's start through the `{` that opens `strings`.
    package var head: String
    /// Between that `{` and the first entry's key.
    package var lead: String
    /// Each entry, in the file's order: its text (`"key" : { … }`) and the bytes before it (the
    /// comma and line break after the entry before; `lead` for the first).
    package var entries: [(text: String, before: String)]
    /// Between the last entry and the `}` that closes `strings`.
    package var trail: String
    /// From that `}` to the end of the file.
    package var tail: String

    /// The layout of a string catalog's bytes; nil when `strings` is missing or empty, or the
    /// text is not the JSON object the parser already accepted.
    package init?(_ bytes: [UInt8]) {
        var scanner = Scanner(bytes: bytes)
        scanner.skipSpace()
        guard scanner.take(ASCII.openBrace) else { return nil }
        var stringsOpen: Int?
        var members: [(start: Int, end: Int)] = []
        var stringsClose = 0
        while true {
            scanner.skipSpace()
            guard let key = scanner.string() else { return nil }
            scanner.skipSpace()
            guard scanner.take(ASCII.colon) else { return nil }
            scanner.skipSpace()
            if key == "strings" && stringsOpen == nil {
                guard scanner.take(ASCII.openBrace) else { return nil }
                stringsOpen = scanner.position
                while true {
                    scanner.skipSpace()
                    if scanner.take(ASCII.closeBrace) { break }
                    let start = scanner.position
                    guard scanner.skipString() else { return nil }
                    scanner.skipSpace()
                    guard scanner.take(ASCII.colon) else { return nil }
                    scanner.skipSpace()
                    guard scanner.skipValue() else { return nil }
                    members.append((start, scanner.position))
                    scanner.skipSpace()
                    if scanner.take(ASCII.comma) { continue }
                    guard scanner.take(ASCII.closeBrace) else { return nil }
                    break
                }
                stringsClose = scanner.position - 1
            } else {
                guard scanner.skipValue() else { return nil }
            }
            scanner.skipSpace()
            if scanner.take(ASCII.comma) { continue }
            guard scanner.take(ASCII.closeBrace) else { return nil }
            break
        }
        guard let open = stringsOpen, let first = members.first, let last = members.last else { return nil }
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        head = text(0..<open)
        lead = text(open..<first.start)
        var previousEnd = open
        entries = members.map { member in
            defer { previousEnd = member.end }
            return (text(member.start..<member.end), text(previousEnd..<member.start))
        }
        trail = text(last.end..<stringsClose)
        tail = text(stringsClose..<bytes.count)
    }

    /// How the source writes an entry: its indent (nil when each entry is on one line), the text
    /// between a key and its value, and between the items of a one-line container. Read from the
    /// first entry and the line it starts on.
    package var style: XCStringsStyle {
        // An empty entry (`"" : {}`, which Xcode writes on one line in any file) says nothing of the
        // indent: the first entry that spans lines does.
        let entry = entries.first { $0.text.contains("\n") }?.text ?? entries[0].text
        let lastLine = lead.split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
        let column = lastLine.allSatisfy { $0 == " " } ? lastLine.count : 4
        let colon: XCStringsStyle.Colon
        // The first key's closing quote: the entry text starts with the quoted key.
        var scanner = Scanner(bytes: Array(entry.utf8))
        _ = scanner.skipString()
        let afterKey = String(decoding: scanner.bytes[scanner.position...].prefix(3), as: UTF8.self)
        if afterKey.hasPrefix(" : ") { colon = .spaced } else if afterKey.hasPrefix(": ") { colon = .trailing } else { colon = .bare }
        let oneLine = !entry.contains("\n")
        return XCStringsStyle(indent: oneLine ? nil : max(1, column / 2), colon: colon,
                              spacedSeparator: oneLine && entry.contains(", \""))
    }

    /// A cursor over valid JSON text (also what `XCStringsPatch` finds values with).
    package struct Scanner {
        package let bytes: [UInt8]
        package var position = 0

        package init(bytes: [UInt8], position: Int = 0) {
            self.bytes = bytes
            self.position = position
        }

        package mutating func skipSpace() {
            while position < bytes.count, [ASCII.space, ASCII.lineFeed, ASCII.carriageReturn, ASCII.tab].contains(bytes[position]) {
                position += 1
            }
        }

        package mutating func take(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        /// Moves past a string at the cursor; false when there is none.
        package mutating func skipString() -> Bool {
            guard take(ASCII.quote) else { return false }
            while position < bytes.count {
                switch bytes[position] {
                case ASCII.backslash: position += 2
                case ASCII.quote:
                    position += 1
                    return true
                default: position += 1
                }
            }
            return false
        }

        /// A string at the cursor, decoded (the top object's member names); nil when there is none.
        package mutating func string() -> String? {
            let start = position
            guard skipString() else { return nil }
            return (try? JSONValue(parsing: Array(bytes[start..<position])))?.string
        }

        /// Moves past one value (string, object, array, number or literal).
        package mutating func skipValue() -> Bool {
            guard position < bytes.count else { return false }
            switch bytes[position] {
            case ASCII.quote: return skipString()
            case ASCII.openBrace, ASCII.openBracket:
                var depth = 0
                while position < bytes.count {
                    switch bytes[position] {
                    case ASCII.quote:
                        guard skipString() else { return false }
                        continue
                    case ASCII.openBrace, ASCII.openBracket: depth += 1
                    case ASCII.closeBrace, ASCII.closeBracket:
                        depth -= 1
                        if depth == 0 {
                            position += 1
                            return true
                        }
                    default: break
                    }
                    position += 1
                }
                return false
            default:
                let start = position
                while position < bytes.count,
                      ![ASCII.comma, ASCII.closeBrace, ASCII.closeBracket, ASCII.space, ASCII.lineFeed, ASCII.carriageReturn, ASCII.tab]
                        .contains(bytes[position]) {
                    position += 1
                }
                return position > start
            }
        }
    }
}

/// How a string catalog writes an entry, for entries written in a source's layout.
package struct XCStringsStyle: Hashable, Sendable {
    /// Between a key and its value.
    package enum Colon: String, Sendable {
        /// `"key" : value`, as Xcode writes.
        case spaced = " : "
        /// `"key": value`, as Python's `json.dump` and most editors write.
        case trailing = ": "
        /// `"key":value`.
        case bare = ":"
    }

    /// Spaces per level; nil for an entry on one line.
    package var indent: Int?
    package var colon: Colon
    /// `, ` between the items of a one-line entry (else `,`).
    package var spacedSeparator: Bool

    package init(indent: Int?, colon: Colon, spacedSeparator: Bool) {
        self.indent = indent
        self.colon = colon
        self.spacedSeparator = spacedSeparator
    }

    /// Xcode's own: two spaces a level, `" : "`.
    package var isXcode: Bool { indent == 2 && colon == .spaced }
}
