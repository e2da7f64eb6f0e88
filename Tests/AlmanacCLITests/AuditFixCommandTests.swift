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
        let run = CLIRun(["audit", work + "/Tree", "--fix", "--dry-run"])
        #expect(snapshot(work) == before)
        #expect(run.output.contains("--- a\(work)/Tree/zh-Hans.lproj/Localizable.strings\n+++ b\(work)/Tree/"))
        #expect(run.output.contains("\n-\"save.failed\" = \"保存失败, 请重试!!\";\n"))
        #expect(run.output.contains("\n+\"save.failed\" = \"保存失败，请重试！！\";\n"))
        #expect(run.error.contains("Would fix"))
        // No file holds a temporary left behind.
        #expect(!snapshot(work).keys.contains { $0.contains(".tmp") })
        // What the diff says is what --fix writes (UTF-16 files are shown as UTF-8, so only the others are compared).
        let fixed = try copy()
        _ = CLIRun(["audit", fixed + "/Tree", "--fix"])
        let patch = Process()
        patch.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        patch.arguments = ["patch", "-s", "-p1", "-d", "/"]
        let input = Pipe()
        patch.standardInput = input
        guard (try? patch.run()) != nil else { return }
        let sections = run.output.components(separatedBy: "--- a/").filter { !$0.contains("zh_TW.lproj/Localizable.strings\n") && !$0.isEmpty }
        input.fileHandleForWriting.write(Data(sections.map { "--- a/" + $0 }.joined().utf8))
        input.fileHandleForWriting.closeFile()
        patch.waitUntilExit()
        #expect(patch.terminationStatus == 0)
        for (path, data) in snapshot(work + "/Tree") where !path.hasPrefix("zh_TW") {
            #expect(data == FileManager.default.contents(atPath: fixed + "/Tree/" + path), "\(path)")
        }
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
        #expect(CLIRun(["audit", work + "/Tree", "--fix", "--disable", "simplified-in-hant"]).status == 0)
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
