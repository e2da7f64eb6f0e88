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

    /// Hands over the bytes written so far and starts empty (for output written in pieces).
    public mutating func take() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    public mutating func write(_ fields: [String]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(delimiter) }
            append(field)
        }
        bytes.append(contentsOf: lineEnding)
    }

    private mutating func append(_ field: String) {
        var needsQuotes = false
        var hasQuote = false
        var field = field
        field.withUTF8 { utf8 in
            for byte in utf8 where byte == delimiter || byte == 0x22 || byte == 0x0A || byte == 0x0D {
                needsQuotes = true
                if byte == 0x22 { hasQuote = true }
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
}
