/// Writes a zip archive (PKWARE APPNOTE 6.3) as its entries stream: each entry's local header,
/// its DEFLATE data as it is compressed, then a data descriptor with the CRC and sizes, and the
/// central directory at the end. Nothing but the current piece and the directory is held, so a
/// workbook of a million rows is written in constant memory.
///
/// Entries are dated 1980-01-01 00:00 (the format's first day), so the same content gives the
/// same bytes. An entry, an offset or the archive past 4 GiB, or more than 65,534 entries, is
/// written with ZIP64's fields (APPNOTE 4.3.14–4.3.15, 4.5.3), as Go's and .NET's writers do: a
/// 64-bit data descriptor for such an entry, its central record's ZIP64 extra field, and the
/// ZIP64 end record and locator; an archive within the classic limits has none of them.
public final class ZipWriter {
    public typealias Output = ([UInt8]) throws(ZipError) -> Void

    private let output: Output
    private var offset = 0
    private var directory: [UInt8] = []
    private var entries = 0
    private var pending: [UInt8] = []
    private var current: Entry?
    private let deflater: Deflater

    private struct Entry {
        var name: [UInt8]
        var localOffset: Int
        var crc: UInt32 = 0
        var size = 0
        var compressedSize = 0
    }

    /// A writer handing the archive's bytes to `output`, about a megabyte at a time, its entries
    /// compressed as `compression` asks (by zlib, or ISA-L with the package's `ISAL` trait).
    public init(compression: Compression = .fast, output: @escaping Output) throws(ZipError) {
        self.output = output
        deflater = try Deflater(compression)
    }

    // Signatures and fields (APPNOTE 4.3.7, 4.3.9, 4.3.12, 4.3.16).
    private static let localHeaderSignature: UInt32 = 0x0403_4B50
    private static let dataDescriptorSignature: UInt32 = 0x0807_4B50
    private static let centralHeaderSignature: UInt32 = 0x0201_4B50
    private static let endOfDirectorySignature: UInt32 = 0x0605_4B50
    /// 2.0: DEFLATE and data descriptors.
    private static let versionNeeded: UInt16 = 20
    /// Bit 3: sizes and CRC follow the data; bit 11: the name is UTF-8.
    private static let flags: UInt16 = 1 << 3 | 1 << 11
    private static let methodDeflate: UInt16 = 8
    /// MS-DOS date of 1980-01-01 (year 0 from 1980, month 1, day 1) and time 00:00:00.
    private static let dosDate: UInt16 = 1 << 5 | 1
    private static let dosTime: UInt16 = 0
    /// Sizes, offsets and counts from these on are ZIP64's (the classic fields hold their maximum).
    /// Lowered by tests to write ZIP64's records without gigabytes.
    var zip64Size = Int(ZIP64.marker32)
    var zip64Entries = Int(ZIP64.marker16)

    /// Starts an entry named `name` (a path inside the archive, `/`-separated).
    public func begin(_ name: String) throws(ZipError) {
        if current != nil { try end() }
        let entry = Entry(name: Array(name.utf8), localOffset: offset)
        var header: [UInt8] = []
        header.append32(Self.localHeaderSignature)
        // The CRC and sizes are not known yet: they follow the data, in its descriptor.
        Self.appendSharedFields(entry, to: &header)
        header += entry.name
        current = entry
        try emit(header)
    }

    /// Adds bytes to the current entry.
    public func write(_ bytes: [UInt8]) throws(ZipError) {
        guard var entry = current else { return }
        entry.crc = CRC32.update(entry.crc, bytes)
        entry.size += bytes.count
        current = entry
        try deflater.compress(bytes, finish: false) { (piece) throws(ZipError) in try self.emitCompressed(piece) }
    }

    /// A whole entry at once.
    public func entry(_ name: String, _ bytes: [UInt8]) throws(ZipError) {
        try begin(name)
        try write(bytes)
        try end()
    }

    /// Ends the current entry: the rest of its data and its descriptor.
    public func end() throws(ZipError) {
        guard current != nil else { return }
        try deflater.compress([], finish: true) { (piece) throws(ZipError) in try self.emitCompressed(piece) }
        guard let entry = current else { return }  // set by begin, kept by emitCompressed
        current = nil
        let largeSizes = entry.size >= zip64Size || entry.compressedSize >= zip64Size
        var descriptor: [UInt8] = []
        descriptor.append32(Self.dataDescriptorSignature)
        descriptor.append32(entry.crc)
        if largeSizes {
            descriptor.append64(UInt64(entry.compressedSize))
            descriptor.append64(UInt64(entry.size))
        } else {
            descriptor.append32(UInt32(entry.compressedSize))
            descriptor.append32(UInt32(entry.size))
        }
        try emit(descriptor)

        // The central record: a value past the classic field's reach goes in the ZIP64 extra field.
        var extra: [UInt8] = []
        if largeSizes { extra.append64(UInt64(entry.size)); extra.append64(UInt64(entry.compressedSize)) }
        if entry.localOffset >= zip64Size { extra.append64(UInt64(entry.localOffset)) }
        directory.append32(Self.centralHeaderSignature)
        directory.append16(extra.isEmpty ? Self.versionNeeded : ZIP64.version)  // made by: MS-DOS attributes
        var shared = entry
        if largeSizes { shared.size = Int(ZIP64.marker32); shared.compressedSize = Int(ZIP64.marker32) }
        Self.appendSharedFields(shared, to: &directory, version: extra.isEmpty ? Self.versionNeeded : ZIP64.version,
                                extraLength: extra.isEmpty ? 0 : extra.count + 4)
        directory.append16(0)  // comment
        directory.append16(0)  // disk number
        directory.append16(0)  // internal attributes
        directory.append32(0)  // external attributes
        directory.append32(entry.localOffset >= zip64Size ? ZIP64.marker32 : UInt32(entry.localOffset))
        directory += entry.name
        if !extra.isEmpty {
            directory.append16(ZIP64.extraID)
            directory.append16(UInt16(extra.count))
            directory += extra
        }
        entries += 1
    }

    /// Ends the archive: the central directory and its end record. Writes out everything held.
    public func finish() throws(ZipError) {
        try end()
        let directoryOffset = offset
        let zip64 = entries >= zip64Entries || directory.count >= zip64Size || directoryOffset >= zip64Size
        var end: [UInt8] = []
        if zip64 {
            // The ZIP64 end record (its size counts the bytes after its first 12), then its locator.
            let recordOffset = directoryOffset + directory.count
            end.append32(ZIP64.endSignature)
            end.append64(ZIP64.endSizeField)
            end.append16(ZIP64.version)
            end.append16(ZIP64.version)
            end.append32(0)  // this disk
            end.append32(0)  // the disk the directory starts on
            end.append64(UInt64(entries))
            end.append64(UInt64(entries))
            end.append64(UInt64(directory.count))
            end.append64(UInt64(directoryOffset))
            end.append32(ZIP64.locatorSignature)
            end.append32(0)  // the disk the ZIP64 end record is on
            end.append64(UInt64(recordOffset))
            end.append32(1)  // disks
        }
        end.append32(Self.endOfDirectorySignature)
        end.append16(0)  // this disk
        end.append16(0)  // the disk the directory starts on
        end.append16(zip64 ? ZIP64.marker16 : UInt16(entries))
        end.append16(zip64 ? ZIP64.marker16 : UInt16(entries))
        end.append32(zip64 ? ZIP64.marker32 : UInt32(directory.count))
        end.append32(zip64 ? ZIP64.marker32 : UInt32(directoryOffset))
        end.append16(0)  // comment length
        try emit(directory)
        try emit(end)
        try flush()
    }

    /// The fields a local header and the central directory's record share, from the version
    /// needed to the extra field's length (APPNOTE 4.3.7, 4.3.12): the entry's CRC and sizes as
    /// they stand (zero before its data).
    private static func appendSharedFields(_ entry: Entry, to bytes: inout [UInt8], version: UInt16 = versionNeeded,
                                           extraLength: Int = 0) {
        bytes.append16(version)
        bytes.append16(flags)
        bytes.append16(methodDeflate)
        bytes.append16(dosTime)
        bytes.append16(dosDate)
        bytes.append32(entry.crc)
        bytes.append32(UInt32(entry.compressedSize))
        bytes.append32(UInt32(entry.size))
        bytes.append16(UInt16(entry.name.count))
        bytes.append16(UInt16(extraLength))
    }

    /// Bytes are handed on about a megabyte at a time.
    private static let outputPiece = 1 << 20

    /// Compressed bytes of the current entry, counted against the format's limit.
    private func emitCompressed(_ piece: [UInt8]) throws(ZipError) {
        guard var entry = current else { return }
        entry.compressedSize += piece.count
        current = entry
        try emit(piece)
    }

    private func emit(_ bytes: [UInt8]) throws(ZipError) {
        pending += bytes
        offset += bytes.count
        if pending.count >= Self.outputPiece { try flush() }
    }

    private func flush() throws(ZipError) {
        guard !pending.isEmpty else { return }
        let bytes = pending
        pending.removeAll(keepingCapacity: true)
        try output(bytes)
    }
}

extension [UInt8] {
    /// Little-endian, as every zip field is.
    mutating func append16(_ value: UInt16) {
        append(UInt8(truncatingIfNeeded: value))
        append(UInt8(truncatingIfNeeded: value >> 8))
    }

    mutating func append32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func append64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
}
