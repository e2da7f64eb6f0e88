public import AlmanacCore
import AlmanacICU

/// One record of a CSV file. It points into the reader's buffers and is valid only inside the
/// callback that receives it: fields become strings only when asked for.
public struct CSVRecord {
    let buffer: ByteView
    let scratch: ByteView
    let fields: ElementView<CSVReader.FieldRange>
    /// The 1-based line the record starts on.
    public let line: Int

    init(buffer: ByteView, scratch: ByteView, fields: ElementView<CSVReader.FieldRange>, line: Int) {
        self.buffer = buffer
        self.scratch = scratch
        self.fields = fields
        self.line = line
    }

    public var count: Int { fields.count }

    /// The field's bytes (quotes removed, doubled quotes undone).
    package func bytes(_ index: Int) -> ByteView {
        let field = fields[index]
        return (field.inScratch ? scratch : buffer)[Int(field.start)..<Int(field.end)]
    }

    public func string(_ index: Int) -> String { bytes(index).string }

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
    public let quote: UInt8 = ASCII.quote
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
    /// for it. Pass `isLast` with the final chunk (which may be empty), and `checkedUTF8` when
    /// the caller already knows the chunks so far are valid UTF-8 (checked as they were read).
    public mutating func feed(_ chunk: [UInt8], isLast: Bool, checkedUTF8: Bool = false,
                              onRecord: (CSVRecord) throws(Diagnostic) -> Void) throws(Diagnostic) {
        var start = 0
        if !carry.isEmpty {
            // The record the last chunk ended inside is finished on a copy of it joined to the
            // start of this chunk, a few kilobytes at first, more if the record needs them; the
            // rest of the chunk is read where it is (joining the whole chunk copied every byte).
            let carried = carry
            carry = []
            var take = min(chunk.count, max(carried.count, Self.joinedStart))
            while true {
                let whole = take == chunk.count
                let joined = carried + chunk[0..<take]
                let consumed = try feedInPlace(joined, from: 0, isLast: isLast && whole, checkedUTF8: checkedUTF8, onRecord: onRecord)
                if consumed >= carried.count || whole {
                    if consumed < joined.count, whole { return try keep(joined, from: consumed) }
                    start = consumed - carried.count
                    break
                }
                take = min(chunk.count, take * 2)
            }
        }
        let consumed = try feedInPlace(chunk, from: start, isLast: isLast, checkedUTF8: checkedUTF8, onRecord: onRecord)
        if consumed < chunk.count { try keep(chunk, from: consumed) }
    }

    /// How much of a chunk is first joined to the record the last one ended inside.
    private static var joinedStart: Int { 4096 }

    /// Checks (unless `checkedUTF8`) and scans `data[start...]`, which starts a record; returns
    /// the offset in `data` up to which records were handed out.
    private mutating func feedInPlace(_ data: [UInt8], from start: Int, isLast: Bool, checkedUTF8: Bool,
                                      onRecord: (CSVRecord) throws(Diagnostic) -> Void) throws(Diagnostic) -> Int {
        try data.withByteView { (whole) throws(Diagnostic) in
            // The bytes are checked in one pass (ASCII sixteen bytes at a time) before any of
            // their records is handed out; a character cut off by the end belongs to a record
            // that waits for the next chunk, where it is checked whole.
            if !checkedUTF8 {
                let (invalid, complete) = UTF8Validation.validate(whole, start, whole.count)
                if invalid != nil || (isLast && complete < whole.count) { throw Self.invalidUTF8 }
            }
            return try start + scan(whole[start..<whole.count], isLast: isLast, onRecord: onRecord)
        }
    }

    /// Keeps `data[start...]`, a record not yet whole, for the next chunk.
    private mutating func keep(_ data: [UInt8], from start: Int) throws(Diagnostic) {
        carry = Array(data[start...])
        if carry.count > maxRecordBytes {
            throw Diagnostic.error(.csvRecordTooLong(limit: String(maxRecordBytes)), at: SourceLocation(file: fileName, line: line))
        }
    }

    /// Scans whole records; returns how many bytes were consumed.
    private mutating func scan(
        _ buffer: ByteView, isLast: Bool, onRecord: (CSVRecord) throws(Diagnostic) -> Void
    ) throws(Diagnostic) -> Int {
        let count = buffer.count
        var index = 0
        var recordStart = 0
        var waitingLine = line
        var waitingDiagnostics = diagnostics.count
        let quote = self.quote
        let delimiter = self.delimiter
        outer: while index < count {
            recordStart = index
            let recordLine = line
            waitingLine = line
            waitingDiagnostics = diagnostics.count
            fields.removeAll(keepingCapacity: true)
            if !scratch.isEmpty { scratch.removeAll(keepingCapacity: true) }
            // An empty line is an empty record (Python's csv gives []).
            if index < count, buffer[index] == ASCII.lineFeed || buffer[index] == ASCII.carriageReturn {
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
                        let next = buffer.firstIndex(of: quote, from: position)
                        if next >= count && !isLast { break outer }  // the field goes on in the next chunk
                        if next > position { newlines += Self.lineBreaks(buffer, position, next) }
                        position = next
                        guard position < count else { break }
                        if position + 1 >= count && !isLast { break outer }  // a doubled quote may straddle chunks
                        if position + 1 < count, buffer[position + 1] == quote {
                            // A doubled quote is one quote character.
                            usesScratch = true
                            buffer.append(segmentStart, position + 1, to: &scratch)
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
                        diagnostics.append(.warning(.csvUnclosedQuote, at: SourceLocation(file: fileName, line: recordLine)))
                        contentEnd = count
                    }
                    if usesScratch { buffer.append(segmentStart, contentEnd, to: &scratch) }
                    // Text after the closing quote joins the field (as in Python's csv), with a warning.
                    if position < count, buffer[position] != delimiter, buffer[position] != ASCII.lineFeed, buffer[position] != ASCII.carriageReturn {
                        if !usesScratch {
                            usesScratch = true
                            buffer.append(index + 1, contentEnd, to: &scratch)
                        }
                        let tailStart = position
                        position = scanPlain(buffer, from: position)
                        if position >= count && !isLast { break outer }
                        buffer.append(tailStart, position, to: &scratch)
                        diagnostics.append(.warning(.csvTextAfterQuote, at: SourceLocation(file: fileName, line: recordLine + newlines)))
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
                    index = scanPlain(buffer, from: index)
                    if index >= count && !isLast { break outer }
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
            // ... and its warnings are given when it is read whole.
            line = waitingLine
            diagnostics.removeSubrange(waitingDiagnostics...)
            return recordStart
        }
        return count
    }

    /// Thrown when the bytes are not UTF-8 (the caller converts the file and starts again).
    public static let invalidUTF8 = Diagnostic.internal(.internalNotUTF8)

    /// The first delimiter, CR or LF at or after `start`; `high` collects the top bits of the
    /// bytes passed, so non-ASCII text is noticed for free.
    @inline(__always)
    private func scanPlain(_ buffer: ByteView, from start: Int) -> Int {
        ByteScan.firstIndex(in: buffer, from: start, to: buffer.count, where: AnyOf3(delimiter, ASCII.lineFeed, ASCII.carriageReturn))
    }

    /// Line breaks in `buffer[start..<end]`: LF, or CR not followed by LF (most quoted fields
    /// have none, found eight bytes at a time).
    private static func lineBreaks(_ buffer: ByteView, _ start: Int, _ end: Int) -> Int {
        var breaks = 0
        var index = ByteScan.firstIndex(in: buffer, from: start, to: end, where: AnyOf2.lineBreak)
        while index < end {
            if buffer[index] == ASCII.lineFeed || index + 1 >= buffer.count || buffer[index + 1] != ASCII.lineFeed { breaks += 1 }
            index = ByteScan.firstIndex(in: buffer, from: index + 1, to: end, where: AnyOf2.lineBreak)
        }
        return breaks
    }

    /// The index after the line break at `index`; nil when a CR ends the chunk (an LF may follow).
    @inline(__always)
    private func lineEnd(_ buffer: ByteView, _ index: Int, isLast: Bool) -> Int? {
        if buffer[index] == ASCII.carriageReturn {
            if index + 1 < buffer.count { return buffer[index + 1] == ASCII.lineFeed ? index + 2 : index + 1 }
            return isLast ? index + 1 : nil
        }
        return index + 1
    }

    private func emit(_ buffer: ByteView, _ line: Int, _ onRecord: (CSVRecord) throws(Diagnostic) -> Void) throws(Diagnostic) {
        try scratch.withByteView { (scratchBuffer) throws(Diagnostic) in
            try fields.withElementView { (fieldView) throws(Diagnostic) in
                try onRecord(CSVRecord(buffer: buffer, scratch: scratchBuffer, fields: fieldView, line: line))
            }
        }
    }
}
