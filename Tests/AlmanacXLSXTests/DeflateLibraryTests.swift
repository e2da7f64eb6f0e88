import Foundation
import Testing
@testable import AlmanacZip

/// zlib (the default) and ISA-L (the ISAL trait) write different bytes for the same workbook; each
/// reads what the other wrote, entry for entry. CI runs this suite in both builds, so each library
/// reads the other's fixture and its own writing of the same entries.
///
/// Fixtures/Deflate: the same 1,000-row agenda (`../shared/bench/gen.py csv 1000`) converted with
/// `almanac convert … --via agenda --to xlsx --locale zh-TW` by a default build (written-by-zlib)
/// and by a build with `--traits ISAL` (written-by-isal).
struct DeflateLibraryTests {
    static func fixture(_ name: String) throws -> ZipArchive {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Deflate/" + name)
        return try ZipArchive(Array(try Data(contentsOf: url)))
    }

    static func contents(_ archive: ZipArchive) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for entry in archive.entries { result[entry.name] = try archive.data(entry) }
        return result
    }

    @Test func eachLibraryReadsTheOther() throws {
        let zlib = try Self.fixture("written-by-zlib.xlsx")
        let isal = try Self.fixture("written-by-isal.xlsx")
        // Different compressors, different bytes…
        #expect(zlib.entries.map(\.compressedSize) != isal.entries.map(\.compressedSize))
        // …the same workbook, read by whichever library this build has.
        let written = try Self.contents(zlib)
        #expect(try Self.contents(isal) == written)
        let sheet = try #require(written["xl/worksheets/sheet1.xml"])
        #expect(sheet.count > 3 * pieceSize, "the sheet spans several pieces and DEFLATE blocks")
    }

    /// This build's writer, at either compression, gives entries that read back as the fixtures'.
    @Test(arguments: ZipWriter.Compression.allCases)
    func thisBuildWritesWhatTheFixturesHold(compression: ZipWriter.Compression) throws {
        let written = try Self.contents(try Self.fixture("written-by-zlib.xlsx"))
        var bytes: [UInt8] = []
        let writer = try ZipWriter(compression: compression) { (piece) throws(ZipError) in bytes += piece }
        for name in written.keys.sorted() { try writer.entry(name, written[name]!) }
        try writer.finish()
        #expect(try Self.contents(try ZipArchive(bytes)) == written)
        // Either compression makes the workbook's XML several times smaller.
        let total = written.values.reduce(0) { $0 + $1.count }
        #expect(bytes.count * 4 < total, "\(DeflateLibrary.name) \(compression): \(bytes.count) of \(total) bytes")
    }
}
