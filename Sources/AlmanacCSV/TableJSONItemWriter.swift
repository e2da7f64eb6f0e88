public import AlmanacCore

/// Writes rows as JSON objects keyed by the header, as they come: one a line (`jsonl`) or as the
/// elements of an array (`json`). Keys are quoted once; values are copied unless they need escapes.
final class TableJSONItemWriter: DocumentItemWriter {
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
        guard case .row(let row) = item else { throw Diagnostic.error("convert.item-mismatch", lines ? "jsonl" : "json") }
        if !lines { bytes += rows == 0 ? [0x20, 0x20] : [0x2C, 0x0A, 0x20, 0x20] }
        bytes.append(0x7B)  // {
        for (column, value) in row.enumerated() {
            if column > 0 { bytes.append(0x2C) }
            if column < keys.count {
                bytes += keys[column]
            } else {
                // Fields past the header keep their position as a name.
                JSONValue.quote(String(column + 1), into: &bytes)
                bytes.append(0x3A)
            }
            JSONValue.quote(value, into: &bytes)
        }
        bytes.append(0x7D)  // }
        if lines { bytes.append(0x0A) }
        rows += 1
        if bytes.count >= Self.pieceSize { try flush() }
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
