@testable import AlmanacCatalogs
import AlmanacCore
import AlmanacTestSupport
import Foundation
import Testing

/// `.strings` compiled into a bundle (binary property lists): Sparkle's zh_TW and zh_CN tables,
/// compiled by an independent writer, read as their text sources read.
@Suite struct CompiledStringsTests {
    let codec = StringsCodec()

    func decode(_ name: String, _ context: CodecContext = CodecContext()) throws -> Decoded {
        try codec.decode(CodecInput(contentsOf: fixture("Compiled/" + name)), context: context)
    }

    /// Key → text of a catalog's one locale.
    func table(_ decoded: Decoded, _ locale: String) -> [String: String] {
        Dictionary(catalog(decoded).entries.compactMap { entry in entry.translations[locale]?.value.map { (entry.key, $0) } }) { a, _ in a }
    }

    @Test(arguments: ["zh_TW", "zh_CN"])
    func readsAsTheTextSourceReads(locale: String) throws {
        let compiled = try decode("\(locale).lproj/Sparkle.strings")
        let text = try decode("text/\(locale).lproj/Sparkle.strings")
        #expect(compiled.encoding == "binary property list (compiled .strings)")
        #expect(compiled.diagnostics.isEmpty)
        let keys = catalog(compiled).entries.map(\.key)
        #expect(keys.count > 30)
        #expect(keys == keys.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }, "the same order every time")
        #expect(table(compiled, locale) == table(text, locale))
        #expect(catalog(compiled).locales == [locale])
    }

    /// A table written as an XML property list reads as its text source reads, in its own order.
    @Test func anXMLPropertyListReadsAsTheTextSourceReads() throws {
        let xml = try decode("xml/zh_TW.lproj/Sparkle.strings")
        let text = try decode("text/zh_TW.lproj/Sparkle.strings")
        #expect(xml.encoding == StringsCodec.xmlDescription)
        #expect(xml.diagnostics.isEmpty)
        #expect(table(xml, "zh_TW") == table(text, "zh_TW"))
        #expect(catalog(xml).entries.map(\.key) == catalog(text).entries.map(\.key))
        #expect(catalog(xml).entries.first?.translations["zh_TW"]?.presentation.origin?.line == 6)
        let bytes = try fixtureBytes("Compiled/xml/zh_TW.lproj/Sparkle.strings")
        #expect(codec.identify(Probe(prefix: Array(bytes.prefix(Probe.prefixLength)), fileName: "zh_TW.lproj/Sparkle.strings")) == .yes)
        #expect(codec.identify(Probe(prefix: Array(bytes.prefix(Probe.prefixLength)), fileName: "Days.stringsdict")) == .cannotTell)
    }

    @Test func identifiedByItsMagicAndName() throws {
        let bytes = try fixtureBytes("Compiled/zh_TW.lproj/Sparkle.strings")
        #expect(codec.identify(Probe(prefix: Array(bytes.prefix(Probe.prefixLength)), fileName: "zh_TW.lproj/Sparkle.strings")) == .yes)
        // A compiled .stringsdict starts the same way.
        #expect(codec.identify(Probe(prefix: Array(bytes.prefix(Probe.prefixLength)), fileName: "Days.stringsdict")) == .cannotTell)
    }

    /// Written as text by default; as a compiled table with `encoding=binary`, which reads back the same.
    @Test func writtenAsTextOrCompiled() throws {
        let compiled = try decode("zh_TW.lproj/Sparkle.strings")
        let text = String(decoding: try codec.encode(compiled.document, context: CodecContext()).bytes, as: UTF8.self)
        #expect(text.hasPrefix("\""))
        #expect(text.contains("\" = \""))
        let reread = try codec.decode(CodecInput(bytes: Array(text.utf8), fileName: "zh_TW.lproj/Sparkle.strings"), context: CodecContext())
        #expect(table(reread, "zh_TW") == table(compiled, "zh_TW"))

        let binary = try codec.encode(compiled.document, context: CodecContext(options: ["encoding": "binary"]))
        #expect(binary.bytes.starts(with: Array("bplist00".utf8)))
        let back = try codec.decode(CodecInput(bytes: binary.bytes, fileName: "zh_TW.lproj/Sparkle.strings"), context: CodecContext())
        #expect(table(back, "zh_TW") == table(compiled, "zh_TW"))
    }

    @Test func aCompiledStringsdictReadsAsOne() throws {
        let decoded = try StringsdictCodec().decode(CodecInput(contentsOf: fixture("Compiled/zh_TW.lproj/Days.stringsdict")), context: CodecContext())
        let translation = catalog(decoded)["%d days"]?.translations["zh_TW"]
        #expect(translation?.value == "%#@days@")
        #expect(translation?.substitutions?["days"]?.plural[.other] == "%d 天")
    }

    @Test func whatIsNotATableIsSaid() throws {
        let error = #expect(throws: Diagnostic.self) { try decode("not-a-table.strings", CodecContext(options: ["locale": "zh-Hant"])) }
        #expect(error?.code == "strings.binary-not-table")
        #expect(error?.location?.file?.hasSuffix("not-a-table.strings") == true)
        let cut = #expect(throws: Diagnostic.self) { try decode("cut.strings", CodecContext(options: ["locale": "zh-Hant"])) }
        #expect(cut?.code == "strings.binary-unreadable")
    }

    /// A value that is not text is skipped and named by its key.
    @Test func aValueThatIsNotTextIsNamed() throws {
        let table: [String: Any] = ["ok": "好", "count": ["one": "1", "other": "%d"]]
        let bytes = [UInt8](try PropertyListSerialization.data(fromPropertyList: table, format: .binary, options: 0))
        let decoded = try codec.decode(CodecInput(bytes: bytes, fileName: "zh-Hant.lproj/Mixed.strings"), context: CodecContext())
        #expect(catalog(decoded).entries.map(\.key) == ["ok"])
        let warning = try #require(decoded.diagnostics.first)
        #expect(warning.code == "strings.binary-not-string")
        #expect(warning.location?.keyPath == "count")
    }
}
