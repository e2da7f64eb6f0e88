import Foundation

/// Apple's `.strings` files, read by their grammar (the old-style property-list strings format):
/// quoted or unquoted keys, `"key" = "value";` and the `"key";` shorthand, `/* */` and `//`
/// comments (the one right above an entry belongs to it), escapes `\n \t \" \\ \' \a \b \f \v \r`,
/// octal `\101`, `\U20AC` (surrogate pairs `\UD83D\UDE00` joined). UTF-8 or UTF-16, with or
/// without a byte order mark.
///
/// Every entry remembers the exact text it was read from, so a file whose entries did not change
/// is written back byte for byte; changed entries are written the way Xcode writes them.
public enum StringsFile {
    public struct Entry: Sendable {
        public var key: String
        public var value: String
        public var comment: String?
        public var line: Int
        public var column: Int
        /// Text between the previous entry and this one, without the entry's own comment.
        public var before: String
        /// The entry's comment as written (with its delimiters and the line break after it).
        public var commentText: String?
        /// The entry as written, from its key to its semicolon.
        public var text: String
        /// Later entries with a key an earlier one had, written just before this one: Apple's
        /// reader keeps their value, and a file written back keeps their lines.
        public var duplicatesBefore: [Duplicate] = []
    }

    /// A later entry for a key already read: its value and its lines as written.
    public struct Duplicate: Sendable {
        public var key: String
        public var value: String
        /// Text before it (blank lines and its comment), and the entry from key to semicolon.
        public var before: String
        public var text: String
    }

    /// Where the parser puts entries: a list (`Parsed`), or a store (`store(_:…)`).
    protocol EntrySink {
        /// The entry read earlier with this key (equal as Swift strings): where it is, its value
        /// and its line.
        func earlier(_ key: String) -> (position: Int, value: String, line: Int)?
        /// A later entry for the key of the entry at `position`: its value replaces the earlier
        /// one's; `keeping` is its lines as written, when the layout is kept.
        mutating func replace(_ position: Int, value: String, comment: String?, keeping: Duplicate?)
        mutating func add(_ entry: Entry)
    }

    /// Entries in a list, with the duplicates they come after.
    struct EntryList: EntrySink {
        let keepLayout: Bool
        var entries: [Entry] = []
        var duplicates: [Duplicate] = []
        var seen: [String: Int] = [:]

        func earlier(_ key: String) -> (position: Int, value: String, line: Int)? {
            seen[key].map { ($0, entries[$0].value, entries[$0].line) }
        }

        mutating func replace(_ position: Int, value: String, comment: String?, keeping: Duplicate?) {
            entries[position].value = value
            // The comment stays the first one's when the later lines are kept as written.
            if !keepLayout { entries[position].comment = comment ?? entries[position].comment }
            if let keeping { duplicates.append(keeping) }
        }

        mutating func add(_ entry: Entry) {
            seen[entry.key] = entries.count
            var entry = entry
            entry.duplicatesBefore = duplicates
            entries.append(entry)
            duplicates.removeAll()
        }
    }

    public struct Parsed: Sendable {
        public var entries: [Entry]
        /// Text after the last entry.
        public var trailer: String
        /// Text before the first entry's, up to and with the brace of a braced file (`{`); empty
        /// for a file of entries alone.
        public var leader = ""
        /// Duplicate entries after the last entry.
        public var trailerDuplicates: [Duplicate] = []
        public var encoding: TextEncoding
        public var diagnostics: [Diagnostic]
    }

    /// How the bytes were (or are to be) encoded.
    public enum TextEncoding: String, Sendable, CaseIterable {
        case utf8 = "utf-8", utf8BOM = "utf-8-bom", utf16LE = "utf-16le", utf16BE = "utf-16be"
        case utf16LEBOM = "utf-16le-bom", utf16BEBOM = "utf-16be-bom"

        public var form: UnicodeForm {
            switch self {
            case .utf8, .utf8BOM: .utf8
            case .utf16LE, .utf16LEBOM: .utf16LE
            case .utf16BE, .utf16BEBOM: .utf16BE
            }
        }

        public init(_ form: UnicodeForm, byteOrderMark: Bool) throws(Diagnostic) {
            switch (form, byteOrderMark) {
            case (.utf8, false): self = .utf8
            case (.utf8, true): self = .utf8BOM
            case (.utf16LE, false): self = .utf16LE
            case (.utf16LE, true): self = .utf16LEBOM
            case (.utf16BE, false): self = .utf16BE
            case (.utf16BE, true): self = .utf16BEBOM
            case (.utf32LE, _), (.utf32BE, _): throw Diagnostic.error(.stringsNotUnicode(charset: form.rawValue))
            }
        }

        public var hasBOM: Bool { self == .utf8BOM || self == .utf16LEBOM || self == .utf16BEBOM }
    }

    // MARK: Decoding bytes

    /// The text of a file in whichever Unicode encoding it uses: a byte order mark, else UTF-16
    /// recognised by its zero bytes (Foundation on Linux reads it as UTF-8 and fails), else UTF-8.
    /// Needs no ICU; AlmanacCatalogs adds a declared charset and names legacy ones.
    public static func text(_ bytes: [UInt8], fileName: String?) throws(Diagnostic) -> (String, TextEncoding) {
        let encoding = try encoding(of: bytes, fileName: fileName)
        return (try decode(bytes, encoding: encoding, fileName: fileName), encoding)
    }

    /// The Unicode encoding `text` reads the bytes in, told from their first 64 KiB (the rest is
    /// checked when they are decoded).
    public static func encoding(of bytes: [UInt8], fileName: String?) throws(Diagnostic) -> TextEncoding {
        let sample = Array(bytes.prefix(64 * 1024))
        if let form = UnicodeDetection.byteOrderMark(sample) {
            do { return try TextEncoding(form, byteOrderMark: true) } catch { throw error.inFile(fileName) }
        } else if let utf16 = UnicodeDetection.utf16WithoutBOM(sample) {
            return utf16.littleEndian ? .utf16LE : .utf16BE
        } else if UTF8Validation.firstInvalidOffset(sample, allowTruncatedEnd: bytes.count > sample.count) == nil {
            return .utf8
        }
        throw Diagnostic.error(.stringsNotUnicode(charset: "another encoding"), at: SourceLocation(file: fileName))
    }

    /// The text of bytes in a known Unicode encoding, from after the byte order mark.
    public static func decode(_ bytes: [UInt8], encoding: TextEncoding, fileName: String?) throws(Diagnostic) -> String {
        let bomLength = encoding.hasBOM ? encoding.form.byteOrderMark.count : 0
        // Without a byte order mark the bytes are the body: no copy of a file that may be tens of
        // megabytes (an audit reads several at once).
        let body = bomLength == 0 ? bytes : Array(bytes.dropFirst(bomLength))
        if encoding.form == .utf8 {
            if let offset = UTF8Validation.firstInvalidOffset(body) {
                let (line, column) = position(of: offset, in: body)
                throw Diagnostic.error(.charsetInvalidBytes(charset: "UTF-8", offset: String(offset + bomLength)), at: SourceLocation(file: fileName, line: line, column: column))
            }
            return String(decoding: body, as: UTF8.self)
        }
        let units = UnicodeDetection.utf16Units(body, littleEndian: encoding.form == .utf16LE)
        guard body.count % 2 == 0, let text = String(validating: units, as: UTF16.self) else {
            let offset = UnicodeDetection.firstInvalidUTF16(units).map { $0 * 2 } ?? body.count - 1
            throw Diagnostic.error(.charsetInvalidBytes(charset: encoding.form.rawValue, offset: String(offset + bomLength)), at: SourceLocation(file: fileName))
        }
        return text
    }

    static func position(of offset: Int, in bytes: [UInt8]) -> (Int, Int) {
        var line = 1
        var lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == ASCII.lineFeed {
            line += 1
            lineStart = index + 1
        }
        return (line, offset - lineStart + 1)
    }

    // MARK: Parsing

    /// Parses a file. Without `keepLayout` the text around entries is not kept (for reading only:
    /// checks, conversions that do not write `.strings` back).
    public static func parse(_ text: String, fileName: String?, keepLayout: Bool = true) throws(Diagnostic) -> Parsed {
        var parser = Parser(bytes: Array(text.utf8), fileName: fileName)
        parser.keepLayout = keepLayout
        return try parser.run()
    }

    struct Parser {
        let bytes: [UInt8]
        let fileName: String?
        var index = 0
        var line = 1
        var lineStart = 0
        var diagnostics: [Diagnostic] = []
        /// What comes before the first entry's text in a braced file (see `run(into:)`).
        var leader = ""
        var keepLayout = true

        init(bytes: [UInt8], fileName: String?) {
            self.bytes = bytes
            self.fileName = fileName
        }

        var column: Int {
            // Columns count Unicode scalars, not bytes: the bytes that start a UTF-8 sequence
            // (counting grapheme clusters decoded every line of a Chinese file for each entry).
            var count = 1
            for offset in lineStart..<index where !UTF8Validation.isContinuation(bytes[offset]) { count += 1 }
            return count
        }

        func location(line: Int? = nil, column: Int? = nil) -> SourceLocation {
            SourceLocation(file: fileName, line: line ?? self.line, column: column ?? self.column)
        }

        func text(_ range: Range<Int>) -> String {
            String(decoding: bytes[range], as: UTF8.self)
        }

        mutating func advance() {
            if bytes[index] == ASCII.lineFeed {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }

        /// Skips white space and comments; returns the comments met, with their ranges.
        mutating func skipTrivia() throws(Diagnostic) -> [(range: Range<Int>, text: String, line: Bool)] {
            var comments: [(Range<Int>, String, Bool)] = []
            while index < bytes.count {
                let byte = bytes[index]
                if byte == ASCII.space || byte == ASCII.tab || byte == ASCII.lineFeed || byte == ASCII.carriageReturn || byte == ASCII.formFeed || byte == ASCII.verticalTab {
                    advance()
                } else if byte == ASCII.slash, index + 1 < bytes.count, bytes[index + 1] == ASCII.asterisk {
                    let start = index
                    let startLine = line, startColumn = column
                    index += 2
                    while index + 1 < bytes.count, !(bytes[index] == ASCII.asterisk && bytes[index + 1] == ASCII.slash) { advance() }
                    guard index + 1 < bytes.count else {
                        throw Diagnostic.error(.stringsUnterminatedComment, at: location(line: startLine, column: startColumn))
                    }
                    index += 2
                    comments.append((start..<index, text((start + 2)..<(index - 2)), false))
                } else if byte == ASCII.slash, index + 1 < bytes.count, bytes[index + 1] == ASCII.slash {
                    let start = index
                    while index < bytes.count, bytes[index] != ASCII.lineFeed { index += 1 }
                    comments.append((start..<index, text((start + 2)..<index), true))
                } else {
                    break
                }
            }
            return comments
        }

        static func isUnquoted(_ byte: UInt8) -> Bool {
            switch byte {
            case _ where ASCII.isAlphanumeric(byte): true
            case ASCII.underscore, ASCII.dollar, ASCII.plus, ASCII.slash, ASCII.colon, ASCII.period, ASCII.hyphen: true
            default: false
            }
        }

        /// A quoted or unquoted string.
        mutating func string(what: String) throws(Diagnostic) -> String {
            guard index < bytes.count else { throw Diagnostic.error(.stringsUnexpectedEnd(expected: what), at: location()) }
            let quote = bytes[index]
            if quote != ASCII.quote && quote != ASCII.apostrophe {
                guard Self.isUnquoted(quote) else {
                    throw Diagnostic.error(.stringsExpected(expected: what, found: Self.describe(bytes, at: index)), at: location())
                }
                let start = index
                while index < bytes.count, Self.isUnquoted(bytes[index]) { index += 1 }
                return text(start..<index)
            }
            let startLine = line, startColumn = column
            index += 1
            var result: [UInt8] = []
            var pendingHigh: (value: UInt32, line: Int, column: Int)?
            func flushHigh(_ parser: inout Parser) {
                if let high = pendingHigh {
                    parser.diagnostics.append(.warning(.stringsLoneSurrogate(code: String(high.value, radix: 16, uppercase: true)), at: parser.location(line: high.line, column: high.column)))
                    result.append(contentsOf: Array("\u{FFFD}".utf8))
                    pendingHigh = nil
                }
            }
            while true {
                guard index < bytes.count else {
                    throw Diagnostic.error(.stringsUnterminatedString, at: location(line: startLine, column: startColumn))
                }
                let byte = bytes[index]
                if byte == quote {
                    index += 1
                    break
                }
                if byte != ASCII.backslash {
                    flushHigh(&self)
                    result.append(byte)
                    advance()
                    continue
                }
                let escapeLine = line, escapeColumn = column
                index += 1
                guard index < bytes.count else { continue }
                let next = bytes[index]
                switch next {
                case UInt8(ascii: "U"), UInt8(ascii: "u"):  // \U or \u: up to four hex digits
                    index += 1
                    var value: UInt32 = 0
                    var digits = 0
                    while digits < 4, index < bytes.count, let digit = Self.hex(bytes[index]) {
                        value = value * 16 + digit
                        digits += 1
                        index += 1
                    }
                    guard digits > 0 else {
                        diagnostics.append(.warning(.stringsBadEscape(escape: "\\U"), at: location(line: escapeLine, column: escapeColumn)))
                        result.append(next)
                        continue
                    }
                    if (0xD800...0xDBFF).contains(value) {
                        flushHigh(&self)
                        pendingHigh = (value, escapeLine, escapeColumn)
                    } else if (0xDC00...0xDFFF).contains(value) {
                        if let high = pendingHigh {
                            let scalar = 0x10000 + ((high.value - 0xD800) << 10) + (value - 0xDC00)
                            result.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
                            pendingHigh = nil
                        } else {
                            diagnostics.append(.warning(.stringsLoneSurrogate(code: String(value, radix: 16, uppercase: true)), at: location(line: escapeLine, column: escapeColumn)))
                            result.append(contentsOf: Array("\u{FFFD}".utf8))
                        }
                    } else {
                        flushHigh(&self)
                        result.append(contentsOf: Array(String(Character(Unicode.Scalar(value)!)).utf8))
                    }
                case ASCII.zero...UInt8(ascii: "7"):  // octal, up to three digits
                    flushHigh(&self)
                    var value: UInt32 = 0
                    var digits = 0
                    while digits < 3, index < bytes.count, (ASCII.zero...UInt8(ascii: "7")).contains(bytes[index]) {
                        value = value * 8 + UInt32(bytes[index] - ASCII.zero)
                        digits += 1
                        index += 1
                    }
                    result.append(contentsOf: Array(String(Character(Unicode.Scalar(value)!)).utf8))
                default:
                    flushHigh(&self)
                    let mapped: UInt8? = switch next {
                    case UInt8(ascii: "n"): ASCII.lineFeed
                    case UInt8(ascii: "t"): ASCII.tab
                    case UInt8(ascii: "r"): ASCII.carriageReturn
                    case UInt8(ascii: "a"): ASCII.bell
                    case UInt8(ascii: "b"): ASCII.backspace
                    case UInt8(ascii: "f"): ASCII.formFeed
                    case UInt8(ascii: "v"): ASCII.verticalTab
                    case ASCII.quote, ASCII.apostrophe, ASCII.backslash, ASCII.lineFeed: next
                    default: nil
                    }
                    if let mapped {
                        result.append(mapped)
                        advance()
                    } else {
                        // Apple keeps the character and drops the backslash.
                        diagnostics.append(.note(.stringsUnknownEscape(escape: "\\" + String(decoding: [next], as: UTF8.self)), at: location(line: escapeLine, column: escapeColumn)))
                        advance()
                        result.append(next)
                    }
                }
            }
            flushHigh(&self)
            return String(decoding: result, as: UTF8.self)
        }

        static func hex(_ byte: UInt8) -> UInt32? { ASCII.hexValue(byte).map(UInt32.init) }

        static func describe(_ bytes: [UInt8], at index: Int) -> String {
            guard index < bytes.count else { return "end of file" }
            var end = index + 1
            while end < bytes.count, UTF8Validation.isContinuation(bytes[end]) { end += 1 }
            return "“" + String(decoding: bytes[index..<end], as: UTF8.self) + "”"
        }

        mutating func expect(_ byte: UInt8, what: String) throws(Diagnostic) {
            // Where the previous token ended: a missing `;` belongs there, not where the next
            // entry starts (lines later, after comments).
            let afterToken = location()
            let tokenEnd = index
            _ = try skipTrivia()
            guard index < bytes.count, bytes[index] == byte else {
                if byte == ASCII.semicolon, tokenEnd > 0, bytes[tokenEnd - 1] == ASCII.quote, index == tokenEnd, index < bytes.count,
                   bytes[index] != ASCII.lineFeed && bytes[index] != ASCII.carriageReturn {
                    // Text right after a value's closing quote: a quote inside the value that is
                    // not written \" ended it early (`"Turn on "Safe mode" first"`).
                    throw Diagnostic.error(.stringsUnescapedQuote(following: Self.describe(bytes, at: index)), at: location(line: afterToken.line, column: (afterToken.column ?? 2) - 1))
                }
                if byte == ASCII.semicolon, bytes.count > index, (afterToken.line ?? line) < line {
                    throw Diagnostic.error(.stringsMissingSemicolon(nextLine: String(line)), at: afterToken)
                }
                throw Diagnostic.error(.stringsExpected(expected: what, found: Self.describe(bytes, at: index)), at: byte == ASCII.semicolon ? afterToken : location())
            }
            index += 1
        }

        mutating func run() throws(Diagnostic) -> Parsed {
            var list = EntryList(keepLayout: keepLayout)
            let trailer = try run(into: &list)
            var parsed = Parsed(entries: list.entries, trailer: trailer, encoding: .utf8, diagnostics: diagnostics)
            parsed.trailerDuplicates = list.duplicates
            parsed.leader = leader
            return parsed
        }

        /// Reads every entry into `sink`; returns the text after the last one.
        mutating func run(into sink: inout some EntrySink) throws(Diagnostic) -> String {
            var previousEnd = 0
            // The entries may sit in one pair of braces: the file is then an old-style property list
            // dictionary written out (`{ key = "value"; }`), which NSBundle and plutil read alike.
            // The braces stay in the text around the entries, written back as they were.
            var braced = false, first = true
            while true {
                let comments = try skipTrivia()
                if braced, index == bytes.count { try expect(ASCII.closeBrace, what: "“}”") }
                guard index < bytes.count else { break }
                if first, bytes[index] == ASCII.openBrace {
                    braced = true
                    first = false
                    advance()
                    leader = text(0..<index)
                    previousEnd = index
                    continue
                }
                first = false
                if braced, bytes[index] == ASCII.closeBrace {
                    advance()
                    _ = try skipTrivia()
                    guard index == bytes.count else {
                        throw Diagnostic.error(.stringsTextAfterBrace(found: Self.describe(bytes, at: index)), at: location())
                    }
                    break
                }
                let start = index
                let startLine = line, startColumn = column
                // The last comment belongs to the entry when no blank line separates them.
                var comment: String?
                var commentStart = start
                if let last = comments.last {
                    let gap = bytes[last.range.upperBound..<start]
                    if gap.filter({ $0 == ASCII.lineFeed }).count <= 1 {
                        comment = Self.commentText(last.text, line: last.line)
                        commentStart = last.range.lowerBound
                        // Consecutive // lines above an entry form one comment.
                        if last.line {
                            var lines = [last]
                            for earlier in comments.dropLast().reversed() {
                                let between = bytes[earlier.range.upperBound..<lines[0].range.lowerBound]
                                guard earlier.line, between.allSatisfy({ $0 == ASCII.space || $0 == ASCII.tab || $0 == ASCII.lineFeed || $0 == ASCII.carriageReturn }),
                                      between.filter({ $0 == ASCII.lineFeed }).count == 1 else { break }
                                lines.insert(earlier, at: 0)
                            }
                            comment = lines.map { Self.commentText($0.text, line: true) }.joined(separator: "\n")
                            commentStart = lines[0].range.lowerBound
                        }
                    }
                }
                let key = try string(what: "key")
                _ = try skipTrivia()
                var value = key
                if index < bytes.count, bytes[index] == ASCII.equals {
                    index += 1
                    _ = try skipTrivia()
                    value = try string(what: "value")
                }
                try expect(ASCII.semicolon, what: "“;”")
                if let earlier = sink.earlier(key) {
                    let (earlierLine, laterLine) = (String(earlier.line), String(startLine))
                    diagnostics.append(.warning(earlier.value == value ? .catalogDuplicateKeySame(key: key, line: earlierLine, otherLine: laterLine)
                                                    : .catalogDuplicateKey(key: key, line: earlierLine, otherLine: laterLine),
                                                at: location(line: startLine, column: startColumn)))
                    // Apple keeps the last value; so does the model, at the first one's place. The
                    // later lines are kept for writing back.
                    sink.replace(earlier.position, value: value, comment: comment,
                                 keeping: keepLayout ? Duplicate(key: key, value: value, before: text(previousEnd..<start), text: text(start..<index)) : nil)
                    previousEnd = index
                    continue
                }
                sink.add(Entry(key: key, value: value, comment: comment, line: startLine, column: startColumn,
                               before: keepLayout ? text(previousEnd..<commentStart) : "",
                               commentText: comment == nil || !keepLayout ? nil : text(commentStart..<start),
                               text: keepLayout ? text(start..<index) : ""))
                previousEnd = index
            }
            return text(previousEnd..<bytes.count)
        }

        static func commentText(_ raw: String, line: Bool) -> String {
            if let first = raw.utf8.first, let last = raw.utf8.last, first > ASCII.space, last > ASCII.space, !line { return raw }
            if line {
                return raw.hasPrefix(" ") ? String(raw.dropFirst()).trimmingTrailingSpaces() : raw.trimmingTrailingSpaces()
            }
            // The spaces that pad /* and */ are layout; what is between is the comment.
            return raw.trimmingASCIISpace()
        }
    }

    // MARK: Layout kept for writing back

    /// How a `.strings` file was written around its entries, kept on its catalog.
    public struct CatalogLayout: PresentationLayout {
        /// The text after the last entry (comments, blank lines), written back as it was.
        public var trailer: String?
        /// The text before the first entry's, up to and with the `{` of a file whose entries are in
        /// braces (an old-style property list dictionary), written first.
        public var leader: String?
        /// Entries after the last one that repeat a key already read, as JSON (written back in place).
        public var duplicates: String?
        /// The encoding it was read in (a `TextEncoding`'s raw value), which a write keeps.
        public var encoding: String?
        /// `\r\n` for a file whose lines end so: what is written into it ends its lines so too.
        public var newline: String?

        public init(trailer: String? = nil, duplicates: String? = nil, encoding: String? = nil, newline: String? = nil, leader: String? = nil) {
            self.trailer = trailer
            self.leader = leader
            self.duplicates = duplicates
            self.encoding = encoding
            self.newline = newline
        }
    }

    /// How one entry was written, kept on its translation: an entry unchanged is written back as
    /// it was, comments and blank lines before it included.
    public struct EntryLayout: PresentationLayout {
        /// What stood before the entry (blank lines, comments not its own).
        public var before: String?
        /// The entry as written (`"key" = "value";`).
        public var text: String?
        /// Its comment as written, delimiters included.
        public var comment: String?
        /// The file's first entry: what stood before it starts the file.
        public var isFirst = false
        /// Entries before it that repeat a key already read, as JSON.
        public var duplicates: String?
        /// The value as its line reads (a later duplicate of the key may have set another).
        public var readValue: String?

        public init(before: String? = nil, text: String? = nil, comment: String? = nil, isFirst: Bool = false, duplicates: String? = nil,
                    readValue: String? = nil) {
            self.before = before
            self.text = text
            self.comment = comment
            self.isFirst = isFirst
            self.duplicates = duplicates
            self.readValue = readValue
        }
    }

    // MARK: Into the model

    /// The catalog of a parsed file, in one locale. With `keepLayout`, every entry keeps the text
    /// it was read from (and the file its trailer and duplicates), so it can be written back as it was.
    public static func catalog(_ parsed: Parsed, locale: String, sourceLanguage: String, fileName: String?, keepLayout: Bool) -> Catalog {
        var catalog = Catalog(sourceLanguage: sourceLanguage)
        catalog.presentation[CatalogLayout.self] = CatalogLayout(trailer: parsed.trailer,
                                                                 duplicates: parsed.trailerDuplicates.isEmpty ? nil : json(parsed.trailerDuplicates),
                                                                 leader: parsed.leader.isEmpty ? nil : parsed.leader)
        catalog.presentation[TableSource.self] = TableSource(table: CatalogPath.table(ofPath: fileName))
        catalog.entries.reserveCapacity(parsed.entries.count)
        // A comment that repeats the key (`/* settings.title */`) or the comment before it (Xcode's
        // "No comment provided by engineer.") shares that string's storage: one copy, not one per
        // entry, in a catalog of hundreds of thousands of keys.
        var previousComment: String?
        for entry in parsed.entries {
            var comment = entry.comment
            if let text = comment {
                if text == entry.key { comment = entry.key } else if text == previousComment { comment = previousComment }
                previousComment = comment
            }
            var translation = Translation(value: entry.value)
            translation.presentation = Presentation(origin: entry.line > 0 ? SourceLocation(file: fileName, line: entry.line, column: entry.column)
                                                        : SourceLocation(file: fileName, keyPath: entry.key))
            var layout = EntryLayout(comment: entry.commentText,
                                     duplicates: entry.duplicatesBefore.isEmpty ? nil : json(entry.duplicatesBefore))
            if keepLayout {
                layout.before = entry.before
                layout.text = entry.text
                // The file's first entry: what stood before it starts the file, not a line of its own.
                layout.isFirst = catalog.entries.isEmpty
                // The value as read: when a later duplicate set it, the first line still is as written.
                layout.readValue = entry.value
            }
            if layout != EntryLayout() { translation.presentation[EntryLayout.self] = layout }
            catalog.entries.append(CatalogEntry(key: entry.key, comment: comment, translations: [locale: translation]))
        }
        return catalog
    }

    /// A file's text parsed straight into a store of one locale, as `catalog(parse(text, …),
    /// keepLayout: false)` gives it, without the entries and the catalog in between (a file of
    /// 500,000 keys is then held as its bytes and the store). `bytes` are UTF-8, validated.
    public static func store(utf8 bytes: [UInt8], locale: String, sourceLanguage: String, fileName: String?) throws(Diagnostic)
        -> (store: CatalogStore, diagnostics: [Diagnostic])
    {
        var parser = Parser(bytes: bytes, fileName: fileName)
        parser.keepLayout = false
        var sink = StoreSink(store: CatalogStore(sourceLanguage: sourceLanguage), locale: locale, fileName: fileName)
        sink.store.startMerging()
        let trailer = try parser.run(into: &sink)
        sink.store.presentation[CatalogLayout.self] = CatalogLayout(trailer: trailer, leader: parser.leader.isEmpty ? nil : parser.leader)
        sink.store.presentation[TableSource.self] = TableSource(table: CatalogPath.table(ofPath: fileName))
        return (sink.store, parser.diagnostics)
    }

    /// Entries into a store, each a translation in `locale`.
    struct StoreSink: EntrySink {
        var store: CatalogStore
        let locale: String
        let fileName: String?

        func earlier(_ key: String) -> (position: Int, value: String, line: Int)? {
            guard let row = store.row(of: key), let earlier = store.value(at: row, locale: locale) else { return nil }
            return (row, earlier.value, earlier.line)
        }

        mutating func replace(_ position: Int, value: String, comment: String?, keeping: Duplicate?) {
            store.replaceValue(at: position, locale: locale, with: value)
            if let comment { store.replaceComment(at: position, with: comment) }
        }

        mutating func add(_ entry: Entry) {
            store.append(key: entry.key, comment: entry.comment, value: entry.value, locale: locale, file: fileName,
                         line: entry.line, column: entry.column)
        }
    }

    /// Duplicates as presentation text: `[[key, value, before, text], …]`.
    public static func json(_ duplicates: [Duplicate]) -> String {
        JSONValue.array(duplicates.map { .array([.string($0.key), .string($0.value), .string($0.before), .string($0.text)]) }).serialized()
    }

    // MARK: Writing

    /// The text of a generated entry: key and value quoted, escaped only where they must be.
    public static func entryText(key: String, value: String) -> String {
        "\"" + escape(key) + "\" = \"" + escape(value) + "\";"
    }

    /// An entry's text as it was written (`key="value" ;`, a comment between) with only its value
    /// replaced, so that the key, the spacing and the other escapes stay as they were; nil when the
    /// text is not one entry.
    public static func replacingValue(in entry: String, with value: String) -> String? {
        let scalars = Array(entry.unicodeScalars)
        var index = 0
        /// Past spaces, line breaks and comments.
        func skipBlank() {
            while index < scalars.count {
                let scalar = scalars[index]
                if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
                    index += 1
                } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
                    index += 2
                    while index + 1 < scalars.count, !(scalars[index] == "*" && scalars[index + 1] == "/") { index += 1 }
                    index += 2
                } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "/" {
                    while index < scalars.count, scalars[index] != "\n" { index += 1 }
                } else {
                    return
                }
            }
        }
        /// Past a quoted or bare token; false when there is none.
        func skipToken() -> Bool {
            guard index < scalars.count else { return false }
            if scalars[index] == "\"" {
                index += 1
                while index < scalars.count, scalars[index] != "\"" { index += scalars[index] == "\\" ? 2 : 1 }
                guard index < scalars.count else { return false }
                index += 1
                return true
            }
            let start = index
            while index < scalars.count, !" \t\r\n=;\"/".unicodeScalars.contains(scalars[index]) { index += 1 }
            return index > start
        }
        skipBlank()
        guard skipToken() else { return nil }
        skipBlank()
        guard index < scalars.count, scalars[index] == "=" else { return nil }
        index += 1
        skipBlank()
        let start = index
        guard skipToken() else { return nil }
        let end = index
        skipBlank()
        guard index < scalars.count, scalars[index] == ";" else { return nil }
        // A line break written as the old value wrote its own: `\n`, a backslash before a real
        // line break, or a real line break.
        let old = scalars[start..<end]
        var lineBreak = "\\n"
        if let first = old.indices.first(where: { old[$0] == "\n" }) {
            lineBreak = first > old.startIndex && old[first - 1] == "\\" ? "\\\n" : "\n"
        }
        let written = value.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
            .map { escape(String(String.UnicodeScalarView($0))) }.joined(separator: lineBreak)
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[..<start])
        result.append(contentsOf: ("\"" + written + "\"").unicodeScalars)
        result.append(contentsOf: scalars[end...])
        return String(result)
    }

    public static func commentText(_ comment: String) -> String {
        "/* " + comment.replacingOccurrences(of: "*/", with: "* /") + " */"
    }

    public static func escape(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case let control where control.value < 0x20 || control.value == ASCII.delete:
                result += "\\U" + String(repeating: "0", count: 4 - String(control.value, radix: 16).count)
                    + String(control.value, radix: 16, uppercase: true)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Encodes the text of a file.
    public static func bytes(_ text: String, encoding: TextEncoding) -> [UInt8] {
        switch encoding {
        case .utf8: return Array(text.utf8)
        case .utf8BOM: return UnicodeForm.utf8.byteOrderMark + Array(text.utf8)
        default:
            var result: [UInt8] = []
            result.reserveCapacity(text.utf16.count * 2 + 2)
            let littleEndian = encoding == .utf16LE || encoding == .utf16LEBOM
            if encoding.hasBOM { result += littleEndian ? UnicodeForm.utf16LE.byteOrderMark : UnicodeForm.utf16BE.byteOrderMark }
            for unit in text.utf16 {
                if littleEndian {
                    result.append(UInt8(unit & 0xFF))
                    result.append(UInt8(unit >> 8))
                } else {
                    result.append(UInt8(unit >> 8))
                    result.append(UInt8(unit & 0xFF))
                }
            }
            return result
        }
    }
}

extension String {
    /// Without white space at either end; ASCII white space is cut by bytes, anything else
    /// through Foundation.
    func trimmingASCIISpace() -> String {
        let utf8 = self.utf8
        guard let first = utf8.first, let last = utf8.last else { return self }
        func space(_ byte: UInt8) -> Bool { byte == ASCII.space || byte == ASCII.tab || byte == ASCII.lineFeed || byte == ASCII.carriageReturn }
        if first >= ASCII.firstNonASCII || last >= ASCII.firstNonASCII { return trimmingCharacters(in: .whitespacesAndNewlines) }
        if !space(first) && !space(last) { return self }
        guard let start = utf8.firstIndex(where: { !space($0) }), let end = utf8.lastIndex(where: { !space($0) }) else { return "" }
        let trimmed = String(self[start...end])
        // Non-ASCII space just inside (U+3000) is still trimmed, as Foundation would.
        if let inner = trimmed.unicodeScalars.first, inner.value >= 0x80, inner.properties.isWhitespace {
            return trimmed.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if let inner = trimmed.unicodeScalars.last, inner.value >= 0x80, inner.properties.isWhitespace {
            return trimmed.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return trimmed
    }
}
