import AlmanacTestSupport
import Foundation
import Testing
@testable import AlmanacZip

/// The zip container: what the writer streams reads back entry by entry, and the reader refuses
/// what an untrusted archive can do to it (bombs, encryption, damage) with an error, never a crash.
struct ZipTests {
    static func archive(_ entries: [(String, [UInt8])], compression: ZipWriter.Compression = .fast) throws -> [UInt8] {
        var bytes: [UInt8] = []
        let writer = try ZipWriter(compression: compression) { (piece) throws(ZipError) in bytes += piece }
        for (name, data) in entries {
            try writer.begin(name)
            // In uneven pieces, as rows arrive.
            var index = 0
            var step = 1
            while index < data.count {
                let end = min(data.count, index + step)
                try writer.write(Array(data[index..<end]))
                index = end
                step = step * 3 + 7
            }
            try writer.end()
        }
        try writer.finish()
        return bytes
    }

    /// Random entries (empty, tiny, incompressible, repetitive, larger than a piece) come back byte
    /// for byte, at either compression.
    @Test(arguments: [1, 2, 3, 4, 5], ZipWriter.Compression.allCases)
    func writtenEntriesReadBack(seed: UInt64, compression: ZipWriter.Compression) throws {
        var generator = SeededGenerator(seed: seed)
        var entries: [(String, [UInt8])] = []
        for index in 0..<Int.random(in: 1...6, using: &generator) {
            let size = [0, 1, 100, 70_000, 300_000].randomElement(using: &generator)!
            let repetitive = Bool.random(using: &generator)
            let data = (0..<size).map { offset in repetitive ? UInt8(offset % 7) : UInt8.random(in: 0...255, using: &generator) }
            entries.append(("part\(index)/名稱 \(index).xml", data))
        }
        let archive = try ZipArchive(try Self.archive(entries, compression: compression))
        #expect(archive.entries.map(\.name) == entries.map(\.0))
        for (entry, (_, data)) in zip(archive.entries, entries) {
            #expect(try archive.data(entry) == data, "\(entry.name)")
        }
    }

    /// The same entries give the same bytes (no clock in the headers).
    @Test func sameContentSameBytes() throws {
        let entries = [("a.xml", Array("<a/>".utf8)), ("b.xml", Array(repeating: UInt8(ascii: "x"), count: 5000))]
        #expect(try Self.archive(entries) == Self.archive(entries))
    }

    /// A gigabyte of zeros in a megabyte: refused at the entry-size limit before it is inflated.
    @Test func bombsAreRefused() throws {
        let zeros = [UInt8](repeating: 0, count: 20 << 20)
        let bytes = try Self.archive([("xl/worksheets/sheet1.xml", zeros)], compression: .small)
        #expect(bytes.count < 100_000)
        let strict = ZipArchive.Limits(entrySize: 1 << 20)
        let archive = try ZipArchive(bytes, limits: strict)
        #expect(throws: ZipError.limit(entry: "xl/worksheets/sheet1.xml", limit: "1048576 bytes")) { _ = try archive.data(archive.entries[0]) }
        // Under the size limit, the ratio decides (20 MB from about 20 KB is over 100:1).
        let ratio = try ZipArchive(bytes, limits: ZipArchive.Limits(ratio: 100))
        #expect(throws: ZipError.limit(entry: "xl/worksheets/sheet1.xml", limit: "a compression ratio of 100")) { _ = try ratio.data(ratio.entries[0]) }
    }

    /// An entry whose directory understates its size inflates no further than the size it claims.
    @Test func understatedSizesStopAtTheClaim() throws {
        var bytes = try Self.archive([("a.xml", [UInt8](repeating: 65, count: 200_000))])
        // Patch the central directory's uncompressed size (offset 24 in the entry) to 1,000.
        let directory = bytes.count - 22 - 46 - "a.xml".utf8.count
        bytes[directory + 24] = 0xE8; bytes[directory + 25] = 0x03; bytes[directory + 26] = 0; bytes[directory + 27] = 0
        let archive = try ZipArchive(bytes)
        #expect(throws: ZipError.limit(entry: "a.xml", limit: "1000")) { _ = try archive.data(archive.entries[0]) }
    }

    @Test func encryptedAndDamagedArchivesAreErrors() throws {
        var bytes = try Self.archive([("a.xml", Array("<a/>".utf8))])
        let directory = bytes.count - 22 - 46 - 5
        bytes[directory + 8] |= 1  // the encryption flag
        let encrypted = try ZipArchive(bytes)
        #expect(throws: ZipError.encrypted("a.xml")) { _ = try encrypted.data(encrypted.entries[0]) }
        #expect(throws: ZipError.self) { _ = try ZipArchive(Array("PK not really".utf8)) }
        #expect(throws: ZipError.self) { _ = try ZipArchive(Array(bytes.prefix(bytes.count - 30))) }
        // Every truncation and every flipped byte is an error or a read, never a crash.
        let good = try Self.archive([("a.xml", Array(repeating: UInt8(ascii: "a"), count: 3000))])
        for cut in stride(from: 0, to: good.count, by: 7) {
            if let archive = try? ZipArchive(Array(good.prefix(cut))) { for entry in archive.entries { _ = try? archive.data(entry) } }
        }
        for offset in 0..<good.count {
            var damaged = good
            damaged[offset] ^= 0x5A
            if let archive = try? ZipArchive(damaged) { for entry in archive.entries { _ = try? archive.data(entry) } }
        }
    }

    /// Data that is not DEFLATE (a block of the reserved type 3) is a damaged entry, named.
    @Test func invalidDeflateDataIsMalformed() throws {
        var bytes = try Self.archive([("a.xml", Array(repeating: UInt8(ascii: "a"), count: 3000))])
        // The entry's data follows its 30-byte local header and its name; its first bits are
        // BFINAL = 1 and BTYPE = 11.
        bytes[30 + "a.xml".utf8.count] = 0b0000_0111
        let archive = try ZipArchive(bytes)
        #expect { _ = try archive.data(archive.entries[0]) } throws: { error in
            guard case ZipError.malformed(let what) = error else { return false }
            return what.hasPrefix("a.xml: not DEFLATE data")
        }
    }

    // MARK: ZIP64

    /// Entries written with ZIP64's fields (the writer's thresholds lowered, so no test writes
    /// gigabytes): every size and offset in the extra field, the count in the ZIP64 end record.
    static func zip64Archive(_ entries: [(String, [UInt8])], size: Int = 0, count: Int = 2) throws -> [UInt8] {
        var bytes: [UInt8] = []
        let writer = try ZipWriter { (piece) throws(ZipError) in bytes += piece }
        writer.zip64Size = size
        writer.zip64Entries = count
        for (name, data) in entries { try writer.entry(name, data) }
        try writer.finish()
        return bytes
    }

    static func contains(_ bytes: [UInt8], signature: UInt32) -> Bool {
        let pattern: [UInt8] = [UInt8(signature & 0xFF), UInt8(signature >> 8 & 0xFF), UInt8(signature >> 16 & 0xFF), UInt8(signature >> 24)]
        return bytes.firstRange(of: pattern) != nil
    }

    @Test func zip64ReadsBack() throws {
        let entries = [("a.xml", Array("<a/>".utf8)), ("xl/b.xml", [UInt8](repeating: 7, count: 100_000)), ("c", [])]
        let bytes = try Self.zip64Archive(entries)
        #expect(Self.contains(bytes, signature: 0x0606_4B50) && Self.contains(bytes, signature: 0x0706_4B50))
        let archive = try ZipArchive(bytes)
        #expect(archive.entries.map(\.name) == entries.map(\.0))
        #expect(archive.entries.map(\.size) == entries.map(\.1.count))
        for (entry, (_, data)) in zip(archive.entries, entries) { #expect(try archive.data(entry) == data) }
        // Within the classic limits, none of ZIP64's records is written.
        let classic = try Self.archive(entries)
        #expect(!Self.contains(classic, signature: 0x0606_4B50))
    }

    /// Another reader (Python's zipfile, where there is one) reads what the writer writes as ZIP64.
    @Test(.enabled(if: ExternalCommand.run(["python3", "-c", "import zipfile"]).status == 0, "needs python3"))
    func zip64IsReadByPython() throws {
        let entries = [("a.xml", Array("<a>甲</a>".utf8)), ("b.xml", [UInt8](repeating: 65, count: 70_000))]
        let path = NSTemporaryDirectory() + "almanac-zip64-\(UUID().uuidString).zip"
        try Data(try Self.zip64Archive(entries)).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let script = "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); z.testzip(); print(';'.join('%s=%d' % (i.filename, i.file_size) for i in z.infolist()))"
        let result = ExternalCommand.run(["python3", "-c", script, path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == "a.xml=\("<a>甲</a>".utf8.count);b.xml=70000")
    }

    /// More entries than the classic count holds: written and read with ZIP64's count.
    @Test func zip64EntryCount() throws {
        let entries = (0..<65_540).map { ("p\($0)", [UInt8(truncatingIfNeeded: $0)]) }
        var bytes: [UInt8] = []
        let writer = try ZipWriter(compression: .fast) { (piece) throws(ZipError) in bytes += piece }
        for (name, data) in entries { try writer.entry(name, data) }
        try writer.finish()
        #expect(Self.contains(bytes, signature: 0x0606_4B50))
        let archive = try ZipArchive(bytes, limits: ZipArchive.Limits(entries: 70_000))
        #expect(archive.entries.count == entries.count)
        #expect(try archive.data(archive.entries[65_539]) == [UInt8(truncatingIfNeeded: 65_539)])
        // The entry limit holds on the real count.
        #expect(throws: ZipError.limit(entry: "archive", limit: "10000 entries")) { _ = try ZipArchive(bytes) }
    }

    /// The size and ratio limits hold on the real sizes in the extra field: an entry whose classic
    /// fields say 0xFFFFFFFF is read by its extra field, and a bomb there is still a bomb.
    @Test func zip64LimitsHoldOnRealSizes() throws {
        let zeros = [UInt8](repeating: 0, count: 4 << 20)
        let bytes = try Self.zip64Archive([("xl/worksheets/sheet1.xml", zeros)])
        let archive = try ZipArchive(bytes, limits: ZipArchive.Limits(entrySize: 1 << 20))
        #expect(archive.entries[0].size == zeros.count)
        #expect(throws: ZipError.limit(entry: "xl/worksheets/sheet1.xml", limit: "1048576 bytes")) { _ = try archive.data(archive.entries[0]) }
        // An extra field that lacks the values its record says it holds is damage, named.
        var damaged = bytes
        let extraHeader: [UInt8] = [0x01, 0x00, 0x18, 0x00]
        let at = try #require(damaged.firstRange(of: extraHeader))
        damaged[at.lowerBound + 2] = 0x08  // says 8 bytes: one value where three are needed
        #expect(throws: ZipError.self) { _ = try ZipArchive(damaged) }
        // Every truncation is an error or a shorter archive, never a crash.
        for cut in stride(from: 0, to: bytes.count, by: 97) {
            if let cutArchive = try? ZipArchive(Array(bytes.prefix(cut))) { for entry in cutArchive.entries { _ = try? cutArchive.data(entry) } }
        }
    }
}
