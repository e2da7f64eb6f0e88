@testable import AlmanacCSV
import AlmanacCore
import AlmanacICU
import Foundation
import Testing

func fixturePath(_ name: String, filePath: String = #filePath) -> String {
    URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path
}

/// Records of bytes fed in pieces of `chunk` bytes.
func records(_ bytes: [UInt8], delimiter: UInt8 = 0x2C, chunk: Int = 1 << 20) throws -> [[String]] {
    var reader = CSVReader(delimiter: delimiter, fileName: "test.csv")
    var result: [[String]] = []
    var index = 0
    repeat {
        let end = min(index + chunk, bytes.count)
        try reader.feed(Array(bytes[index..<end]), isLast: end == bytes.count) { (record) throws(Diagnostic) in
            result.append(record.strings)
        }
        index = end
    } while index < bytes.count
    return result
}

@Suite struct CSVReaderTests {
    @Test func chunkBoundariesDoNotMatter() throws {
        let text = "a,b,c\r\n\"x, \"\"y\"\"\",2,\"multi\nline\"\r\nplain,\"\",end\n\nlast,row,\"q\"\r\n"
        let bytes = Array(text.utf8)
        let whole = try records(bytes)
        #expect(whole == [["a", "b", "c"], ["x, \"y\"", "2", "multi\nline"], ["plain", "", "end"], [], ["last", "row", "q"]])
        for size in 1...bytes.count {
            let got = try records(bytes, chunk: size)
            #expect(got == whole, "chunk \(size): \(got)")
        }
    }

    /// Chunks larger than the part of a chunk first joined to a waiting record (4 KB), with
    /// records longer than that straddling them: the same records, lines and warnings (each
    /// warning once) as the whole text read at once.
    @Test func longRecordsAcrossLargeChunks() throws {
        var text = "name,notes,n\r\n"
        for index in 0..<400 {
            switch index % 5 {
            case 0: text += "r\(index),\"" + String(repeating: "長的備註 \"\"引號\"\"\n", count: index * 3) + "\",\(index)\r\n"
            case 1: text += "r\(index),\"quoted\"tail,\(index)\n"
            case 2: text += "r\(index)," + String(repeating: "x", count: index * 11) + ",\(index)\r"
            default: text += "r\(index),短,\(index)\r\n"
            }
        }
        let bytes = Array(text.utf8)
        func read(chunk: Int) throws -> (records: [[String]], lines: [Int], warnings: [String]) {
            var reader = CSVReader(delimiter: ASCII.comma, fileName: "long.csv")
            var records: [[String]] = []
            var lines: [Int] = []
            var index = 0
            repeat {
                let end = min(index + chunk, bytes.count)
                try reader.feed(Array(bytes[index..<end]), isLast: end == bytes.count) { (record) throws(Diagnostic) in
                    records.append(record.strings)
                    lines.append(record.line)
                }
                index = end
            } while index < bytes.count
            return (records, lines, reader.diagnostics.map { "\($0.code.rawValue) \($0.location?.line ?? 0)" })
        }
        let whole = try read(chunk: bytes.count)
        #expect(whole.records.count == 401)
        #expect(whole.warnings.count == 80)
        for chunk in [4_097, 5_000, 8_191, 20_000, 65_536] {
            let pieces = try read(chunk: chunk)
            #expect(pieces.records == whole.records, "chunk \(chunk)")
            #expect(pieces.lines == whole.lines, "chunk \(chunk)")
            #expect(pieces.warnings == whole.warnings, "chunk \(chunk)")
        }
    }

    /// A file large enough to be read ahead on a second thread (checked to be UTF-8 there) reads
    /// as the same bytes in memory do: a character split between two 1 MB chunks is whole, a
    /// damaged byte far into the file and a file cut inside a character are errors that say so.
    @Test func readAheadFilesReadAsTheirBytes() throws {
        var text = "id,name,notes\n"
        var row = 0
        while text.utf8.count < 9 << 20 {
            text += "\(row),媽媽生日 \(row),\"繳費期限：每月 5 日，\n金額 NT$12,000。\"\n"
            row += 1
        }
        var bytes = Array(text.utf8)
        // Some character straddles each chunk boundary (rows are not a divisor of 1 MB).
        #expect((1...8).contains { bytes[$0 << 20] & 0xC0 == 0x80 })
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-readahead-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func decode(_ bytes: [UInt8], readsAhead: Bool = true) throws -> Table {
            let path = folder.appendingPathComponent("big.csv").path
            #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            var context = CodecContext()
            context.readsAhead = readsAhead
            guard case .table(let table) = try CSVCodec.csv.decode(CodecInput(contentsOf: path), context: context).document else {
                fatalError("not a table")
            }
            return table
        }
        let ahead = try decode(bytes)
        let inMemory = try CSVCodec.csv.decode(CodecInput(bytes: bytes), context: CodecContext()).document
        guard case .table(let table) = inMemory else { fatalError("not a table") }
        #expect(ahead.rows.count == row && ahead.rows == table.rows)
        #expect(ahead.rows[row - 1] == ["\(row - 1)", "媽媽生日 \(row - 1)", "繳費期限：每月 5 日，\n金額 NT$12,000。"])
        #expect(try decode(bytes, readsAhead: false).rows == table.rows)

        func failure(_ bytes: [UInt8]) -> String? {
            do { _ = try decode(bytes); return nil } catch { return (error as? Diagnostic)?.code.rawValue }
        }
        var damaged = bytes
        damaged[(5 << 20) + 3] = 0xFF
        #expect(failure(damaged) == "csv.mixed-encoding")
        bytes.removeLast(4)  // LF, the closing quote and two of the last 。's three bytes
        #expect(failure(bytes) == "csv.mixed-encoding")
    }

    /// A cell's blank edges are found from its bytes as Unicode's White_Space (and ASCII's
    /// controls) says, for every character at either end.
    @Test func edgeBlanksAreUnicodeWhitespace() {
        for value in UInt32(0)...0x3100 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let blank = scalar.properties.isWhitespace || (scalar.isASCII && (value < 0x20 || value == 0x7F))
            for text in [String(scalar) + "x", "x" + String(scalar), String(scalar), "中" + String(scalar)] {
                let found = text.withByteView { CellReader.hasEdgeWhitespace($0) }
                let expected = blank || text.unicodeScalars.first!.properties.isWhitespace
                #expect(found == expected, "U+\(String(value, radix: 16)) in \(text.debugDescription)")
            }
        }
    }
}
