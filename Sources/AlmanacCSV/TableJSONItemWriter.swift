public import AlmanacCore

/// Writes rows as JSON objects keyed by the header, as they come: one a line (`jsonl`) or as the
/// elements of an array (`json`). Keys are quoted once; values are copied unless they need escapes.
final class TableJSONItemWriter: ConcurrentItemWriter {
    private let keys: [[UInt8]]
    private let lines: Bool
    private let sink: ByteOutput
    private var bytes: [UInt8] = []
    private var rows = 0
    static let pieceSize = 1 << 20

    init(columns: [String], lines: Bool, output: @escaping ByteOutput) {
        self.keys = columns.map { column in
            var key: [UInt8] = []
            JSONValue.quote(column, into: &key)
            key.append(0x3A)  // :
            return key
        }
        self.lines = lines
        self.sink = output
        bytes.reserveCapacity(Self.pieceSize + 64 * 1024)
        if !lines { bytes += Array("[\n".utf8) }
    }

    func write(_ item: DocumentItem) throws(Diagnostic) {
        guard case .rows(let batch) = item else { throw Diagnostic.error("convert.item-mismatch", lines ? "jsonl" : "json") }
        // Written into a local buffer: a class property touched in a closure costs a runtime
        // exclusivity check per access.
        var out: [UInt8] = []
        swap(&out, &bytes)
        defer { swap(&out, &bytes) }
        rows = Self.encode(batch, keys: keys, lines: lines, after: rows, into: &out)
        if out.count >= Self.pieceSize {
            try sink(out)
            out.removeAll(keepingCapacity: true)
        }
    }

    /// Writes `batch` after `written` rows; returns how many rows are written then.
    static func encode(_ batch: TableRows, keys: [[UInt8]], lines: Bool, after written: Int, into out: inout [UInt8]) -> Int {
        var written = written
        batch.forEachRow { fields in
            if !lines { out += written == 0 ? [0x20, 0x20] : [0x2C, 0x0A, 0x20, 0x20] }
            out.append(0x7B)  // {
            for column in 0..<fields.count {
                if column > 0 { out.append(0x2C) }
                if column < keys.count {
                    out += keys[column]
                } else {
                    // Fields past the header keep their position as a name.
                    JSONValue.quote(String(column + 1), into: &out)
                    out.append(0x3A)
                }
                JSONValue.quote(utf8: fields[column], into: &out)
            }
            out.append(0x7D)  // }
            if lines { out.append(0x0A) }
            written += 1
        }
        return written
    }

    func batchEncoder() throws(Diagnostic) -> any BatchEncoder { Encoder(keys: keys, lines: lines) }

    /// A batch's rows are written as if they came after others; the first row of the array has no
    /// comma before it, which `write(_:)` takes off.
    func write(_ batch: EncodedBatch) throws(Diagnostic) {
        guard let count = batch.findings as? Int, count > 0 else { return }
        if !lines && rows == 0 {
            bytes += [0x20, 0x20]
            bytes += batch.bytes.dropFirst(4)  // ",\n  "
        } else {
            bytes += batch.bytes
        }
        rows += count
        if bytes.count >= Self.pieceSize { try flush() }
    }

    /// Rows encoded on another thread; the findings are how many.
    final class Encoder: BatchEncoder {
        let keys: [[UInt8]]
        let lines: Bool

        init(keys: [[UInt8]], lines: Bool) {
            self.keys = keys
            self.lines = lines
        }

        func encode(_ items: [DocumentItem]) throws(Diagnostic) -> EncodedBatch {
            var out: [UInt8] = []
            var count = 0
            for item in items {
                guard case .rows(let batch) = item else { throw Diagnostic.error("convert.item-mismatch", lines ? "jsonl" : "json") }
                // As if after other rows (1): every row of an array starts with its comma.
                count += TableJSONItemWriter.encode(batch, keys: keys, lines: lines, after: 1, into: &out) - 1
            }
            return EncodedBatch(bytes: out, findings: count)
        }
    }

    func finish(_ frame: Document) throws(Diagnostic) -> [Diagnostic] {
        if !lines { bytes += Array((rows == 0 ? "]\n" : "\n]\n").utf8) }
        try flush()
        return []
    }

    private func flush() throws(Diagnostic) {
        try sink(bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}
