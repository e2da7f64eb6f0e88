/// Where an archive's bytes are: in memory, or a file read at offsets (a workbook of a million
/// rows is not held whole: its parts are read a piece at a time).
public protocol ZipSource: Sendable {
    var size: Int { get }
    /// `count` bytes from `offset` (fewer only at the end).
    func read(at offset: Int, count: Int) throws(ZipError) -> [UInt8]
}

/// Bytes in memory as a source.
public struct ZipBytes: ZipSource {
    let bytes: [UInt8]
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public var size: Int { bytes.count }
    public func read(at offset: Int, count: Int) throws(ZipError) -> [UInt8] {
        guard offset >= 0, offset <= bytes.count, count >= 0 else { throw .malformed("read outside the file") }
        return Array(bytes[offset..<min(bytes.count, offset + count)])
    }
}

/// A zip archive read from its bytes (PKWARE APPNOTE 6.3): the central directory is read first
/// and checked against the bytes, and an entry is inflated only when asked for, in pieces, within
/// limits — a zip is untrusted input. Entry names are only ever compared with the names a format
/// expects (`xl/workbook.xml`), never used as paths.
public struct ZipArchive: Sendable {
    public struct Entry: Hashable, Sendable {
        public let name: String
        public let size: Int
        public let compressedSize: Int
        let method: Int
        let crc: UInt32
        let flags: UInt16
        let localHeaderOffset: Int
    }

    /// What a reader accepts: entry count, each entry's inflated size, and the ratio of inflated
    /// to compressed size (a 1 KB entry that claims a gigabyte is a bomb).
    public struct Limits: Hashable, Sendable {
        public var entries: Int
        public var entrySize: Int
        public var ratio: Int

        public init(entries: Int = 10_000, entrySize: Int = 1 << 30, ratio: Int = 1_000) {
            self.entries = entries
            self.entrySize = entrySize
            self.ratio = ratio
        }

        public static let `default` = Limits()
    }

    public let entries: [Entry]
    private let source: any ZipSource
    private let limits: Limits
    /// Compressed bytes are read this much at a time.
    private static let readPiece = 256 * 1024
    /// The central directory is read whole: more than this is not an archive Almanac reads.
    private static let maxDirectorySize = 16 << 20

    private static let localHeaderSignature: UInt32 = 0x0403_4B50
    private static let centralHeaderSignature: UInt32 = 0x0201_4B50
    private static let endOfDirectorySignature: UInt32 = 0x0605_4B50
    private static let endOfDirectorySize = 22
    private static let centralHeaderSize = 46
    private static let localHeaderSize = 30
    private static let maxCommentLength = 0xFFFF
    private static let methodStored = 0
    private static let methodDeflate = 8
    private static let encryptedFlag: UInt16 = 1

    public init(_ bytes: [UInt8], limits: Limits = .default) throws(ZipError) {
        try self.init(source: ZipBytes(bytes), limits: limits)
    }

    public init(source: any ZipSource, limits: Limits = .default) throws(ZipError) {
        self.source = source
        self.limits = limits
        // The end record is in the last 22 bytes plus at most a 65,535-byte comment.
        guard source.size >= Self.endOfDirectorySize else { throw .malformed("too short to be a zip") }
        let tailStart = max(0, source.size - Self.endOfDirectorySize - Self.maxCommentLength)
        let tail = try source.read(at: tailStart, count: source.size - tailStart)
        var end = tail.count - Self.endOfDirectorySize
        while end >= 0, tail.uint32(at: end) != Self.endOfDirectorySignature { end -= 1 }
        guard end >= 0 else { throw .malformed("no end of central directory") }
        var count = Int(tail.uint16(at: end + 10))
        var directorySize = Int(tail.uint32(at: end + 12))
        var directoryOffset = Int(tail.uint32(at: end + 16))
        var endOffset = tailStart + end
        // ZIP64 (APPNOTE 4.3.14, 4.3.15): a field at its 16- or 32-bit maximum is in the ZIP64 end
        // record, which the locator just before the end record points to.
        if count == Int(ZIP64.marker16) || directorySize == Int(ZIP64.marker32) || directoryOffset == Int(ZIP64.marker32) {
            let locatorStart = end - ZIP64.locatorSize
            guard locatorStart >= 0, tail.uint32(at: locatorStart) == ZIP64.locatorSignature else {
                throw .malformed("ZIP64 end of central directory locator")
            }
            let recordOffset = try Self.offset(tail.uint64(at: locatorStart + 8), "ZIP64 end of central directory")
            guard recordOffset + ZIP64.endSize <= tailStart + locatorStart else { throw .malformed("ZIP64 end of central directory") }
            let record = try source.read(at: recordOffset, count: ZIP64.endSize)
            guard record.count == ZIP64.endSize, record.uint32(at: 0) == ZIP64.endSignature else {
                throw .malformed("ZIP64 end of central directory")
            }
            count = try Self.offset(record.uint64(at: 32), "ZIP64 entry count")
            directorySize = try Self.offset(record.uint64(at: 40), "ZIP64 central directory size")
            directoryOffset = try Self.offset(record.uint64(at: 48), "ZIP64 central directory offset")
            endOffset = recordOffset
        }
        guard count <= limits.entries else { throw .limit(entry: "archive", limit: "\(limits.entries) entries") }
        guard directorySize <= Self.maxDirectorySize else { throw .limit(entry: "central directory", limit: "\(Self.maxDirectorySize) bytes") }
        guard directoryOffset + directorySize <= endOffset else { throw .malformed("central directory outside the file") }
        let bytes = try source.read(at: directoryOffset, count: directorySize)
        let directoryEnd = bytes.count
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        var position = 0
        for _ in 0..<count {
            guard position + Self.centralHeaderSize <= directoryEnd, bytes.uint32(at: position) == Self.centralHeaderSignature else {
                throw .malformed("central directory entry \(entries.count + 1)")
            }
            let nameLength = Int(bytes.uint16(at: position + 28))
            let extraLength = Int(bytes.uint16(at: position + 30))
            let commentLength = Int(bytes.uint16(at: position + 32))
            let nameStart = position + Self.centralHeaderSize
            guard nameStart + nameLength + extraLength + commentLength <= directoryEnd else { throw .malformed("central directory entry \(entries.count + 1)") }
            let name = String(decoding: bytes[nameStart..<(nameStart + nameLength)], as: UTF8.self)
            var size = UInt64(bytes.uint32(at: position + 24))
            var compressedSize = UInt64(bytes.uint32(at: position + 20))
            var localHeaderOffset = UInt64(bytes.uint32(at: position + 42))
            if size == UInt64(ZIP64.marker32) || compressedSize == UInt64(ZIP64.marker32) || localHeaderOffset == UInt64(ZIP64.marker32) {
                // The real values are in the ZIP64 extra field, in this order, only those at their maximum (4.5.3).
                let extra = bytes[(nameStart + nameLength)..<(nameStart + nameLength + extraLength)]
                guard var values = Self.zip64Extra(Array(extra)) else { throw .malformed("\(name): its ZIP64 extra field") }
                func next(_ field: inout UInt64) throws(ZipError) {
                    guard field == UInt64(ZIP64.marker32) else { return }
                    guard !values.isEmpty else { throw .malformed("\(name): its ZIP64 extra field") }
                    field = values.removeFirst()
                }
                try next(&size)
                try next(&compressedSize)
                try next(&localHeaderOffset)
            }
            let entry = Entry(
                name: name, size: try Self.offset(size, name), compressedSize: try Self.offset(compressedSize, name),
                method: Int(bytes.uint16(at: position + 10)), crc: bytes.uint32(at: position + 16), flags: bytes.uint16(at: position + 8),
                localHeaderOffset: try Self.offset(localHeaderOffset, name))
            guard entry.localHeaderOffset + Self.localHeaderSize <= directoryOffset else { throw .malformed(name) }
            entries.append(entry)
            position = nameStart + nameLength + extraLength + commentLength
        }
        self.entries = entries
    }

    public func entry(named name: String) -> Entry? { entries.first { $0.name == name } }

    /// The 64-bit values of an extra field's ZIP64 block (header ID 1), or nil when it has none.
    private static func zip64Extra(_ extra: [UInt8]) -> [UInt64]? {
        var position = 0
        while position + 4 <= extra.count {
            let id = extra.uint16(at: position), length = Int(extra.uint16(at: position + 2))
            let start = position + 4
            guard start + length <= extra.count else { return nil }
            if id == ZIP64.extraID {
                return stride(from: start, to: start + length - 7, by: 8).map { extra.uint64(at: $0) }
            }
            position = start + length
        }
        return nil
    }

    /// A 64-bit size or offset as an Int, refused past what a file here can hold.
    private static func offset(_ value: UInt64, _ what: String) throws(ZipError) -> Int {
        guard value <= UInt64(Int.max / 2) else { throw .malformed(what) }
        return Int(value)
    }

    /// An entry's bytes, handed out in pieces as they inflate; the CRC is checked at the end.
    public func read(_ entry: Entry, _ body: ([UInt8]) throws(ZipError) -> Void) throws(ZipError) {
        guard entry.flags & Self.encryptedFlag == 0 else { throw .encrypted(entry.name) }
        guard entry.size <= limits.entrySize else { throw .limit(entry: entry.name, limit: "\(limits.entrySize) bytes") }
        // A ratio over the limit is a bomb whatever the sizes claim; a small entry may compress well.
        let allowed = min(limits.entrySize, max(entry.compressedSize, 1 << 16) * limits.ratio)
        guard entry.size <= allowed else { throw .limit(entry: entry.name, limit: "a compression ratio of \(limits.ratio)") }
        let local = entry.localHeaderOffset
        let header = try source.read(at: local, count: Self.localHeaderSize)
        guard header.uint32(at: 0) == Self.localHeaderSignature else { throw .malformed(entry.name) }
        let dataStart = local + Self.localHeaderSize + Int(header.uint16(at: 26)) + Int(header.uint16(at: 28))
        guard dataStart + entry.compressedSize <= source.size else { throw .malformed(entry.name) }
        // The compressed bytes, a piece at a time.
        var position = dataStart
        let dataEnd = dataStart + entry.compressedSize
        let source = self.source
        func next() throws(ZipError) -> [UInt8]? {
            guard position < dataEnd else { return nil }
            let piece = try source.read(at: position, count: min(Self.readPiece, dataEnd - position))
            guard !piece.isEmpty else { return nil }
            position += piece.count
            return piece
        }
        var crc: UInt32 = 0
        var produced = 0
        switch entry.method {
        case Self.methodStored:
            while let piece = try next() {
                crc = CRC32.update(crc, piece)
                produced += piece.count
                try body(piece)
            }
        case Self.methodDeflate:
            // The declared size is checked, and the inflated bytes may not pass it either.
            produced = try Inflater().inflate(limit: entry.size, entry: entry.name, next: next) { (piece) throws(ZipError) in
                crc = CRC32.update(crc, piece)
                try body(piece)
            }
        default:
            throw .unsupportedMethod(entry: entry.name, method: entry.method)
        }
        guard produced == entry.size, crc == entry.crc else { throw .checksum(entry.name) }
    }

    /// An entry's whole bytes.
    public func data(_ entry: Entry) throws(ZipError) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(entry.size)
        try read(entry) { (piece) throws(ZipError) in result += piece }
        return result
    }
}

extension [UInt8] {
    func uint16(at offset: Int) -> UInt16 {
        guard offset >= 0, offset + 2 <= count else { return 0 }
        return UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }

    func uint64(at offset: Int) -> UInt64 {
        UInt64(uint32(at: offset)) | UInt64(uint32(at: offset + 4)) << 32
    }

    func uint32(at offset: Int) -> UInt32 {
        guard offset >= 0, offset + 4 <= count else { return 0 }
        return UInt32(self[offset]) | UInt32(self[offset + 1]) << 8 | UInt32(self[offset + 2]) << 16 | UInt32(self[offset + 3]) << 24
    }
}
