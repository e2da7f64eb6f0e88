@testable import AlmanacAndroid
import AlmanacCatalogs
import AlmanacCore
import AlmanacICU
import AlmanacTestSupport
import Foundation
import Testing

let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path

func catalog(_ document: Document) -> Catalog {
    guard case .catalog(let catalog) = document else { fatalError("not a catalog") }
    return catalog
}

@Suite struct AndroidTests {
    let codec = AndroidStringsCodec()

    @Test func conforms() {
        #expect(CodecConformance.problems(of: codec) == [])
    }

    /// Found by Scripts/fuzz.py: a `%0111…1$s` position overflowed the placeholder parser.
    @Test func fuzzerFindingsStayFixed() {
        #expect(CodecConformance.problems(of: codec, regressionInputsIn: fixtures + "/fuzz") == [])
    }

    @Test func readsWhatAndroidStudioWrites() throws {
        let decoded = try codec.decode(CodecInput(contentsOf: fixtures + "/res/values/strings.xml"), context: CodecContext())
        let strings = catalog(decoded.document)
        func value(_ key: String) -> String? { strings[key]?.translations["en"]?.value }
        #expect(strings["app_name"]?.shouldTranslate == false)
        #expect(strings["days_title"]?.comment == "Title of the list of days")
        #expect(value("delete_confirm") == "Delete \"%1$@\"? This can't be undone.")
        #expect(value("tip") == "Two spaces, then a quoted span")
        #expect(value("quoted") == "  keep   these spaces  ")
        #expect(value("at_sign") == "@home and ?help")
        #expect(value("unicode") == "… and a tab\there")
        #expect(strings["days_left"]?.translations["en"]?.plural == [.one: "%d day left", .other: "%d days left"])
        #expect(value("repeat_options[1]") == "Every Year")
        #expect(decoded.diagnostics.map(\.code) == ["android.skipped"])
        #expect(AndroidStringsCodec.locale(ofPath: "res/values-zh-rTW/strings.xml") == "zh-Hant")
        #expect(AndroidStringsCodec.locale(ofPath: "res/values-b+zh+Hans/strings.xml") == "zh-Hans")
        #expect(AndroidStringsCodec.locale(ofPath: "res/values/strings.xml") == nil)
        // Qualifiers that are not a locale (night mode, API level) leave the default locale;
        // nothing but a language tag comes out of a folder's name.
        #expect(AndroidStringsCodec.locale(ofPath: "res/values-night/strings.xml") == nil)
        #expect(AndroidStringsCodec.locale(ofPath: "res/values-v21/strings.xml") == nil)
        #expect(AndroidStringsCodec.locale(ofPath: "res/values-b+..+..+x/strings.xml") == nil)
        #expect(AndroidStringsCodec.locale(ofPath: "res/values-..\\x/strings.xml") == nil)
        #expect(AndroidStringsCodec.locale(ofPath: "res/values-en-night/strings.xml") == "en")
        #expect(AndroidStringsCodec.locale(ofPath: "res/values-mcc466-zh-rTW-v21/strings.xml") == "zh-Hant")
        #expect(AndroidStringsCodec.locale(ofPath: "res/values-es-r419/strings.xml") == "es-419")
    }

    /// A `locale` option that is not a language tag is refused like a hostile name in a file.
    @Test func aLocaleThatIsNotATagIsRefused() {
        var context = CodecContext()
        context.options["locale"] = "../../x"
        let error = #expect(throws: Diagnostic.self) {
            try AndroidStringsCodec().decode(CodecInput(bytes: Array("<resources><string name=\"a\">A</string></resources>".utf8), fileName: "strings.xml"),
                                             context: context)
        }
        #expect(error?.code == "catalog.locale-not-tag" && error?.location?.file == "strings.xml")
    }

    @Test func formatSpecifiersCrossThePlatforms() {
        #expect(AndroidStringsCodec.toAndroid("%1$@ has %2$ld days, %.2f%%") == "%1$s has %2$d days, %.2f%%")
        #expect(AndroidStringsCodec.fromAndroid("%1$s has %2$d days") == "%1$@ has %2$d days")
        #expect(AndroidStringsCodec.escape("It's \"fine\"\n@you") == "It\\'s \\\"fine\\\"\\n@you")
        #expect(AndroidStringsCodec.escape("@start") == "\\@start")
        #expect(AndroidStringsCodec.unescape(AndroidStringsCodec.escape("  padded  ")) == "  padded  ")
        #expect(AndroidStringsCodec.resourceName("countdown.days-left") == "countdown.days_left")
    }

    /// The shared catalogs go to Android and back without losing what Android can say: plural
    /// variables become <plurals>, `%ld` becomes `%d` (Java has no length modifiers).
    @Test(arguments: ["en", "zh-Hans", "zh-Hant"])
    func sharedCatalogsRoundTrip(locale: String) throws {
        let tables = CatalogTree.read(repository + "/Locales/Shared")
        let shared = try #require(tables.first).catalog
        let bytes = try codec.encode(.catalog(shared), context: CodecContext(options: ["locale": locale])).bytes
        let back = catalog(try codec.decode(CodecInput(bytes: bytes, fileName: "res/values/strings.xml"),
                                            context: CodecContext(options: ["locale": locale])).document)
        #expect(back.entries.map(\.key) == shared.entries.map(\.key))
        for entry in shared.entries {
            let original = try #require(entry.translations[locale])
            let expected = AndroidStringsCodec.pluralForms(original).map { forms in forms.mapValues(Self.normalize) }
            let returned = try #require(back[entry.key]?.translations[locale])
            if let expected {
                #expect(returned.plural == expected, "\(entry.key)")
            } else {
                #expect(returned.value == original.value.map(Self.normalize), "\(entry.key)")
            }
            #expect(back[entry.key]?.comment == entry.comment)
        }
    }

    static func normalize(_ text: String) -> String {
        text.replacingOccurrences(of: "%lld", with: "%d").replacingOccurrences(of: "%ld", with: "%d")
    }
}
