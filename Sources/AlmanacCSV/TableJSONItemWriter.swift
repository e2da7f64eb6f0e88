import AlmanacCore

/// Writes rows as JSON objects keyed by the header, as they come: one a line (`jsonl`) or as the
/// elements of an array (`json`). Keys are quoted once; values are copied unless they need escapes.
final class TableJSONItemWriter: ConcurrentItemWriter {
    private let keys: QuotedKeys
    private let lines: Bool
    private let sink: ByteOutput
    private var writer: JSONWriter
    static let pieceSize = 1 << 20

    /// An array of objects each on its own line, two spaces in, nothing between tokens.
    static let arrayLayout = JSONWriter.Layout(indent: 2, colon: ":", separator: ",")

    init(columns: [String], lines: Bool, output: @escaping ByteOutput) {
        self.keys = QuotedKeys(columns)
        self.lines = lines
        self.sink = output
        writer = JSONWriter(layout: lines ? .compact : Self.arrayLayout, capacity: Self.pieceSize + 64 * 1024)
        if !lines { writer.beginArray() }
    }

    func write(_ item: DocumentItem) throws(Diagnostic) {
        guard case .rows(let batch) = item else { throw Diagnostic.error(.convertItemMismatch(format: lines ? "jsonl" : "json")) }
        Self.encode(batch, keys: keys, lines: lines, into: &writer)
        if writer.byteCount >= Self.pieceSize { try flush() }
    }

    /// Writes `batch`'s rows: objects on one line each (and a line break after each in `jsonl`).
    /// `separated`: a row is preceded by the separator of an array's items even when it is the
    /// writer's first (rows encoded apart, joined after others).
    static func encode(_ batch: TableRows, keys: QuotedKeys, lines: Bool, into writer: inout JSONWriter, separated: Bool = false) {
        var first = true
        keys.bytes.withByteView { (keyBytes) in
            batch.forEachRow(into: &writer) { fields, writer in
                if lines, fields.count <= keys.count {
                    // One object a line, every key from the header: written straight.
                    writer.flatObject(count: fields.count, key: { keyBytes[keys.range($0)] }, value: { fields[$0] })
                    writer.raw("\n")
                    return
                }
                if separated, !lines, !first { writer.nextItem() }
                first = false
                writer.beginObject(oneLine: true)
                for column in 0..<fields.count {
                    if column < keys.count {
                        writer.key(quotedWithColon: keyBytes[keys.range(column)])
                    } else {
                        // Fields past the header keep their position as a name.
                        writer.key(String(column + 1))
                    }
                    writer.string(fields[column])
                }
                writer.endObject()
                if lines { writer.raw("\n") }
            }
        }
    }

    /// The header's names quoted once, each with its colon, one after another in one buffer:
    /// the encoding threads read them without each key's retain and release (two threads
    /// counting references on the same arrays spent a fifth of the conversion's time).
    struct QuotedKeys: Sendable {
        let bytes: [UInt8]
        /// Where each key ends in `bytes`.
        let ends: [Int]

        init(_ columns: [String]) {
            var bytes: [UInt8] = []
            var ends: [Int] = []
            for column in columns {
                JSONValue.quote(column, into: &bytes)
                bytes.append(ASCII.colon)
                ends.append(bytes.count)
            }
            self.bytes = bytes
            self.ends = ends
        }

        var count: Int { ends.count }

        func range(_ column: Int) -> Range<Int> { (column == 0 ? 0 : ends[column - 1])..<ends[column] }
    }

    func batchEncoder() throws(Diagnostic) -> any BatchEncoder { Encoder(keys: keys, lines: lines) }

    /// A batch's rows, separated as the array's items are; what comes before its first is this
    /// writer's to say.
    func write(_ batch: EncodedBatch) throws(Diagnostic) {
        guard let count = batch.findings as? Int, count > 0 else { return }
        if lines { writer.raw(batch.bytes) } else { writer.rawValue(batch.bytes) }
        if writer.byteCount >= Self.pieceSize { try flush() }
    }

    /// Rows encoded on another thread; the findings are how many.
    final class Encoder: BatchEncoder {
        let keys: QuotedKeys
        let lines: Bool

        init(keys: QuotedKeys, lines: Bool) {
            self.keys = keys
            self.lines = lines
        }

        func encode(_ items: [DocumentItem]) throws(Diagnostic) -> EncodedBatch {
            // At the array's items' level.
            var writer = JSONWriter(layout: lines ? .compact : TableJSONItemWriter.arrayLayout, level: 1)
            var count = 0
            for item in items {
                guard case .rows(let batch) = item else { throw Diagnostic.error(.convertItemMismatch(format: lines ? "jsonl" : "json")) }
                if count > 0, !lines, !batch.isEmpty { writer.nextItem() }
                TableJSONItemWriter.encode(batch, keys: keys, lines: lines, into: &writer, separated: true)
                count += batch.count
            }
            return EncodedBatch(bytes: writer.take(), findings: count)
        }
    }

    func finish(_ frame: Document) throws(Diagnostic) -> [Diagnostic] {
        if !lines {
            writer.endArray()
            writer.raw("\n")
        }
        try flush()
        return []
    }

    private func flush() throws(Diagnostic) {
        try sink(writer.take())
    }
}
