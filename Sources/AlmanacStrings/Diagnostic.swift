/// Where a problem is: a file, a line and column, or a key path inside a structured document.
public struct SourceLocation: Hashable, Sendable, Codable, CustomStringConvertible {
    public var file: String?
    /// 1-based.
    public var line: Int?
    /// 1-based.
    public var column: Int?
    /// A JSON pointer or catalog key: `/days/12/date`, `settings.title`.
    public var keyPath: String?

    public init(file: String? = nil, line: Int? = nil, column: Int? = nil, keyPath: String? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.keyPath = keyPath
    }

    /// `file:line:column` or `file: /key/path`, the form editors and CI annotate from.
    public var description: String {
        var bytes: [UInt8] = []
        write(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The description's UTF-8 after what `bytes` holds.
    func write(into bytes: inout [UInt8]) {
        // A file's name and a key come from inputs too (a folder walked, a catalog's key).
        Message.appendShowing(file ?? "<input>", into: &bytes, keepingLineBreaks: false)
        if let line {
            bytes.append(ASCII.colon)
            bytes += String(line).utf8
            if let column {
                bytes.append(ASCII.colon)
                bytes += String(column).utf8
            }
        }
        if let keyPath {
            if line == nil { bytes.append(ASCII.colon) }
            bytes.append(ASCII.space)
            Message.appendShowing(keyPath, into: &bytes, keepingLineBreaks: false)
        }
    }

    /// The same location in another file (codecs report positions; callers know the file).
    public func inFile(_ name: String?) -> SourceLocation {
        var copy = self
        if copy.file == nil { copy.file = name }
        return copy
    }
}

/// A problem found while reading, converting or writing: what (a stable code and a message the
/// CLI shows in the user's language), how bad, and where.
public struct Diagnostic: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    public enum Severity: String, Hashable, Sendable, Codable, Comparable, CaseIterable {
        case note, warning, error

        /// The word a rendered line shows for it (`severity.warning`).
        public var word: Message {
            switch self {
            case .note: .severityNote
            case .warning: .severityWarning
            case .error: .severityError
            }
        }

        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    public var severity: Severity
    /// Stable and documented (`ics.broken-line`); also the message's key in Locales/Almanac.
    public var code: DiagnosticCode { DiagnosticCode(message.key) }
    public var message: Message
    public var location: SourceLocation?
    /// How many items the diagnostic is about, when it names only some of them (a conversion's
    /// `convert.dropped` lists five titles and counts the rest): what a batch's summary adds up.
    public var items: Int?

    public init(_ severity: Severity, _ message: Message, at location: SourceLocation? = nil, items: Int? = nil) {
        self.severity = severity
        self.message = message
        self.location = location
        self.items = items
    }

    /// An error: `.error(.icsInvalidRRule(part: name, expected: "a number"), at: location)`.
    public static func error(_ message: Message, at location: SourceLocation? = nil) -> Diagnostic {
        Diagnostic(.error, message, at: location)
    }

    public static func warning(_ message: Message, at location: SourceLocation? = nil) -> Diagnostic {
        Diagnostic(.warning, message, at: location)
    }

    public static func note(_ message: Message, at location: SourceLocation? = nil) -> Diagnostic {
        Diagnostic(.note, message, at: location)
    }

    /// The same diagnostic located in a file, when it was not already.
    public func inFile(_ name: String?) -> Diagnostic {
        var copy = self
        copy.location = (location ?? SourceLocation()).inFile(name)
        return copy
    }

    /// `file:line:column: error: message [code]`, in a language.
    public func rendered(in language: Language = .english) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        render(in: language, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The rendered line's UTF-8 after what `bytes` holds, made in one buffer: a batch prints a
    /// few warnings a file, and they go to standard error as these bytes, without a string made
    /// of each part or line.
    public func render(in language: Language = .english, into bytes: inout [UInt8]) {
        if let location {
            location.write(into: &bytes)
            bytes += ": ".utf8
        }
        severity.word.render(in: language, into: &bytes)
        bytes += ": ".utf8
        let start = bytes.count
        message.render(in: language, into: &bytes)
        // One diagnostic, one line: a line break inside it (a cell's text quoted in the message)
        // is shown as ⏎, so a log's lines and a reader of them stay in step.
        if bytes[start...].contains(where: { $0 == ASCII.lineFeed || $0 == ASCII.carriageReturn }) {
            var line: [UInt8] = []
            var index = start
            while index < bytes.count {
                let byte = bytes[index]
                if byte == ASCII.carriageReturn, index + 1 < bytes.count, bytes[index + 1] == ASCII.lineFeed {
                    index += 1
                    continue
                }
                if byte == ASCII.lineFeed || byte == ASCII.carriageReturn { line += Self.lineBreakMark } else { line.append(byte) }
                index += 1
            }
            bytes.replaceSubrange(start..., with: line)
        }
        bytes += " [".utf8
        bytes += message.key.utf8
        bytes.append(ASCII.closeBracket)
    }

    public var description: String { rendered() }

    /// ⏎, for a line break inside a rendered diagnostic.
    private static let lineBreakMark: [UInt8] = Array("\u{23CE}".utf8)

    enum CodingKeys: String, CodingKey {
        case severity, code, message, arguments, location, items
    }

    /// JSON form for reports and plugins: `{"severity", "code", "message" (English), "arguments", "location", "items"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(severity, forKey: .severity)
        try container.encode(code, forKey: .code)
        try container.encode(message.rendered(in: .english), forKey: .message)
        try container.encode(message.arguments, forKey: .arguments)
        try container.encodeIfPresent(location, forKey: .location)
        try container.encodeIfPresent(items, forKey: .items)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        severity = try container.decode(Severity.self, forKey: .severity)
        let code = try container.decode(String.self, forKey: .code)
        let arguments = try container.decodeIfPresent([String].self, forKey: .arguments) ?? []
        // A code no table knows (from a plugin) keeps the plugin's own English text.
        if let table = MessageTable.owner(of: code) {
            message = Message(code, arguments, table: table)
        } else if let text = try container.decodeIfPresent(String.self, forKey: .message) {
            message = Message(code: code, text: text)
        } else {
            message = Message(key: code, arguments)
        }
        location = try container.decodeIfPresent(SourceLocation.self, forKey: .location)
        items = try container.decodeIfPresent(Int.self, forKey: .items)
    }
}

extension Array where Element == Diagnostic {
    public var hasErrors: Bool { contains { $0.severity == .error } }
}
