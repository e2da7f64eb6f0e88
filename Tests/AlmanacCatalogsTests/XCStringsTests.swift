@testable import AlmanacCatalogs
import AlmanacCore
import AlmanacICU
import AlmanacTestSupport
import Testing

@Suite struct XCStringsTests {
    let codec = XCStringsCodec()

    @Test func conforms() {
        #expect(CodecConformance.problems(of: codec) == [])
    }

    @Test func readsEveryKindOfEntry() throws {
        let decoded = try codec.decode(CodecInput(contentsOf: fixture("JellySave.xcstrings")), context: CodecContext())
        let strings = catalog(decoded)
        #expect(strings.sourceLanguage == "zh-Hant")
        #expect(strings.entries.map(\.key) == ["", "%lld accounts", "JellySave", "goal.progress", "snapshot.hint", "tab.accounts"])
        #expect(strings["%lld accounts"]?.translations["en"]?.plural == [.one: "%lld account", .other: "%lld accounts"])
        #expect(strings["%lld accounts"]?.extractionState == "extracted_with_value")
        #expect(strings["JellySave"]?.shouldTranslate == false)
        let progress = try #require(strings["goal.progress"]?.translations["en"])
        #expect(progress.substitutions?["days"]?.argument == 3)
        #expect(progress.substitutions?["days"]?.plural[.other] == "%arg days to go")
        #expect(strings["goal.progress"]?.translations["zh-Hant"]?.state == .needsReview)
        #expect(strings["snapshot.hint"]?.translations["en"]?.devices?["mac"]?.value == "Press ⌘R to take a snapshot of your assets.")
        #expect(strings["tab.accounts"]?.translations["en"]?.state == .stale)
        #expect(strings["goal.progress"]?.translations["en"]?.presentation.origin?.line == 46)
    }

    @Test func unchangedCatalogIsWrittenByteForByte() throws {
        let input = CodecInput(contentsOf: fixture("JellySave.xcstrings"))
        let decoded = try codec.decode(input, context: CodecContext())
        let bytes = try codec.encode(decoded.document, context: CodecContext()).bytes
        #expect(String(decoding: bytes, as: UTF8.self) == String(decoding: try input.readAll(), as: UTF8.self))
        #expect(try codec.decode(CodecInput(bytes: bytes), context: CodecContext()).document == decoded.document)
    }

    @Test func newCatalogsAreSortedAsXcodeSortsThem() throws {
        let strings = Catalog(entries: [
            CatalogEntry(key: "b", translations: ["en": Translation(value: "B")]),
            CatalogEntry(key: "a", comment: "First", translations: ["zh-Hant": Translation(value: "甲", state: .needsReview),
                                                                   "en": Translation(value: "A/B")]),
        ])
        let text = String(decoding: try codec.encode(.catalog(strings), context: CodecContext()).bytes, as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n    \"a\" : {\n      \"comment\" : \"First\",\n"))
        #expect(text.contains("\"value\" : \"A/B\""))
        #expect(text.contains("\"state\" : \"needs_review\",\n            \"value\" : \"甲\""))
        #expect(text.hasSuffix("  \"version\" : \"1.0\"\n}"))
    }

    @Test func stringsdictBecomesSubstitutions() throws {
        let plurals = try StringsdictCodec().decode(CodecInput(contentsOf: fixture("RetireTime/en.lproj/Localizable.stringsdict")),
                                                   context: CodecContext())
        let bytes = try codec.encode(plurals.document, context: CodecContext()).bytes
        let back = catalog(try codec.decode(CodecInput(bytes: bytes), context: CodecContext()))
        #expect(back["countdown.span"]?.translations["en"]?.substitutions?["years"]?.plural[.one] == "%d year")
        #expect(back["widget.hint"]?.translations["en"]?.devices?["iphone"]?.value?.hasPrefix("Touch and hold") == true)
        // Strings dictionaries have no review states; a string catalog marks them translated.
        #expect(back == withState(catalog(plurals), .translated))
    }

    func withState(_ catalog: Catalog, _ state: Translation.State) -> Catalog {
        var result = catalog
        for index in result.entries.indices {
            for (locale, var translation) in result.entries[index].translations {
                translation.state = state
                if let devices = translation.devices {
                    translation.devices = devices.mapValues { var variant = $0; variant.state = state; return variant }
                }
                result.entries[index].translations[locale] = translation
            }
        }
        return result
    }

    @Test func brokenJSONIsLocated() {
        do {
            _ = try codec.decode(CodecInput(bytes: Array("{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n    \"a\" : \n}".utf8),
                                            fileName: "x.xcstrings"), context: CodecContext())
            Issue.record("expected an error")
        } catch {
            #expect(error.location?.file == "x.xcstrings")
            #expect(error.location?.line == 5)
        }
    }
}
