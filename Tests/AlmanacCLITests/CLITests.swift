import AlmanacAudit
import AlmanacCLI
import AlmanacCore
import AlmanacKit
import AlmanacTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

@Suite struct LunarCommandTests {
    @Test func springFestival2027() {
        let run = CLIRun(["lunar", "2027-02-06"])
        #expect(run.status == 0)
        #expect(run.output.contains("正月初一"))
        #expect(run.output.contains("丁未年"))
    }

    @Test func jsonForEachDate() throws {
        let run = CLIRun(["lunar", "2027-02-06", "2025-07-25", "--json"])
        #expect(run.status == 0)
        let rows = try JSONSerialization.jsonObject(with: Data(run.bytes)) as! [[String: Any]]
        #expect(rows.count == 2)
        #expect(rows[0]["year"] as? Int == 2027)
        #expect(rows[0]["month"] as? Int == 1)
        #expect(rows[0]["leap"] as? Bool == false)
        #expect(rows[0]["day"] as? Int == 1)
        #expect(rows[0]["written"] as? String == "正月初一")
        #expect(rows[1]["leap"] as? Bool == true)
        #expect(rows[1]["written"] as? String == "閏六月初一")
    }

    @Test func backToGregorianAndScripts() {
        let run = CLIRun(["lunar", "--to-gregorian", "2025-06L-01", "2025-12-30", "--script", "hans"])
        #expect(run.status == 3)  // 2025's 腊月 has 29 days
        #expect(run.output.contains("2025-07-25"))
        #expect(run.output.contains("闰六月初一"))
        #expect(run.error.contains("[lunar.nonexistent]"))
    }

    @Test func badDatesAreInputErrors() {
        let run = CLIRun(["lunar", "2025-02-30"])
        #expect(run.status == 3)
        #expect(run.error.contains("YYYY-MM-DD"))
    }
}

@Suite struct LocaleShowTests {
    @Test func taiwanShowsCashTWDByDefault() {
        let run = CLIRun(["locale", "show", "zh-TW", "--date", "2025-03-05"])
        #expect(run.status == 0)
        #expect(run.output.contains("$1,234,568"))
        #expect(!run.output.contains("NT$1,234,568"))
        #expect(run.output.contains("民國114年3月5日"))
        #expect(run.output.contains("2025年3月5日 週三"))
        #expect(run.output.contains("3 天後"))
    }

    @Test func americanEnglishShowsNTDollar() {
        let run = CLIRun(["locale", "show", "en-US", "--date", "2025-03-05"])
        #expect(run.output.contains("NT$1,234,568"))
        #expect(run.output.contains("in 3 days"))
        #expect(run.output.contains("one, other"))
    }

    @Test func standardStyleIsAnOption() {
        let taiwan = CLIRun(["locale", "show", "zh-TW", "--rounding", "standard", "--json"])
        #expect(taiwan.output.contains("\"chosen\" : \"$1,234,567.50\""))
        let american = CLIRun(["locale", "show", "en-US", "--rounding", "standard", "--json"])
        #expect(american.output.contains("\"chosen\" : \"NT$1,234,567.50\""))
        let explicit = CLIRun(["locale", "show", "zh-TW", "--symbol", "NT$", "--json"])
        #expect(explicit.output.contains("\"chosen\" : \"NT$1,234,568\""))
    }

    @Test func messagesFollowTheLanguage() {
        let run = CLIRun(["locale", "show", "zh-TW", "--lang", "zh-Hant"])
        #expect(run.output.contains("民國日期"))
        #expect(run.output.contains("中文（台灣）"))
        let fromEnvironment = CLIRun(["locale", "show", "zh-CN"], language: .simplifiedChinese)
        #expect(fromEnvironment.output.contains("农历"))
    }

    @Test func unknownLocaleIsAUsageError() {
        let run = CLIRun(["locale", "show", "xx-YY"])
        #expect(run.status == 2)
        #expect(run.error.contains("[locale.unknown]"))
        let chinese = CLIRun(["locale", "show", "xx-YY", "--lang", "zh-Hant"])
        #expect(chinese.error.contains("不是 Almanac 認得的地區"))
    }
}

@Suite struct FormatsAndInspectTests {
    @Test func formatsListsTheRegistry() throws {
        let run = CLIRun(["formats"])
        #expect(run.status == 0)
        #expect(run.output.contains("agenda-json"))
        let json = CLIRun(["formats", "--json"])
        let formats = try JSONDecoder().decode([FormatDescription].self, from: Data(json.bytes))
        #expect(formats.map(\.id) == BuiltInFormats.registry.codecs.map(\.format.id))
    }

    @Test func inspectReportsFormatAndProblems() throws {
        let directory = temporaryDirectory()
        let good = directory + "/days.agenda.json"
        try Data(ModelJSONCodec.emptyAgenda.utf8).write(to: URL(fileURLWithPath: good))
        let bad = directory + "/broken.agenda.json"
        try Data(#"{"model": "agenda", "version": 1, "items": [{"uid": 3}]}"#.utf8).write(to: URL(fileURLWithPath: bad))
        let run = CLIRun(["inspect", good, bad, directory + "/missing.ics"])
        #expect(run.status == 3)
        #expect(run.output.contains("agenda-json"))
        #expect(run.output.contains("broken.agenda.json: /items/0/uid: error"))
        #expect(run.output.contains("[input.not-found]"))
        let json = CLIRun(["inspect", good, "--json"])
        #expect(json.status == 0)
        #expect(json.output.contains("\"records\" : 0"))
    }
}

@Suite struct ConvertCommandTests {
    @Test func convertsToAFileAndNeverOverwritesWithoutForce() throws {
        let directory = temporaryDirectory()
        let input = directory + "/days.agenda.json"
        try Data(ModelJSONCodec.emptyAgenda.utf8).write(to: URL(fileURLWithPath: input))
        let output = directory + "/copy.agenda.json"
        #expect(CLIRun(["convert", input, "--to", "agenda-json", "-o", output]).status == 0)
        let first = read(output)
        #expect(first?.contains("\"model\" : \"agenda\"") == true)

        try Data("precious".utf8).write(to: URL(fileURLWithPath: output))
        let refused = CLIRun(["convert", input, "--to", "agenda-json", "-o", output])
        #expect(refused.status == 4)
        #expect(refused.error.contains("--force"))
        #expect(read(output) == "precious")

        #expect(CLIRun(["convert", input, "--to", "agenda-json", "-o", output, "--force"]).status == 0)
        #expect(read(output) == first)

        // `-o new/` names a folder that does not exist yet: made, and the output named in it.
        #expect(CLIRun(["convert", input, "--to", "agenda-json", "-o", directory + "/new/"]).status == 0)
        #expect(read(directory + "/new/days.agenda.json") == first)
    }

    @Test func standardInputToStandardOutput() {
        let run = CLIRun(["convert", "-", "--from", "agenda-json", "--to", "agenda-json"], input: Array(ModelJSONCodec.emptyAgenda.utf8))
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("{\n"))
    }

    @Test func severalInputsIntoADirectoryWithAReport() throws {
        let directory = temporaryDirectory()
        for name in ["a", "b"] {
            try Data(ModelJSONCodec.emptyAgenda.utf8).write(to: URL(fileURLWithPath: "\(directory)/\(name).agenda.json"))
        }
        try Data("not json".utf8).write(to: URL(fileURLWithPath: "\(directory)/c.agenda.json"))
        let out = directory + "/out"
        let run = CLIRun(["convert", "\(directory)/a.agenda.json", "\(directory)/c.agenda.json", "\(directory)/b.agenda.json",
                          "--to", "agenda-json", "-o", out, "--json"])
        #expect(run.status == 3)  // c failed; a and b were still converted
        #expect(read(out + "/a.agenda.json") != nil)
        #expect(read(out + "/b.agenda.json") != nil)
        #expect(read(out + "/c.agenda.json") == nil)
        #expect(run.output.contains("\"status\" : \"failed\""))
        #expect(run.error.contains("c.agenda.json"))
    }

    @Test func usageErrors() {
        #expect(CLIRun(["convert", "a", "b", "--to", "agenda-json"]).status == 2)
        let unknown = CLIRun(["convert", "a.ics", "--to", "docx"])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("[format.unknown]"))
        #expect(CLIRun(["convert", "a.ics"]).status == 2)
        #expect(CLIRun(["frobnicate"]).status == 2)
    }

    @Test func modelMismatchSuggestsFormats() throws {
        let directory = temporaryDirectory()
        let input = directory + "/days.agenda.json"
        try Data(ModelJSONCodec.emptyAgenda.utf8).write(to: URL(fileURLWithPath: input))
        let run = CLIRun(["convert", input, "--to", "ledger-json", "-o", directory + "/x.json"])
        #expect(run.status == 3)
        #expect(run.error.contains("[convert.no-path]"))
        #expect(run.error.contains("agenda data cannot become ledger data"))
        #expect(run.error.contains("agenda-json"))
        #expect(read(directory + "/x.json") == nil)
    }

    /// --strict: a conversion that would drop or approximate anything writes nothing and says
    /// what the first loss was; streamed or not, to a file or to standard output.
    @Test func strictRefusesLossyConversions() throws {
        let directory = temporaryDirectory()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path
        let example = root + "/Examples/retiretime-backup.json"
        let lossy = CLIRun(["convert", example, "--to", "csv", "--strict", "-o", directory + "/days.csv"])
        #expect(lossy.status == 3)
        #expect(lossy.error.contains("[convert.strict]"))
        #expect(lossy.error.contains("nothing was written"))
        #expect(read(directory + "/days.csv") == nil)
        let toStandardOutput = CLIRun(["convert", example, "--to", "csv", "--strict"])
        #expect(toStandardOutput.status == 3)
        #expect(toStandardOutput.output.isEmpty)
        // A streamed conversion (rows → days → rows) finds its losses at the end: the file is not committed.
        try Data("name,date,alert\r\nA,2025-01-01,-PT1H\r\n".utf8).write(to: URL(fileURLWithPath: directory + "/in.csv"))
        let streamed = CLIRun(["convert", directory + "/in.csv", "--to", "csv", "--via", "agenda", "--strict", "-o", directory + "/out.csv"])
        #expect(streamed.status == 3, "\(streamed.error)")
        #expect(read(directory + "/out.csv") == nil)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(left == ["in.csv"])  // no temporary file left
        // What keeps everything passes.
        let whole = CLIRun(["convert", example, "--to", "ics", "--strict", "-o", directory + "/days.ics"])
        #expect(whole.status == 0, "\(whole.error)")
    }

    @Test func csvRewrittenForARegionThroughDays() throws {
        let directory = temporaryDirectory()
        let input = directory + "/days.csv"
        try Data("name,date,type\r\n媽媽生日,2025-10-06,birthday\r\nTrip,2025/2/30,\r\n".utf8).write(to: URL(fileURLWithPath: input))
        let output = directory + "/taipei.csv"
        let run = CLIRun(["convert", input, "--via", "agenda", "--to", "csv", "--locale", "zh-TW", "-o", output, "--json"])
        #expect(run.status == 0)
        #expect(read(output) == "\u{FEFF}名稱,日期,重複,類型,地點,分類,備註\r\n媽媽生日,2025/10/6,每年,生日,,,\r\nTrip,2025/2/30,,,,,\r\n")
        #expect(run.output.contains("\"records\" : 2"))
        #expect(run.error.contains("days.csv") && run.error.contains("2025/2/30"))

        // Streamed output keeps the same promises: no overwrite without --force, nothing half-written.
        let again = CLIRun(["convert", input, "--via", "agenda", "--to", "csv", "-o", output])
        #expect(again.status == 4)
        #expect(read(output)?.contains("媽媽生日") == true)
        try Data("when\r\n2025-01-01\r\n".utf8).write(to: URL(fileURLWithPath: input))
        let failed = CLIRun(["convert", input, "--via", "agenda", "--to", "csv", "-o", directory + "/none.csv"])
        #expect(failed.status == 3)
        #expect(failed.error.contains("[csv.no-title-column]"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["days.csv", "taipei.csv"])
        #expect(CLIRun(["convert", input, "--via", "calendar", "--to", "csv"]).status == 2)
    }

    @Test func lprojFoldersBecomeOneCatalogAndBack() throws {
        let directory = temporaryDirectory()
        for (locale, text) in [("en", "/* Button */\n\"save\" = \"Save\";\n"), ("zh-Hans", "/* Button */\n\"save\" = \"保存\";\n")] {
            try FileManager.default.createDirectory(atPath: "\(directory)/App/\(locale).lproj", withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: "\(directory)/App/\(locale).lproj/Shared.strings"))
        }
        let catalog = directory + "/Shared.xcstrings"
        let run = CLIRun(["convert", directory + "/App", "--to", "xcstrings", "--to-locale", "zh-TW", "-o", catalog])
        #expect(run.status == 0)
        #expect(run.error.contains("[catalog.drafted]"))
        let text = try #require(read(catalog))
        #expect(text.contains("\"state\" : \"needs_review\",\n            \"value\" : \"儲存\""))
        #expect(text.contains("\"comment\" : \"Button\""))

        // Back to .lproj folders, one per locale.
        let tree = directory + "/Tree/"
        #expect(CLIRun(["convert", catalog, "--to", "strings", "-o", tree]).status == 0)
        #expect(read(tree + "zh-Hant.lproj/Shared.strings") == "/* Button */\n\"save\" = \"儲存\";\n")
        #expect(read(tree + "en.lproj/Shared.strings") == "/* Button */\n\"save\" = \"Save\";\n")
        // One locale to standard output.
        let one = CLIRun(["convert", catalog, "--to", "strings", "--locale", "zh-CN"])
        #expect(one.output == "/* Button */\n\"save\" = \"保存\";\n")
        // A translator's spreadsheet.
        let sheet = CLIRun(["convert", catalog, "--to", "csv", "--option", "bom=no"])
        #expect(sheet.output.hasPrefix("key,variant,comment,en,zh-Hans,zh-Hant\r\nsave,,Button,Save,保存,儲存\r\n"))
    }

    /// A tree of an older Mac app (`zh_CN.lproj`, `zh_TW.lproj`, as Skim's): drafts fill its
    /// zh_TW folders, and the tree's drafts are one note.
    @Test func draftingATreeOfUnderscoreFolders() throws {
        let directory = temporaryDirectory()
        let files = [("en", "Localizable", "\"Delete\" = \"Delete\";\n\"Open\" = \"Open\";\n"),
                     ("zh_CN", "Localizable", "\"Delete\" = \"删除\";\n\"Open\" = \"打开\";\n"),
                     ("zh_TW", "Localizable", "\"Open\" = \"打開\";\n"),
                     ("en", "MainMenu", "\"Zoom\" = \"Zoom\";\n"), ("zh_CN", "MainMenu", "\"Zoom\" = \"缩放\";\n")]
        try writeTree(files, at: directory + "/App")
        let out = directory + "/Out/"
        let run = CLIRun(["convert", directory + "/App", "--to", "strings", "--to-locale", "zh-Hant", "-o", out])
        #expect(run.status == 0, "\(run.error)")
        #expect(read(out + "zh_TW.lproj/Localizable.strings") == "\"Delete\" = \"刪除\";\n\"Open\" = \"打開\";\n")
        #expect(!FileManager.default.fileExists(atPath: out + "zh-Hant.lproj/Localizable.strings"))
        let drafted = run.error.split(separator: "\n").filter { $0.contains("[catalog.drafted") }
        #expect(drafted.count == 1)
        #expect(drafted.first?.contains("Drafted 2 values in zh_TW, zh-Hant across 2 tables (marked needs_review); 1 reviewed ones were kept.") == true,
                "\(run.error)")
    }

    /// A tree whose tables do not all have zh-Hans text (a comment-only InfoPlist.strings, a table
    /// only English has): `--to-locale zh-Hant` drafts the others, writes those as they are, names
    /// them in one note, and succeeds.
    @Test func draftingATreeLeavesTablesWithNothingToDraftFrom() throws {
        let directory = temporaryDirectory()
        let files = [("en", "Localizable", "\"save\" = \"Save\";\n"), ("zh-Hans", "Localizable", "\"save\" = \"保存\";\n"),
                     ("en", "InfoPlist", "\"CFBundleName\" = \"Days\";\n"), ("zh-Hans", "InfoPlist", "/* Not translated yet */\n"),
                     ("en", "Settings", "\"title\" = \"Settings\";\n")]
        try writeTree(files, at: directory + "/App")
        let out = directory + "/Out/"
        let run = CLIRun(["convert", directory + "/App", "--to", "strings", "--to-locale", "zh-Hant", "-o", out])
        #expect(run.status == 0, "\(run.error)")
        let left = run.error.split(separator: "\n").filter { $0.contains("[convert.tables-left]") }
        #expect(left.count == 1)
        #expect(left.first?.contains("InfoPlist, Settings") == true, "\(run.error)")
        #expect(!run.error.contains("catalog.no-draft-source"))
        #expect(read(out + "zh-Hant.lproj/Localizable.strings") == "\"save\" = \"儲存\";\n")
        #expect(read(out + "en.lproj/InfoPlist.strings") == "\"CFBundleName\" = \"Days\";\n")
        #expect(read(out + "en.lproj/Settings.strings") == "\"title\" = \"Settings\";\n")
        #expect(!FileManager.default.fileExists(atPath: out + "zh-Hant.lproj/InfoPlist.strings"))
        // The file of comments only is written where it was, as it was (it once went to
        // `Out/InfoPlist.strings`, outside any .lproj folder, and another such file with it was lost).
        #expect(read(out + "zh-Hans.lproj/InfoPlist.strings") == "/* Not translated yet */\n")
        #expect(!FileManager.default.fileExists(atPath: out + "InfoPlist.strings"))
        // One table alone with nothing to draft from still fails: there is nothing else to do.
        let alone = CLIRun(["convert", "\(directory)/App/en.lproj/Settings.strings", "--to", "strings", "--to-locale", "zh-Hant"])
        #expect(alone.status == 3)
        #expect(alone.error.contains("[catalog.no-draft-source]"))
    }

    /// A table whose every file is comments only (a UTF-8 one in en, a UTF-16 one in zh-Hans): a
    /// tree written out has each in its folder, byte for byte.
    @Test func filesOfCommentsOnlyKeepTheirPlaces() throws {
        let directory = temporaryDirectory()
        try writeTree([("en", "Localizable", "\"save\" = \"Save\";\n"), ("en", "InfoPlist", "/* Nothing here yet */\n")], at: directory + "/App")
        let utf16: [UInt8] = [0xFF, 0xFE] + "/* 尚無 */\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        try FileManager.default.createDirectory(atPath: directory + "/App/zh-Hans.lproj", withIntermediateDirectories: true)
        try Data(utf16).write(to: URL(fileURLWithPath: directory + "/App/zh-Hans.lproj/InfoPlist.strings"))
        let out = directory + "/Out/"
        let run = CLIRun(["convert", directory + "/App", "--to", "strings", "-o", out])
        #expect(run.status == 0, "\(run.error)")
        #expect(read(out + "en.lproj/InfoPlist.strings") == "/* Nothing here yet */\n")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: out + "zh-Hans.lproj/InfoPlist.strings"))) == utf16)
        #expect(!FileManager.default.fileExists(atPath: out + "InfoPlist.strings"))
    }

    /// Table names that differ only in letter case between folders (`InfoPlist.strings` beside
    /// `infoPlist.strings`) are one table, as on a Mac: read as one, with a note, and an XLIFF's
    /// translation comes back into the file the folder already has.
    @Test func aTableSpelledTwoWaysIsOneTable() throws {
        let directory = temporaryDirectory()
        let tree = directory + "/App"
        for (folder, name, text) in [("en", "InfoPlist", "\"CFBundleDisplayName\" = \"Days\";\n\"NSCameraUsageDescription\" = \"Scan a code\";\n"),
                                     ("zh-Hans", "infoPlist", "\"CFBundleDisplayName\" = \"倒数日\";\n\"NSCameraUsageDescription\" = \"扫描二维码\";\n")] {
            try FileManager.default.createDirectory(atPath: "\(tree)/\(folder).lproj", withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: "\(tree)/\(folder).lproj/\(name).strings"))
        }
        // Xcode's export: one XLIFF per table, named by it.
        let export = CLIRun(["convert", tree, "--to", "xliff", "--locale", "zh-Hans", "-o", directory + "/Export/"])
        #expect(export.status == 0, "\(export.error)")
        #expect(export.error.contains("[catalog.table-spelled-twice]"))
        let xliff = directory + "/Export/InfoPlist.xliff"
        let exported = try #require(read(xliff))
        #expect(exported.contains("<target state=\"translated\">扫描二维码</target>"))
        // The translator's change comes back into zh-Hans.lproj/infoPlist.strings, not a second
        // file: the file is there already (skipped without --force), and replaced with it.
        try Data(exported.replacingOccurrences(of: "扫描二维码", with: "扫描条码").utf8).write(to: URL(fileURLWithPath: xliff))
        let skipped = CLIRun(["convert", xliff, "--to", "strings", "-o", tree + "/"])
        #expect(skipped.error.contains("[batch.skipped-exists]"), "\(skipped.error)")
        #expect(read(tree + "/zh-Hans.lproj/infoPlist.strings")?.contains("扫描二维码") == true)
        let back = CLIRun(["convert", xliff, "--to", "strings", "-o", tree + "/", "--force"])
        #expect(back.status == 0, "\(back.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tree + "/zh-Hans.lproj") == ["infoPlist.strings"])
        #expect(read(tree + "/zh-Hans.lproj/infoPlist.strings")?.contains("扫描条码") == true)
    }

    @Test func auditExitStatusAndFormats() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path
        let clean = CLIRun(["audit", root + "/Locales"])
        #expect(clean.status == 0, "\(clean.output)")
        #expect(clean.output.contains("0 errors, 0 warnings"))

        let app = root + "/Tests/AlmanacAuditTests/Fixtures/App"
        let failing = CLIRun(["audit", app, "--format", "json"])
        #expect(failing.status == 1)
        #expect(failing.output.contains("\"check\" : \"placeholder-mismatch\""))
        // Warnings alone pass unless --fail-on warning.
        #expect(CLIRun(["audit", app, "--locales", "zh-Hans", "--base", "en"]).status == 1)  // traditional-in-hans is an error
        let baseline = temporaryDirectory() + "/baseline.json"
        #expect(CLIRun(["audit", app, "--write-baseline", baseline, "--format", "github"]).status == 1)
        let accepted = CLIRun(["audit", app, "--baseline", baseline])
        #expect(accepted.status == 0)
        #expect(accepted.output.contains("accepted by the baseline"))
        #expect(CLIRun(["audit", app, "--format", "yaml"]).status == 2)
        #expect(CLIRun(["audit", "/nonexistent/path"]).status == 3)
        let chinese = CLIRun(["audit", app, "--lang", "zh-Hant"])
        #expect(chinese.output.contains("缺少「extra.only.en」"))
        // A check switched off is not reported; one that does not exist is a usage error naming the ids.
        let withoutPlaceholders = CLIRun(["audit", app, "--format", "json", "--disable", "placeholder-mismatch,ellipsis"])
        #expect(withoutPlaceholders.status == 1)
        #expect(!withoutPlaceholders.output.contains("\"check\" : \"placeholder-mismatch\""))
        #expect(!withoutPlaceholders.output.contains("\"check\" : \"ellipsis\""))
        #expect(withoutPlaceholders.output.contains("\"check\" : \"missing-key\""))
        let unknown = CLIRun(["audit", app, "--disable", "placeholder-mismatches"])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("placeholder-mismatches") && unknown.error.contains("mainland-vocabulary"))
        #expect(CLIRun(["audit"]).status == 2)
    }

    /// `--whole-tables` (the pre-commit hook): a changed file is audited with its table from every
    /// `.lproj` folder beside it. zh-Hans alone has nothing to compare with in zh-Hant; audited
    /// whole, the key zh-Hant lacks is found, named at zh-Hans's line. A String Catalog is whole.
    @Test func auditWholeTablesOfChangedFiles() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path
        let resources = root + "/Examples/StudyKit/Sources/StudyKit/Resources"
        let changed = resources + "/zh-Hans.lproj/Localizable.strings"
        let whole = CLIRun(["audit", "--whole-tables", "--base", "zh-Hans", changed, resources + "/zh-Hans.lproj/Localizable.stringsdict"])
        #expect(whole.status == 1)
        #expect(whole.output.contains("zh-Hans.lproj/Localizable.strings\n  22:1    error   missing-key"))
        #expect(whole.output.contains("“memory.rate.hard” is missing in zh-Hant."))
        #expect(whole.output.contains("Localizable   zh-Hant "))
        // The same as auditing the folder.
        let folder = CLIRun(["audit", "--base", "zh-Hans", resources])
        #expect(whole.output == folder.output)
        // Only the changed file's table is read: another table beside it, even a broken one, is not.
        let copy = temporaryDirectory() + "/Resources"
        try FileManager.default.copyItem(atPath: resources, toPath: copy)
        try Data("\"broken = ;".utf8).write(to: URL(fileURLWithPath: copy + "/en.lproj/InfoPlist.strings"))
        #expect(CLIRun(["audit", "--base", "zh-Hans", copy]).output.contains("InfoPlist"))
        let onlyChanged = CLIRun(["audit", "--whole-tables", "--base", "zh-Hans", copy + "/zh-Hans.lproj/Localizable.strings"])
        #expect(onlyChanged.status == 1)
        #expect(!onlyChanged.output.contains("InfoPlist"))
        #expect(onlyChanged.output.contains("“memory.rate.hard” is missing in zh-Hant."))
        // A String Catalog given with --whole-tables is read as it is.
        let catalog = temporaryDirectory() + "/Localizable.xcstrings"
        #expect(CLIRun(["convert", resources, "--to", "xcstrings", "-o", catalog]).status == 0)
        let alone = CLIRun(["audit", "--whole-tables", "--base", "zh-Hans", catalog])
        #expect(alone.status == 1)
        #expect(alone.output.contains("“memory.rate.hard” is missing in zh-Hant."))
    }

    /// `--list-checks` lists every rule; `--explain` prints one with its examples and what the
    /// audit reports for them, in the language asked for.
    @Test func auditDescribesItsChecks() {
        let list = CLIRun(["audit", "--list-checks"])
        #expect(list.status == 0)
        for rule in AuditRules.descriptions { #expect(list.output.contains(rule.id + " "), "\(rule.id) not listed") }
        let english = CLIRun(["audit", "--explain", "mainland-vocabulary"])
        #expect(english.status == 0)
        #expect(english.output.contains("Traditional Chinese as written in Taiwan"))
        #expect(english.output.contains("\"網絡錯誤\""))
        #expect(english.output.contains("→ zh-Hant.lproj/Localizable.strings:1  “offline” in zh-Hant uses the mainland word 網絡; Taiwan writes 網路."))
        let traditional = CLIRun(["audit", "--explain", "mainland-vocabulary", "--lang", "zh-Hant"])
        #expect(traditional.output.contains("適用於："))
        #expect(traditional.output.contains("不會回報的例子："))
        let simplified = CLIRun(["audit", "--explain", "missing-key"], language: .simplifiedChinese)
        #expect(simplified.output.contains("处理方法："))
        #expect(CLIRun(["audit", "--explain", "no-such-check"]).status == 2)
        // A plural example shows its forms under the format.
        let plural = CLIRun(["audit", "--explain", "plural-missing-category"]).output
        #expect(plural.contains("    en  \"%#@count@\"\n        count.other  \"%d items\"\n"), "\(plural)")
    }

    @Test func backupsAreNeverHalfWrittenOrLost() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path
        let directory = temporaryDirectory()
        let example = try String(contentsOfFile: root + "/Examples/retiretime-backup.json", encoding: .utf8)
        // A corrupted backup: precise errors, and no output file.
        let broken = directory + "/broken.retiretime-backup.json"
        try Data(example.replacingOccurrences(of: "\"2019-05-20\"", with: "\"2019-02-30\"").utf8).write(to: URL(fileURLWithPath: broken))
        let refused = CLIRun(["convert", broken, "--to", "ics", "-o", directory + "/out.ics"])
        #expect(refused.status == 3)
        #expect(refused.error.contains("/days/1/date"))
        #expect(refused.error.contains("[convert.input-has-errors]"))
        #expect(read(directory + "/out.ics") == nil)

        // Converting into an existing backup: refused without --force; with it, the old one is kept.
        let target = directory + "/days.retiretime-backup.json"
        try Data(example.utf8).write(to: URL(fileURLWithPath: target))
        let calendar = directory + "/days.ics"
        #expect(CLIRun(["convert", root + "/Examples/retiretime-backup.json", "--to", "ics", "-o", calendar]).status == 0)
        #expect(CLIRun(["convert", calendar, "--to", "retiretime-backup", "-o", target]).status == 4)
        #expect(CLIRun(["convert", calendar, "--to", "retiretime-backup", "-o", target, "--force",
                        "--option", "exported-at=2025-12-01T00:00:00+08:00"]).status == 0)
        #expect(read(target + ".bak") == example)
        #expect(read(target)?.contains("\"exportedAt\": \"2025-12-01T00:00:00+08:00\"") == true)

        // --merge: records merge by id; the report says what changed.
        let merged = CLIRun(["convert", root + "/Examples/reminders-backup.json", "--to", "retiretime-backup", "-o", target, "--merge",
                             "--option", "exported-at=2025-12-02T00:00:00+08:00"])
        #expect(merged.status == 0, "\(merged.error)")
        #expect(merged.error.contains("[backup.merged]"))
        #expect(merged.error.contains("Merged: 6 added"))  // four days and their two lists as categories
        let days = try #require(read(target))
        #expect(days.contains("\"mom-birthday\"") && days.contains("\"milk\""))
    }

    /// The directory the test binary and the package's executables were built into.
    static var productsDirectory: String {
        let candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path,
                          URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../.build/debug").standardized.path]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0 + "/almanac-codec-android") } ?? candidates[0]
    }

    /// 知习's kinds of task and review methods are words in the reader's language, not enum cases,
    /// and come back from any language; what a region-style table cannot hold is named.
    @Test func zhiXiTasksInTheReadersWords() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path
        let directory = temporaryDirectory()
        let simplified = CLIRun(["convert", root + "/Examples/zhixi-backup.json", "--to", "csv", "--locale", "zh-Hans", "-o", directory + "/zx.csv"])
        let table = try String(contentsOfFile: directory + "/zx.csv", encoding: .utf8)
        #expect(table.contains(",复习、间隔重复,") && table.contains(",复习、费曼学习法,") && table.contains(",学习,"), "\(table)")
        #expect(!table.contains("spacedRepetition") && !table.contains("review"))
        // Left out by design, in the one line that says so (--verbose names the items).
        let leftOut = simplified.error.split(separator: "\n").filter { $0.hasSuffix("[convert.left-out]") }
        #expect(leftOut.count == 1 && leftOut[0].contains("intervalDays") && leftOut[0].contains("repetitions"), "\(simplified.error)")
        let verbose = CLIRun(["convert", root + "/Examples/zhixi-backup.json", "--to", "csv", "--locale", "zh-Hans", "-o", directory + "/zx-v.csv", "--verbose"])
        #expect(verbose.error.contains("intervalDays (only the apps use it) of “洛必达法则”"))
        let english = CLIRun(["convert", root + "/Examples/zhixi-backup.json", "--to", "csv", "--locale", "en-US"])
        #expect(english.output.contains("Review") && english.output.contains("Spaced repetition"), "\(english.output)")
        let calendar = CLIRun(["convert", root + "/Examples/zhixi-backup.json", "--to", "ics", "--locale", "zh-TW"])
        #expect(calendar.output.contains("CATEGORIES:複習,間隔重複"))
        // RFC 5545: a VTODO has DUE or DURATION, never both; the minutes of study come back.
        for todo in calendar.output.components(separatedBy: "BEGIN:VTODO").dropFirst() {
            #expect(!(todo.contains("\r\nDUE") && todo.contains("\r\nDURATION:")), "\(todo)")
        }
        #expect(calendar.output.contains("X-ALMANAC-ESTIMATED-DURATION:PT45M"))
        try Data(calendar.output.utf8).write(to: URL(fileURLWithPath: directory + "/zx.ics"))
        let fromCalendar = CLIRun(["convert", directory + "/zx.ics", "--to", "zhixi-backup"])
        let restored = try JSONSerialization.jsonObject(with: Data(fromCalendar.output.utf8)) as? [String: Any]
        #expect((restored?["studyTasks"] as? [[String: Any]])?.compactMap { $0["minutes"] as? Int } == [45, 30])
        let spaced = (restored?["reviewTasks"] as? [[String: Any]])?.first
        #expect(spaced?["intervalDays"] as? Int == 6 && spaced?["repetitions"] as? Int == 3 && spaced?["method"] as? String == "spacedRepetition")

        // Back: the methods from the words (any language), a review without its item id kept as a
        // review of the item with its title.
        _ = CLIRun(["convert", directory + "/zx.csv", "--to", "zhixi-backup", "-o", directory + "/back.json"])
        let back = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/back.json"))) as? [String: Any]
        let reviews = try #require(back?["reviewTasks"] as? [[String: Any]])
        #expect(reviews.compactMap { $0["method"] as? String } == ["spacedRepetition", "feynman", "weakPoint"])
        let studies = try #require(back?["studyTasks"] as? [[String: Any]])
        #expect(studies.count == 2)
    }

    /// Reminders' times as people in each region read them, and back: 6:00 PM in New York (a plain
    /// space, which spreadsheets read as a time), 下午6:00 in Taipei, 18:00 in Shanghai.
    @Test(arguments: [("en-US", "6:00 PM"), ("zh-TW", "下午6:00"), ("zh-CN", "18:00")])
    func reminderTimesForTheRegion(locale: String, time: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path
        let directory = temporaryDirectory()
        _ = CLIRun(["convert", root + "/Examples/reminders-backup.json", "--to", "csv", "--locale", locale, "-o", directory + "/r.csv"])
        let table = try String(contentsOfFile: directory + "/r.csv", encoding: .utf8)
        #expect(table.contains("," + time + ","), "\(table)")
        #expect(!table.unicodeScalars.contains("\u{202F}"))
        let back = CLIRun(["convert", directory + "/r.csv", "--to", "reminders-backup", "--locale", locale])
        #expect(back.output.contains("\"time\": \"18:00\""), "\(back.output)")
        #expect(back.output.contains("\"time\": \"20:30\""))
    }

    /// Retire Time's rules for the same `today=`: repeating days count down to the next occurrence,
    /// a past one-off day counts up (正计时: 2024-01-01 → 2025-11-20 is 689 days), the day itself is
    /// today; a reminder's notification shows the day's name and its notes (FR6).
    @Test func retireTimeCountsAsTheAppDoes() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path
        let example = root + "/Examples/retiretime-backup.json"
        let rows = CLIRun(["convert", example, "--to", "csv", "--locale", "zh-Hans", "--option", "relative=yes", "--option", "today=2025-11-20"]).output
        #expect(rows.contains("媽媽生日,2025/10/6,八月十五,") && rows.contains(",还有 309 天\r\n"))  // 中秋 2026-09-25
        #expect(rows.contains("戒菸第一天,2024/1/1,,,正计时,,生活,已經堅持了，繼續加油,已经 689 天\r\n"))
        #expect(rows.contains("退休,2046/7/1,,,倒计时,,工作,,\"还有 7,528 天\"\r\n"))
        #expect(rows.contains("生活,\"帳號 012-345678，每月 NT$32,000\",还有 15 天\r\n"))  // monthly on the 5th
        let dueDay = CLIRun(["convert", example, "--to", "csv", "--locale", "zh-TW", "--option", "relative=yes", "--option", "today=2025-12-05"]).output
        #expect(dueDay.contains("\",就是今天\r\n"))
        let calendar = CLIRun(["convert", example, "--to", "ics"]).output
        #expect(calendar.contains("BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT15H\r\nDESCRIPTION:媽媽生日\\n記得提前訂蛋糕\r\n"))
    }

    /// JellySave's snapshots sheet (需求1.3–1.4): the change month to month and its percentage, each
    /// kind of account's total; and the sheet reads back into snapshots. The accounts sheet has the
    /// opening balance (初始餘額).
    @Test func jellySaveSnapshotsAndOpeningBalances() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path
        let directory = temporaryDirectory()
        let sheet = CLIRun(["convert", root + "/Examples/jellysave-backup.json", "--to", "csv", "--locale", "zh-TW", "--option", "sheet=snapshots",
                            "-o", directory + "/snapshots.csv"])
        #expect(sheet.status == 0, "\(sheet.error)")
        let text = try String(contentsOfFile: directory + "/snapshots.csv", encoding: .utf8)
        #expect(text.contains("日期,幣別,總資產,變化,變化率,現金,股票,外幣,保險,加密貨幣\r\n"))
        #expect(text.contains("2025/7/31,TWD,1950500,38500,2.0%,,,,,\r\n"))
        #expect(text.contains("2025/11/20,TWD,2098756.5,37356.5,1.8%,1237767.5,456789,100500,280000,23700\r\n"))
        let back = CLIRun(["convert", directory + "/snapshots.csv", "--to", "jellysave-backup", "--locale", "zh-TW"])
        #expect(back.status == 0, "\(back.error)")
        let backup = try JSONSerialization.jsonObject(with: Data(back.output.utf8)) as? [String: Any]
        let snapshots = try #require(backup?["snapshots"] as? [[String: Any]])
        #expect(snapshots.count == 6 && snapshots.last?["total"] as? String == "2098756.5")
        #expect((snapshots.last?["byKind"] as? [String: String])?["stock"] == "456789")
        // A kind's cell that is no amount is named, not dropped silently.
        try Data(text.replacingOccurrences(of: ",456789,", with: ",四十萬,").utf8).write(to: URL(fileURLWithPath: directory + "/bad.csv"))
        let bad = CLIRun(["convert", directory + "/bad.csv", "--to", "jellysave-backup", "--locale", "zh-TW"])
        #expect(bad.error.contains("column \"股票\": \"四十萬\" is not an amount"), "\(bad.error)")
        let accounts = CLIRun(["convert", root + "/Examples/jellysave-backup.json", "--to", "csv", "--locale", "en-US"])
        #expect(accounts.output.contains("Account,Type,Currency,Balance,Opening Balance,Updated\r\n台新活存,Cash,TWD,1234567.5,1000000,"))
        #expect(accounts.error.contains("cannot hold theme"))
    }

    /// JellySave's accounts as a person reads them (money=display, BTC written with its code) come
    /// back into a JellySave backup without --via: the format says its records go through a ledger.
    @Test func jellySaveAccountsComeBackFromTheirTable() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path
        let directory = temporaryDirectory()
        _ = CLIRun(["convert", root + "/Examples/jellysave-backup.json", "--to", "csv", "--locale", "zh-TW", "--option", "money=display",
                    "-o", directory + "/accounts.csv"])
        #expect(try String(contentsOfFile: directory + "/accounts.csv", encoding: .utf8).contains("BTC 0.0123"))
        let back = CLIRun(["convert", directory + "/accounts.csv", "--to", "jellysave-backup", "--locale", "zh-TW"])
        #expect(back.status == 0, "\(back.error)")
        #expect(!back.error.contains("not an amount"), "\(back.error)")
        let backup = try JSONSerialization.jsonObject(with: Data(back.output.utf8)) as? [String: Any]
        let accounts = try #require(backup?["accounts"] as? [[String: Any]])
        let bitcoin = try #require(accounts.first { $0["currency"] as? String == "BTC" })
        #expect(bitcoin["balance"] as? String == "0.0123" && bitcoin["kind"] as? String == "crypto")
        #expect(accounts.count == 6)
        // A crypto code of four letters is read from a table and written to a backup that reads back.
        try Data("帳戶,類型,幣別,餘額\n穩定幣,加密貨幣,,USDT 1200\n".utf8).write(to: URL(fileURLWithPath: directory + "/usdt.csv"))
        let usdt = CLIRun(["convert", directory + "/usdt.csv", "--to", "jellysave-backup", "--locale", "zh-TW", "-o", directory + "/usdt.json"])
        #expect(usdt.status == 0, "\(usdt.error)")
        let reread = CLIRun(["inspect", directory + "/usdt.json"])
        #expect(reread.status == 0 && !reread.output.contains("not-a-currency"), "\(reread.output)")
    }

    /// Bash completion, as the generated script gives it: file names where a command takes files
    /// (`almanac inspect fam<TAB>`), and the values of options that have a set of them (#71: it
    /// completed neither).
    @Test(.enabled(if: ExternalCommand.runs(["bash", "--version"]))) func bashCompletesFilesAndOptionValues() throws {
        let directory = temporaryDirectory()
        let script = directory + "/almanac.bash"
        try Data(CLIRun(["--generate-completion-script", "bash"]).output.utf8).write(to: URL(fileURLWithPath: script))
        try Data().write(to: URL(fileURLWithPath: directory + "/family-calendar.ics"))
        let driver = """
            cd "$1" && source "$2"
            complete_line() {
                COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
                _almanac almanac "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
                echo "$*: ${COMPREPLY[*]}"
            }
            complete_line almanac inspect fam
            complete_line almanac convert x.ics --to xcs
            complete_line almanac convert x.ics --option sty
            complete_line almanac audit App --format sa
            complete_line almanac audit App --explain mainland
            complete_line almanac locale show zh-T
            complete_line almanac expand x.ics --lang zh-Hant
            """
        let run = ExternalCommand.run(["bash", "-c", driver, "bash", directory, script])
        #expect(run.status == 0, "\(run.output)")
        for expected in ["almanac inspect fam: family-calendar.ics", "--to xcs: xcstrings", "--option sty: style=", "--format sa: sarif",
                         "--explain mainland: mainland-vocabulary", "locale show zh-T: zh-TW", "--lang zh-Hant: zh-Hant"] {
            #expect(run.output.contains(expected), "\(expected) in \(run.output)")
        }
    }

    /// The help, and so the man page made from it, names every exit status the tool gives (#71:
    /// it stopped at 4, without 130).
    @Test func theHelpNamesEveryExitStatus() {
        // The help wraps its lines: read it as one.
        let help = CLIRun(["--help"]).output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let line = help.components(separatedBy: "Exit status:").dropFirst().first?.components(separatedBy: "Messages").first ?? ""
        for code in AlmanacExitCode.allCases {
            #expect(line.contains(" \(code.rawValue) "), "\(code) in \(line)")
        }
    }

    /// An option a command does not have is named before anything else is checked, with the
    /// nearest it has, or the format option it looks like (#71: `--styel iso` answered "Several
    /// inputs need -o DIRECTORY", taking `iso` for an input).
    @Test func unknownOptionsAreNamedWithTheNearest() throws {
        let calendar = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Examples/family-calendar.ics").standardized.path
        let styel = CLIRun(["convert", calendar, "--to", "csv", "--styel", "iso"])
        #expect(styel.status == 2)
        #expect(styel.error.contains("Unknown option '--styel'. Did you mean the format's option, '--option style=iso'?"), "\(styel.error)")
        #expect(styel.error.contains("Usage: almanac convert"))
        #expect(!styel.error.contains("Several inputs"))
        let strict = CLIRun(["convert", calendar, "--to", "csv", "--strct"])
        #expect(strict.status == 2 && strict.error.contains("Did you mean '--strict'?"), "\(strict.error)")
        let audit = CLIRun(["audit", calendar, "--formt", "json"])
        #expect(audit.status == 2 && audit.error.contains("Did you mean '--format'?"), "\(audit.error)")
        // In the user's language; options after `--` are inputs, and `--fix=CHECKS` is known.
        #expect(CLIRun(["convert", calendar, "--to", "csv", "--strct", "--lang", "zh-Hant"]).error.contains("未知選項「--strct」"))
        #expect(!CLIRun(["convert", "--to", "csv", "--", "--strct"]).error.contains("Unknown option"))
        #expect(!CLIRun(["audit", calendar, "--fix=ellipsis", "--dry-run"]).error.contains("Unknown option"))
    }

    /// The accessor generator is a command like `almanac`: --help, unknown options refused, and its
    /// settings from a configuration file (as the StringAccessors plugin passes it), options winning.
    @Test func stringsGeneratorReadsItsConfiguration() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path
        let tool = Self.productsDirectory + "/almanac-strings-gen"
        let directory = temporaryDirectory()
        let catalogs = ["en", "zh-Hans", "zh-Hant"].flatMap { ["\(root)/Locales/ZhiXi/\($0).lproj/ZhiXi.strings"] }
        #expect(ExternalCommand.run([tool, "--help"]).output.contains("--enum-name"))
        let unknown = ExternalCommand.run([tool, "--output", directory + "/x.swift", "--enum", "ZX"] + catalogs)
        #expect(unknown.status == 64 && unknown.output.contains("Unknown option '--enum'"), "\(unknown)")

        try Data(#"{"enumName": "ZXStrings", "sourceLanguage": "zh-Hans", "tables": ["ZhiXi"]}"#.utf8)
            .write(to: URL(fileURLWithPath: directory + "/almanac-strings.json"))
        let generated = ExternalCommand.run([tool, "--output", directory + "/ZX.swift", "--config", directory + "/almanac-strings.json"] + catalogs)
        #expect(generated.status == 0, "\(generated.output)")
        let swift = try String(contentsOfFile: directory + "/ZX.swift", encoding: .utf8)
        #expect(swift.contains("public enum ZXStrings {"))
        // The doc comments are the development language's text.
        let zhHans = try String(contentsOfFile: "\(root)/Locales/ZhiXi/zh-Hans.lproj/ZhiXi.strings", encoding: .utf8)
        let firstValue = try #require(zhHans.split(separator: "\n").first { $0.hasPrefix("\"") }?.split(separator: "\"").dropFirst(2).first)
        #expect(swift.contains("/// “\(firstValue)”"))
        // An option given wins over the file.
        _ = ExternalCommand.run([tool, "--output", directory + "/L.swift", "--config", directory + "/almanac-strings.json", "--enum-name", "Words"] + catalogs)
        #expect(try String(contentsOfFile: directory + "/L.swift", encoding: .utf8).contains("public enum Words {"))

        // A broken file or a table that is not there: a located error, nothing written.
        try Data(#"{"enumName": 3}"#.utf8).write(to: URL(fileURLWithPath: directory + "/bad.json"))
        let bad = ExternalCommand.run([tool, "--output", directory + "/bad.swift", "--config", directory + "/bad.json"] + catalogs)
        #expect(bad.status == 1 && bad.output.contains(directory + "/bad.json: error: not a configuration file: enumName"), "\(bad.output)")
        let missing = ExternalCommand.run([tool, "--output", directory + "/m.swift", "--table", "Localizable"] + catalogs)
        #expect(missing.status == 1 && missing.output.contains("no catalog of the table Localizable"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/bad.swift") && !FileManager.default.fileExists(atPath: directory + "/m.swift"))
    }

    @Test func codecPluginsOnThePluginPath() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path
        let plugins = temporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: plugins + "/almanac-codec-android",
                                                   withDestinationPath: Self.productsDirectory + "/almanac-codec-android")
        let environment = ["ALMANAC_PLUGIN_PATH": plugins]
        let formats = CLIRun(["formats"], environment: environment)
        #expect(formats.output.contains("android-strings"), "\(formats.output)\(formats.error)")
        // Shared → Android → Shared, through the plugin.
        let directory = temporaryDirectory()
        let xml = directory + "/values-zh-rTW/strings.xml"
        try FileManager.default.createDirectory(atPath: directory + "/values-zh-rTW", withIntermediateDirectories: true)
        let out = CLIRun(["convert", root + "/Locales/Shared", "--to", "android-strings", "--locale", "zh-Hant", "-o", xml], environment: environment)
        #expect(out.status == 0, "\(out.error)")
        #expect(read(xml)?.contains("<string name=\"action.save\">儲存</string>") == true)
        let back = CLIRun(["convert", xml, "--from", "android-strings", "--to", "strings"], environment: environment)
        #expect(back.status == 0, "\(back.error)")
        #expect(back.output.contains("/* Button: save changes */\n\"action.save\" = \"儲存\";"))
    }

    /// File names are passed to a plugin as arguments, never through a shell: a name that is a
    /// shell command stays a name.
    @Test func hostileFileNamesReachPluginsAsPlainArguments() throws {
        let plugins = temporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: plugins + "/almanac-codec-android",
                                                   withDestinationPath: Self.productsDirectory + "/almanac-codec-android")
        let directory = temporaryDirectory()
        let marker = "almanac-pwned-\(UInt32.random(in: 0...UInt32.max))"
        let name = directory + "/strings $(touch \(marker)); `touch \(marker)` | touch \(marker).xml"
        try Data("<resources><string name=\"a\">A</string></resources>\n".utf8).write(to: URL(fileURLWithPath: name))
        let run = CLIRun(["convert", name, "--from", "android-strings", "--to", "strings"], environment: ["ALMANAC_PLUGIN_PATH": plugins])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("\"a\" = \"A\";"))
        for place in [directory, FileManager.default.currentDirectoryPath, NSTemporaryDirectory()] {
            #expect(!FileManager.default.fileExists(atPath: place + "/" + marker))
        }
    }

    @Test func brokenPluginsAreReportedAndTheRestGoesOn() throws {
        let plugins = temporaryDirectory()
        func script(_ name: String, _ body: String) throws {
            let path = plugins + "/almanac-codec-" + name
            try Data(("#!/bin/sh\n" + body).utf8).write(to: URL(fileURLWithPath: path))
            chmod(path, 0o755)
        }
        let describe = #"if [ "$1" = "--describe" ]; then printf '{"protocol": 1, "codec": {"id": "%s", "name": "%s", "summary": "test", "aliases": [], "extensions": [".%s"], "mediaTypes": [], "model": "catalog", "canRead": true, "canWrite": true, "options": [], "examples": []}}' NAME NAME NAME; exit 0; fi"#
        try script("hang", describe.replacingOccurrences(of: "NAME", with: "hang") + "\nsleep 30\n")
        try script("crash", describe.replacingOccurrences(of: "NAME", with: "crash") + "\necho 'segmentation fault' >&2; exit 139\n")
        try script("garbage", describe.replacingOccurrences(of: "NAME", with: "garbage") + "\necho 'this is not json'\n")
        try script("mute", "sleep 30\n")   // never describes itself
        let directory = temporaryDirectory()
        for name in ["hang", "crash", "garbage"] { try Data("x".utf8).write(to: URL(fileURLWithPath: "\(directory)/\(name)-input.\(name)")) }
        let environment = ["ALMANAC_PLUGIN_PATH": plugins, "ALMANAC_PLUGIN_TIMEOUT": "1"]
        let started = Date()
        let run = CLIRun(["convert", "\(directory)/hang-input.hang", "\(directory)/crash-input.crash", "\(directory)/garbage-input.garbage",
                          "--to", "catalog-json", "-o", directory + "/out"], environment: environment)
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(run.status == 3)
        #expect(run.error.contains("[plugin.timeout]"))
        #expect(run.error.contains("almanac-codec-crash") && run.error.contains("139"))
        #expect(run.error.contains("[plugin.bad-output]"))
        let formats = CLIRun(["formats"], environment: environment)
        #expect(formats.error.contains("almanac-codec-mute"))   // reported, and the list still printed
        #expect(formats.output.contains("garbage"))
    }

    /// A plugin brings its own messages with its description; its diagnostics are shown in the
    /// user's language, with their arguments.
    @Test func pluginsBringTheirOwnMessages() throws {
        let plugins = temporaryDirectory()
        let path = plugins + "/almanac-codec-notes"
        let description = #"{"protocol": 1, "codec": {"id": "notes", "name": "Notes", "summary": "test", "aliases": [], "extensions": [".notes"], "mediaTypes": [], "model": "table", "canRead": true, "canWrite": false, "options": [], "examples": []}, "messages": {"en": {"notes.odd": "Line %@ looks odd."}, "zh-Hant": {"notes.odd": "第 %@ 行看起來不對。"}}}"#
        let decoded = #"{"protocol": 1, "document": {"model": "table", "version": 1, "columns": ["a"], "rows": [["1"]]}, "diagnostics": [{"severity": "warning", "code": "notes.odd", "message": "Line 7 looks odd.", "arguments": ["7"], "line": 7}]}"#
        let script = ["#!/bin/sh", "if [ \"$1\" = \"--describe\" ]; then echo '\(description)'; exit 0; fi", "cat >/dev/null", "echo '\(decoded)'"]
        try Data((script.joined(separator: "\n") + "\n").utf8)
            .write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
        let input = temporaryDirectory() + "/a.notes"
        try Data("x".utf8).write(to: URL(fileURLWithPath: input))
        let environment = ["ALMANAC_PLUGIN_PATH": plugins]
        let chinese = CLIRun(["convert", input, "--to", "csv"], environment: environment, language: .traditionalChinese)
        #expect(chinese.status == 0)
        #expect(chinese.error.contains("a.notes:7: 警告: 第 7 行看起來不對。 [notes.odd]"), "\(chinese.error)")
        let english = CLIRun(["convert", input, "--to", "csv"], environment: environment)
        #expect(english.error.contains("Line 7 looks odd. [notes.odd]"))
    }

    @Test func helpAndVersion() {
        let help = CLIRun(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("Exit status: 0 success"))
        let chineseHelp = CLIRun(["convert", "--help", "--lang", "zh-Hans"])
        #expect(chineseHelp.output.contains("把文件从一种格式转换为另一种格式"))
        #expect(CLIRun(["--version"]).output.contains(AlmanacVersion.current))
    }
}

/// Every codec the CLI ships passes the conformance checks.
@Suite struct BuiltInCodecConformanceTests {
    @Test func everyBuiltInCodecConforms() {
        for codec in BuiltInFormats.codecs {
            #expect(CodecConformance.problems(of: codec) == [], "\(codec.format.id)")
        }
    }
}

extension ModelJSONCodec {
    static let emptyAgenda = #"{"model": "agenda", "version": 1, "items": [], "carried": []}"#
}

@Suite struct ExpandCommandTests {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/family-calendar.ics").path

    @Test func listsOccurrencesInTheReadersLanguage() {
        let run = CLIRun(["expand", Self.example, "--from", "2025-09-01", "--until", "2026-03-01", "--lang", "zh-Hant"],
                         environment: ["TZ": "Asia/Taipei"])
        #expect(run.status == 0)
        #expect(run.output.contains("2025年10月6日 週一"))
        #expect(run.output.contains("媽媽生日（八月十五）"))
        #expect(!run.output.contains("2025年11月5日"))  // an EXDATE
        #expect(run.output.contains("上午9:00  打電話給阿嬤"))  // Google's UTC time, shown in Taipei
    }

    /// With no --time-zone a floating time is read in the machine's zone (TZ, then
    /// /etc/localtime); neither --locale nor --lang moves it.
    @Test func floatingTimesAreReadInTheMachinesZone() throws {
        let directory = temporaryDirectory()
        let file = directory + "/floating.ics"
        try Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:f\r\nDTSTAMP:20250101T000000Z\r\nDTSTART:20251001T090000\r\nSUMMARY:Floating\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
            .write(to: URL(fileURLWithPath: file))
        func start(_ arguments: [String], tz: String) throws -> String? {
            let run = CLIRun(["expand", file, "--from", "2025-09-01", "--until", "2025-11-01", "--json"] + arguments, environment: ["TZ": tz])
            let rows = try JSONSerialization.jsonObject(with: Data(run.bytes)) as? [[String: Any]]
            return rows?.first?["startUTC"] as? String
        }
        #expect(try start([], tz: "UTC") == "2025-10-01T09:00:00Z")
        #expect(try start([], tz: "Asia/Taipei") == "2025-10-01T01:00:00Z")
        #expect(try start(["--locale", "en-US", "--lang", "en"], tz: "Asia/Taipei") == "2025-10-01T01:00:00Z")
        #expect(try start(["--locale", "zh-TW"], tz: ":America/New_York") == "2025-10-01T13:00:00Z")
        #expect(try start(["--time-zone", "Europe/London"], tz: "Asia/Taipei") == "2025-10-01T08:00:00Z")
        // locale show previews a locale in the machine's zone too.
        let preview = CLIRun(["locale", "show", "zh-TW", "--json"], environment: ["TZ": "America/New_York"])
        let shown = try JSONSerialization.jsonObject(with: Data(preview.bytes)) as? [String: Any]
        #expect(shown?["timeZone"] as? String == "America/New_York")
    }

    /// expand reads a calendar as a stream and keeps only occurrences: an override before its
    /// event, after it (Google's order, a second pass), and a VTIMEZONE after the events that use
    /// it (read with the definition, as when the whole file is read first) give what the whole
    /// calendar gives.
    @Test func streamedOrdersGiveTheSameOccurrences() throws {
        let directory = temporaryDirectory()
        let zone = """
            BEGIN:VTIMEZONE\r\nTZID:Office\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:+0300\r\nTZOFFSETTO:+0300\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n
            """
        let master = "BEGIN:VEVENT\r\nUID:m\r\nDTSTAMP:20250101T000000Z\r\nDTSTART;TZID=Office:20250106T090000\r\nRRULE:FREQ=WEEKLY;COUNT=3\r\nSUMMARY:Standup\r\nEND:VEVENT\r\n"
        let moved = "BEGIN:VEVENT\r\nUID:m\r\nDTSTAMP:20250101T000000Z\r\nRECURRENCE-ID;TZID=Office:20250113T090000\r\nDTSTART;TZID=Office:20250114T100000\r\nSUMMARY:Standup (moved)\r\nEND:VEVENT\r\n"
        let head = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n"
        let tail = "END:VCALENDAR\r\n"
        var outputs: [String: [[String: String]]] = [:]
        for (name, body) in [("zone-first-override-after", zone + master + moved), ("override-first", zone + moved + master),
                             ("zone-last", master + moved + zone)] {
            let file = directory + "/\(name).ics"
            try Data((head + body + tail).utf8).write(to: URL(fileURLWithPath: file))
            let run = CLIRun(["expand", file, "--from", "2025-01-01", "--until", "2025-02-01", "--json", "--time-zone", "UTC"])
            #expect(run.status == 0, "\(name): \(run.error)")
            #expect(run.error.isEmpty, "\(name): \(run.error)")
            let rows = try JSONSerialization.jsonObject(with: Data(run.bytes)) as? [[String: Any]] ?? []
            outputs[name] = rows.map { ["title": $0["title"] as? String ?? "", "startUTC": $0["startUTC"] as? String ?? ""] }
        }
        let expected = [["title": "Standup", "startUTC": "2025-01-06T06:00:00Z"],
                        ["title": "Standup (moved)", "startUTC": "2025-01-14T07:00:00Z"],
                        ["title": "Standup", "startUTC": "2025-01-20T06:00:00Z"]]
        for (name, rows) in outputs { #expect(rows == expected, "\(name)") }
    }

    /// Revisions of one event (Thunderbird's and Exchange's exports keep them): the streamed
    /// expansion takes the newest, as the whole-calendar one does, in any order of the copies,
    /// with overrides before or after them, and says which item was written more than once.
    @Test func streamedRevisionsTakeTheNewest() throws {
        let directory = temporaryDirectory()
        func event(_ sequence: Int, _ day: Int, _ title: String) -> String {
            "BEGIN:VEVENT\r\nUID:r\r\nSEQUENCE:\(sequence)\r\nDTSTAMP:20250101T000000Z\r\nDTSTART:202501\(String(format: "%02d", day))T090000Z\r\n"
                + "RRULE:FREQ=WEEKLY;COUNT=3\r\nSUMMARY:\(title)\r\nEND:VEVENT\r\n"
        }
        func moved(_ sequence: Int, _ hour: Int) -> String {
            "BEGIN:VEVENT\r\nUID:r\r\nSEQUENCE:\(sequence)\r\nDTSTAMP:20250101T000000Z\r\nRECURRENCE-ID:20250114T090000Z\r\n"
                + "DTSTART:20250114T\(hour)0000Z\r\nSUMMARY:moved \(sequence)\r\nEND:VEVENT\r\n"
        }
        let other = "BEGIN:VEVENT\r\nUID:other\r\nDTSTAMP:20250101T000000Z\r\nDTSTART:20250110T120000Z\r\nSUMMARY:Other\r\nEND:VEVENT\r\n"
        let (v0, v1, v2) = (event(0, 6, "v0"), event(1, 8, "v1"), event(2, 7, "v2"))
        let orders = [("in-order", v0 + v1 + v2 + moved(2, 11) + moved(3, 13)), ("newest-first", v2 + other + v0 + v1 + moved(3, 13) + moved(2, 11)),
                      ("overrides-first", moved(2, 11) + moved(3, 13) + v1 + v2 + other + v0)]
        let expected = [["title": "v2", "startUTC": "2025-01-07T09:00:00Z"], ["title": "moved 3", "startUTC": "2025-01-14T13:00:00Z"],
                        ["title": "v2", "startUTC": "2025-01-21T09:00:00Z"]]
        for (name, body) in orders {
            let file = directory + "/\(name).ics"
            try Data(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n" + body + "END:VCALENDAR\r\n").utf8).write(to: URL(fileURLWithPath: file))
            let run = CLIRun(["expand", file, "--from", "2025-01-01", "--until", "2025-02-01", "--json", "--time-zone", "UTC"])
            #expect(run.status == 0, "\(name): \(run.error)")
            #expect(run.error.components(separatedBy: "[ics.revisions]").count == 3, "\(name): \(run.error)")
            let rows = try JSONSerialization.jsonObject(with: Data(run.bytes)) as? [[String: Any]] ?? []
            let series = rows.filter { $0["uid"] as? String == "r" }.map { ["title": $0["title"] as? String ?? "", "startUTC": $0["startUTC"] as? String ?? ""] }
            #expect(series == expected, "\(name)")
        }
    }

    /// Occurrences that start together come in the order of their UIDs, as `String` orders them:
    /// UIDs that differ in their first bytes, share a long prefix (Outlook's), are prefixes of one
    /// another, or are not ASCII (one in decomposed form, which `String` compares as composed).
    @Test func tiesAreInUIDOrder() throws {
        let uids = ["b", "a", "040000008200E00074C5B7101A82E008-2", "040000008200E00074C5B7101A82E008-10", "040000008200E000",
                    "abc\u{E9}", "abce\u{301}x", "abcf", "Z", "日曆-1", "bench-10@example.org", "bench-9@example.org"]
        var body = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n"
        for uid in uids {
            body += "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20250101T000000Z\r\nDTSTART;VALUE=DATE:20250301\r\nSUMMARY:\(uid)\r\nEND:VEVENT\r\n"
        }
        body += "END:VCALENDAR\r\n"
        let file = temporaryDirectory() + "/ties.ics"
        try Data(body.utf8).write(to: URL(fileURLWithPath: file))
        let run = CLIRun(["expand", file, "--from", "2025-03-01", "--until", "2025-03-02", "--json"])
        #expect(run.status == 0, "\(run.error)")
        let rows = try JSONSerialization.jsonObject(with: Data(run.bytes)) as? [[String: Any]] ?? []
        #expect(rows.map { $0["uid"] as? String ?? "" } == uids.sorted())
    }

    @Test func jsonAndErrors() throws {
        let run = CLIRun(["expand", Self.example, "--from", "2026-02-01", "--until", "2026-03-01", "--json"])
        let rows = try JSONSerialization.jsonObject(with: Data(run.bytes)) as! [[String: Any]]
        #expect(rows.map { $0["start"] as! String } == ["2026-02-05T09:00:00[Taipei Standard Time]", "2026-02-16"])
        #expect(rows[1]["lunar"] as? String == "臘月廿九")
        #expect(CLIRun(["expand", Self.example, "--from", "2026-03-01", "--until", "2026-02-01"]).status == 2)
        #expect(CLIRun(["expand", "/no/such.ics"]).status == 3)
    }
}
