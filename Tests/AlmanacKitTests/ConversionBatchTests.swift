import AlmanacCore
@testable import AlmanacKit
import AlmanacTestSupport
import Foundation
import Testing

/// The batch engine as a Swift program uses it, with nothing of the command line: folders, a
/// manifest, several threads, shares, collisions, reruns and stops.
@Suite struct ConversionBatchTests {
    static func calendar(_ uid: String, _ title: String) -> String {
        ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Google Inc//Google Calendar 70.9054//EN", "X-WR-TIMEZONE:Asia/Taipei",
         "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20250101T000000Z", "DTSTART;VALUE=DATE:20250405", "SUMMARY:\(title)",
         "END:VEVENT", "END:VCALENDAR"].joined(separator: "\r\n") + "\r\n"
    }

    /// A fresh folder holding `files` (path → text).
    static func folder(_ files: [String: String]) throws -> String {
        let root = NSTemporaryDirectory() + "almanac-batch-" + UUID().uuidString
        for (path, text) in files {
            let full = root + "/" + path
            try FileManager.default.createDirectory(atPath: OutputNames.parent(of: full), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: full))
        }
        return root
    }

    static func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    /// A manifest of calendars converted on four threads into a folder: each line as it asks, a
    /// wrong line failing alone, reports in the manifest's order with their ids, the report file's
    /// totals; a rerun skips what exists.
    @Test func aManifestOnSeveralThreads() throws {
        let root = try Self.folder([
            "in/a.ics": Self.calendar("a@x", "媽媽生日"),
            "in/b.ics": Self.calendar("b@x", "Team sync"),
            "in/c.ics": Self.calendar("c@x", "Review"),
            "in/cut.ics": String(Self.calendar("d@x", "Lost").prefix(120)),
        ])
        let lines = [
            #"{"input": "\#(root)/in/a.ics", "output": "family/", "id": 1}"#,
            #"{"input": "\#(root)/in/b.ics", "output": "work/b.ics", "to": "ics", "id": "b"}"#,
            #"{"input": "\#(root)/in/c.ics"}"#,
            "not json",
            #"{"input": "\#(root)/in/cut.ics", "output": "cut.json"}"#,
            "",
            #"{"input": "\#(root)/in/a.ics", "output": "../escape.json"}"#,
        ]
        let manifest = BatchManifest(Array(lines.joined(separator: "\n").utf8), name: "work.jsonl")
        var options = ConversionBatch.Options(target: "retiretime-backup")
        options.output = root + "/out"
        options.workers = 4
        let batch = try ConversionBatch(manifest: manifest, registry: BuiltInFormats.registry, options: options)
        #expect(batch.writesToFolder)
        #expect(batch.jobs.count == 6)
        let outcome = batch.run()
        let reports = outcome.reports
        #expect(reports.map(\.manifestLine) == [1, 2, 3, 4, 5, 7])
        #expect(reports.map(\.status) == [.converted, .converted, .converted, .failed, .failed, .failed])
        #expect(reports[0].id == .integer(1) && reports[1].id == .string("b"))
        #expect(reports[3].diagnostics.first?.code == .manifestNotJson)
        #expect(reports[3].diagnostics.first?.location?.line == 4)
        #expect(reports[5].diagnostics.first?.code == .batchOutsideOutput)
        #expect(Self.read(root + "/out/family/a.retiretime-backup.json")?.contains("媽媽生日") == true)
        #expect(Self.read(root + "/out/work/b.ics")?.contains("SUMMARY:Team sync") == true)
        #expect(Self.read(root + "/out/c.retiretime-backup.json") != nil)
        #expect(Self.read(root + "/out/cut.json") == nil)
        #expect(!FileManager.default.fileExists(atPath: root + "/escape.json"))
        #expect(outcome.stopped == nil)
        #expect(batch.progress == ConversionBatch.Progress(done: 6, total: 6, records: reports.reduce(0) { $0 + ($1.records ?? 0) }, failed: 3))

        let file = try JSONSerialization.jsonObject(with: Data(outcome.reportFile())) as? [String: Any]
        let totals = file?["totals"] as? [String: Any]
        #expect(totals?["files"] as? Int == 6 && totals?["converted"] as? Int == 3 && totals?["failed"] as? Int == 3)

        // A rerun leaves what exists alone and converts nothing twice.
        let again = try ConversionBatch(manifest: manifest, registry: BuiltInFormats.registry, options: options).run()
        #expect(again.reports.map(\.status) == [.skipped, .skipped, .skipped, .failed, .failed, .failed])
    }

    /// The example in `ConversionBatch`'s documentation, its paths in a folder of its own (the
    /// tests run at once: none changes the working directory).
    @Test func theDocumentationExampleRuns() throws {
        let root = try Self.folder(["a.ics": Self.calendar("a@x", "A"), "b.ics": String(Self.calendar("b@x", "B").prefix(120))])
        let manifest = #"{"input": "\#(root)/a.ics"}"# + "\n" + #"{"input": "\#(root)/b.ics"}"# + "\n"
        try Data(manifest.utf8).write(to: URL(fileURLWithPath: root + "/work.jsonl"))
        var failed: [String] = []
        func print(_ text: String) { failed.append(text) }

        var options = ConversionBatch.Options(target: "retiretime-backup")
        options.output = root + "/out"
        options.workers = 8
        let manifestFile = try BatchManifest(contentsOf: root + "/work.jsonl")
        let batch = try ConversionBatch(manifest: manifestFile, registry: BuiltInFormats.registry, options: options)
        let outcome = batch.run()
        for report in outcome.reports where report.status == .failed { print(report.input) }
        try OutputFile.write(outcome.reportFile(), to: root + "/report.json")

        #expect(failed == [root + "/b.ics"])
        #expect(Self.read(root + "/out/a.retiretime-backup.json") != nil)
        let file = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: root + "/report.json"))) as? [String: Any]
        #expect((file?["totals"] as? [String: Any])?["converted"] as? Int == 1)
    }

    /// A folder walked: its layout kept beneath the output folder, a file no format reads skipped,
    /// two inputs that would write one output refused (the later), and shares that together are the
    /// batch, each file in exactly one.
    @Test func aFolderWithSharesAndCollisions() throws {
        var files = ["notes.txt": "not a calendar\n", "2024/same.ics": Self.calendar("s@x", "One"),
                     "2024/same.csv": "name,date\nTwo,2025-04-05\n"]
        for index in 0..<30 { files["many/\(index).ics"] = Self.calendar("\(index)@x", "Day \(index)") }
        let root = try Self.folder(files)
        var options = ConversionBatch.Options(target: "retiretime-backup")
        options.output = root + "-out"
        options.workers = 3
        let whole = try ConversionBatch(inputs: [root], registry: BuiltInFormats.registry, options: options)
        #expect(whole.jobs.count == 33)
        #expect(whole.jobs.filter { $0.sameOutputAs != nil }.map(\.input) == [root + "/2024/same.ics"])

        var shares: [[String]] = []
        for index in 0..<4 {
            options.shard = BatchShard("\(index)/4")
            shares.append(try ConversionBatch(inputs: [root], registry: BuiltInFormats.registry, options: options).jobs.map(\.input))
        }
        #expect(shares.flatMap { $0 }.sorted() == whole.jobs.map(\.input).sorted())
        #expect(Set(shares.flatMap { $0 }).count == whole.jobs.count)
        // Both inputs of one output fall in one share, where the later fails as in one batch.
        #expect(shares.contains { $0.contains(root + "/2024/same.csv") && $0.contains(root + "/2024/same.ics") })

        options.shard = nil
        let outcome = whole.run()
        let byInput = Dictionary(uniqueKeysWithValues: outcome.fileReports.map { ($0.input, $0) })
        #expect(byInput[root + "/notes.txt"]?.status == .skipped)
        #expect(byInput[root + "/2024/same.ics"]?.diagnostics.first?.code == .batchSameOutput)
        #expect(byInput[root + "/2024/same.csv"]?.status == .converted)
        #expect(outcome.fileReports.filter { $0.status == .converted }.count == 31)
        #expect(Self.read(root + "-out/many/7.retiretime-backup.json")?.contains("Day 7") == true)
    }

    /// Wrong batches are refused before anything is read, with the status `almanac convert` gives.
    @Test func refusedBeforeAnythingRuns() throws {
        let root = try Self.folder(["a.ics": Self.calendar("a@x", "A")])
        func failure(_ inputs: [String], _ options: ConversionBatch.Options) -> ConversionBatch.Failure? {
            do { _ = try ConversionBatch(inputs: inputs, registry: BuiltInFormats.registry, options: options); return nil } catch { return error }
        }
        #expect(failure([root + "/a.ics"], .init(target: "no-such-format"))?.exitCode == .usage)
        #expect(failure([root + "/a.ics"], .init())?.diagnostic.code == .convertNeedsFormat)
        #expect(failure([root], .init(target: "ics"))?.diagnostic.code == .convertNeedsOutputDirectory)
        var options = ConversionBatch.Options(target: "ics")
        options.transforms = [("no-such-transform", "x")]
        #expect(failure([root + "/a.ics"], options)?.diagnostic.code == .convertUnknownTransform)
        #expect(failure([], .init(target: "ics"))?.diagnostic.code == .convertNeedsInput)
    }

    /// Interrupted before it starts: no file is converted, each says why, and nothing is written.
    @Test func anInterruptedBatchStartsNothing() throws {
        let root = try Self.folder(["a.ics": Self.calendar("a@x", "A"), "b.ics": Self.calendar("b@x", "B")])
        var options = ConversionBatch.Options(target: "ics")
        options.output = root + "-out"
        let batch = try ConversionBatch(inputs: [root], registry: BuiltInFormats.registry, options: options)
        #expect(!batch.interrupt())
        #expect(batch.interrupt())
        let outcome = batch.run()
        #expect(outcome.interrupted)
        #expect(outcome.fileReports.map(\.status) == [.notStarted, .notStarted])
        #expect(outcome.fileReports.allSatisfy { $0.diagnostics.first?.message.rendered(in: .english).contains("interrupted") == true })
        #expect((try? FileManager.default.contentsOfDirectory(atPath: root + "-out")) == [])
    }

    /// A full disk: the first file that cannot be written stops the batch from starting others (each
    /// would fail the same way), the files not started say why, and a rerun continues. Any other
    /// failure does not stop a batch without `stopOnError`, and stops one with it.
    @Test func aFullDiskStopsTheBatchOnce() throws {
        let root = try Self.folder(Dictionary(uniqueKeysWithValues: (0..<40).map { ("in-\($0).ics", Self.calendar("\($0)@x", "Day")) }))
        var options = ConversionBatch.Options(target: "ics")
        options.output = root + "-out"
        options.workers = 1
        func run(_ options: ConversionBatch.Options, failing code: DiagnosticCode) throws -> [ConversionReport] {
            try ConversionBatch(inputs: [root], registry: BuiltInFormats.registry, options: options).runJobs(finished: nil) { job in
                if job.input.hasSuffix("/in-13.ics") {  // the sixth in the folder's order
                    return ConversionReport(input: job.input, output: job.destination, to: "ics", status: .failed,
                                            diagnostics: [.error(code == .outputNoSpace ? .outputNoSpace : .outputFailed(reason: "I/O error"),
                                                                 at: SourceLocation(file: job.destination))])
                }
                return ConversionReport(input: job.input, output: job.destination, to: "ics")
            }
        }
        let reports = try run(options, failing: .outputNoSpace)
        #expect(reports.filter { $0.status == .converted }.count == 5)
        #expect(reports.filter { $0.status == .failed }.count == 1)
        let notStarted = reports.filter { $0.status == .notStarted }
        #expect(notStarted.count == 34)
        #expect(notStarted.allSatisfy { $0.diagnostics.first?.message.rendered(in: .english).contains("the disk is full") == true })
        #expect(try run(options, failing: .outputFailed).filter { $0.status == .converted }.count == 39)
        options.stopOnError = true
        #expect(try run(options, failing: .outputFailed).filter { $0.status == .notStarted }.count == 34)
    }

    /// With several workers the output folders take turns: every job once, each folder's jobs in
    /// their order, the first of every folder before the second of any; one folder keeps its order.
    @Test func foldersTakeTurnsWhenWorkersShareThem() {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<200 {
            let folders = (0..<Int.random(in: 1...6, using: &generator)).map { "out/\($0 % 2 == 0 ? "日記" : "a")\($0)" }
            let jobs = (0..<Int.random(in: 0...40, using: &generator)).map { index in
                ConversionBatch.Job(input: "in/\(index).ics", destination: folders.randomElement(using: &generator)! + "/\(index).json", skipUnknown: true)
            }
            let order = ConversionBatch.folderByFolder(jobs)
            #expect(order.sorted() == Array(jobs.indices))
            let folderOf = { (index: Int) in OutputNames.parent(of: jobs[index].destination) }
            var rounds: [String: Int] = [:]
            var round = 0
            var seenInRound: Set<String> = []
            for index in order {
                let folder = folderOf(index)
                if seenInRound.contains(folder) { round += 1; seenInRound = [] }
                seenInRound.insert(folder)
                rounds[folder, default: 0] += 1
                // The n-th job of a folder comes in round n.
                #expect(rounds[folder]! - 1 == round || Set(jobs.indices.map(folderOf)).count == 1)
            }
            for folder in Set(jobs.indices.map(folderOf)) {
                let mine = order.filter { folderOf($0) == folder }
                #expect(mine == mine.sorted())
            }
        }
    }
}
