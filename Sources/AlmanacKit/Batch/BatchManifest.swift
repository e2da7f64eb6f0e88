public import AlmanacCore

/// The list of files a batch converts (`almanac convert --manifest FILE`), one JSON object a line,
/// as an engine that hands out work (Spark, a queue, a shell pipeline) writes it:
///
///     {"input": "in/2024/a.ics", "output": "out/2024/a.json"}
///     {"input": "in/b.csv", "output": "out/", "to": "ics", "id": 17}
///
/// `input` is required; `output` is a file, or a folder ending in `/` where the output is named
/// as a folder batch names it (relative outputs are inside `-o DIRECTORY` when it is given);
/// without `output`, `-o DIRECTORY` is needed. `from` and `to` choose the formats for that line
/// (else `--from`/`--to`); `skip_unknown: true` skips a file no format reads, as a folder walk
/// does; `id` (any JSON value) is echoed in the line's report. Blank lines are ignored.
///
/// A line that is wrong (not JSON, an unknown field, no input) is kept with what is wrong with it:
/// the batch reports it as that line's failure and converts the others.
public struct BatchManifest: Sendable {
    public struct Entry: Sendable, Hashable {
        public var line: Int
        public var input: String
        public var output: String?
        public var from: String?
        public var to: String?
        public var skipUnknown = false
        public var id: JSONValue?

        public init(line: Int, input: String, output: String? = nil, from: String? = nil, to: String? = nil, skipUnknown: Bool = false,
                    id: JSONValue? = nil) {
            self.line = line
            self.input = input
            self.output = output
            self.from = from
            self.to = to
            self.skipUnknown = skipUnknown
            self.id = id
        }
    }

    /// How reports name the manifest (its path, or `manifest` for one read from standard input).
    public let name: String
    /// Every line that is not blank, in order: an entry, or what is wrong with the line.
    public let lines: [(line: Int, entry: Result<Entry, Diagnostic>)]

    /// The manifest in `bytes`, its problems located in `name`.
    public init(_ bytes: [UInt8], name: String) {
        self.name = name
        self.lines = Self.parse(bytes, name: name)
    }

    /// The manifest at `path`; an error when it cannot be read.
    public init(contentsOf path: String) throws(Diagnostic) {
        var bytes: [UInt8] = []
        try FileChunks.read(path, chunkSize: 1 << 20) { chunk in bytes += chunk }
        self.init(bytes, name: path)
    }

    /// Every line that is not blank: an entry, or what is wrong with the line (located in `name`).
    static func parse(_ bytes: [UInt8], name: String) -> [(line: Int, entry: Result<Entry, Diagnostic>)] {
        var result: [(line: Int, entry: Result<Entry, Diagnostic>)] = []
        var start = bytes.starts(with: UnicodeForm.utf8.byteOrderMark) ? 3 : 0
        var line = 1
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != ASCII.lineFeed { end += 1 }
            var text = Array(bytes[start..<end])
            if text.last == ASCII.carriageReturn { text.removeLast() }
            if text.contains(where: { $0 != ASCII.space && $0 != ASCII.tab }) {
                result.append((line, entry(text, line: line, name: name)))
            }
            start = end + 1
            line += 1
        }
        return result
    }

    private static let fields = ["input", "output", "from", "to", "skip_unknown", "id"]

    private static func entry(_ text: [UInt8], line: Int, name: String) -> Result<Entry, Diagnostic> {
        let here = SourceLocation(file: name, line: line)
        let value: JSONValue
        do throws(Diagnostic) {
            value = try JSONValue(parsing: text, fileName: name)
        } catch {
            // The parser counts lines within the one line it was given.
            let column = error.location?.column
            return .failure(.error(.manifestNotJson(reason: error.message.rendered()).localizing(error.message), at: SourceLocation(file: name, line: line, column: column)))
        }
        guard case .object(let members) = value else { return .failure(.error(.manifestNotObject, at: here)) }
        var entry = Entry(line: line, input: "")
        var hasInput = false
        for (key, member) in members {
            func string() -> Result<String, Diagnostic> {
                if case .string(let text) = member { return .success(text) }
                return .failure(.error(.manifestWrongType(field: key, expected: "a string"), at: here))
            }
            switch key {
            case "input":
                switch string() {
                case .success(let text): entry.input = text; hasInput = true
                case .failure(let error): return .failure(error)
                }
            case "output", "from", "to":
                if case .null = member { continue }
                switch string() {
                case .success(let text):
                    if key == "output" { entry.output = text } else if key == "from" { entry.from = text } else { entry.to = text }
                case .failure(let error): return .failure(error)
                }
            case "skip_unknown":
                guard case .bool(let flag) = member else { return .failure(.error(.manifestWrongType(field: key, expected: "true or false"), at: here)) }
                entry.skipUnknown = flag
            case "id":
                entry.id = member
            default:
                return .failure(.error(.manifestUnknownField(field: key, fields: fields.joined(separator: ", ")), at: here))
            }
        }
        guard hasInput, !entry.input.isEmpty else { return .failure(.error(.manifestMissingInput, at: here)) }
        if entry.input == "-" || entry.output == "-" { return .failure(.error(.manifestStandardStreams, at: here)) }
        return .success(entry)
    }
}
