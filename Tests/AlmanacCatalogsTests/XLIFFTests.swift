@testable import AlmanacCatalogs
import AlmanacCore
import AlmanacICU
import AlmanacTestSupport
import Testing

@Suite struct XLIFFTests {
    let codec = XLIFFCodec()

    @Test func conforms() {
        #expect(CodecConformance.problems(of: codec) == [])
    }

    @Test func readsAnXcodeExportWithPlurals() throws {
        let decoded = try codec.decode(CodecInput(contentsOf: fixture("zh-Hant.xliff")), context: CodecContext())
        #expect(decoded.diagnostics.isEmpty)
        let strings = catalog(decoded)
        #expect(strings.sourceLanguage == "en")
        #expect(strings.locales == ["en", "zh-Hant"])
        let days = try #require(strings["%lld days left"])
        #expect(days.translations["en"]?.plural == [.one: "%lld day left", .other: "%lld days left"])
        #expect(days.translations["zh-Hant"]?.plural == [.one: "還有 %lld 天", .other: "還有 %lld 天"])
        #expect(days.comment == "Countdown on a day's card")
        #expect(strings["day.delete.confirm"]?.translations["zh-Hant"]?.state == .needsReview)
        #expect(strings["backup.restore"]?.translations["zh-Hant"] == nil)
        #expect(strings["widget.hint"]?.translations["zh-Hant"]?.devices?["mac"]?.value == "按一下選單列中的日期即可加入倒數。")
        let span = try #require(strings["span"]?.translations["zh-Hant"])
        #expect(span.value == "還有 %#@years@")
        #expect(span.substitutions?["years"]?.plural[.other] == "%arg 年")
        #expect(strings["CFBundleDisplayName"]?.translations["zh-Hant"]?.value == "退休倒數")
        #expect(strings["%lld days left"]?.translations["zh-Hant"]?.presentation.origin?.line == 20)
    }

    @Test func roundTrips() throws {
        let first = catalog(try codec.decode(CodecInput(contentsOf: fixture("zh-Hant.xliff")), context: CodecContext()))
        let bytes = try codec.encode(.catalog(first), context: CodecContext()).bytes
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("<trans-unit id=\"%lld days left|==|plural.one\" xml:space=\"preserve\">"))
        #expect(text.contains("<trans-unit id=\"span|==|substitutions.years.plural.other\""))
        #expect(text.contains("<target state=\"needs-review-translation\">要刪除「%@」嗎？此動作無法復原。</target>"))
        let again = catalog(try codec.decode(CodecInput(bytes: bytes), context: CodecContext()))
        #expect(again == first)
    }

    @Test func xcstringsToXLIFFAndBack() throws {
        let strings = catalog(try XCStringsCodec().decode(CodecInput(contentsOf: fixture("JellySave.xcstrings")), context: CodecContext()))
        let bytes = try codec.encode(.catalog(strings), context: CodecContext(options: ["locale": "en"])).bytes
        let back = catalog(try codec.decode(CodecInput(bytes: bytes), context: CodecContext()))
        #expect(back["%lld accounts"]?.translations["en"]?.plural?[.one] == "%lld account")
        #expect(back["%lld accounts"]?.translations["zh-Hant"]?.value == "%lld 個帳戶")
        // Not to translate: a unit marked translate="no", read back as such.
        #expect(back["JellySave"]?.shouldTranslate == false)
        #expect(String(decoding: bytes, as: UTF8.self).contains(#"<trans-unit id="JellySave" xml:space="preserve" translate="no">"#))
        // Several target languages need a choice.
        #expect(throws: Diagnostic.self) { try codec.encode(.catalog(strings), context: CodecContext()) }
    }

    /// Variant paths in one order whatever order the set gives them in: the plain text, then by
    /// what holds the forms, forms in CLDR's order, and names that are not forms (devices) by name.
    /// Devices once came in the set's order, which changes from run to run (a CSV or XLIFF written
    /// twice from one catalog differed).
    @Test func variantOrderIsStable() {
        let paths: Set<String> = ["device.mac", "device.iphone", "device.ipad", "device.applewatch", "device.other", "device.appletv",
                                  "", "plural.other", "plural.one", "device.mac.plural.other", "device.mac.plural.one"]
        let expected = ["", "device.appletv", "device.applewatch", "device.ipad", "device.iphone", "device.mac", "device.other",
                        "device.mac.plural.one", "device.mac.plural.other", "plural.one", "plural.other"]
        for _ in 0..<20 { #expect(XLIFFCodec.ordered(Set(paths.shuffled())) == expected) }
    }
}
