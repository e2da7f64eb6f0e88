import AlmanacCore
import Testing

@Suite struct UnicodeDetectionTests {
    /// UTF-16 without a byte order mark is told by its zero bytes, wherever the first one falls
    /// (the scan skips text with none eight bytes at a time).
    @Test func utf16WithoutAByteOrderMark() {
        for prefix in 0..<12 {
            let text = String(repeating: "繳", count: prefix) + "key = value;\n"
            let little = Array(text.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            let big = Array(text.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            #expect(UnicodeDetection.utf16WithoutBOM(little)?.littleEndian == true, "\(prefix)")
            #expect(UnicodeDetection.utf16WithoutBOM(big)?.littleEndian == false, "\(prefix)")
            #expect(UnicodeDetection.utf16WithoutBOM(Array(text.utf8)) == nil)
        }
        // Chinese-only UTF-16 has no zero byte: not told apart (as before the fast path).
        let chinese = Array("繳房貸媽媽生日".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(UnicodeDetection.utf16WithoutBOM(chinese) == nil)
    }
}
