import AlmanacCatalogs
import AlmanacCore
import AlmanacStrings
import Foundation
import Testing

/// The catalog model keeps a translation's rare fields in a box and an origin in parts (a catalog
/// holds one translation per key and locale): what the fields say must not depend on how they are
/// kept, and a tree read file by file must merge as it did.
@Suite struct CatalogModelTests {
    @Test func variantsReadBackAndCompareByValue() {
        var translation = Translation(value: "%#@days@")
        #expect(translation.plural == nil && translation.substitutions == nil && translation.devices == nil)
        translation.substitutions = ["days": Substitution(plural: [.one: "%d day", .other: "%d days"])]
        translation.plural = [.other: "many"]
        translation.textStates = ["plural.other": .needsReview]
        #expect(translation.substitutions?["days"]?.plural[.one] == "%d day")
        #expect(translation.state(at: "plural.other") == .needsReview)

        // A copy does not see a later change (the box is never changed in place).
        let copy = translation
        translation.substitutions?["days"]?.plural[.one] = "%d jour"
        #expect(copy.substitutions?["days"]?.plural[.one] == "%d day")
        #expect(copy != translation)

        // Setting every boxed field back to nil is the same translation as one that never had them.
        translation.substitutions = nil
        translation.plural = nil
        translation.textStates = nil
        #expect(translation == Translation(value: "%#@days@"))
        #expect(translation.hashValue == Translation(value: "%#@days@").hashValue)

        let device = Translation(value: "Tap", devices: ["mac": Translation(value: "Click")])
        #expect(device.devices?["mac"]?.value == "Click")
        #expect(device.texts.map(\.path) == ["", "device.mac"])
    }

    @Test func originsReadBackAsGiven() {
        let full = SourceLocation(file: "zh-Hant.lproj/Localizable.strings", line: 12, column: 5)
        #expect(Presentation(origin: full).origin == full)
        let keyed = SourceLocation(file: "Localizable.xcstrings", keyPath: "settings.title")
        #expect(Presentation(origin: keyed).origin == keyed)
        let lineOnly = SourceLocation(file: "a.strings", line: 3)
        #expect(Presentation(origin: lineOnly).origin == lineOnly)
        #expect(Presentation().origin == nil && Presentation().isEmpty)
        #expect(!Presentation(origin: SourceLocation()).isEmpty)

        var presentation = Presentation(StringsFile.EntryLayout(text: "\"k\" = \"v\";"), origin: full)
        presentation.origin = nil
        #expect(presentation.origin == nil && !presentation.isEmpty)
        // Past 32 bits a line is kept as the largest that fits, not wrapped to a wrong one.
        #expect(Presentation(origin: SourceLocation(file: "f", line: Int(Int32.max) + 10)).origin?.line == Int(Int32.max))
    }

    /// Layouts are found by their type, one of each: set, replaced, removed, changed in place; a
    /// copy keeps what it had when the original changes; `hasSameLayouts` compares them whatever
    /// the order they were set in; none of it is content (`==` and hashing ignore it).
    @Test func layoutsAreKeptByType() {
        var presentation = Presentation()
        #expect(presentation[TableSource.self] == nil && !presentation.hasLayout)
        presentation[TableSource.self] = TableSource(table: "Localizable")
        presentation[StringsFile.CatalogLayout.self, default: .init()].encoding = "utf-16le"
        let copy = presentation
        presentation[TableSource.self]?.original = "en.lproj/Localizable.strings"
        presentation[StringsFile.CatalogLayout.self, default: .init()].newline = "\r\n"
        #expect(presentation[TableSource.self] == TableSource(table: "Localizable", original: "en.lproj/Localizable.strings"))
        #expect(presentation[StringsFile.CatalogLayout.self] == StringsFile.CatalogLayout(encoding: "utf-16le", newline: "\r\n"))
        #expect(copy[TableSource.self] == TableSource(table: "Localizable"))
        #expect(copy[StringsFile.CatalogLayout.self] == StringsFile.CatalogLayout(encoding: "utf-16le"))
        #expect(!presentation.hasSameLayouts(as: copy))

        var reordered = Presentation(StringsFile.CatalogLayout(encoding: "utf-16le", newline: "\r\n"))
        reordered[TableSource.self] = TableSource(table: "Localizable", original: "en.lproj/Localizable.strings")
        #expect(reordered.hasSameLayouts(as: presentation) && presentation.hasSameLayouts(as: reordered))
        reordered[StringsFile.CatalogLayout.self] = nil
        #expect(reordered[StringsFile.CatalogLayout.self] == nil && reordered[TableSource.self] != nil)
        #expect(!reordered.hasSameLayouts(as: presentation))
        reordered[TableSource.self] = nil
        #expect(!reordered.hasLayout && reordered.isEmpty)
        #expect(reordered == presentation && reordered.hashValue == presentation.hashValue)
    }

    /// Files merged one at a time as they are parsed give the tables merging them all at the end
    /// gave: keys in the first file's order then each later file's new ones, a `.stringsdict`
    /// replacing the `.strings` value, a file's comment kept where the first had none.
    @Test func filesMergedAsTheyComeGiveTheSameTables() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-model-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let files: [(String, String)] = [
            ("en.lproj/Localizable.strings", "/* greeting */\n\"hello\" = \"Hello\";\n\"bye\" = \"Bye\";\n"),
            ("zh-Hans.lproj/Localizable.strings", "\"bye\" = \"再见\";\n/* only here */\n\"extra\" = \"多\";\n\"hello\" = \"你好\";\n"),
            ("zh-Hant.lproj/Localizable.strings", "\"hello\" = \"你好\";\n"),
            ("zh-Hant.lproj/Localizable.stringsdict", """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict><key>hello</key><dict>
                <key>NSStringLocalizedFormatKey</key><string>%#@n@</string>
                <key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
                <key>NSStringFormatValueTypeKey</key><string>d</string><key>other</key><string>%d 個</string></dict>
                </dict></dict></plist>
                """),
            ("en.lproj/InfoPlist.strings", "\"CFBundleName\" = \"Days\";\n"),
        ]
        for (path, text) in files {
            let full = folder + "/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: full))
        }
        let streamed = CatalogTree.read(folder)
        // The same files merged by CatalogFiles.merge after all were read.
        let paths = CatalogFiles.readingOrder(CatalogTree.files(under: folder))
        let readings: [(path: String, reading: CatalogFiles.Reading)] = paths.map { path in
            (path, CatalogFiles.Reading { () throws(Diagnostic) in
                let codec: any Codec = path.hasSuffix(".stringsdict") ? StringsdictCodec() : StringsCodec()
                let decoded = try codec.decode(CodecInput(contentsOf: path), context: CodecContext())
                guard case .catalog(let catalog) = decoded.document else { return nil }
                return (CatalogContent(catalog), decoded.diagnostics)
            })
        }
        let whole = CatalogFiles.merge(readings, sourceLanguage: "en")
        #expect(streamed.map(\.name) == whole.map(\.name))
        #expect(streamed.map(\.catalog) == whole.map(\.catalog))
        #expect(streamed.map(\.files) == whole.map(\.files))
        let table = try #require(streamed.first { $0.name == "Localizable" })
        #expect(table.catalog.entries.map(\.key) == ["hello", "bye", "extra"])
        #expect(table.catalog.entries.first { $0.key == "extra" }?.comment == "only here")
        #expect(table.catalog.entries.first { $0.key == "hello" }?.translations["zh-Hant"]?.value == "%#@n@")
    }
}
