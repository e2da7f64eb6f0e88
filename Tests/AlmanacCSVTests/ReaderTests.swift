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
