@testable import AlmanacCLI
@testable import AlmanacCore
import AlmanacTestSupport
import Foundation
import Testing

/// `almanac convert --manifest FILE --report -` (the worker contract an engine such as Spark
/// drives), `--shard K/N`, and the temporary files a killed run leaves.
@Suite struct ManifestTests {
    func jsonLines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    func manifest(_ objects: [Any]) throws -> [UInt8] {
        var bytes: [UInt8] = []
        for object in objects {
            if let line = object as? String { bytes += Array(line.utf8) } else { bytes += Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) }
            bytes.append(0x0A)
        }
        return bytes
    }

    @Test func aManifestConvertsEachLineAndReportsEachFileOnALine() throws {
        let input = try BatchTests().folder()
        let root = OutputNames.parent(of: input)
        let out = root + "/out"
        let lines: [Any] = [
            ["input": input + "/google/2024/family.ics", "output": out + "/google/2024/", "id": 1],
            ["input": input + "/google/2025/work.ics", "output": out + "/work-days.json", "id": "two"],
            "",  // blank lines are ignored
            ["input": input + "/outlook/team.ics", "output": out + "/outlook/", "to": "agenda-json"],
            ["input": input + "/outlook/cut-off.ics", "output": out + "/outlook/"],
            ["input": input + "/README.txt", "output": out + "/", "skip_unknown": true],
            ["input": input + "/missing.ics", "output": out + "/"],
            "{\"input\": \"x.ics\", \"ouptut\": \"y\"}",
            "not json",
            ["input": input + "/outlook/team.ics", "output": out + "/t.json", "to": "no-such-format"],
            ["input": "-", "output": out + "/s.json"],
        ]
        // A backup made from a calendar says when it was exported: fixed, so both runs write the same bytes.
        let stamp = ["--option", "exported-at=2026-01-01T00:00:00Z"]
        let run = CLIRun(["convert", "--manifest", "-", "--report", "-", "--to", "retiretime-backup", "--jobs", "2"] + stamp, input: try manifest(lines))
        #expect(run.status == 3)
        let reports = jsonLines(run.output)
        #expect(reports.count == 10)
        let byLine = Dictionary(uniqueKeysWithValues: reports.map { ($0["manifestLine"] as? Int ?? 0, $0) })
        func status(_ line: Int) -> String? { byLine[line]?["status"] as? String }
        func code(_ line: Int) -> String? { ((byLine[line]?["diagnostics"] as? [[String: Any]])?.first { $0["severity"] as? String == "error" })?["code"] as? String }
        #expect(status(1) == "converted")
        #expect(byLine[1]?["id"] as? Int == 1)
        #expect(byLine[1]?["output"] as? String == out + "/google/2024/family.retiretime-backup.json")
        #expect(status(2) == "converted")
        #expect(byLine[2]?["id"] as? String == "two")
        #expect(read(out + "/work-days.json")?.contains("\"format\": \"retiretime-backup\"") == true)
        #expect(status(4) == "converted")
        #expect(byLine[4]?["to"] as? String == "agenda-json")
        #expect(read(out + "/outlook/team.agenda.json")?.contains("Review") == true)
        #expect(status(5) == "failed" && code(5) == "ics.truncated")
        #expect(status(6) == "skipped")
        #expect(status(7) == "failed" && code(7) == "input.not-found")
        #expect(status(8) == "failed" && code(8) == "manifest.unknown-field")
        #expect(status(9) == "failed" && code(9) == "manifest.not-json")
        #expect(status(10) == "failed" && code(10) == "format.unknown")
        #expect(status(11) == "failed" && code(11) == "manifest.standard-streams")
        // A line's problem names the manifest and the line.
        let location = (byLine[8]?["diagnostics"] as? [[String: Any]])?.first?["location"] as? [String: Any]
        #expect(location?["file"] as? String == "manifest" && location?["line"] as? Int == 8)
        // Per-file diagnostics are in the report lines, not repeated on standard error.
        #expect(!run.error.contains("[ics.truncated]"))
        #expect(run.error.contains("Converted 3 of 10 files"))

        // The same bytes as a folder batch writes.
        let batchOut = root + "/batch"
        _ = CLIRun(["convert", input, "--to", "retiretime-backup", "-o", batchOut] + stamp)
        #expect(read(out + "/google/2024/family.retiretime-backup.json") == read(batchOut + "/google/2024/family.retiretime-backup.json"))

        // A rerun (a retried task) skips what exists.
        let again = CLIRun(["convert", "--manifest", "-", "--report", "-", "--to", "retiretime-backup"], input: try manifest(Array(lines.prefix(2))))
        #expect(again.status == 0)
        #expect(jsonLines(again.output).map { $0["status"] as? String } == ["skipped", "skipped"])
    }

    @Test func aManifestFileWithOutputsInsideOutputFolder() throws {
        let input = try BatchTests().folder()
        let root = OutputNames.parent(of: input)
        let list = root + "/list.jsonl"
        try Data(try manifest([["input": input + "/google/2024/family.ics"], ["input": input + "/outlook/team.ics", "output": "teams/"],
                               ["input": input + "/google/2025/work.ics", "output": "../escape.json"]])).write(to: URL(fileURLWithPath: list))
        let run = CLIRun(["convert", "--manifest", list, "--to", "ics", "-o", root + "/o", "--report", root + "/r.json"])
        #expect(run.status == 4)
        #expect(read(root + "/o/family.ics")?.contains("媽媽生日") == true)
        #expect(read(root + "/o/teams/team.ics")?.contains("Review") == true)
        #expect(run.error.contains("[batch.outside-output]"))
        #expect(read(root + "/escape.json") == nil)
        // Without -o, a line needs its output.
        let none = CLIRun(["convert", "--manifest", "-", "--report", "-", "--to", "ics"], input: try manifest([["input": input + "/outlook/team.ics"]]))
        #expect(jsonLines(none.output).first?["status"] as? String == "failed")
        #expect(none.output.contains("manifest.no-output"))
        // A manifest that is not there.
        let missing = CLIRun(["convert", "--manifest", root + "/nope.jsonl", "--to", "ics", "-o", root + "/o"])
        #expect(missing.status == 3)
        #expect(missing.error.contains("nope.jsonl: error: No such file"))
    }

    @Test func theCommandLineSaysWhatIsWrong() {
        #expect(CLIRun(["convert", "--to", "ics"]).error.contains("--manifest FILE"))
        #expect(CLIRun(["convert", "a.ics", "--manifest", "m.jsonl", "--to", "ics", "-o", "out"]).error.contains("not both"))
        #expect(CLIRun(["convert", "a.ics"]).error.contains("--to FORMAT is needed"))
        #expect(CLIRun(["convert", "a.ics", "--to", "ics", "--report", "-"]).error.contains("--report - prints one JSON line per file"))
        for bad in ["3/3", "1", "a/b", "0/0", "1/2/3"] {
            let run = CLIRun(["convert", "in", "--to", "ics", "-o", "out", "--shard", bad])
            #expect(run.status == 2 && run.error.contains("--shard takes K/N"), "\(bad)")
        }
    }

    /// N workers with the same command and K = 0…N−1 convert every file exactly once, and two
    /// inputs for one output meet in the same share (where the later fails, as in one batch).
    @Test func shardsCoverTheBatchOnce() throws {
        let input = temporaryDirectory() + "/many"
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        for index in 0..<40 {
            try Data(BatchTests.calendar("s\(index)@test", "Event \(index)").utf8).write(to: URL(fileURLWithPath: input + "/e\(index).ics"))
        }
        try Data(ModelJSONCodec.emptyAgenda.utf8).write(to: URL(fileURLWithPath: input + "/e7.agenda.json"))
        let out = input + "-out"
        var converted: [String] = []
        var failed: [String] = []
        for share in 0..<3 {
            let run = CLIRun(["convert", input, "--to", "ics", "-o", out, "--shard", "\(share)/3", "--report", "-"])
            let reports = jsonLines(run.output)
            #expect(!reports.isEmpty && reports.count < 41)
            converted += reports.filter { $0["status"] as? String == "converted" }.compactMap { $0["input"] as? String }
            failed += reports.filter { $0["status"] as? String == "failed" }.compactMap { $0["input"] as? String }
        }
        #expect(converted.count == 40 && Set(converted).count == 40)
        #expect(failed == [input + "/e7.ics"])  // e7.agenda.json came first in name order
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).count == 40)
        // The same share every time.
        let first = CLIRun(["convert", input, "--to", "ics", "-o", out + "2", "--shard", "1/3", "--report", "-"]).output
        let second = CLIRun(["convert", input, "--to", "ics", "-o", out + "3", "--shard", "1/3", "--report", "-"]).output
        #expect(Set(jsonLines(first).compactMap { $0["input"] as? String }) == Set(jsonLines(second).compactMap { $0["input"] as? String }))
    }

    /// Two workers on one folder at once (a second batch, a speculative Spark task): every file
    /// is converted by one of them, the other skips it, and nothing fails.
    @Test func twoWorkersOnOneFolderShareItWithoutFailures() throws {
        let input = temporaryDirectory() + "/shared"
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        for index in 0..<300 {
            try Data(BatchTests.calendar("w\(index)@test", "Event \(index)").utf8).write(to: URL(fileURLWithPath: input + "/e\(index).ics"))
        }
        let out = input + "-out"
        let runs = Locked<[CLIRun]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            let run = CLIRun(["convert", input, "--to", "agenda-json", "-o", out, "--jobs", "2", "--report", "-"])
            runs.withLock { $0.append(run) }
        }
        let reports = runs.withLock { $0 }.flatMap { jsonLines($0.output) }
        #expect(reports.count == 600)
        #expect(reports.filter { $0["status"] as? String == "converted" }.count == 300)
        #expect(reports.filter { $0["status"] as? String == "skipped" }.count == 300)
        #expect(runs.withLock { $0 }.allSatisfy { $0.status == 0 })
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).count == 300)
    }

    /// The real process killed with SIGKILL while it writes leaves its temporary file; the next
    /// run into that folder removes it (its process is gone) and says so.
    @Test func aKilledRunsTemporaryFileIsRemovedByTheNext() throws {
        let almanac = ConvertCommandTests.productsDirectory + "/almanac"
        guard FileManager.default.isExecutableFile(atPath: almanac) else {
            Issue.record("almanac is not built at \(almanac)")
            return
        }
        let folder = temporaryDirectory()
        var csv = "名稱,日期,類型\n"
        for index in 0..<400_000 { csv += "Day \(index),2025-\(index % 12 + 1)-\(index % 28 + 1),紀念日\n" }
        try Data(csv.utf8).write(to: URL(fileURLWithPath: folder + "/big.csv"))
        try Data(BatchTests.calendar("k@test", "After").utf8).write(to: URL(fileURLWithPath: folder + "/small.ics"))
        let out = folder + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: almanac)
        process.arguments = ["convert", folder + "/big.csv", "--to", "csv", "--locale", "zh-TW", "-o", out + "/big.csv", "--jobs", "1"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        var temporary: String?
        for _ in 0..<2000 where temporary == nil {
            temporary = try FileManager.default.contentsOfDirectory(atPath: out).first { $0.hasSuffix(".tmp") }
            if temporary == nil { usleep(2000) }
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        guard let temporary else {
            Issue.record("the conversion finished before a temporary file was seen")
            return
        }
        #expect(temporary.hasPrefix(".big.csv.almanac-\(process.processIdentifier)-"))
        #expect(FileManager.default.fileExists(atPath: out + "/" + temporary))
        #expect(!FileManager.default.fileExists(atPath: out + "/big.csv"))

        // A single file into that folder (not only a batch) cleans it.
        let next = CLIRun(["convert", folder + "/small.ics", "--to", "ics", "-o", out + "/small.ics"])
        #expect(next.status == 0)
        #expect(next.error.contains("Removed 1 unfinished output files"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == ["small.ics"])
    }

    /// Only files no live process writes are removed: one whose lock is held, or whose PID is
    /// alive, stays.
    @Test func temporaryFilesInUseAreKept() throws {
        let folder = temporaryDirectory()
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let dead = gone.processIdentifier
        let abandoned = folder + "/.a.json.almanac-\(dead)-17.tmp"
        let locked = folder + "/.b.json.almanac-\(dead)-18.tmp"
        let ours = folder + "/.c.json.almanac-\(getpid())-19.tmp"
        let other = folder + "/.d.json.tmp"
        for path in [abandoned, locked, ours, other] { #expect(FileManager.default.createFile(atPath: path, contents: Data("partial".utf8))) }
        let fd = open(locked, O_RDONLY)
        #expect(flock(fd, LOCK_EX) == 0)
        defer { close(fd) }
        #expect(OutputFile.removeAbandoned(in: folder) == [abandoned])
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder)) == [".b.json.almanac-\(dead)-18.tmp", ".c.json.almanac-\(getpid())-19.tmp", ".d.json.tmp"])
        #expect(OutputFile.abandonedWriter(".my-file.ics.almanac-123-456.tmp") == 123)
        #expect(OutputFile.abandonedWriter("my.almanac-123-456.tmp") == nil)
        #expect(OutputFile.abandonedWriter(".x.almanac-abc-456.tmp") == nil)
        #expect(OutputFile.abandonedWriter(".x.almanac-12-456.json") == nil)
    }
}
