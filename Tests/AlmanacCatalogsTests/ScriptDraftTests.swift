@testable import AlmanacCatalogs
import AlmanacCore
import Testing

@Suite struct ScriptDraftTests {
    @Test(arguments: [
        ("默认设置", "預設設定"),
        ("软件信息", "軟體資訊"),
        ("保存到文件", "儲存到檔案"),
        ("为用户创建视频", "為使用者建立影片"),
        ("已连续学习 %d 天", "已連續學習 %d 天"),
        ("%1$@ 个账户里的余额", "%1$@ 個帳戶裡的餘額"),
        ("打开网络设置", "開啟網路設定"),
        ("复习计划", "複習計畫"),
        ("什么时候", "什麼時候"),
        ("农历生日", "農曆生日"),
        ("退出登录", "登出"),
        // #68's pass over the corpus's frequent words.
        ("会话已过期", "工作階段已過期"),
        ("在后台运行", "在背景執行"),
        ("后台管理", "後台管理"),
        ("这台计算机", "這台電腦"),
        ("计算器", "計算器"),
        ("此操作无法撤销。", "此操作無法還原。"),
        ("撤销", "還原"),
        ("常规", "一般"),
        ("常规检查", "常規檢查"),
        // Entries whose key was OpenCC's Taiwan output (字型, 配置檔案) never matched: keys are
        // what the Simplified-to-Traditional step writes.
        ("字体大小", "字體大小"),
        ("请检查配置文件", "請檢查設定檔"),
        ("请检查您的收件箱。", "請檢查您的收件匣。"),
        ("服务器的IP地址", "伺服器的IP位址"),
        ("家庭地址", "家庭地址"),
        // Quotes: ‘’ alone are 「」, inside “” 『』; the source's space beside a western quote goes.
        ("如果选择了‘永不显示’", "如果選擇了「永不顯示」"),
        ("他说“按‘好’”", "他說「按『好』」"),
        ("在 '%1$@' 中，解析软链接到 '%2$@'", "在「%1$@」中，解析軟連結到「%2$@」"),
        ("名为“%@” 的配置", "名為「%@」的配置"),
        ("打开 “Finder” 窗口", "開啟「Finder」視窗"),
    ])
    func simplifiedToTaiwan(simplified: String, taiwan: String) throws {
        let converted = try ChineseConverter(.toTaiwan).convert(simplified)
        #expect(converted == taiwan)
    }

    /// The regression set: app UI strings where OpenCC's s2twp is reported wrong (a phrase taken
    /// across two words: 改變數子位元, 少陣列織, 電影片段; 被髮明), the one-to-many characters
    /// (复 系 冲 周 面 干 发 只 里 余 历 后) as the Ministry of Education writes them, Taiwan's UI
    /// words, placeholders and markup. Every case is right; `Scripts/opencc/compare-drafts.py`
    /// measures OpenCC on the same file.
    @Test func regressionSet() throws {
        let converter = try ChineseConverter(.toTaiwan)
        let text = String(decoding: try fixtureBytes("Drafts/zh-Hans-to-Taiwan.tsv"), as: UTF8.self)
        var cases = 0
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t").map(String.init)
            try #require(fields.count == 3, "\(line)")
            #expect(converter.convert(fields[0]) == fields[1], "\(fields[0]) (\(fields[2]))")
            cases += 1
        }
        #expect(cases >= 90)
    }

    @Test func aPhraseIsReplacedOnlyWhereItIsAWord() throws {
        let converter = try ChineseConverter(.toTaiwan)
        // 變量 straddles 改變|量子; 比特 is a word of its own.
        #expect(converter.convert("改变量子比特") == "改變量子位元")
        // 里 alone is "in"; in 公里 it is a unit.
        #expect(converter.convert("共 5 公里") == "共 5 公里")
        #expect(converter.convert("文件夹里") == "資料夾裡")
        // Only where nothing matches is the text returned as it came.
        #expect(converter.convert("Hello") == "Hello")
    }

    @Test(arguments: [
        ("軟體設定", "软件设置"),
        ("預設值", "默认值"),
        ("資料夾", "文件夹"),
        ("還有 %lld 天", "还有 %lld 天"),
    ])
    func taiwanToSimplified(taiwan: String, simplified: String) throws {
        #expect(try ChineseConverter(.toSimplified).convert(taiwan) == simplified)
    }

    @Test func draftsOnlyWhatIsMissingOrNew() throws {
        let catalog = Catalog(entries: [
            CatalogEntry(key: "settings", translations: ["zh-Hans": Translation(value: "设置")]),
            CatalogEntry(key: "save", translations: ["zh-Hans": Translation(value: "保存"),
                                                     "zh-Hant": Translation(value: "存起來", state: .translated)]),
            CatalogEntry(key: "software", translations: ["zh-Hans": Translation(value: "软件"), "zh-Hant": Translation(value: "", state: .new)]),
            CatalogEntry(key: "days", translations: ["zh-Hans": Translation(plural: [.other: "还有 %d 天"])]),
            CatalogEntry(key: "brand", translations: ["zh-Hans": Translation(value: "知习")], shouldTranslate: false),
        ])
        let (drafted, count, kept) = try ScriptDrafts.draft(catalog, target: "zh-Hant")
        #expect(count == 3)
        #expect(kept == 1)
        #expect(drafted["settings"]?.translations["zh-Hant"] == Translation(value: "設定", state: .needsReview))
        #expect(drafted["save"]?.translations["zh-Hant"]?.value == "存起來")
        #expect(drafted["software"]?.translations["zh-Hant"]?.value == "軟體")
        #expect(drafted["days"]?.translations["zh-Hant"]?.plural == [.other: "還有 %d 天"])
        #expect(drafted["brand"]?.translations["zh-Hant"] == nil)
        #expect(throws: Diagnostic.self) { try ScriptDrafts.draft(Catalog(entries: [CatalogEntry(key: "a", translations: ["en": Translation(value: "A")])]), target: "zh-Hant") }
    }

    @Test func mainlandWordsInTraditionalText() {
        let found = MainlandVocabulary().find(in: "請在設置中打開網絡，再保存文件。")
        // 打開 and 文件 are Taiwan words too; they are not flagged.
        #expect(found.map(\.word) == ["設置", "網絡", "保存"])
        #expect(found.map(\.taiwan) == ["設定", "網路", "儲存"])
        #expect(MainlandVocabulary(allowing: []).find(in: "打開文件").map(\.word) == ["文件"])
        #expect(MainlandVocabulary().find(in: "請在設定中開啟網路。").isEmpty)
        // A mainland word only where it is a word: not 視頻 in 電視頻段, nor 數組 in 少數組織.
        #expect(MainlandVocabulary().find(in: "電視頻段").isEmpty)
        #expect(MainlandVocabulary().find(in: "少數組織").isEmpty)
        #expect(MainlandVocabulary().find(in: "改變量子比特").map(\.word) == ["比特"])
    }
}
