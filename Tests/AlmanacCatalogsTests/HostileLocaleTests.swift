@testable import AlmanacCatalogs
import AlmanacCore
import AlmanacICU
import Foundation
import Testing

/// A catalog's locales become folder names (`zh-Hant.lproj`), so every codec that reads one checks
/// it is a language tag where it reads it: a hostile name is refused with an error that names the
/// value, the file and the line, before anything is converted.
@Suite struct HostileLocaleTests {
    @Test(arguments: ["en", "zh-Hans", "zh-Hant", "zh-Hant-TW", "zh_TW", "zh_Hant_TW", "pt-BR", "es-419", "sr-Latn", "de-CH-1901",
                      "en-US-POSIX", "en_US_POSIX", "en-u-ca-gregory", "zh-TW-u-ca-roc", "x-pirate", "en-x-twain", "i-klingon", "zh-min-nan",
                      "Base", "English", "Japanese", "yue-Hant", "zh-yue-HK", "hy-Latn-IT-arevela", "en-a-bbb-x-a-ccc", "und", "ZH-hant"])
    func languageTagsAreAccepted(name: String) {
        #expect(LanguageTag.isWellFormed(name))
    }

    @Test(arguments: ["", ".", "..", "../x", "../../../tmp/almanac-pwned", "/tmp/x", "en/zh", "en\u{0}", "zh-Hant\u{0}/../x", "en-", "-en",
                      "en--US", "zh_Hant-TW", "en US", "e", "1en", "en-US-", "en-a", "x", "en-x", "toolongsub", "中文", "en.lproj", "en\n",
                      "en@calendar=roc", "en\\zh", String(repeating: "a", count: 300), "en-" + Array(repeating: "abcdefgh", count: 20).joined(separator: "-")])
    func otherNamesAreRefused(name: String) {
        #expect(!LanguageTag.isWellFormed(name))
        let error = #expect(throws: Diagnostic.self) { try LanguageTag.check(name, at: SourceLocation(file: "f")) }
        #expect(error?.code == "catalog.locale-not-tag")
        // The message quotes the value with control characters escaped and long values cut.
        #expect(error?.message.arguments.first?.unicodeScalars.allSatisfy { $0.value >= 0x20 } == true)
        #expect((error?.message.arguments.first?.count ?? 0) <= LanguageTag.maximumLength + 1)
    }

    /// Every locale ICU knows, in BCP 47 and in ICU's own spelling, is a tag.
    @Test func everyLocaleICUKnowsIsATag() {
        let refused = LocaleID.available.flatMap { [$0.bcp47, $0.icuIdentifier] }.filter { !LanguageTag.isWellFormed($0) }
        #expect(refused.isEmpty, "\(refused)")
    }

    /// Whatever is accepted is a plain file name: random names over the tag alphabet and the
    /// characters of paths (slash, dot, NUL, backslash, space) never pass with a path in them.
    @Test func nothingAcceptedIsAPath() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("aZx9-_./\u{0}\\ ")
        var accepted = 0
        for _ in 0..<20_000 {
            let name = String((0..<Int.random(in: 0...14, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            guard LanguageTag.isWellFormed(name) else { continue }
            accepted += 1
            #expect(!name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\u{0}") && !name.contains("\\")
                    && !name.contains("."), "\(name)")
        }
        #expect(accepted > 100)
    }

    func hostile(_ name: String) -> String { fixture("Hostile/" + name) }

    @Test func xcstringsLocalizationsAndSourceLanguageAreChecked() throws {
        let error = #expect(throws: Diagnostic.self) { try XCStringsCodec().decode(CodecInput(contentsOf: hostile("locale-traversal.xcstrings")), context: CodecContext()) }
        #expect(error?.code == "catalog.locale-not-tag" && error?.message.arguments == ["../../../tmp/almanac-pwned"])
        #expect(error?.location?.file == hostile("locale-traversal.xcstrings") && error?.location?.line == 7 && error?.location?.keyPath == "greeting")
        let source = #expect(throws: Diagnostic.self) {
            try XCStringsCodec().decode(CodecInput(contentsOf: hostile("source-language-absolute.xcstrings")), context: CodecContext())
        }
        #expect(source?.code == "catalog.locale-not-tag" && source?.message.arguments == ["/tmp/almanac-pwned"] && source?.location?.line == 2)
        // The rendered line a person reads: file, line, the value, what to do.
        let rendered = try #require(error).rendered()
        #expect(rendered.contains("locale-traversal.xcstrings:7") && rendered.contains("“../../../tmp/almanac-pwned” is not a language tag"))
    }

    @Test func xliffLanguagesAreChecked() throws {
        let error = #expect(throws: Diagnostic.self) { try XLIFFCodec().decode(CodecInput(contentsOf: hostile("target-language-traversal.xliff")), context: CodecContext()) }
        #expect(error?.code == "catalog.locale-not-tag" && error?.message.arguments == ["../../../tmp/almanac-pwned"] && error?.location?.line == 3)
        let source = Array(#"<xliff version="1.2"><file original="a" source-language="en/../../x" target-language="zh-Hant"><body/></file></xliff>"#.utf8)
        let sourceError = #expect(throws: Diagnostic.self) { try XLIFFCodec().decode(CodecInput(bytes: source, fileName: "s.xliff"), context: CodecContext()) }
        #expect(sourceError?.code == "catalog.locale-not-tag" && sourceError?.message.arguments == ["en/../../x"])
        // An `original` that names no table leaves the table to the file's own name.
        let decoded = try XLIFFCodec().decode(CodecInput(contentsOf: hostile("original-traversal.xliff")), context: CodecContext())
        guard case .catalog(let catalog) = decoded.document else { Issue.record("not a catalog"); return }
        #expect(catalog.presentation[TableSource.self]?.table == nil && catalog.locales == ["en", "zh-Hant"])
    }

    @Test func lprojFolderNamesAreChecked() throws {
        for folder in ["...lproj", "en zh.lproj", "zh-Hant-.lproj"] {
            for codec in [StringsCodec() as any Codec, StringsdictCodec()] {
                let bytes = codec is StringsCodec ? Array("\"a\" = \"A\";\n".utf8)
                    : Array(#"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict/></plist>"#.utf8)
                let name = "/project/" + folder + "/Localizable" + (codec is StringsCodec ? ".strings" : ".stringsdict")
                let error = #expect(throws: Diagnostic.self) { try codec.decode(CodecInput(bytes: bytes, fileName: name), context: CodecContext()) }
                #expect(error?.code == "catalog.locale-not-tag" && error?.location?.file == name, "\(folder)")
            }
        }
        // `Base.lproj` holds the development language, as in Xcode.
        let base = try StringsCodec().decode(CodecInput(bytes: Array("\"a\" = \"A\";\n".utf8), fileName: "/p/Base.lproj/L.strings"), context: CodecContext())
        guard case .catalog(let catalog) = base.document else { Issue.record("not a catalog"); return }
        #expect(catalog.locales == ["en"])
    }

    @Test func catalogJSONLocalesAreChecked() throws {
        let error = #expect(throws: Diagnostic.self) {
            try ModelJSONCodec(.catalog).decode(CodecInput(contentsOf: hostile("locale-nul.catalog.json")), context: CodecContext())
        }
        #expect(error?.code == "catalog.locale-not-tag" && error?.location?.keyPath == "/entries/0/translations")
        #expect(error?.message.arguments == ["zh-Hant\\u{0}/../../../tmp/almanac-pwned"])
        let source = Array(#"{"model": "catalog", "version": 1, "sourceLanguage": "..", "entries": []}"#.utf8)
        let sourceError = #expect(throws: Diagnostic.self) { try ModelJSONCodec(.catalog).decode(CodecInput(bytes: source, fileName: "c.catalog.json"), context: CodecContext()) }
        #expect(sourceError?.code == "catalog.locale-not-tag" && sourceError?.location?.keyPath == "/sourceLanguage")
    }
}
