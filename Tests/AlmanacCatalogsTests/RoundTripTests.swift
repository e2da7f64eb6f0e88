@testable import AlmanacCatalogs
import AlmanacCore
import AlmanacICU
import AlmanacTestSupport
import Testing

/// Random catalogs survive every catalog format (property-based, seeded so failures repeat).
@Suite struct RoundTripTests {
    static let alphabet: [String] = ["a", "Z", "0", " ", "\"", "\\", "\n", "\t", "%", "%@", "%1$@", "%lld", "/*", "*/", "//", ";", "=",
                                     "é", "儲存", "还有", "「", "」", "😀", "👨‍👩‍👧", "<", "&", "]]>", "'"]

    static func text(_ generator: inout SeededGenerator, minimum: Int = 0) -> String {
        (0..<Int.random(in: minimum...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined()
    }

    static func randomCatalog(seed: UInt64, locales: [String]) -> Catalog {
        var generator = SeededGenerator(seed: seed)
        var catalog = Catalog(sourceLanguage: locales[0])
        var keys = Set<String>()
        for index in 0..<40 {
            var key = "k\(index)." + text(&generator).replacingOccurrences(of: "\n", with: "")
            while !keys.insert(key).inserted { key += "x" }
            var entry = CatalogEntry(key: key, comment: Bool.random(using: &generator) ? text(&generator, minimum: 1)
                .replacingOccurrences(of: "*/", with: "").trimmingCharacters(in: .whitespacesAndNewlines) : nil)
            if entry.comment?.isEmpty == true { entry.comment = nil }
            for locale in locales {
                entry.translations[locale] = Translation(value: text(&generator), state: .translated)
            }
            catalog.entries.append(entry)
        }
        return catalog
    }

    @Test(arguments: 1...20)
    func stringsFiles(seed: UInt64) throws {
        let original = Self.randomCatalog(seed: seed, locales: ["zh-Hant"])
        let codec = StringsCodec()
        for encoding in ["utf-8", "utf-16le-bom"] {
            let bytes = try codec.encode(.catalog(original), context: CodecContext(options: ["encoding": encoding])).bytes
            let back = catalog(try codec.decode(CodecInput(bytes: bytes), context: CodecContext(options: ["locale": "zh-Hant"])))
            #expect(back.entries.map(\.key) == original.entries.map(\.key))
            #expect(back.entries.map { $0.translations["zh-Hant"]?.value } == original.entries.map { $0.translations["zh-Hant"]?.value })
            #expect(back.entries.map(\.comment) == original.entries.map(\.comment))
        }
    }

    @Test(arguments: 1...20)
    func stringCatalogsXLIFFAndSpreadsheets(seed: UInt64) throws {
        let original = Self.randomCatalog(seed: seed, locales: ["en", "zh-Hant"])
        let xcstrings = XCStringsCodec()
        let sorted = Catalog(sourceLanguage: "en", entries: original.entries.sorted { XcodeKeyOrder.precedes($0.key, $1.key) })
        let bytes = try xcstrings.encode(.catalog(original), context: CodecContext()).bytes
        #expect(catalog(try xcstrings.decode(CodecInput(bytes: bytes), context: CodecContext())) == sorted)

        let xliff = XLIFFCodec()
        let exported = try xliff.encode(.catalog(original), context: CodecContext()).bytes
        let imported = catalog(try xliff.decode(CodecInput(bytes: exported), context: CodecContext()))
        // XLIFF keeps no state for the source language.
        #expect(imported.entries.map { $0.translations["zh-Hant"] } == original.entries.map { $0.translations["zh-Hant"] })
        #expect(imported.entries.map { $0.translations["en"]?.value } == original.entries.map { $0.translations["en"]?.value })

        let (table, _) = try CatalogTableConverter().convert(.catalog(original), to: .table, context: CodecContext())
        let (back, _) = try CatalogTableConverter().convert(table, to: .catalog, context: CodecContext())
        guard case .catalog(let fromTable) = back else { Issue.record("not a catalog"); return }
        // Empty cells are no value in a spreadsheet.
        for (entry, other) in zip(original.entries, fromTable.entries) {
            #expect(entry.key == other.key)
            for locale in ["en", "zh-Hant"] where entry.translations[locale]?.value?.isEmpty == false {
                #expect(other.translations[locale]?.value == entry.translations[locale]?.value)
            }
        }
    }
}
