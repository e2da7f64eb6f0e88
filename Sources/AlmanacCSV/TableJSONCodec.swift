public import AlmanacCore

/// A table as JSON: an array of objects keyed by the header (`json`), or one object a line
/// (`jsonl`, for streams). Values are strings, as in the CSV they came from.
public struct TableJSONCodec: StreamingDecoder, StreamingEncoder {
    public let lines: Bool

    public init(lines: Bool) { self.lines = lines }

    /// Built once: registries ask every codec for it on every file.
    public var format: FormatDescription { lines ? Self.linesFormat : Self.recordsFormat }
    static let linesFormat = TableJSONCodec(lines: true).makeFormat()
    static let recordsFormat = TableJSONCodec(lines: false).makeFormat()

    func makeFormat() -> FormatDescription {
        FormatDescription(
            id: lines ? "jsonl" : "json",
            name: lines ? "JSON Lines" : "JSON records",
            summary: lines ? "One JSON object a line, keyed by the CSV header: for streams and line tools."
                : "An array of JSON objects keyed by the CSV header.",
            aliases: lines ? ["ndjson", "json-lines"] : ["records"],
            extensions: lines ? [".jsonl", ".ndjson"] : [".json"],
            mediaTypes: lines ? ["application/jsonl"] : ["application/json"],
            model: .table,
            examples: [.init(summary: "Two days", input: lines
                ? "{\"name\":\"媽媽生日\",\"date\":\"2025-10-06\"}\n{\"name\":\"Quit smoking\",\"date\":\"2024-01-01\"}\n"
                : "[\n  {\"name\": \"媽媽生日\", \"date\": \"2025-10-06\"},\n  {\"name\": \"Quit smoking\", \"date\": \"2024-01-01\"}\n]\n")])
    }

    public func identify(_ probe: Probe) -> Identification {
        let text = probe.trimmedText
        if lines { return text.first == "{" && !text.prefix(200).contains("\"model\"") ? .cannotTell : .no }
        guard text.first == "[" else { return .no }
        let rest = text.dropFirst().drop { $0.isWhitespace }
        return rest.first == "{" || rest.first == "]" ? .cannotTell : .no
    }

    public func decode(_ input: CodecInput, context: CodecContext) throws(Diagnostic) -> Decoded {
        let bytes = try input.readAll()
        var objects: [(value: JSONValue, line: Int)] = []
        if lines {
            var line = 1
            for piece in bytes.split(separator: ASCII.lineFeed, omittingEmptySubsequences: false) {
                defer { line += 1 }
                if piece.allSatisfy({ $0 == ASCII.space || $0 == ASCII.carriageReturn || $0 == ASCII.tab }) { continue }
                do {
                    objects.append((try JSONValue(parsing: Array(piece), fileName: input.fileName), line))
                } catch {
                    var located = error
                    located.location?.line = line
                    throw located
                }
            }
        } else {
            guard case .array(let items) = try JSONValue(parsing: bytes, fileName: input.fileName) else {
                throw Diagnostic.error(.tableJsonNotArray, at: SourceLocation(file: input.fileName, keyPath: "/"))
            }
            objects = items.map { ($0, 0) }
        }
        var table = Table()
        var positions: [String: Int] = [:]
        for (index, object) in objects.enumerated() {
            guard let members = object.value.object else {
                throw Diagnostic.error(.tableJsonNotObject, at: SourceLocation(file: input.fileName, line: lines ? object.line : nil,
                                                                                    keyPath: lines ? nil : "/\(index)"))
            }
            var row = [String](repeating: "", count: table.columns.count)
            for (key, value) in members {
                if positions[key] == nil {
                    positions[key] = table.columns.count
                    table.columns.append(key)
                    for existing in table.rows.indices { table.rows[existing].append("") }
                    row.append("")
                }
                row[positions[key]!] = Self.text(value)
            }
            table.rows.append(row)
        }
        return Decoded(document: .table(table), encoding: "UTF-8")
    }

    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .null: ""
        default: value.serialized()
        }
    }

    public func encode(_ document: Document, context: CodecContext) throws(Diagnostic) -> Encoded {
        guard case .table = document else {
            throw Diagnostic.error(.convertModelMismatch(model: document.kind.rawValue, format: format.id, expected: ModelKind.table.rawValue))
        }
        return try encodeByItems(document, context: context)
    }

    public func itemWriter(_ frame: Document, context: CodecContext, output: @escaping ByteOutput) throws(Diagnostic) -> any DocumentItemWriter {
        guard case .table(let table) = frame else {
            throw Diagnostic.error(.convertModelMismatch(model: frame.kind.rawValue, format: format.id, expected: ModelKind.table.rawValue))
        }
        return TableJSONItemWriter(columns: table.columns, lines: lines, output: output)
    }

    /// The whole input is parsed first (the columns are every key any object has), then the rows
    /// are handed on.
    public func decodeItems(_ input: CodecInput, context: CodecContext, into sink: inout some DocumentSink) throws(Diagnostic) -> Decoded {
        try decodeWholeThenItems(input, context: context, into: &sink)
    }
}
