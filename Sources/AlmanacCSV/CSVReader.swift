public import AlmanacCore
import AlmanacICU
#if canImport(Glibc)
import Glibc
#endif

/// One record of a CSV file. It points into the reader's buffers and is valid only inside the
/// callback that receives it: fields become strings only when asked for.
public struct CSVRecord {
    let buffer: UnsafeBufferPointer<UInt8>
    let scratch: UnsafeBufferPointer<UInt8>
    let fields: UnsafeBufferPointer<CSVReader.FieldRange>
    /// The 1-based line the record starts on.
    public let line: Int

    init(buffer: UnsafeBufferPointer<UInt8>, scratch: UnsafeBufferPointer<UInt8>, fields: UnsafeBufferPointer<CSVReader.FieldRange>, line: Int) {
        self.buffer = buffer
        self.scratch = scratch
        self.fields = fields
        self.line = line
    }

    public var count: Int { fields.count }

    /// The field's bytes (quotes removed, doubled quotes undone).
    public func bytes(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        let field = fields[index]
        let source = field.inScratch ? scratch : buffer
        return UnsafeBufferPointer(rebasing: source[Int(field.start)..<Int(field.end)])
    }

    public func string(_ index: Int) -> String {
        String(decoding: bytes(index), as: UTF8.self)
    }

    /// Every field as a string.
    public var strings: [String] {
        var result: [String] = []
        result.reserveCapacity(fields.count)
        for index in 0..<fields.count { result.append(string(index)) }
        return result
    }
}

/// Reads delimited text the way Python's csv module does (RFC 4180 plus what real files do):
/// CRLF, LF or CR line ends, quoted fields with embedded line breaks and doubled quotes, a quote
/// inside an unquoted field taken literally, text after a closing quote joined to the field (with
/// a warning). Streams: records are handed out as they are read, in memory bounded by the longest
/// record, with a byte-level scanner over 1 MB chunks.
public struct CSVReader {
    public struct FieldRange {
        var start: Int32
        var end: Int32
        var inScratch: Bool
    }

    public let delimiter: UInt8
    public let quote: UInt8 = 0x22
    public let fileName: String?
    /// Longest record accepted, in bytes (a file with an unterminated quote cannot eat all memory).
    public var maxRecordBytes = 64 * 1024 * 1024
    public private(set) var diagnostics: [Diagnostic] = []

    /// Bytes of the current chunk not yet forming a whole record.
    private var carry: [UInt8] = []
    private var line = 1
    private var fields: [FieldRange] = []
    private var scratch: [UInt8] = []

    public init(delimiter: UInt8, fileName: String?) {
        self.delimiter = delimiter
        self.fileName = fileName
        fields.reserveCapacity(64)
    }

    /// Reads the next chunk of UTF-8 bytes; a record that may continue in the next chunk waits
    /// for it. Pass `isLast` with the final chunk (which may be empty).
    public mutating func feed(_ chunk: [UInt8], isLast: Bool, onRecord: (CSVRecord) throws(Diagnostic) -> Void) throws(Diagnostic) {
        var data = chunk
        if !carry.isEmpty {
            data = carry + chunk
            carry = []
        }
        let consumed = try data.withUnsafeBufferPointer { (buffer) throws(Diagnostic) in
            try scan(buffer, isLast: isLast, onRecord: onRecord)
        }
        if consumed < data.count {
            carry = Array(data[consumed...])
            if carry.count > maxRecordBytes {
                throw Diagnostic.error("csv.record-too-long", String(maxRecordBytes), at: SourceLocation(file: fileName, line: line))
            }
        }
    }

    /// Scans whole records; returns how many bytes were consumed.
    private mutating func scan(
        _ buffer: UnsafeBufferPointer<UInt8>, isLast: Bool, onRecord: (CSVRecord) throws(Diagnostic) -> Void
    ) throws(Diagnostic) -> Int {
        let count = buffer.count
        var index = 0
        var recordStart = 0
        var waitingLine = line
        let quote = self.quote
        let delimiter = self.delimiter
        outer: while index < count {
            recordStart = index
            let recordLine = line
            waitingLine = line
            fields.removeAll(keepingCapacity: true)
            scratch.removeAll(keepingCapacity: true)
            // An empty line is an empty record (Python's csv gives []).
            if index < count, buffer[index] == 0x0A || buffer[index] == 0x0D {
                guard let next = lineEnd(buffer, index, isLast: isLast) else { break outer }
                index = next
                line += 1
                try emit(buffer, recordLine, onRecord)
                recordStart = index
                continue
            }
            while true {
                // One field.
                if index < count, buffer[index] == quote {
                    let scratchStart = scratch.count
                    var usesScratch = false
                    var position = index + 1
                    var segmentStart = position
                    var contentEnd = count
                    var newlines = 0
                    var closed = false
                    while position < count {
                        // Jump to the next quote; what lies between needs only newline counting and a UTF-8 check.
                        let next = Self.find(quote, buffer, from: position)
                        if next >= count && !isLast { break outer }  // the field goes on in the next chunk
                        if next > position {
                            newlines += Self.lineBreaks(buffer, position, next)
                            if !UTF8Validation.isValid(buffer, position, next) { throw Self.invalidUTF8 }
                        }
                        position = next
                        guard position < count else { break }
                        if position + 1 >= count && !isLast { break outer }  // a doubled quote may straddle chunks
                        if position + 1 < count, buffer[position + 1] == quote {
                            // A doubled quote is one quote character.
                            usesScratch = true
                            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[segmentStart...position]))
                            position += 2
                            segmentStart = position
                            continue
                        }
                        contentEnd = position
                        closed = true
                        position += 1
                        break
                    }
                    if !closed {
                        if !isLast { break outer }
                        diagnostics.append(.warning("csv.unclosed-quote", at: SourceLocation(file: fileName, line: recordLine)))
                        contentEnd = count
                    }
                    if usesScratch { scratch.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[segmentStart..<contentEnd])) }
                    // Text after the closing quote joins the field (as in Python's csv), with a warning.
                    if position < count, buffer[position] != delimiter, buffer[position] != 0x0A, buffer[position] != 0x0D {
                        if !usesScratch {
                            usesScratch = true
                            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[(index + 1)..<contentEnd]))
                        }
                        let tailStart = position
                        var high: UInt64 = 0
                        position = scanPlain(buffer, from: position, high: &high)
                        if position >= count && !isLast { break outer }
                        if high != 0, !UTF8Validation.isValid(buffer, tailStart, position) { throw Self.invalidUTF8 }
                        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[tailStart..<position]))
                        diagnostics.append(.warning("csv.text-after-quote", at: SourceLocation(file: fileName, line: recordLine + newlines)))
                    }
                    if usesScratch {
                        fields.append(FieldRange(start: Int32(scratchStart), end: Int32(scratch.count), inScratch: true))
                    } else {
                        fields.append(FieldRange(start: Int32(index + 1), end: Int32(contentEnd), inScratch: false))
                    }
                    line += newlines
                    index = position
                } else {
                    let start = index
                    var high: UInt64 = 0
                    index = scanPlain(buffer, from: index, high: &high)
                    if index >= count && !isLast { break outer }
                    if high != 0, !UTF8Validation.isValid(buffer, start, index) { throw Self.invalidUTF8 }
                    fields.append(FieldRange(start: Int32(start), end: Int32(index), inScratch: false))
                }
                // After a field: a delimiter, a line end, or the end of the input.
                if index >= count {
                    if !isLast { break outer }
                    line += 1
                    try emit(buffer, recordLine, onRecord)
                    return count
                }
                let byte = buffer[index]
                if byte == delimiter {
                    index += 1
                    if index >= count {
                        if !isLast { break outer }
                        fields.append(FieldRange(start: Int32(index), end: Int32(index), inScratch: false))
                        try emit(buffer, recordLine, onRecord)
                        return count
                    }
                    continue
                }
                guard let next = lineEnd(buffer, index, isLast: isLast) else { break outer }
                index = next
                line += 1
                try emit(buffer, recordLine, onRecord)
                recordStart = index
                continue outer
            }
        }
        // A record that waits for the next chunk starts again from its first line.
        if recordStart < count, !isLast {
            line = waitingLine
            return recordStart
        }
        return count
    }

    /// Thrown when the bytes are not UTF-8 (the caller converts the file and starts again).
    public static let invalidUTF8 = Diagnostic.error("internal.not-utf8")

    /// The first delimiter, CR or LF at or after `start`, eight bytes at a time (a byte equal to
    /// one of them makes its lane zero after an XOR; the classic has-zero-byte test finds it).
    /// `high` collects the top bits of the bytes passed, so non-ASCII text is noticed for free.
    @inline(__always)
    private func scanPlain(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, high: inout UInt64) -> Int {
        let count = buffer.count
        let base = UnsafeRawPointer(buffer.baseAddress!)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let tops: UInt64 = 0x8080_8080_8080_8080
        let delimiters = UInt64(delimiter) &* ones
        let lineFeeds: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
        let returns: UInt64 = 0x0D0D_0D0D_0D0D_0D0D
        var index = start
        while index + 8 <= count {
            let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let a = word ^ delimiters, b = word ^ lineFeeds, c = word ^ returns
            let found = ((a &- ones) & ~a | (b &- ones) & ~b | (c &- ones) & ~c) & tops
            if found != 0 {
                let offset = found.trailingZeroBitCount / 8
                // Only the bytes before the match belong to the field.
                high |= offset == 0 ? 0 : word & (tops >> UInt64(64 - offset * 8))
                return index + offset
            }
            high |= word & tops
            index += 8
        }
        while index < count {
            let byte = buffer[index]
            if byte == delimiter || byte == 0x0A || byte == 0x0D { break }
            high |= UInt64(byte & 0x80)
            index += 1
        }
        return index
    }

    private static func find(_ byte: UInt8, _ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard start < buffer.count else { return buffer.count }
        guard let found = memchr(buffer.baseAddress! + start, Int32(byte), buffer.count - start) else { return buffer.count }
        return buffer.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// Line breaks in `buffer[start..<end]`: LF, or CR not followed by LF.
    private static func lineBreaks(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var breaks = 0
        var index = start
        while index < end {
            let byte = buffer[index]
            if byte == 0x0A || (byte == 0x0D && (index + 1 >= buffer.count || buffer[index + 1] != 0x0A)) { breaks += 1 }
            index += 1
        }
        return breaks
    }

    /// The index after the line break at `index`; nil when a CR ends the chunk (an LF may follow).
    @inline(__always)
    private func lineEnd(_ buffer: UnsafeBufferPointer<UInt8>, _ index: Int, isLast: Bool) -> Int? {
        if buffer[index] == 0x0D {
            if index + 1 < buffer.count { return buffer[index + 1] == 0x0A ? index + 2 : index + 1 }
            return isLast ? index + 1 : nil
        }
        return index + 1
    }

    private func emit(_ buffer: UnsafeBufferPointer<UInt8>, _ line: Int, _ onRecord: (CSVRecord) throws(Diagnostic) -> Void) throws(Diagnostic) {
        try scratch.withUnsafeBufferPointer { (scratchBuffer) throws(Diagnostic) in
            try fields.withUnsafeBufferPointer { (fieldBuffer) throws(Diagnostic) in
                try onRecord(CSVRecord(buffer: buffer, scratch: scratchBuffer, fields: fieldBuffer, line: line))
            }
        }
    }
}
