import AlmanacAudit
import Foundation
import Testing

/// `almanac audit --fix` as a person types it.
@Suite struct AuditFixCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../AlmanacAuditTests/Fixtures/Fix").standardized.path

    func copy() throws -> String {
        let work = temporaryDirectory()
        try FileManager.default.copyItem(atPath: Self.fixtures + "/Tree", toPath: work + "/Tree")
        return work
    }

    func snapshot(_ folder: String) -> [String: Data] {
        var result: [String: Data] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: folder)! {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[path] = FileManager.default.contents(atPath: folder + "/" + path)
            }
        }
        return result
    }

    /// `--dry-run` prints a unified diff that `patch` applies, and writes nothing.
    @Test func dryRunPrintsADiffAndWritesNothing() throws {
        let work = try copy()
        let before = snapshot(work)
        let every = "--fix=" + AuditFixer.checks.map(\.id).joined(separator: ",")
        let run = CLIRun(["audit", work + "/Tree", every, "--dry-run"])
        #expect(snapshot(work) == before)
        #expect(run.output.contains("--- a\(work)/Tree/zh-Hans.lproj/Localizable.strings\n+++ b\(work)/Tree/"))
        #expect(run.output.contains("\n-\"save.failed\" = \"保存失败, 请重试!!\";\n"))
        #expect(run.output.contains("\n+\"save.failed\" = \"保存失败，请重试！！\";\n"))
        #expect(run.error.contains("Would fix"))
        // No file holds a temporary left behind.
        #expect(!snapshot(work).keys.contains { $0.contains(".tmp") })
        // What the diff says is what --fix writes, the UTF-16 file's too (its diff holds its bytes).
        let fixed = try copy()
        _ = CLIRun(["audit", fixed + "/Tree", every])
        #expect(try Self.patch(run.bytes) == 0)
        for (path, data) in snapshot(work + "/Tree") {
            #expect(data == FileManager.default.contents(atPath: fixed + "/Tree/" + path), "\(path)")
        }
    }

    /// A fix `--fix` applies only when named (`halfwidth-punctuation`, wrong on fresh-16) is left
    /// in the file and shown as a suggestion; named, it is made.
    @Test func suggestedFixesAreMadeOnlyWhenNamed() throws {
        let work = try copy()
        let file = work + "/Tree/zh-Hans.lproj/Localizable.strings"
        let run = CLIRun(["audit", work + "/Tree", "--fix"])
        let text = String(decoding: FileManager.default.contents(atPath: file) ?? Data(), as: UTF8.self)
        #expect(text.contains("\"save.failed\" = \"保存失败, 请重试!!\";"))
        #expect(run.output.contains("suggested: 保存失败，请重试！！"), "\(run.output)")
        #expect(run.error.contains("[cli.audit.suggested]") && run.error.contains("halfwidth-punctuation"), "\(run.error)")
        let json = CLIRun(["audit", work + "/Tree", "--format", "json"])
        #expect(json.output.contains("\"suggestion\" : \"保存失败，请重试！！\""), "\(json.output)")
        _ = CLIRun(["audit", work + "/Tree", "--fix=halfwidth-punctuation"])
        let named = String(decoding: FileManager.default.contents(atPath: file) ?? Data(), as: UTF8.self)
        #expect(named.contains("\"save.failed\" = \"保存失败，请重试！！\";"))
    }

    /// `patch -p1` from `/` over `diff`; its exit status.
    static func patch(_ diff: [UInt8]) throws -> Int32 {
        let patch = Process()
        patch.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        patch.arguments = ["patch", "-s", "-p1", "-d", "/"]
        let input = Pipe()
        patch.standardInput = input
        try patch.run()
        input.fileHandleForWriting.write(Data(diff))
        input.fileHandleForWriting.closeFile()
        patch.waitUntilExit()
        return patch.terminationStatus
    }

    /// Files as Windows editors and other tools leave them: CRLF line ends, UTF-16, no line end at
    /// the end. The dry run's diff applies to each with `patch -p1` and gives what `--fix` writes;
    /// what the fix adds to a CRLF file (a draft and its comment) ends its lines in CRLF too.
    @Test func dryRunDiffsApplyToCRLFAndUTF16Files() throws {
        let work = temporaryDirectory() + "/App"
        let files: [(String, [UInt8])] = [
            ("en.lproj/Localizable.strings", Array("\"save\" = \"Save\";\r\n\"open\" = \"Open...\";\r\n".utf8)),
            ("zh-Hans.lproj/Localizable.strings", Array("\"save\" = \"保存\";\r\n\"open\" = \"打开...\";".utf8)),
            ("zh-Hant.lproj/Localizable.strings", [0xFF, 0xFE] + Array("\"save\" = \"儲存\";\n\"open\" = \"打開...\";\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
            ("en.lproj/More.strings", Array("\"done\" = \"Done...\";\r\n".utf8)),
            ("zh-Hans.lproj/More.strings", Array("\"done\" = \"完成\";\r\n".utf8)),
            ("zh-Hant.lproj/More.strings", Array("\"other\" = \"其他\";\r\n".utf8)),
        ]
        for (path, bytes) in files {
            try FileManager.default.createDirectory(atPath: work + "/" + (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: work + "/" + path))
        }
        let fixed = temporaryDirectory() + "/App"
        try FileManager.default.copyItem(atPath: work, toPath: fixed)
        let dry = CLIRun(["audit", work, "--fix", "--dry-run"])
        #expect(dry.error.contains("Would fix"), "\(dry.error)")
        _ = CLIRun(["audit", fixed, "--fix"])
        #expect(try Self.patch(dry.bytes) == 0)
        for (path, _) in files {
            #expect(FileManager.default.contents(atPath: work + "/" + path) == FileManager.default.contents(atPath: fixed + "/" + path), "\(path)")
        }
        // The draft of `done` in the CRLF file, with its comment, ends its lines as the file does.
        let drafted = String(decoding: try Data(contentsOf: URL(fileURLWithPath: fixed + "/zh-Hant.lproj/More.strings")), as: UTF8.self)
        #expect(drafted.contains("\"done\" = \"完成\";\r\n"), "\(drafted.debugDescription)")
        #expect(!drafted.unicodeScalars.indices.contains { index in
            drafted.unicodeScalars[index] == "\n" && (index == drafted.unicodeScalars.startIndex || drafted.unicodeScalars[drafted.unicodeScalars.index(before: index)] != "\r")
        }, "\(drafted.debugDescription)")
    }

    /// After the fix the audit reports what is left, and the exit status is that of what is left.
    @Test func theStatusIsWhatIsLeft() throws {
        let work = try copy()
        let fixed = CLIRun(["audit", work + "/Tree", "--fix", "--format", "json"])
        #expect(fixed.error.contains("Fixed"))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(fixed.output.utf8)) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        #expect(!findings.contains { $0["check"] as? String == "ellipsis" })
        #expect((report["fixes"] as? [[String: Any]])?.isEmpty == false)
        // 鼠须管's 须 is left, an error.
        #expect(fixed.status == 1)
        // traditional-in-hans is only suggested by a plain --fix: its error is left until named.
        #expect(CLIRun(["audit", work + "/Tree", "--fix", "--disable", "simplified-in-hant"]).status == 1)
        let every = "--fix=" + AuditFixer.checks.map(\.id).joined(separator: ",")
        #expect(CLIRun(["audit", work + "/Tree", every, "--disable", "simplified-in-hant"]).status == 0)
        // Nothing left to fix: the second run changes nothing.
        let before = snapshot(work)
        _ = CLIRun(["audit", work + "/Tree", "--fix"])
        #expect(snapshot(work) == before)
    }

    @Test func fixOnlyTheChecksNamed() throws {
        let work = try copy()
        let run = CLIRun(["audit", work + "/Tree", "--fix=quote-style,ellipsis", "--dry-run"])
        #expect(run.error.contains("ellipsis"))
        #expect(run.error.contains("quote-style"))
        #expect(!run.error.contains("halfwidth-punctuation"))
        #expect(run.output.contains("+\"tap.save\"=\"请点按“保存”以保留“%@”\" ;"))
        #expect(!run.output.contains("保存失败，请重试"))
    }

    @Test func misuseIsSaid() throws {
        let work = try copy()
        let dry = CLIRun(["audit", work + "/Tree", "--dry-run"])
        #expect(dry.status == 2)
        #expect(dry.error.contains("--dry-run"))
        let unfixable = CLIRun(["audit", work + "/Tree", "--fix=placeholder-mismatch"])
        #expect(unfixable.status == 2)
        #expect(unfixable.error.contains("placeholder-mismatch"))
        #expect(unfixable.error.contains("ellipsis"))
        let unknown = CLIRun(["audit", work + "/Tree", "--fix=no-such-check"])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("no-such-check"))
    }
}
