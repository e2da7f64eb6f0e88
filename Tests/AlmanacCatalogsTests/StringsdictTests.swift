@testable import AlmanacCatalogs
import AlmanacCore
import AlmanacICU
import AlmanacTestSupport
import Testing

@Suite struct StringsdictTests {
    let codec = StringsdictCodec()
    let path = fixture("RetireTime/en.lproj/Localizable.stringsdict")

    @Test func conforms() {
        #expect(CodecConformance.problems(of: codec) == [])
    }

    /// Found by Scripts/fuzz.py: `%8888888888888888888888888888888888888#@co` overflowed the
    /// placeholder parser's position.
    @Test func fuzzerFindingsStayFixed() {
        #expect(CodecConformance.problems(of: codec, regressionInputsIn: fixture("fuzz")) == [])
        #expect(PlaceholderList("%99999999999999999999$@ and %4097$d").placeholders.allSatisfy { $0.position == nil })
        #expect(PlaceholderList("%4096$d").placeholders.first?.position == 4096)
    }

    /// A percent sign before a word, as prose writes it, is text (a stray percent), although
    /// printf would read `% s`, `% d` and `% to` (space flag, length, conversion); alone, `% d` is
    /// a placeholder, and so is `% .3f` (a precision) before a unit.
    @Test(arguments: [("Not 100% sure", [4 + 3], [String]()), ("50% done, %d left", [2], ["%d"]), ("20% off", [2], []),
                      ("已完成 50% 的任务", [12], []), ("Value: % d", [], ["% d"]), ("%@ is %d%% full", [], ["%@", "%d"]),
                      // CleanClip's and LocationSimulator's texts: a number's percent and a word; a space flag with a precision.
                      ("Referral rewards increase from 12% to up to 25%", [33, 46], []), ("总距离:% .3fkm", [], ["% .3f"])])
    func percentBeforeAWordIsText(text: String, stray: [Int], placeholders: [String]) {
        let list = PlaceholderList(text)
        #expect(list.stray == stray)
        #expect(list.placeholders.map(\.text) == placeholders)
    }

    @Test func pluralsSeveralVariablesAndDevices() throws {
        let decoded = try codec.decode(CodecInput(contentsOf: path), context: CodecContext())
        #expect(decoded.diagnostics.isEmpty)
        let plurals = catalog(decoded)
        let days = try #require(plurals["countdown.days-left"]?.translations["en"])
        #expect(days.value == "%#@days@")
        #expect(days.substitutions?["days"] == Substitution(formatSpecifier: "ld", plural: [.one: "%ld day left", .other: "%ld days left"]))
        let span = try #require(plurals["countdown.span"]?.translations["en"])
        #expect(PlaceholderList(span.value!).variables == ["years", "days"])
        #expect(span.substitutions?["days"]?.plural[.zero] == "no days")
        let hint = try #require(plurals["widget.hint"]?.translations["en"]?.devices)
        #expect(hint["mac"]?.value == "Click the date in the menu bar to add a countdown.")
        #expect(days.presentation.origin?.line == 6)
    }

    @Test func roundTripsAndWritesXcodesLayout() throws {
        let input = CodecInput(contentsOf: path)
        let first = try codec.decode(input, context: CodecContext())
        let bytes = try codec.encode(first.document, context: CodecContext()).bytes
        let again = try codec.decode(CodecInput(bytes: bytes), context: CodecContext(options: ["locale": "en"]))
        #expect(again.document == first.document)
        // The fixture is laid out as Xcode writes plists, so it comes back byte for byte.
        #expect(String(decoding: bytes, as: UTF8.self) == String(decoding: try input.readAll(), as: UTF8.self))
    }

    @Test func undefinedVariablesAndBadFilesAreReported() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>a</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@n@ left</string></dict></dict></plist>
            """
        let decoded = try codec.decode(CodecInput(bytes: Array(text.utf8), fileName: "x.stringsdict"), context: CodecContext())
        #expect(decoded.diagnostics.map(\.code) == ["stringsdict.undefined-variable"])
        do {
            _ = try codec.decode(CodecInput(bytes: Array("<plist><dict><key>a</key></dict></plist>".utf8), fileName: "y.stringsdict"),
                                 context: CodecContext())
            Issue.record("expected an error")
        } catch {
            #expect(error.code == "plist.missing-value")
            #expect(error.location?.file == "y.stringsdict")
        }
    }

    /// Foundation's reader keeps the file's key order and points each key at its value's line,
    /// read by the same scanner the writer keeps the layout with (comments and a DOCTYPE skipped).
    @Test func foundationReadingKeepsOrderAndLines() throws {
        let text = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <!-- later keys first -->
            <key>zebra &amp; co</key>
            <string>Z</string>
            <key>apple</key>

            <dict>
                <key>NSStringLocalizedFormatKey</key>
                <string>%#@n@</string>
            </dict>
        </dict>
        </plist>
        """
        let top = try #require(try StringsdictFile.propertyList(Array(text.utf8), fileName: "t.stringsdict").dictionary)
        #expect(top.map(\.0) == ["zebra & co", "apple"])
        // A dictionary value carries its line (a string's is not kept).
        #expect(top[1].1.line == 10)
    }
}
