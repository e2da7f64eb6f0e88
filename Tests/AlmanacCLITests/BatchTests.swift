@testable import AlmanacCLI
import AlmanacCore
import AlmanacTestSupport
import Foundation
import Testing

/// `almanac convert FOLDER… -o OUTDIR`: folders walked, layout kept, one bad file failing alone.
@Suite struct BatchTests {
    static func calendar(_ uid: String, _ title: String, crlf: Bool = true) -> String {
        let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Google Inc//Google Calendar 70.9054//EN", "X-WR-TIMEZONE:Asia/Taipei",
                     "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20250101T000000Z", "DTSTART;VALUE=DATE:20250405", "SUMMARY:\(title)",
                     "END:VEVENT", "END:VCALENDAR"]
        return lines.joined(separator: crlf ? "\r\n" : "\n") + (crlf ? "\r\n" : "\n")
    }

    /// A shared drive's folder: nested calendars, a note, a hidden file, a cut-off attachment.
    func folder() throws -> String {
        let root = temporaryDirectory() + "/exports"
        let files: [String: String] = [
            "google/2024/family.ics": Self.calendar("a@google.com", "媽媽生日"),
            "google/2025/work.ics": Self.calendar("b@google.com", "Team sync"),
            "outlook/team.ics": Self.calendar("c@outlook", "Review", crlf: false),
            "outlook/cut-off.ics": String(Self.calendar("d@outlook", "Lost").prefix(120)),
            "README.txt": "Exports from everyone's phones.\n",
            ".DS_Store": "\u{0}\u{0}\u{0}\u{1}Bud1",
        ]
        for (path, text) in files {
            let full = root + "/" + path
            try FileManager.default.createDirectory(atPath: OutputNames.parent(of: full), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: full))
        }
        return root
    }

    @Test func convertsAFolderKeepingItsLayout() throws {
        let input = try folder()
        let out = OutputNames.parent(of: input) + "/days"
        let reportPath = out + "-report.json"
        let run = CLIRun(["convert", input, "--to", "retiretime-backup", "-o", out, "--jobs", "2", "--report", reportPath])
        #expect(run.status == 3)  // the cut-off file failed; the others were converted
        for name in ["google/2024/family", "google/2025/work", "outlook/team"] {
            #expect(read(out + "/" + name + ".retiretime-backup.json")?.contains("\"format\": \"retiretime-backup\"") == true, "\(name)")
        }
        #expect(read(out + "/outlook/cut-off.retiretime-backup.json") == nil)
        #expect(run.error.contains("cut-off.ics:"))
        #expect(run.error.contains("[ics.truncated]"))
        #expect(run.error.contains("Converted 3 of 5 files"))
        #expect(!run.error.contains(".DS_Store"))
        // Nothing half-written anywhere.
        let leftovers = FileManager.default.enumerator(atPath: out)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".tmp") } ?? []
        #expect(leftovers.isEmpty)

        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: reportPath))) as? [String: Any]
        let totals = report?["totals"] as? [String: Any]
        #expect(totals?["converted"] as? Int == 3)
        #expect(totals?["failed"] as? Int == 1)
        #expect(totals?["skipped"] as? Int == 1)  // README.txt is not a format Almanac reads
        let files = report?["files"] as? [[String: Any]] ?? []
        #expect(files.map { $0["input"] as? String ?? "" } == [
            "README.txt", "google/2024/family.ics", "google/2025/work.ics", "outlook/cut-off.ics", "outlook/team.ics",
        ].map { input + "/" + $0 })
        #expect(files.first { ($0["input"] as? String)?.hasSuffix("cut-off.ics") == true }?["status"] as? String == "failed")
    }

    /// Catalogs in a batch become `.lproj` trees where each file was: two apps' `x.xcstrings`
    /// do not meet in one `zh-Hant.lproj/` at the top of the output.
    @Test func catalogTreesKeepTheirPlace() throws {
        let root = temporaryDirectory() + "/catalogs"
        let catalog = #"{"sourceLanguage" : "en", "strings" : {"Hello" : {"localizations" : {"zh-Hant" : {"stringUnit" : {"state" : "translated", "value" : "你好"}}}}}, "version" : "1.0"}"#
        for app in ["first", "second"] {
            try FileManager.default.createDirectory(atPath: root + "/" + app, withIntermediateDirectories: true)
            try Data(catalog.utf8).write(to: URL(fileURLWithPath: root + "/\(app)/x.xcstrings"))
        }
        let out = OutputNames.parent(of: root) + "/trees"
        let run = CLIRun(["convert", root, "--to", "strings", "-o", out])
        #expect(run.status == 0, "\(run.error)")
        for app in ["first", "second"] {
            #expect(read(out + "/\(app)/zh-Hant.lproj/x.strings")?.contains(#""Hello" = "你好";"#) == true, "\(app)")
        }
    }

    @Test func aRerunSkipsWhatExistsAndForceReplacesIt() throws {
        let input = try folder()
        try FileManager.default.removeItem(atPath: input + "/outlook/cut-off.ics")
        let out = OutputNames.parent(of: input) + "/out"
        #expect(CLIRun(["convert", input, "--to", "agenda-json", "-o", out]).status == 0)
        try Data("kept".utf8).write(to: URL(fileURLWithPath: out + "/outlook/team.agenda.json"))
        let again = CLIRun(["convert", input, "--to", "agenda-json", "-o", out])
        #expect(again.status == 0)
        #expect(again.error.contains("skipped 4"))
        #expect(again.error.contains("Skipped 3 whose output already exists"))
        #expect(!again.error.contains("[batch.skipped-exists]"))
        #expect(read(out + "/outlook/team.agenda.json") == "kept")
        #expect(CLIRun(["convert", input, "--to", "agenda-json", "-o", out, "--force"]).status == 0)
        #expect(read(out + "/outlook/team.agenda.json")?.contains("Review") == true)
    }

    @Test func stopOnErrorStartsNoNewFile() throws {
        let input = try folder()
        let out = OutputNames.parent(of: input) + "/out"
        // One worker, files in name order: README (skipped), family, work, cut-off (fails), team (not started).
        let run = CLIRun(["convert", input, "--to", "agenda-json", "-o", out, "--jobs", "1", "--stop-on-error", "--json"])
        #expect(run.status == 3)
        #expect(read(out + "/outlook/team.agenda.json") == nil)
        #expect(run.output.contains("\"status\" : \"not-started\""))
    }

    @Test func anOutputFolderInsideTheInputIsNotWalked() throws {
        let input = try folder()
        try FileManager.default.removeItem(atPath: input + "/outlook/cut-off.ics")
        let out = input + "/converted"
        #expect(CLIRun(["convert", input, "--to", "ics", "-o", out]).status == 0)
        let again = CLIRun(["convert", input, "--to", "ics", "-o", out])
        #expect(again.error.contains("of 4 files"))  // not the outputs of the first run
    }

    @Test func baseNamesAreTheLastComponent() {
        #expect(OutputNames.baseName("a/b/日記.ics") == "日記.ics")
        #expect(OutputNames.baseName("日記/") == "日記")
        #expect(OutputNames.baseName("//x//") == "x")
        #expect(OutputNames.baseName("plain") == "plain")
        #expect(OutputNames.baseName("/") == "/")
        #expect(OutputNames.baseName("") == "")
    }

    @Test func pathsThatLeaveTheOutputFolderAreRefused() {
        #expect(OutputNames.isInside("out/a/b.json", directory: "out"))
        #expect(OutputNames.isInside("../out/b.json", directory: "../out"))
        #expect(!OutputNames.isInside("out/../b.json", directory: "out"))
        #expect(!OutputNames.isInside("out/a/../../../etc/passwd", directory: "out"))
        #expect(!OutputNames.isInside("outside/b.json", directory: "out"))
        #expect(!OutputNames.isInside("out", directory: "out"))
        #expect(OutputNames.isInside("./out/./日記/b.json", directory: "out/"))
        #expect(!OutputNames.isInside("out/日記/../../b.json", directory: "out"))
        // Random paths of these parts against the rule written out plainly, component by component.
        func resolved(_ path: String) -> [String] {
            var result: [String] = []
            for part in path.split(separator: "/").map(String.init) where part != "." {
                if part == "..", let last = result.last, last != ".." { result.removeLast() } else if part == ".." { result.append(part) } else { result.append(part) }
            }
            return result
        }
        let parts = ["out", "a", "日記", ".", "..", "", "..a", ".a", "o"]
        var generator = SeededGenerator(seed: 20)
        func path() -> String { (0..<Int.random(in: 0...5, using: &generator)).map { _ in parts.randomElement(using: &generator)! }.joined(separator: "/") }
        for _ in 0..<2_000 {
            let (inside, base) = (path(), path())
            let expected = resolved(inside).count > resolved(base).count && zip(resolved(inside), resolved(base)).allSatisfy { $0 == $1 }
            #expect(OutputNames.isInside(inside, directory: base) == expected, "\(inside) in \(base)")
        }
    }

    /// 60 exports losing the same fields print a screenful: one group per code and field with
    /// counts of files and items and three examples; the failure in full; `--verbose` and
    /// `--report` keep every warning.
    @Test func aBatchGroupsItsWarnings() throws {
        let input = temporaryDirectory() + "/exports"
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        for index in 0..<60 {
            let events = (0..<(index % 3 + 1)).map { event in
                ["BEGIN:VEVENT", "UID:\(index)-\(event)@test", "DTSTAMP:20250101T000000Z", "DTSTART:20250405T090000Z",
                 "DTEND:20250405T100000Z", "SUMMARY:Meeting \(index)-\(event)", "END:VEVENT"]
            }.flatMap { $0 }
            let text = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN"] + events + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
            try Data(text.utf8).write(to: URL(fileURLWithPath: input + String(format: "/e%02d.ics", index)))
        }
        try Data(String(Self.calendar("cut@test", "Cut").prefix(120)).utf8).write(to: URL(fileURLWithPath: input + "/cut-off.ics"))
        let out = input + "-out"
        let reportPath = input + "-report.json"
        let run = CLIRun(["convert", input, "--to", "retiretime-backup", "-o", out, "--report", reportPath])
        #expect(run.status == 3)
        let lines = run.error.split(separator: "\n").map(String.init)
        #expect(lines.count <= 24, "\(lines.count) lines:\n\(run.error)")
        // Every file has 1–3 events, 120 events in all, each with an end and a time of day.
        #expect(lines.contains("warning: retiretime-backup cannot hold end: 60 files, 120 items [convert.dropped]"))
        #expect(lines.contains("warning: retiretime-backup cannot hold start.time exactly, written as the day only: 60 files, 120 items [convert.approximated]"))
        #expect(lines.filter { $0.hasPrefix("  e.g. ") }.count == 6)
        #expect(lines.contains("  e.g. \(input)/e01.ics: “Meeting 1-0”, “Meeting 1-1”"))
        #expect(lines.contains { $0.hasPrefix("\(input)/cut-off.ics:") && $0.hasSuffix("[ics.truncated]") })
        #expect(lines.contains { $0.hasPrefix("Warnings are grouped by kind") })

        // Every warning, file by file.
        let verbose = CLIRun(["convert", input, "--to", "retiretime-backup", "-o", out + "-verbose", "--verbose"])
        #expect(verbose.error.components(separatedBy: "[convert.dropped]").count - 1 == 60)
        #expect(!verbose.error.contains("e.g."))
        // The report keeps them all, with how many items each is about.
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: reportPath))) as? [String: Any]
        let diagnostics = (report?["files"] as? [[String: Any]] ?? []).flatMap { $0["diagnostics"] as? [[String: Any]] ?? [] }
        #expect(diagnostics.filter { $0["code"] as? String == "convert.dropped" }.count == 60)
        #expect(diagnostics.filter { $0["code"] as? String == "convert.dropped" }.compactMap { $0["items"] as? Int }.reduce(0, +) == 120)

        // A few warnings of a kind are shown as they are; one file converts as before.
        let single = CLIRun(["convert", input + "/e02.ics", "--to", "retiretime-backup", "-o", out + "/single.json"])
        #expect(single.error.contains("e02.ics: warning: retiretime-backup cannot hold end; it was left out of “Meeting 2-0”, “Meeting 2-1”, “Meeting 2-2”. [convert.dropped]"))
        #expect(!single.error.contains("e.g."))
    }

    /// A field approximated differently item by item (a lunar date moved to its next match) is
    /// one group; each example says how its items were written.
    @Test func approximationsWrittenDifferentlyAreOneGroup() {
        let diagnostics = (0..<5).map { index in
            Diagnostic(.warning, Message("convert.approximated", ["retiretime-backup", "start", "2025-10-1\(index) (not lunar 8-19)", "“Day \(index)”"], table: nil),
                       at: SourceLocation(file: "f\(index).ics"), items: 1)
        }
        let lines = WarningGroups(diagnostics).lines(in: .english)
        #expect(lines.first == "warning: retiretime-backup cannot hold start exactly: 5 files, 5 items [convert.approximated]")
        #expect(lines.dropFirst().first == "  e.g. f0.ics: “Day 0”, written as 2025-10-10 (not lunar 8-19)")
        #expect(lines.count == 5)  // the headline, three examples, the footer
        // Three or fewer of a kind are shown as they are.
        #expect(WarningGroups(diagnostics.prefix(3)).lines(in: .english) == diagnostics.prefix(3).map { $0.rendered() })
    }

    /// A kind with no headline of its own is said by its first message, and each place once.
    @Test func aGroupOfNotesSaysWhatTheyAre() {
        let diagnostics = (0..<5).map { index in
            Diagnostic(.note, Message("catalog.drafted", ["\(index + 1)", "zh-Hant", "0"], table: nil), at: SourceLocation(file: "App/*.lproj/T\(index % 2)"))
        }
        let line = WarningGroups(diagnostics).lines(in: .english, inline: true).first ?? ""
        #expect(line.hasPrefix("note: catalog.drafted 1 zh-Hant 0 (and 4 more like it); e.g. *.lproj/T0, *.lproj/T1 "),
                "\(line)")
    }

    @Test func aFolderWithNothingToConvertIsAnError() throws {
        let empty = temporaryDirectory()
        let run = CLIRun(["convert", empty, "--to", "ics", "-o", empty + "-out"])
        #expect(run.status == 3)
        #expect(run.error.contains("[batch.empty]"))
        #expect(CLIRun(["convert", empty, "--to", "ics"]).status == 2)  // a folder needs -o
    }

    @Test func twoInputsForOneOutputFailTheSecond() throws {
        let input = temporaryDirectory() + "/mixed"
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        try Data(Self.calendar("x@a", "From the calendar").utf8).write(to: URL(fileURLWithPath: input + "/family.ics"))
        try Data(ModelJSONCodec.emptyAgenda.utf8).write(to: URL(fileURLWithPath: input + "/family.agenda.json"))
        let out = input + "-out"
        let run = CLIRun(["convert", input + "/", "--to", "ics", "-o", out])
        #expect(run.status == 4)
        #expect(run.error.contains("family.ics: error:"))
        #expect(run.error.contains("[batch.same-output]"))
        #expect(!run.error.contains("mixed//"))
        #expect(read(out + "/family.ics")?.contains("BEGIN:VCALENDAR") == true)
    }

    /// The real process: Ctrl-C lets files in progress finish, starts no others, leaves no
    /// temporary files, exits 130 and says how many were not converted.
    @Test func ctrlCStopsCleanly() throws {
        let almanac = ConvertCommandTests.productsDirectory + "/almanac"
        guard FileManager.default.isExecutableFile(atPath: almanac) else {
            Issue.record("almanac is not built at \(almanac)")
            return
        }
        let input = temporaryDirectory() + "/many"
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        for index in 0..<4000 {
            try Data(Self.calendar("e\(index)@test", "Event \(index)").utf8).write(to: URL(fileURLWithPath: input + "/e\(index).ics"))
        }
        let out = input + "-out"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: almanac)
        process.arguments = ["convert", input, "--to", "agenda-json", "-o", out, "--jobs", "1", "--report", out + ".json"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // Interrupted once the batch has begun writing: a loaded machine or a sanitizer build can
        // take longer than half a second to get there.
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: out), process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        Thread.sleep(forTimeInterval: 0.2)
        process.interrupt()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // A crash (a sanitizer's report) shows here with what the process said.
        #expect([0, 130].contains(process.terminationStatus), "\(text)")
        let written = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(!written.contains { $0.hasSuffix(".tmp") })
        if process.terminationStatus == 0 { return }  // the machine converted all 4,000 in half a second
        #expect(process.terminationStatus == 130)
        #expect(text.contains("were not converted (interrupted)"))
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + ".json"))) as? [String: Any]
        let totals = report?["totals"] as? [String: Any]
        #expect(totals?["interrupted"] as? Bool == true)
        #expect(totals?["converted"] as? Int == written.count)
    }

    /// A file read whole past the limit is refused with its size, the limit and how to raise it.
    @Test func filesReadWholeHaveALimit() throws {
        let almanac = ConvertCommandTests.productsDirectory + "/almanac"
        let file = temporaryDirectory() + "/big.strings"
        try Data("\"a\" = \"b\";\n".utf8).write(to: URL(fileURLWithPath: file))
        let refused = ExternalCommand.run(["ALMANAC_MAX_INPUT_BYTES=5", almanac, "convert", file, "--to", "catalog-json"])
        #expect(refused.status == 3)
        #expect(refused.output.contains("big.strings: error: This file is 11 bytes; files read whole may be at most 5 bytes"))
        #expect(refused.output.contains("ALMANAC_MAX_INPUT_BYTES"))
        #expect(ExternalCommand.run([almanac, "convert", file, "--to", "catalog-json"]).status == 0)
    }

    /// A full disk, from the command line: `/dev/full` answers every write with ENOSPC, as a full
    /// disk does (what the batch then does is `ConversionBatchTests.aFullDiskStopsTheBatchOnce`).
    @Test func aFullDiskIsReported() throws {
        let full = CLIRun(["convert", try folder() + "/google/2024/family.ics", "--to", "ics", "-o", "/dev/full"])
        #expect(full.status != 0)
        #expect(full.error.contains("output.no-space"))
    }
}
