@testable import AlmanacAudit
import AlmanacCatalogs
import AlmanacCore
import Foundation
import Testing

/// `almanac audit --fix`: each fix kind on texts, the files written back (golden files: only the fixed
/// values' bytes differ), drafts marked for review in each format, and what is refused.
@Suite struct AuditFixTests {
    let texts = TextFixes(vocabulary: MainlandVocabulary())

    func fix(_ check: AuditCheck, _ text: String, base: String? = nil, traditional: Bool = true) -> String? {
        guard let rule = TextFixes.byCheck[check] else { Issue.record("\(check) has no text fix"); return nil }
        return texts.fix(rule, text: text, base: base, traditional: traditional)
    }

    @Test func ellipses() {
        #expect(fix("ellipsis", "Loading...") == "Loading…")
        #expect(fix("ellipsis", "正在載入......") == "正在載入……")
        // Four periods: an ellipsis and a full stop, or a typo; a person decides.
        #expect(fix("ellipsis", "Wait....") == nil)
        #expect(fix("ellipsis", "Version 1.2.3") == nil)
        // A spaced ellipsis is one mark (Meshtastic's Loading Logs. . .).
        #expect(fix("ellipsis", "加载日志. . .", traditional: false) == "加载日志…")
        #expect(fix("ellipsis", "Loading Logs. . .") == "Loading Logs…")
    }

    @Test func fullWidthPunctuation() {
        #expect(fix("halfwidth-punctuation", "保存失败, 请重试", traditional: false) == "保存失败，请重试")
        #expect(fix("halfwidth-punctuation", "暢遊地圖!! 好") == "暢遊地圖！！好")
        #expect(fix("halfwidth-punctuation", "剩餘次數: ") == "剩餘次數： ")
        // A number, a name, a mark quoted to name it: untouched.
        #expect(fix("halfwidth-punctuation", "需要 iOS 18.1") == nil)
        #expect(fix("halfwidth-punctuation", "缺少「;」") == nil)
        // A period after an opening quote or before a placeholder is a file extension, not a stop,
        // whichever fix runs first (quote-style runs before this one).
        #expect(fix("halfwidth-punctuation", "請使用「.%2$@」檔案") == nil)
        #expect(fix("halfwidth-punctuation", "以.%@結尾的檔案") == nil)
        #expect(fix("quote-style", "請使用“.%2$@”檔案") == "請使用「.%2$@」檔案")
        // The base's notation (mm:ss.S) is the translation's too.
        #expect(fix("halfwidth-punctuation", "分分:秒秒.秒", base: "mm:ss.S", traditional: false) == nil)
        #expect(fix("halfwidth-punctuation", "完成.下一步", base: "Done. Next", traditional: false) == "完成。下一步")
        // Two periods: 。 or …, for a person.
        #expect(fix("halfwidth-punctuation", "找不到裝置..") == nil)
        // fresh-15 and fresh-16's wrong edits: a dotted notation of words, a mark that names a button.
        #expect(fix("halfwidth-punctuation", "设置.类别.规划器", base: "Planner", traditional: false) == nil)
        #expect(fix("halfwidth-punctuation", "点击键盘上方的?了解", base: "Click the ? above the keyboard to learn more", traditional: false) == nil)
        #expect(fix("halfwidth-punctuation", "要删除吗?", base: "Delete it ?", traditional: false) == "要删除吗？")
        // 關於 is one word: 关于 or nothing, never 关於 (於 is a Simplified character too).
        #expect(fix("traditional-in-hans", "關於", traditional: false) == nil)
        #expect(fix("traditional-in-hans", "設置", traditional: false) == "设置")
        // A translation that is one space on purpose keeps it.
        #expect(fix("whitespace-mismatch", " ", base: " Only") == nil)
        // A spaced ellipsis is no three sentence ends (加载日志. . . once became 加载日志。。。).
        #expect(fix("halfwidth-punctuation", "加载日志. . .", base: "Loading Logs. . .", traditional: false) == nil)
        // A period after 。 doubles it: deleting one is a person's choice, not a second 。.
        #expect(fix("halfwidth-punctuation", "您可以刪除其原始檔案。.") == nil)
        #expect(fix("halfwidth-punctuation", "已新增,您可以刪除其原始檔案。.") == "已新增，您可以刪除其原始檔案。.")
        // A separator the app splits on, as the base uses it.
        #expect(fix("halfwidth-punctuation", "%@ 个字符;%@ 个字符", base: "%@ character;%@ characters", traditional: false) == nil)
    }

    @Test func quotes() {
        #expect(fix("quote-style", "請點按“儲存”") == "請點按「儲存」")
        #expect(fix("quote-style", "他說“按‘好’”") == "他說「按『好』」")
        // Single quotes on their own are the primary marks.
        #expect(fix("quote-style", "檔案 ‘%@’ 包含空字元。") == "檔案 「%@」 包含空字元。")
        #expect(fix("quote-style", "找不到 Cork’s 的“cask”") == "找不到 Cork’s 的「cask」")
        #expect(fix("quote-style", "请点按「保存」以保留『%@』", traditional: false) == "请点按“保存”以保留“%@”")
        // Marks named as themselves quote nothing: left as they are.
        #expect(fix("quote-style", "名稱不能包含 “ ” ‘ ’ / 等字元") == nil)
        #expect(fix("quote-style", "名稱不能包含 “ ” 等字元，請點按“好”") == "名稱不能包含 “ ” 等字元，請點按「好」")
        // Marks that do not pair up have no single reading.
        #expect(fix("quote-style", "請點按”儲存”") == nil)
    }

    @Test func scripts() {
        #expect(fix("simplified-in-hant", "你要删除吗？") == "你要刪除嗎？")
        // The phrase decides the characters that go with the flagged one (录制 → 錄製, not 錄制).
        #expect(fix("simplified-in-hant", "關閉了正在录制中的窗口") == "關閉了正在錄製中的窗口")
        #expect(fix("simplified-in-hant", "必须") == "必須")
        // 须 is 須 or 鬚, and no phrase says which in a name.
        #expect(fix("simplified-in-hant", "鼠须管") == nil)
        #expect(fix("traditional-in-hans", "刪除此虚拟机", traditional: false) == "删除此虚拟机")
        #expect(fix("traditional-in-hans", "鼠鬚管", traditional: false) == "鼠须管")
        // All or nothing: a text with a character of several forms (畫: 画 or 划; 夹: 夾 or 袷) stays
        // whole for a person; converting the rest left words half converted (畫质, 開发者 once).
        #expect(fix("traditional-in-hans", "請選擇影片畫質", traditional: false) == nil)
        // A text with kana is Japanese (or Taiwan's borrowed の): its kanji converted would be
        // neither language (家计の予算编成, fresh-14), so it is left to a person.
        #expect(fix("traditional-in-hans", "家計の予算編成", traditional: false) == nil)
        #expect(fix("simplified-in-hant", "小确幸の店") == nil)
        #expect(fix("simplified-in-hant", "显示文件夹名称") == nil)
        // A form of the supplementary planes (開's 𫔭, 買's 𧹒) is no second form.
        #expect(fix("traditional-in-hans", "聯絡開發者！購買授權", traditional: false) == "联络开发者！购买授权")
    }

    @Test func mainlandWords() {
        #expect(fix("mainland-vocabulary", "網絡設定") == "網路設定")
        #expect(fix("mainland-vocabulary", "拖動當前時間") == "拖動目前時間")
        // Words right in one meaning only stay findings: 刷新 of a login, 運行 of a thing that works.
        #expect(fix("mainland-vocabulary", "刷新登入") == nil)
        #expect(fix("mainland-vocabulary", "您的 Homebrew 安裝運行正常") == nil)
        // A word inside another word is no match (分類|模板).
        #expect(fix("mainland-vocabulary", "最大分類模板") == nil)
    }

    @Test func edges() {
        #expect(fix("whitespace-mismatch", "名稱：%@ ", base: "Name: %@") == "名稱：%@")
        #expect(fix("whitespace-mismatch", "•", base: "• ") == "• ")
        #expect(fix("newline-mismatch", "  • 移动一项配置", base: "  • Move a configuration\n") == "  • 移动一项配置\n")
        // A lost paragraph: where it breaks is for a person.
        #expect(fix("newline-mismatch", "随时随地访问。它在您的家中运行。", base: "Access it.\n\nIt runs at home.") == nil)
    }

    /// The fixture tree and catalog, fixed: every file as its golden file has it (only the fixed
    /// values differ from the input), and the audit after the fix finds none of the fixed findings
    /// and nothing new.
    @Test func filesComeBackWithOnlyTheirValuesChanged() throws {
        let work = try copyOfFixtures()
        let paths = [work + "/Tree", work + "/Catalog/Localizable.xcstrings"]
        let auditor = try Auditor()
        let before = auditor.audit(AuditTable.load(paths))
        let loaded = AuditTable.load(paths)
        // A tree's tables are read as stores; the fixer makes each a catalog once (reading a
        // store's catalog makes it anew each time: per edit, a fix of 10,000 keys took minutes).
        #expect(loaded.contains { $0.content.isStore })
        // Every fix, those applied only when named too.
        var every = AuditFixer.Options()
        every.checks = Set(AuditFixer.checks)
        let plan = AuditFixer(auditor: auditor, options: every).plan(loaded)
        #expect(plan.tables.allSatisfy { !$0.content.isStore })
        #expect(plan.diagnostics.isEmpty)
        let (written, problems) = AuditFixer.write(plan.changes)
        #expect(problems.isEmpty)
        #expect(written.count == 7)
        for relative in try files(under: fixtures + "/Fix/Expected") {
            let expected = try #require(FileManager.default.contents(atPath: fixtures + "/Fix/Expected/" + relative))
            let actual = try #require(FileManager.default.contents(atPath: work + "/" + relative))
            #expect(actual == expected, "\(relative) differs from its golden file")
        }
        let after = auditor.audit(AuditTable.load(paths))
        func id(_ finding: Finding) -> String { finding.fingerprint + finding.message.rendered(in: .english) }
        let was = Set(before.findings.map(id))
        // Nothing new, but for mainland words the vocabulary check looks for once a text has no
        // Simplified characters left (Maccy's tooltip: 全局, 變量, none a certain word,
        let hadSimplified = Set(before.findings.filter { $0.check == "simplified-in-hant" }.map { $0.key + "\u{1F}" + ($0.locale ?? "") })
        let new = after.findings.filter { !was.contains(id($0)) }
        #expect(new.allSatisfy { $0.check == "mainland-vocabulary" && hadSimplified.contains($0.key + "\u{1F}" + ($0.locale ?? "")) },
                "findings new after the fix: \(new)")
        // and 窗口 (a window, or a time window: a finding for a person) in the two texts that had them.
        #expect(new.count == 4)
        let fixedChecks = Set(plan.fixes.map(\.check))
        #expect(after.findings.count < before.findings.count)
        for finding in after.findings where fixedChecks.contains(finding.check) && finding.check != "missing-key" {
            // What is left of a fixed check is what has no single answer.
            #expect(["须", "運行", "全局", "變量", "刷新", "窗口"].contains { finding.message.rendered(in: .english).contains($0) }, "\(finding)")
        }
    }

    @Test func draftsAreMarkedForReview() throws {
        let work = try copyOfFixtures()
        let plan = AuditFixer(auditor: try Auditor()).plan(AuditTable.load([work + "/Tree", work + "/Catalog/Localizable.xcstrings"]))
        let drafts = plan.fixes.filter { $0.check == "missing-key" }
        #expect(Set(drafts.map(\.key)) == ["untranslated", "New Reminder"])
        // A `.strings` file: the comment a reviewer searches for.
        let strings = try #require(plan.changes.first { $0.path.hasSuffix("zh_TW.lproj/Localizable.strings") })
        let text = String(data: Data(strings.fixed), encoding: .utf16) ?? ""
        #expect(text.contains("/* Needs review: drafted by almanac audit --fix from the zh-Hans text. */\n\"untranslated\" = \"新增提醒事項\";"))
        // A String Catalog: needs_review.
        let catalog = try #require(plan.changes.first { $0.path.hasSuffix(".xcstrings") })
        #expect(String(decoding: catalog.fixed, as: UTF8.self).contains("\"zh-Hant\": {\n          \"stringUnit\": {\n            \"state\": \"needs_review\",\n            \"value\": \"新增提醒事項\""))
    }

    /// XLIFF is changed in its bytes: a target's text, a new target after the source marked
    /// needs-review-translation, nothing else.
    @Test func xliffTargetsChangeInPlace() throws {
        let text = """
        <?xml version="1.0" encoding="UTF-8"?>
        <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
          <file original="App/Localizable.xcstrings" source-language="en" target-language="zh-Hant" datatype="plaintext">
            <body>
              <trans-unit id="loading" xml:space="preserve">
                <source>Loading...</source>
                <target state="translated">載入中...</target>
                <note>Shown while &amp; after</note>
              </trans-unit>
              <trans-unit id="add" xml:space="preserve">
                <source>Add</source>
                <note/>
              </trans-unit>
            </body>
          </file>
        </xliff>

        """
        let edits = [XLIFFPatch.Edit(key: "loading", path: "", locale: "zh-Hant", text: "載入中…"),
                     XLIFFPatch.Edit(key: "add", path: "", locale: "zh-Hant", text: "新增 <&>", state: .needsReview)]
        let patched = try #require(XLIFFPatch.apply(edits, to: Array(text.utf8)))
        let expected = text.replacingOccurrences(of: "載入中...", with: "載入中…")
            .replacingOccurrences(of: "<source>Add</source>", with: "<source>Add</source>\n        <target state=\"needs-review-translation\">新增 &lt;&amp;&gt;</target>")
        #expect(String(decoding: patched, as: UTF8.self) == expected)
        let decoded = try XLIFFCodec().decode(CodecInput(bytes: patched, fileName: "zh-Hant.xliff"), context: CodecContext())
        guard case .catalog(let catalog) = decoded.document else { Issue.record("not a catalog"); return }
        #expect(catalog["add"]?.translations["zh-Hant"]?.value == "新增 <&>")
        #expect(catalog["add"]?.translations["zh-Hant"]?.state == .needsReview)
        // A unit that is not there: nothing is changed.
        #expect(XLIFFPatch.apply([XLIFFPatch.Edit(key: "gone", path: "", locale: "zh-Hant", text: "x")], to: Array(text.utf8)) == nil)
    }

    /// Xcode exports one XLIFF per language: a key zh-Hant's file lacks is drafted from the zh-Hans
    /// file of the same strings (`original`), written as a target marked needs-review-translation.
    @Test func xliffDraftsComeFromTheSimplifiedFile() throws {
        let work = temporaryFolder()
        let hant = try String(contentsOfFile: repository + "/Tests/AlmanacCatalogsTests/Fixtures/zh-Hant.xliff", encoding: .utf8)
        let hans = hant.replacingOccurrences(of: "target-language=\"zh-Hant\"", with: "target-language=\"zh-Hans\"")
            .replacingOccurrences(of: "<source>Restore from Backup</source>",
                                  with: "<source>Restore from Backup</source>\n        <target state=\"translated\">从备份恢复</target>")
        try hant.write(toFile: work + "/zh-Hant.xliff", atomically: true, encoding: .utf8)
        try hans.write(toFile: work + "/zh-Hans.xliff", atomically: true, encoding: .utf8)
        var options = AuditFixer.Options()
        options.checks = ["missing-key"]
        let plan = AuditFixer(auditor: try Auditor(), options: options).plan(AuditTable.load([work + "/zh-Hans.xliff", work + "/zh-Hant.xliff"]))
        let change = try #require(plan.changes.first { $0.path.hasSuffix("zh-Hant.xliff") })
        #expect(String(decoding: change.fixed, as: UTF8.self) == hant.replacingOccurrences(
            of: "<source>Restore from Backup</source>",
            with: "<source>Restore from Backup</source>\n        <target state=\"needs-review-translation\">從備份恢復</target>"))
        #expect(plan.changes.count == 1)
    }

    /// A file that changed after the plan read it is not written, and says so.
    @Test func aFileChangedDuringTheRunIsLeftAlone() throws {
        let work = try copyOfFixtures()
        let plan = AuditFixer(auditor: try Auditor()).plan(AuditTable.load([work + "/Tree"]))
        let target = try #require(plan.changes.first { $0.path.hasSuffix("zh-Hans.lproj/Localizable.strings") })
        let edited = Array("\"save.failed\" = \"改过了\";\n".utf8)
        try Data(edited).write(to: URL(fileURLWithPath: target.path))
        let (written, problems) = AuditFixer.write(plan.changes)
        #expect(!written.contains(target.path))
        #expect(problems.contains { $0.code == .auditFixChanged && $0.location?.file == target.path })
        #expect(FileManager.default.contents(atPath: target.path).map(Array.init) == edited)
        #expect(written.count == plan.changes.count - 1)
    }

    /// A compiled `.strings` table is rewritten only when asked (as a compiled table).
    @Test func compiledTablesNeedForce() throws {
        let work = temporaryFolder()
        for locale in ["en", "zh-Hant"] { try FileManager.default.createDirectory(atPath: "\(work)/\(locale).lproj", withIntermediateDirectories: true) }
        try Data("\"loading\" = \"Loading\";\n".utf8).write(to: URL(fileURLWithPath: work + "/en.lproj/Localizable.strings"))
        let compiled = try StringsFile.binaryBytes([(key: "loading", value: "載入中...")])
        try Data(compiled).write(to: URL(fileURLWithPath: work + "/zh-Hant.lproj/Localizable.strings"))
        let auditor = try Auditor()
        let refused = AuditFixer(auditor: auditor).plan(AuditTable.load([work]))
        #expect(refused.changes.isEmpty)
        #expect(refused.diagnostics.contains { $0.code == .auditFixCompiled })
        var options = AuditFixer.Options()
        options.rewriteCompiled = true
        let forced = AuditFixer(auditor: auditor, options: options).plan(AuditTable.load([work]))
        let change = try #require(forced.changes.first)
        #expect(StringsFile.isBinaryPropertyList(change.fixed))
        #expect(try StringsFile.parseBinary(change.fixed, fileName: nil).entries.first?.value == "載入中…")
    }

    /// Accepted findings stay as they are; `checks` limits what is fixed.
    @Test func baselinesAndChosenChecks() throws {
        let work = try copyOfFixtures()
        let auditor = try Auditor()
        let tables = AuditTable.load([work + "/Tree"])
        let report = auditor.audit(tables)
        let accepted = Baseline(report.findings.filter { $0.check == "ellipsis" })
        let plan = AuditFixer(auditor: auditor, baseline: accepted).plan(tables)
        #expect(!plan.fixes.isEmpty)
        #expect(!plan.fixes.contains { $0.check == "ellipsis" })
        var options = AuditFixer.Options()
        options.checks = ["quote-style"]
        let quotes = AuditFixer(auditor: auditor, options: options).plan(tables)
        #expect(Set(quotes.fixes.map(\.check)) == ["quote-style"])
        let left = auditor.audit(quotes.tables).findings
        #expect(left.contains { $0.check == "ellipsis" })
        #expect(!left.contains { $0.check == "quote-style" })
    }

    @Test func unifiedDiffs() {
        let old = (1...20).map { "line \($0)" }.joined(separator: "\n") + "\n"
        let new = old.replacingOccurrences(of: "line 3\n", with: "line three\n").replacingOccurrences(of: "line 18\n", with: "")
        let diff = UnifiedDiff.diff(old, new, path: "x.strings")
        #expect(diff == """
        --- a/x.strings
        +++ b/x.strings
        @@ -1,6 +1,6 @@
         line 1
         line 2
        -line 3
        +line three
         line 4
         line 5
         line 6
        @@ -15,6 +15,5 @@
         line 15
         line 16
         line 17
        -line 18
         line 19
         line 20

        """)
        #expect(UnifiedDiff.diff(old, old, path: "x") == "")
        #expect(UnifiedDiff.diff("a", "b", path: "x").hasSuffix("-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n"))
    }

    /// The edit script turns the old lines into the new ones, for random files and changes.
    @Test func editScriptsRebuildTheNewText() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let old = (0..<Int.random(in: 0...40, using: &generator)).map { _ in Substring(String(Int.random(in: 0...5, using: &generator))) }
            var new = old
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                switch Int.random(in: 0...2, using: &generator) {
                case 0 where !new.isEmpty: new.remove(at: Int.random(in: 0..<new.count, using: &generator))
                case 1: new.insert("n", at: Int.random(in: 0...new.count, using: &generator))
                default: if !new.isEmpty { new[Int.random(in: 0..<new.count, using: &generator)] = "c" }
                }
            }
            var rebuilt: [Substring] = []
            var i = 0, j = 0
            for step in UnifiedDiff.editScript(old, new) {
                switch step {
                case .same: #expect(old[i] == new[j]); rebuilt.append(old[i]); i += 1; j += 1
                case .delete: i += 1
                case .insert: rebuilt.append(new[j]); j += 1
                }
            }
            #expect(rebuilt == new && i == old.count, "\(old) → \(new)")
        }
    }

    // MARK: - Helpers

    func temporaryFolder() -> String {
        let path = NSTemporaryDirectory() + "almanac-fix-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The fixture's inputs in a folder of their own.
    func copyOfFixtures() throws -> String {
        let work = temporaryFolder()
        for name in ["Tree", "Catalog"] { try FileManager.default.copyItem(atPath: fixtures + "/Fix/" + name, toPath: work + "/" + name) }
        return work
    }

    func files(under folder: String) throws -> [String] {
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder))
        return enumerator.compactMap { $0 as? String }.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }.sorted()
    }
}
