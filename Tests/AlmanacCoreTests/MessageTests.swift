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

    @Test func languagesAndFallbacks() {
        let message = Message("output.exists")
        #expect(message.rendered(in: .english).hasPrefix("This file already exists"))
        #expect(message.rendered(in: .traditionalChinese).hasPrefix("此檔案已存在"))
        #expect(message.rendered(in: .simplifiedChinese).hasPrefix("此文件已存在"))
        #expect(Message("no.such.key", "x").rendered() == "no.such.key x")
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

    /// The compiled-in table matches Locales/Almanac (the swift-format "generated files" check).
    @Test func messageTableIsUpToDate() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let result = ExternalCommand.run(["python3", root.appendingPathComponent("Scripts/generate-messages.py").path, "--check"])
        #expect(result.status == 0, "python3 Scripts/generate-messages.py: \(result.output)")
    }
}
