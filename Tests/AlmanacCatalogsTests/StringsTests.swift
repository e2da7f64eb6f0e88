@testable import AlmanacCatalogs
import AlmanacCore
import AlmanacTestSupport
import Foundation
import Testing

func fixture(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/" + name).path
}

func fixtureBytes(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: fixture(name))))
}

func catalog(_ decoded: Decoded) -> Catalog {
    guard case .catalog(let catalog) = decoded.document else { fatalError("not a catalog") }
    return catalog
}

@Suite struct StringsTests {
    let codec = StringsCodec()

    func decode(_ name: String, _ context: CodecContext = CodecContext()) throws -> Decoded {
        try codec.decode(CodecInput(contentsOf: fixture(name)), context: context)
    }

    @Test func conforms() {
        #expect(CodecConformance.problems(of: codec) == [])
    }

    @Test func utf16WithoutByteOrderMark() throws {
        let decoded = try decode("utf16-no-bom/zh-Hans.lproj/Localizable.strings")
        let strings = catalog(decoded)
        #expect(decoded.encoding == "UTF-16LE")
        #expect(strings.entries.map(\.key) == ["home.title", "home.greeting", "home.streak", "review.empty"])
        #expect(strings["home.title"]?.translations["zh-Hans"]?.value == "今天学什么？")
        #expect(strings["home.title"]?.comment == "首页")
        #expect(strings["home.greeting"]?.comment == nil)
        #expect(strings["home.streak"]?.comment == "%d: 连续学习的天数")
        #expect(strings.presentation[TableSource.self]?.table == "Localizable")
        // Written back unchanged: the same bytes, still UTF-16LE without a BOM.
        let bytes = try codec.encode(decoded.document, context: CodecContext()).bytes
        #expect(bytes == (try fixtureBytes("utf16-no-bom/zh-Hans.lproj/Localizable.strings")))
    }

    @Test func surrogatePairsAndEscapes() throws {
        let strings = catalog(try decode("emoji-escapes.strings", CodecContext(options: ["locale": "zh-Hans"])))
        #expect(strings["reaction.smile"]?.translations["zh-Hans"]?.value == "😀 做得好！")
        #expect(strings["reaction.euro"]?.translations["zh-Hans"]?.value == "€ 5")
        #expect(strings["legacy.octal"]?.translations["zh-Hans"]?.value == "ABC")
        #expect(strings["quote"]?.translations["zh-Hans"]?.value == "她说：\"加油\"")
        #expect(strings["tab"]?.translations["zh-Hans"]?.value == "a\tb")
    }

    @Test func duplicatesNameBothLines() throws {
        let decoded = try decode("duplicates.strings")
        let warning = try #require(decoded.diagnostics.first { $0.code == "catalog.duplicate-key" })
        #expect(warning.message.arguments == ["save", "1", "4"])
        #expect(warning.location?.line == 4)
        #expect(catalog(decoded)["save"]?.translations["en"]?.value == "儲存")
        #expect(catalog(decoded).entries.count == 2)
    }

    @Test func handWrittenFileRoundTripsByteForByte() throws {
        let decoded = try decode("hand-written.strings")
        let strings = catalog(decoded)
        #expect(strings.entries.map(\.key) == ["action.save", "action.cancel", "action.delete", "OK", "error.disk-full"])
        #expect(strings["action.save"]?.comment == "Button: save changes")
        #expect(strings["OK"]?.translations["en"]?.value == "OK")
        #expect(strings["error.disk-full"]?.comment == "Shown when the disk is full")
        #expect(strings["action.delete"]?.comment == nil)
        let bytes = try codec.encode(decoded.document, context: CodecContext()).bytes
        #expect(String(decoding: bytes, as: UTF8.self) == String(decoding: try fixtureBytes("hand-written.strings"), as: UTF8.self))
    }

    /// An old-style property list dictionary in braces is a strings file NSBundle and plutil read
    /// (ttte's InfoPlist.strings, fresh-16): read, written back byte for byte, a new entry inside
    /// the braces; a brace left open, or text after the closing one, is an error at its place.
    @Test func entriesInBracesAreADictionary() throws {
        let text = "/* InfoPlist.strings */\n\n{\n    NSCameraUsageDescription = \"Used to take photos\";\n    \"NSFaceIDUsageDescription\" = \"Used to unlock\";\n}\n"
        let decoded = try codec.decode(CodecInput(bytes: Array(text.utf8), fileName: "en.lproj/InfoPlist.strings"), context: CodecContext())
        var strings = catalog(decoded)
        #expect(strings.entries.map(\.key) == ["NSCameraUsageDescription", "NSFaceIDUsageDescription"])
        #expect(decoded.diagnostics.isEmpty)
        #expect(String(decoding: try codec.encode(decoded.document, context: CodecContext()).bytes, as: UTF8.self) == text)
        strings.entries.append(CatalogEntry(key: "NSMicrophoneUsageDescription", translations: ["en": Translation(value: "Used to record")]))
        let added = String(decoding: try codec.encode(.catalog(strings), context: CodecContext()).bytes, as: UTF8.self)
        #expect(added.hasPrefix("/* InfoPlist.strings */\n\n{\n"))
        #expect(added.hasSuffix("\"NSMicrophoneUsageDescription\" = \"Used to record\";\n}\n"), "\(added)")
        #expect(catalog(try codec.decode(CodecInput(bytes: Array(added.utf8)), context: CodecContext())) == strings)
        // A file that starts with its brace is known by its name, not taken for JSON.
        let probe = Probe(prefix: Array("{\n  a = \"A\";\n}\n".utf8)[...], fileName: "zh-Hant.lproj/InfoPlist.strings")
        #expect(codec.identify(probe) == .cannotTell)
        #expect(codec.identify(Probe(prefix: Array("{\"a\": 1}".utf8)[...], fileName: "a.json")) == .no)
        for broken in ["{\n  a = \"A\";\n", "{\n  a = \"A\";\n}\nb = \"B\";\n"] {
            #expect(throws: Diagnostic.self) { try codec.decode(CodecInput(bytes: Array(broken.utf8)), context: CodecContext()) }
        }
    }

    @Test func changedEntriesAreRewrittenAndTheRestKept() throws {
        var strings = catalog(try decode("hand-written.strings"))
        strings.entries[1].translations["en"]?.value = "Never mind"
        strings.entries[0].comment = "Button: keep the changes"
        strings.entries.append(CatalogEntry(key: "action.share", comment: "Button: share", translations: ["en": Translation(value: "Share…")]))
        let text = String(decoding: try codec.encode(.catalog(strings), context: CodecContext()).bytes, as: UTF8.self)
        #expect(text.contains("// MARK: - Actions\n\n/* Button: keep the changes */\n\"action.save\" = \"Save\";"))
        #expect(text.contains("/* Button: discard changes */\n\"action.cancel\" = \"Never mind\";"))
        #expect(text.contains("action.delete = \"Delete\";   // unquoted key"))
        #expect(text.hasSuffix("\n\n/* Button: share */\n\"action.share\" = \"Share…\";\n"))
        let again = catalog(try codec.decode(CodecInput(bytes: Array(text.utf8)), context: CodecContext()))
        #expect(again == strings)
    }

    @Test(arguments: [
        ("\"a\" = \"b\"", 1, 10, "strings.expected"),
        ("\"a\" = \"b;\n", 1, 7, "strings.unterminated-string"),
        ("\"a\" = ;", 1, 7, "strings.expected"),
        ("/* open\n\"a\" = \"b\";", 1, 1, "strings.unterminated-comment"),
        ("\"ok\" = \"fine\";\n\"a\" \"b\";", 2, 5, "strings.expected"),
        // As real translations break: a quote inside a value not written \" (at the quote that
        // ends the value early), and a `;` missing at the end of a line (where it belongs, not
        // where the next entry starts after a comment).
        ("\"safe\" = \"Zapněte \"Bezpečný režim\" nejdřív\";\n", 1, 19, "strings.unescaped-quote"),
        ("\"a\" = \"b\"\n\n/* Class = \"NSMenuItem\"; */\n\"c\" = \"d\";\n", 1, 10, "strings.missing-semicolon"),
    ])
    func errorsAreLocated(text: String, line: Int, column: Int, code: String) {
        do {
            _ = try codec.decode(CodecInput(bytes: Array(text.utf8), fileName: "bad.strings"), context: CodecContext())
            Issue.record("expected an error")
        } catch {
            #expect(error.code.rawValue == code)
            #expect(error.location == SourceLocation(file: "bad.strings", line: line, column: column))
        }
    }

    @Test func writesUTF16WhenAsked() throws {
        let strings = Catalog(entries: [CatalogEntry(key: "a", translations: ["en": Translation(value: "加油")])])
        let bytes = try codec.encode(.catalog(strings), context: CodecContext(options: ["encoding": "utf-16"])).bytes
        #expect(Array(bytes.prefix(2)) == [0xFF, 0xFE])
        let again = catalog(try codec.decode(CodecInput(bytes: bytes), context: CodecContext()))
        #expect(again["a"]?.translations["en"]?.value == "加油")
    }

    @Test func localeComesFromTheFolderOrTheOption() {
        #expect(CatalogPath.locale(ofPath: "App/zh-Hant.lproj/Localizable.strings") == "zh-Hant")
        #expect(CatalogPath.locale(ofPath: "Base.lproj/Main.strings") == nil)
        #expect(CatalogPath.locale(ofPath: "Localizable.strings") == nil)
        #expect(CatalogLocales.catalogName("zh-TW", among: ["en", "zh-Hans", "zh-Hant"]) == "zh-Hant")
        #expect(CatalogLocales.catalogName("zh_CN", among: ["en", "zh-Hans"]) == "zh-Hans")
        #expect(CatalogLocales.catalogName("en-US", among: ["en", "zh-Hans"]) == "en")
    }

    /// Older Mac apps' folders (`zh_CN.lproj`, `zh_TW.lproj`, Skim's and 1Password's) and Apple's
    /// regional ones (`zh-Hant-TW.lproj`) are the two scripts too.
    @Test func chineseFoldersAreMatchedByTheirScript() {
        #expect(CatalogLocales.catalogName("zh-Hant", among: ["en", "zh_CN", "zh_TW"]) == "zh_TW")
        #expect(CatalogLocales.catalogName("zh-Hans", among: ["en", "zh_CN", "zh_TW"]) == "zh_CN")
        #expect(CatalogLocales.catalogName("zh-Hant", among: ["en", "zh-Hant-HK", "zh-Hant-TW"]) == "zh-Hant-TW")
        #expect(CatalogLocales.catalogName("zh-HK", among: ["en", "zh-Hant-HK", "zh-Hant-TW"]) == "zh-Hant-HK")
        #expect(CatalogLocales.catalogName("zh-Hant", among: ["en", "zh-Hant", "zh-Hant-TW"]) == "zh-Hant")
        #expect(CatalogLocales.catalogName("zh_tw", among: ["en", "zh_TW"]) == "zh_TW")
        // None of the script there: the script's own name, never the other script's `zh`.
        #expect(CatalogLocales.catalogName("zh-Hant", among: ["en", "zh"]) == "zh-Hant")
        for (name, script) in [("zh_TW", "zh-Hant"), ("zh-MO", "zh-Hant"), ("zh-Hant-HK", "zh-Hant"), ("zh_HK", "zh-Hant"),
                               ("zh_CN", "zh-Hans"), ("zh-SG", "zh-Hans"), ("zh-Hans-CN", "zh-Hans"), ("zh", "zh-Hans")] {
            #expect(CatalogLocales.chineseScript(of: name) == script, "\(name)")
        }
        #expect(CatalogLocales.chineseScript(of: "zh-Latn") == nil)
        #expect(CatalogLocales.chineseScript(of: "ja") == nil)
    }

    /// A real String Catalog of 35 locales (LinearMouse's, `Fixtures/LinearMouse`) as one `.strings`
    /// table: every key of the source language, those whose text is the key among them; a plural
    /// variable as its other form; and the 34 locales it cannot hold named in one warning.
    @Test func aStringCatalogToOneTableNamesWhatItLeavesOut() throws {
        let decoded = try XCStringsCodec().decode(CodecInput(bytes: try fixtureBytes("LinearMouse/Localizable.xcstrings"), fileName: "Localizable.xcstrings"),
                                                  context: CodecContext())
        let encoded = try codec.encode(decoded.document, context: CodecContext())
        let text = String(decoding: encoded.bytes, as: UTF8.self)
        #expect(text.contains("\"(active)\" = \"(active)\";"))
        #expect(text.contains("\"- %@\" = \"- %@\";"))
        #expect(text.contains("\"%.1f pixel(s)\" = \"%.1f pixels\";"))
        #expect(text.contains("\"%d line(s)\" = \"%d lines\";"))
        #expect(try StringsFile.parse(text, fileName: nil).entries.count == 6)
        let left = encoded.diagnostics.filter { $0.code == "catalog.locales-left-out" }
        #expect(left.count == 1)
        #expect(left.first?.message.arguments[2] == "34")
        #expect(encoded.diagnostics.filter { $0.code == "catalog.plural-flattened" }.count == 2)
        // One locale asked for: its table, and nothing said of the others.
        let zhHant = try codec.encode(decoded.document, context: CodecContext(options: ["locale": "zh-Hant"]))
        #expect(String(decoding: zhHant.bytes, as: UTF8.self).contains("\"(active)\" = \"（使用中）\";"))
        #expect(!zhHant.diagnostics.contains { $0.code == "catalog.locales-left-out" })
        // Drafts (`--to-locale zh-Hant`) are the locale written when none is asked for.
        guard case .catalog(let read) = decoded.document else { Issue.record("not a catalog"); return }
        var onlyHans = read
        for index in onlyHans.entries.indices { onlyHans.entries[index].translations["zh-Hant"] = nil }
        let (drafted, _, _) = try ScriptDrafts.draft(onlyHans, target: "zh-Hant")
        let draftText = String(decoding: try codec.encode(.catalog(drafted), context: CodecContext()).bytes, as: UTF8.self)
        #expect(draftText.contains("\"Settings\" = \"設定\";"), "\(draftText)")
        // A tree: every locale its folder, the source language with every key.
        guard case .catalog(let catalog) = decoded.document else { Issue.record("not a catalog"); return }
        let files = try CatalogTree.files(of: catalog, table: "Localizable")
        #expect(Set(files.map { $0.path.split(separator: "/")[0] }).count == 35)
        let english = try #require(files.first { $0.path == "en.lproj/Localizable.strings" })
        #expect(String(decoding: english.bytes, as: UTF8.self).contains("\"(active)\" = \"(active)\";"))
    }

    @Test func draftsFillTheFolderOfTheOtherScript() throws {
        let catalog = Catalog(entries: [CatalogEntry(key: "Delete", translations: ["en": Translation(value: "Delete"), "zh_CN": Translation(value: "删除")])])
        let (drafted, count, _) = try ScriptDrafts.draft(catalog, target: CatalogLocales.catalogName("zh-Hant", among: ["en", "zh_CN", "zh_TW"]))
        #expect(count == 1)
        #expect(drafted.entries[0].translations["zh_TW"]?.value == "刪除")
        #expect(drafted.entries[0].translations["zh_TW"]?.state == .needsReview)
    }
}
