@testable import AlmanacCatalogs
import AlmanacCore
import Testing

/// Drafts that follow the app (#68): what the catalog's own Taiwan translations show is learned
/// only where it is consistent, and applied on top of the general draft.
@Suite struct DraftMemoryTests {
    let converter = try! ChineseConverter(.toTaiwan)

    @Test func aWordTheAppWritesOtherwiseIsFollowed() {
        let memory = DraftMemory(pairs: [("保存账户", "儲存帳號"), ("删除账户", "刪除帳號")], converter: converter)
        #expect(converter.convert("新建账户") == "新增帳戶")
        let (text, used) = memory.apply(converter.convert("新建账户"))
        #expect(text == "新增帳號")
        #expect(used.map(\.summary) == ["帳戶 → 帳號"])
    }

    /// An app's Taiwan text that is Simplified itself (MASShortcut's zh-Hant 无效组合键, fresh-16) is
    /// no choice to follow: the draft of a longer text keeps its Traditional characters.
    @Test func simplifiedTaiwanTextIsNotLearned() {
        let memory = DraftMemory(pairs: [("无效组合键", "无效组合键"), ("无效组合键", "无效组合键")], converter: converter)
        #expect(memory.choices.isEmpty, "\(memory.choices)")
        let draft = converter.convert("无效组合键，请更换")
        #expect(memory.apply(draft).text == draft)
        #expect(!draft.contains("无"))
    }

    /// Seen once, or contradicted once, is no choice.
    @Test func onlyConsistentEvidenceCounts() {
        let once = DraftMemory(pairs: [("保存账户", "儲存帳號")], converter: converter)
        #expect(once.apply("新增帳戶").text == "新增帳戶")
        let contradicted = DraftMemory(pairs: [("保存账户", "儲存帳號"), ("删除账户", "刪除帳號"), ("账户设置", "帳戶設定")], converter: converter)
        #expect(!contradicted.choices.contains { $0.summary == "帳戶 → 帳號" }, "\(contradicted.choices)")
        #expect(contradicted.apply("新增帳戶").text == "新增帳戶")
        // Two app words for one draft word: no single choice.
        let split = DraftMemory(pairs: [("保存账户", "儲存帳號"), ("删除账户", "刪除帳號"), ("新建账户", "新增帳目"), ("打开账户", "打開帳目")],
                                converter: converter)
        #expect(!split.choices.contains { $0.summary.hasPrefix("帳戶") })
    }

    @Test func theAppsMarksSpacingAndPronounAreFollowed() {
        // Ten texts of an app that quotes with “”, writes no space between Chinese and Latin, and says 您.
        let pairs: [(String, String)] = (0..<10).flatMap { index -> [(String, String)] in
            [("用 App\(index) 打开“报告”", "用App\(index)打開“報告”"), ("你的第\(index)个账户", "您的第\(index)個帳戶")]
        }
        let memory = DraftMemory(pairs: pairs, converter: converter)
        let kinds = Set(memory.choices.map(\.summary))
        #expect(kinds.isSuperset(of: ["“” ‘’", "中文Latin", "你 → 您"]), "\(kinds)")
        #expect(memory.apply(converter.convert("你可以在 Mac 上点按“删除”")).text == "您可以在Mac上點按“刪除”")
        // 你們 stays: 您們 is no plural Taiwan writes.
        #expect(memory.apply("你們好").text == "你們好")
        // Too few places show a style: none is learned.
        let few = DraftMemory(pairs: Array(pairs.prefix(2)), converter: converter)
        #expect(!few.choices.contains { $0.summary == "中文Latin" })
    }

    /// A catalog's human Taiwan translations teach its drafts; drafts waiting for review teach nothing.
    @Test func aCatalogTeachesItsDrafts() throws {
        func entry(_ key: String, _ hans: String, _ hant: String?, state: Translation.State? = nil) -> CatalogEntry {
            var translations = ["zh-Hans": Translation(value: hans)]
            if let hant { var t = Translation(value: hant); t.state = state; translations["zh-Hant"] = t }
            return CatalogEntry(key: key, translations: translations)
        }
        let catalog = Catalog(entries: [entry("a", "保存账户", "儲存帳號"), entry("b", "删除账户", "刪除帳號"), entry("c", "新建账户", nil),
                                        entry("d", "打开账户", "打開帳戶", state: .needsReview)])
        let result = try ScriptDrafts.draft(catalog, target: "zh-Hant", learning: true)
        #expect(result.catalog["c"]?.translations["zh-Hant"]?.value == "新增帳號")
        #expect(result.learned.map { "\($0.choice.summary) \($0.drafts)" } == ["帳戶 → 帳號 1"])
        let plain = try ScriptDrafts.draft(catalog, target: "zh-Hant", learning: false)
        #expect(plain.catalog["c"]?.translations["zh-Hant"]?.value == "新增帳戶")
    }

    func words(_ draft: String, _ human: String) -> [String] {
        DraftMemory.replacedWords(Array(draft.unicodeScalars), Array(human.unicodeScalars)).map { DraftMemory.string($0.0) + "→" + DraftMemory.string($0.1) }
    }

    @Test func differencesJoinAcrossOneSharedCharacter() {
        let blocks = DraftMemory.differences(Array("粘貼文字".unicodeScalars), Array("貼上文字".unicodeScalars))
        #expect(blocks.count == 1)
        #expect(words("粘貼文字", "貼上文字") == ["粘貼→貼上"])
        // One character takes the one beside it that both have.
        #expect(words("新增帳戶", "新增帳號") == ["帳戶→帳號", "增帳戶→增帳號"])
        // One put in, placed by what is before it.
        #expect(words("打開應用", "打開應用程式") == ["用→用程式", "應用→應用程式"])
        // A particle put in is grammar, no word.
        #expect(words("組合變音符號", "組合的變音符號") == [])
    }

    /// Found in the measuring half's judged drafts (#68): a title the app shortens (欢迎使用 as
    /// 歡迎) and a particle its block names put in (組合的變音符號) changed longer texts.
    @Test func shorteningsAndParticlesAreNoWords() {
        let memory = DraftMemory(pairs: [("欢迎使用", "歡迎"), ("组合变音符号", "組合的變音符號"), ("组合变音符号补充", "組合的變音符號補充")],
                                 converter: converter)
        #expect(memory.apply(converter.convert("欢迎使用 Tunnelblick")).text == "歡迎使用 Tunnelblick")
        #expect(memory.apply(converter.convert("组合键")).text == "組合鍵")
        // The whole text is still the app's.
        #expect(memory.texts["欢迎使用"] == "歡迎")
    }
}
