@testable import AlmanacCatalogs
import AlmanacCore
import AlmanacTestSupport
import AlmanacXML
import Foundation
import Testing

/// Catalogs as Xcode projects keep them: base internationalization (`Base.lproj`), XLIFF exports
/// naming their source file, one locale written as a tree, and what a String Catalog says of
/// itself (its format version, each plural form's state) carried through Almanac's model.
@Suite struct XcodeProjectTests {
    private func tables(_ folder: String, locale: String? = nil) -> [String: CatalogTable] {
        var context = CodecContext()
        if let locale { context.options["locale"] = locale }
        return Dictionary(uniqueKeysWithValues: CatalogTree.read(folder, context: context).map { ($0.name, $0) })
    }

    private func xliff(_ catalog: Catalog, target: String) throws -> XMLElement {
        var context = CodecContext()
        context.options["locale"] = target
        let bytes = try XLIFFCodec().encode(.catalog(catalog), context: context).bytes
        return try XMLDocument(parsing: bytes).root
    }

    /// Sparkle's `Sparkle` table lives in `Base.lproj` only: it is the development language's
    /// text, whatever locale is asked for, and an XLIFF for zh_TW has it as the source and the
    /// zh_TW text as the target, naming the file as Xcode does.
    @Test(arguments: [nil, "zh_TW"])
    func baseIsTheDevelopmentLanguage(asked: String?) throws {
        let sparkle = try #require(tables(fixture("Sparkle"), locale: asked)["Sparkle"])
        #expect(sparkle.catalog.locales == ["en", "zh_CN", "zh_TW"])
        let key = "%1$@ can’t be updated if it’s running from the location it was downloaded to."
        #expect(sparkle.catalog[key]?.translations["en"]?.value == key)
        #expect(sparkle.catalog[key]?.translations["zh_TW"]?.value == "當從下載位置執行 %1$@ 時，無法進行更新。")
        let file = try #require(try xliff(sparkle.catalog, target: "zh_TW").element(named: "file"))
        #expect(file["original"] == "Base.lproj/Sparkle.strings")
        let body = try #require(file.element(named: "body"))
        let unit = try #require(XLIFFCodec.units(in: body).first { $0["id"] == key })
        #expect(unit.element(named: "source")?.text == key)
        #expect(unit.element(named: "target")?.text == "當從下載位置執行 %1$@ 時，無法進行更新。")
        // The nib's table is in en.lproj, and named from there.
        let alert = try #require(tables(fixture("Sparkle"), locale: asked)["SUUpdateAlert"])
        #expect(try xliff(alert.catalog, target: "zh_TW").element(named: "file")?["original"] == "en.lproj/SUUpdateAlert.strings")
    }

    /// An XLIFF export converted back to `.strings` is its translation, as Xcode imports it: the
    /// target locale's text, and into a folder its `.lproj` alone.
    @Test func anXLIFFComesBackAsItsTranslation() throws {
        let sparkle = try #require(tables(fixture("Sparkle"))["Sparkle"])
        var context = CodecContext()
        context.options["locale"] = "zh_TW"
        let exported = try XLIFFCodec().encode(.catalog(sparkle.catalog), context: context).bytes
        let read = catalog(try XLIFFCodec().decode(CodecInput(bytes: exported, fileName: "zh_TW.xliff"), context: CodecContext()))
        #expect(read.locales == ["en", "zh_TW"])
        #expect(XLIFFCodec.target(of: read) == "zh_TW")
        let strings = String(decoding: try StringsCodec().encode(.catalog(read), context: CodecContext()).bytes, as: UTF8.self)
        #expect(strings.contains("= \"當從下載位置執行 %1$@ 時，無法進行更新。\";"))
        let files = try #require(try StringsCodec().encodeFolder(.catalog(read), name: "Sparkle", context: CodecContext()))
        #expect(files.map(\.path) == ["zh_TW.lproj/Sparkle.strings"])
        // Asked for, the source comes back too.
        context.options["locale"] = "en"
        #expect(try StringsCodec().encodeFolder(.catalog(read), name: "Sparkle", context: context)?.map(\.path) == ["en.lproj/Sparkle.strings"])
    }

    /// Where the development language has its own table, Xcode reads that and not Base.lproj's:
    /// Base's is left unread, with a note naming the file that replaces it.
    @Test func theDevelopmentLanguagesOwnTableWins() throws {
        let folder = NSTemporaryDirectory() + "almanac-base-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (locale, text) in [("Base", #""boost" = "Boost (base)";"# + "\n" + #""only.base" = "Only in base";"#),
                               ("en", #""boost" = "Boost";"#), ("zh-Hant", #""boost" = "轉嘟";"#)] {
            try FileManager.default.createDirectory(atPath: "\(folder)/\(locale).lproj", withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: "\(folder)/\(locale).lproj/infoPlist.strings"))
        }
        let table = try #require(CatalogTree.read(folder, context: CodecContext()).first)
        #expect(table.catalog["boost"]?.translations == ["en": Translation(value: "Boost"), "zh-Hant": Translation(value: "轉嘟")])
        #expect(table.catalog["only.base"] == nil)
        let note = try #require(table.diagnostics.first { $0.code == .catalogBaseShadowed })
        #expect(note.location?.file == "\(folder)/Base.lproj/infoPlist.strings")
        #expect(note.message.arguments == ["\(folder)/en.lproj/infoPlist.strings"])
        #expect(table.catalog.presentation[TableSource.self]?.original == "en.lproj/infoPlist.strings")
        // The Foundation-only reader (the accessor generator's) follows the same rule.
        let plain = try #require(CatalogFiles.read(files: CatalogTree.files(under: folder), sourceLanguage: "en").first)
        #expect(plain.catalog == table.catalog)
        // File by file, as a bundle looks them up: Base's .stringsdict is read when en.lproj has none.
        try FileManager.default.copyItem(atPath: fixture("RetireTime/en.lproj/Localizable.stringsdict"),
                                         toPath: "\(folder)/Base.lproj/infoPlist.stringsdict")
        let both = try #require(CatalogTree.read(folder, context: CodecContext()).first)
        #expect(both.catalog["countdown.days-left"]?.translations["en"]?.substitutions?["days"]?.plural[.one] == "%ld day left")
        #expect(both.diagnostics.filter { $0.code == .catalogBaseShadowed }.count == 1)
    }

    /// A catalog written into a folder is a tree even for one locale: its `.lproj`, with the
    /// `.stringsdict` for plural and device variants.
    @Test func oneLocaleIsWrittenAsATree() throws {
        let catalog = Catalog(entries: [
            CatalogEntry(key: "hello", translations: ["zh-Hant": Translation(value: "你好"), "en": Translation(value: "Hello")]),
            CatalogEntry(key: "%lld days", translations: ["zh-Hant": Translation(plural: [.other: "%lld 天"])]),
            CatalogEntry(key: "tap", translations: ["zh-Hant": Translation(devices: ["mac": Translation(value: "按一下"), "iphone": Translation(value: "點一下")])]),
        ])
        var context = CodecContext()
        context.options["locale"] = "zh-Hant"
        let files = try #require(try StringsCodec().encodeFolder(.catalog(catalog), name: "Localizable", context: context))
        #expect(files.map(\.path) == ["zh-Hant.lproj/Localizable.strings", "zh-Hant.lproj/Localizable.stringsdict"])
        let variants = String(decoding: files[1].bytes, as: UTF8.self)
        #expect(variants.contains("<string>按一下</string>") && variants.contains("<string>%lld 天</string>"))
        // A locale the catalog does not have is not a tree of nothing.
        context.options["locale"] = "ja"
        #expect(try StringsCodec().encodeFolder(.catalog(catalog), name: "Localizable", context: context) == nil)
    }

    /// `.xcstrings` → catalog JSON → `.xcstrings`: the format version and the state of each plural
    /// form come back as they were.
    @Test func aStringCatalogsVersionAndFormStatesSurviveTheModel() throws {
        let text = """
            {
              "sourceLanguage" : "en",
              "strings" : {
                "%lld days" : {
                  "localizations" : {
                    "zh-Hant" : {
                      "variations" : {
                        "plural" : {
                          "one" : {
                            "stringUnit" : {
                              "state" : "translated",
                              "value" : "%lld 天"
                            }
                          },
                          "other" : {
                            "stringUnit" : {
                              "state" : "needs_review",
                              "value" : "%lld 天"
                            }
                          }
                        }
                      }
                    }
                  }
                }
              },
              "version" : "1.1"
            }
            """
        let read = catalog(try XCStringsCodec().decode(CodecInput(bytes: Array(text.utf8), fileName: "Localizable.xcstrings"), context: CodecContext()))
        let translation = try #require(read["%lld days"]?.translations["zh-Hant"])
        #expect(translation.state == .needsReview)
        #expect(translation.textStates == ["plural.one": .translated])
        #expect(read.stringCatalogVersion == "1.1")
        let json = try ModelJSONCodec(.catalog).encode(.catalog(read), context: CodecContext()).bytes
        let back = catalog(try ModelJSONCodec(.catalog).decode(CodecInput(bytes: json, fileName: "c.catalog.json"), context: CodecContext()))
        #expect(back == read)
        let written = String(decoding: try XCStringsCodec().encode(.catalog(back), context: CodecContext()).bytes, as: UTF8.self)
        #expect(written == text)
        // And through XLIFF, each form keeps its state.
        let body = try #require(try xliff(read, target: "zh-Hant").element(named: "file")?.element(named: "body"))
        let units = XLIFFCodec.units(in: body)
        #expect(units.map { $0.element(named: "target")?["state"] } == ["translated", "needs-review-translation"])
        let reread = catalog(try XLIFFCodec().decode(CodecInput(bytes: try XLIFFCodec().encode(.catalog(read), context: CodecContext()).bytes,
                                                                 fileName: "zh-Hant.xliff"), context: CodecContext()))
        #expect(reread["%lld days"]?.translations["zh-Hant"]?.textStates == ["plural.one": .translated])
    }
}
