@testable import AlmanacCore
@testable import AlmanacStrings
import AlmanacTestSupport
import Foundation
import Testing

@Suite struct MessageTests {
    @Test func placeholders() {
        #expect(Message.substitute("%@ and %@", ["a", "b"]) == "a and b")
        #expect(Message.substitute("%2$@ before %1$@", ["a", "b"]) == "b before a")
        #expect(Message.substitute("100%% sure, %d days", ["3"]) == "100% sure, 3 days")
        #expect(Message.substitute("trailing %", []) == "trailing %")
        // Odd formats come out as written; arguments out of range are empty; text around is kept.
        #expect(Message.substitute("「%@」已存在。", ["媽媽生日"]) == "「媽媽生日」已存在。")
        #expect(Message.substitute("%3$@ %@ %@", ["a", "b", "c"]) == "c a b")
        #expect(Message.substitute("%1$@ %@", ["a", "b"]) == "a b")
        #expect(Message.substitute("%x %中 %5 %$@ %99999999999999999999$@", ["a"]) == "%x %中 %5 %$@ %99999999999999999999$@")
        #expect(Message.substitute("%@ %@ %@", ["a"]) == "a  ")
        #expect(Message.substitute("%12", []) == "%12")
    }

    /// Values from inputs (a key, a file's name) cannot act on the terminal a diagnostic is shown
    /// in: escape sequences, carriage returns, bells, NUL and C1 controls are written out.
    @Test func valuesFromInputsAreShownNotObeyed() {
        let key = "a\u{1B}[2J\u{1B}]0;title\u{7}\rhidden\u{0}\u{9B}31m\u{7F}"
        let diagnostic = Diagnostic.error(.catalogDuplicateKey(key: key, line: "1", otherLine: "2"), at: SourceLocation(file: "evil\u{1B}[31m.strings", line: 2, keyPath: "k\u{1B}"))
        let line = diagnostic.rendered()
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
        #expect(line.contains("evil\\u{1b}[31m.strings:2 k\\u{1b}"))
        #expect(line.contains("a\\u{1b}[2J\\u{1b}]0;title\\u{7}\\u{d}hidden\\u{0}\\u{9b}31m\\u{7f}"))
        // Tabs and line breaks in a value stay (a translation's text is shown as it is).
        #expect(Message.substitute("%@", ["two\nlines\tand a tab"]) == "two\nlines\tand a tab")
        #expect(Message.substitute("%@", ["中文 and émoji 🎉"]) == "中文 and émoji 🎉")
        #expect(Message.quoting("a\nb") == "a\\u{a}b" && Message.quoting(String(repeating: "x", count: 300), limit: 4) == "xxxx…")
    }

    @Test func languagesAndFallbacks() {
        let message = Message.outputExists
        #expect(message.rendered(in: .english).hasPrefix("This file already exists"))
        #expect(message.rendered(in: .traditionalChinese).hasPrefix("此檔案已存在"))
        #expect(message.rendered(in: .simplifiedChinese).hasPrefix("此文件已存在"))
        #expect(Message(key: "no.such.key", ["x"]).rendered() == "no.such.key x")
    }

    @Test(arguments: [
        ("zh_TW.UTF-8", Language.traditionalChinese), ("zh_HK", .traditionalChinese), ("zh-Hant", .traditionalChinese),
        ("zh_CN.UTF-8", .simplifiedChinese), ("zh-Hans-SG", .simplifiedChinese), ("en_US.UTF-8", .english), ("fr_FR", .english),
    ])
    func languageFromTags(tag: String, expected: Language) {
        #expect(Language(tag: tag) == expected)
    }

    @Test func environmentOrder() {
        #expect(Language.fromEnvironment(["LANG": "zh_TW.UTF-8", "LC_ALL": "zh_CN.UTF-8"]) == .simplifiedChinese)
        #expect(Language.fromEnvironment(["LANG": "zh_TW.UTF-8", "LC_ALL": ""]) == .traditionalChinese)
        #expect(Language.fromEnvironment(["LANG": "C.UTF-8"]) == .english)
        #expect(Language.fromEnvironment([:]) == .english)
    }

    @Test func everyLanguageHasEveryKey() {
        let table = CoreMessages.table
        #expect(table.keys(in: .simplifiedChinese) == table.keys)
        #expect(table.keys(in: .traditionalChinese) == table.keys)
        #expect(table.keys.contains("output.exists"))
    }

    /// A module's table is looked up first, then Core's; a diagnostic read back from JSON finds
    /// its text through the tables used so far.
    @Test func moduleTablesComeFirst() throws {
        let table = MessageTable(name: "Example", english: ["example.hello": "Hello %@", "output.exists": "mine"],
                                 simplifiedChinese: ["example.hello": "你好 %@"], traditionalChinese: [:])
        #expect(Message("example.hello", ["世界"], table: table).rendered(in: .simplifiedChinese) == "你好 世界")
        #expect(Message("example.hello", ["world"], table: table).rendered(in: .traditionalChinese) == "Hello world")
        #expect(Message("output.exists", [], table: table).rendered() == "mine")
        #expect(Message("convert.dropped", ["x"], table: table).rendered().contains("x"))
        let json = try JSONEncoder().encode(Diagnostic(.warning, Message("example.hello", ["a"], table: table)))
        let decoded = try JSONDecoder().decode(Diagnostic.self, from: json)
        #expect(decoded.message.rendered(in: .simplifiedChinese) == "你好 a")
    }

    /// The compiled-in table matches Locales/Almanac (the swift-format "generated files" check;
    /// the generator is a Python script, so a machine without python3 skips it and CI runs it).
    @Test(.enabled(if: ExternalCommand.runs(["python3", "--version"]) || ExternalCommand.peersRequired,
                   "Scripts/generate-messages.py needs python3"))
    func messageTableIsUpToDate() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let result = ExternalCommand.run(["python3", root.appendingPathComponent("Scripts/generate-messages.py").path, "--check"])
        #expect(result.status == 0, "python3 Scripts/generate-messages.py: \(result.output)")
    }

    /// A message passed on as another's argument (“not an amount” in csv.bad-value, the first
    /// change in convert.strict) is shown in the reader's language, not as English inside a
    /// Chinese sentence; the arguments kept for JSON stay English.
    @Test func messagesInsideMessagesFollowTheLanguage() {
        let inner = Message.outputExists
        let outer = Message.convertStrict(count: "1", first: inner.rendered()).localizing(inner)
        #expect(outer.rendered(in: .english).contains(inner.rendered(in: .english)))
        #expect(outer.rendered(in: .traditionalChinese).contains(inner.rendered(in: .traditionalChinese)))
        #expect(outer.rendered(in: .simplifiedChinese).contains(inner.rendered(in: .simplifiedChinese)))
        #expect(!outer.rendered(in: .traditionalChinese).contains("This file already exists"))
        #expect(outer.arguments == ["1", inner.rendered(in: .english)])
        // A message none of whose arguments is the other's English text is left as it was.
        #expect(Message.convertStrict(count: "1", first: "x").localizing(inner).rendered(in: .traditionalChinese)
                == Message.convertStrict(count: "1", first: "x").rendered(in: .traditionalChinese))
    }
}
