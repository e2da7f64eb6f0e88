import AlmanacICU
import Testing

/// Fixtures are written by Python's codecs (Fixtures/README.md), so the expected text is what
/// Python reads back from the same bytes.
@Suite struct CharsetTests {
    @Test func big5ExcelExportIsDetectedAndDecoded() throws {
        let bytes = try fixture("excel-big5.csv")
        let detection = CharsetDetector.detect(bytes)
        #expect(detection.charset == .big5)
        #expect(detection.confidence == .likely)
        let text = try detection.charset.decode(bytes)
        #expect(text.hasPrefix("名稱,日期,金額,備註\r\n媽媽生日"))
        #expect(text.contains("€50"))  // A3E1: only Microsoft's Big5 table has it
    }

    @Test func gbkExcelExportIsDetectedAndDecoded() throws {
        let bytes = try fixture("excel-gbk.csv")
        let detection = CharsetDetector.detect(bytes)
        #expect(detection.charset == .gb18030)
        #expect(detection.confidence == .likely)
        #expect(try detection.charset.decode(bytes).hasPrefix("名称,日期,金额,备注\r\n妈妈生日"))
    }

    @Test func utf8WithBOM() throws {
        let bytes = try fixture("excel-utf8-bom.csv")
        let detection = CharsetDetector.detect(bytes)
        #expect(detection.charset == .utf8)
        #expect(detection.byteOrderMarkLength == 3)
        #expect(detection.confidence == .certain)
        #expect(try Charset.utf8.decode(bytes.dropFirst(3)).hasPrefix("名稱"))
    }

    @Test func utf16StringsFiles() throws {
        let withoutBOM = try fixture("Localizable-utf16le-nobom.strings")
        let detection = CharsetDetector.detect(withoutBOM)
        #expect(detection.charset == .utf16LE)
        #expect(detection.byteOrderMarkLength == 0)
        #expect(try Charset.utf16LE.decode(withoutBOM).hasPrefix("/* 保存按鈕 */\n\"save\" = \"儲存\";"))

        let withBOM = try fixture("Localizable-utf16be-bom.strings")
        let bomDetection = CharsetDetector.detect(withBOM)
        #expect(bomDetection.charset == .utf16BE)
        #expect(bomDetection.byteOrderMarkLength == 2)
        #expect(try Charset.utf16BE.decode(withBOM.dropFirst(2)).contains("還有 %d 天"))
    }

    @Test func westernExport() throws {
        let bytes = try fixture("latin1.csv")
        let detection = CharsetDetector.detect(bytes)
        #expect(detection.charset == .windows1252)
        #expect(try detection.charset.decode(bytes).contains("José,Zürich"))
    }

    @Test func declaredCharsetWins() throws {
        let bytes = try fixture("excel-gbk.csv")
        let detection = CharsetDetector.detect(bytes, declared: .big5)
        #expect(detection.charset == .big5)
        #expect(detection.confidence == .certain)
    }

    @Test func tooLittleTextIsAmbiguousNotAGuess() {
        // 媽菸第 in Big5 is B6FD B5D2 B2C4, which GB18030 reads as 洱狄材: common characters in both.
        let bytes: [UInt8] = [0xB6, 0xFD, 0xB5, 0xD2, 0xB2, 0xC4]
        let detection = CharsetDetector.detect(bytes)
        #expect(Set(detection.candidates.map(\.charset)) == [.gb18030, .big5])
        #expect(detection.isAmbiguous)
        // With the rest of the name the Big5 reading wins: 媽媽生日 (生日 are A5CD A4E9, kana in GB2312).
        #expect(CharsetDetector.detect([0xB6, 0xFD, 0xB6, 0xFD, 0xA5, 0xCD, 0xA4, 0xE9]).charset == .big5)
    }

    @Test func aliasesFollowMicrosoftsTables() throws {
        #expect(try Charset(name: "big5") == .big5)
        #expect(try Charset(name: "cp950") == .big5)
        #expect(try Charset(name: "GBK") == .gb18030)
        #expect(try Charset(name: "windows-950") == .big5)
        #expect(try Charset(name: "Shift_JIS").name.isEmpty == false)
        #expect(throws: ICUError.self) { try Charset(name: "no-such-charset") }
    }

    @Test func badBytesAreLocated() {
        let utf8 = #expect(throws: ICUError.self) { try Charset.utf8.decode([0x41, 0x42, 0xFF, 0x43]) }
        #expect(utf8?.kind == .invalidBytes)
        #expect(utf8?.offset == 2)
        // A Big5 lead byte followed by a byte that cannot be a trail byte.
        let big5 = #expect(throws: ICUError.self) { try Charset.big5.decode([0x41, 0xA4, 0x40, 0xA4, 0x0A]) }
        #expect(big5?.offset == 3)
        // Overlong and surrogate encodings are invalid UTF-8.
        #expect(throws: ICUError.self) { try Charset.utf8.decode([0xC0, 0xAF]) }
        #expect(throws: ICUError.self) { try Charset.utf8.decode([0xED, 0xA0, 0x80]) }
    }

    @Test func unmappableCharactersAreLocated() throws {
        let error = #expect(throws: ICUError.self) { try Charset.big5.encode("生日😀快樂") }
        #expect(error?.kind == .unmappableCharacter)
        #expect(error?.offset == 2)
        #expect(try Charset.big5.encode("媽媽生日") == [0xB6, 0xFD, 0xB6, 0xFD, 0xA5, 0xCD, 0xA4, 0xE9])
        #expect(try Charset.utf16LE.encode("A", byteOrderMark: true) == [0xFF, 0xFE, 0x41, 0x00])
    }

    @Test func roundTripsLargeText() throws {
        let text = String(repeating: "繳費期限：每月 5 日，金額 NT$12,000。\r\n", count: 5000)
        let bytes = try Charset.big5.encode(text)
        #expect(try Charset.big5.decode(bytes) == text)
        let gb = try Charset.gb18030.encode("𠀀 emoji 😀 and 中文")
        #expect(try Charset.gb18030.decode(gb) == "𠀀 emoji 😀 and 中文")
    }
}
