import AlmanacCore

/// Writes delimited text: fields quoted only when they must be (delimiter, quote, line break,
/// leading or trailing space), quotes doubled, chosen line ends; Excel-friendly by default
/// (UTF-8 with a BOM, CRLF).
public struct CSVWriter {
    public var delimiter: UInt8 = 0x2C
    public var lineEnding: [UInt8] = [0x0D, 0x0A]
    public var byteOrderMark = true
    public private(set) var bytes: [UInt8] = []

    public init(delimiter: UInt8 = 0x2C, lineEnding: String = "\r\n", byteOrderMark: Bool = true) {
        self.delimiter = delimiter
        self.lineEnding = Array(lineEnding.utf8)
        self.byteOrderMark = byteOrderMark
        if byteOrderMark { bytes = [0xEF, 0xBB, 0xBF] }
    }

    public mutating func reserve(_ count: Int) { bytes.reserveCapacity(count) }

    /// Hands the bytes written so far to `body`, then starts empty, reusing the buffer (for
    /// output written in pieces).
    public mutating func flush<E: Error>(_ body: ([UInt8]) throws(E) -> Void) throws(E) {
        try body(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    public mutating func write(_ fields: [String]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(delimiter) }
            append(field)
        }
        bytes.append(contentsOf: lineEnding)
    }

    private mutating func append(_ field: String) {
        if field.utf8.withContiguousStorageIfAvailable({ append(utf8: $0) }) == nil {
            var copy = field
            copy.withUTF8 { append(utf8: $0) }
        }
    }

    private mutating func append(utf8: UnsafeBufferPointer<UInt8>) {
        var needsQuotes = false
        var hasQuote = false
        let delimiter = self.delimiter
        let threshold = max(delimiter, 0x0D)
        for byte in utf8 where byte <= threshold || byte == 0x22 {
            // Bytes at or below the delimiter are rare in text; look closer only then.
            if byte == delimiter || byte == 0x22 || byte == 0x0A || byte == 0x0D {
                needsQuotes = true
                if byte == 0x22 { hasQuote = true }
            }
        }
        if let first = utf8.first, first == 0x20 || first == 0x09 { needsQuotes = true }
        if let last = utf8.last, last == 0x20 || last == 0x09 { needsQuotes = true }
        guard needsQuotes else {
            bytes.append(contentsOf: utf8)
            return
        }
        bytes.append(0x22)
        if hasQuote {
            for byte in utf8 {
                bytes.append(byte)
                if byte == 0x22 { bytes.append(0x22) }
            }
        } else {
            bytes.append(contentsOf: utf8)
        }
        bytes.append(0x22)
    }
}
