@testable import AlmanacCLI
import AlmanacCore
import Foundation
import Testing

/// Quiet where nothing needs doing: what a table for people leaves out by design is one line, a
/// single conversion's warnings are grouped by kind, and nothing reported is lost — `--verbose`
/// prints every item and `--report` keeps every one (the counts are compared).
@Suite struct QuietOutputTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples").path

    /// The README's export commands print at most two lines each to standard error.
    @Test func theReadmeExportsAreQuiet() throws {
        let out = temporaryDirectory()
        let csv = CLIRun(["convert", Self.examples + "/retiretime-backup.json", "--to", "csv", "--locale", "zh-TW", "--option", "relative=yes",
                          "-o", out + "/days.csv"])
        #expect(csv.status == 0, "\(csv.error)")
        let lines = csv.error.split(separator: "\n")
        #expect(lines.count <= 2, "\(csv.error)")
        #expect(lines.first?.contains("[convert.left-out]") == true)
        #expect(lines.first?.contains("uid") == true && lines.first?.contains("alarms") == true)
        let workbook = CLIRun(["convert", Self.examples + "/jellysave-backup.json", "--to", "xlsx", "--locale", "zh-TW", "--option", "sheet=all",
                               "-o", out + "/ledger.xlsx"])
        #expect(workbook.status == 0, "\(workbook.error)")
        #expect(workbook.error.split(separator: "\n").count <= 2, "\(workbook.error)")

        // Every item is still there: --verbose prints each field's line, --report keeps each.
        let verbose = CLIRun(["convert", Self.examples + "/retiretime-backup.json", "--to", "csv", "--locale", "zh-TW", "--option", "relative=yes",
                              "-o", out + "/days-verbose.csv", "--verbose"])
        let verboseLines = verbose.error.split(separator: "\n").filter { $0.hasSuffix("[convert.left-out]") }
        #expect(verboseLines.count == 10, "\(verbose.error)")
        let report = out + "/report.json"
        _ = CLIRun(["convert", Self.examples + "/retiretime-backup.json", "--to", "csv", "--locale", "zh-TW", "--option", "relative=yes",
                    "-o", out + "/days-report.csv", "--report", report])
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        let kept = (json?["files"] as? [[String: Any]] ?? []).flatMap { $0["diagnostics"] as? [[String: Any]] ?? [] }
            .filter { $0["code"] as? String == "convert.left-out" }
        #expect(kept.count == verboseLines.count)
        #expect(kept.compactMap { $0["items"] as? Int }.reduce(0, +) == 30)
        // And --strict still refuses what was left out.
        let strict = CLIRun(["convert", Self.examples + "/retiretime-backup.json", "--to", "csv", "--locale", "zh-TW",
                             "-o", out + "/strict.csv", "--strict"])
        #expect(strict.status != 0)
        #expect(!FileManager.default.fileExists(atPath: out + "/strict.csv"))
    }

    /// A String Catalog of 22 locales written as a tree says each kind of loss once (at most five
    /// lines), where it said it once per locale file.
    @Test func aTreeOf22LocalesSaysALossOnce() throws {
        let locales = ["ar", "ca", "cs", "da", "de", "el", "es", "fi", "fr", "he", "hu", "it", "ja", "ko", "nl", "pl", "pt-BR", "ru", "sv",
                       "tr", "zh-Hans", "zh-Hant"]
        let localizations = locales.map { #""\#($0)" : {"stringUnit" : {"state" : "translated", "value" : "\#($0) text"}}"# }.joined(separator: ", ")
        let catalog = #"{"sourceLanguage" : "en", "strings" : {"Hello" : {"extractionState" : "manual", "localizations" : {\#(localizations)}}}, "version" : "1.0"}"#
        let folder = temporaryDirectory()
        try Data(catalog.utf8).write(to: URL(fileURLWithPath: folder + "/Localizable.xcstrings"))
        let run = CLIRun(["convert", folder + "/Localizable.xcstrings", "--to", "strings", "-o", folder + "/tree/"])
        #expect(run.status == 0, "\(run.error)")
        let lines = run.error.split(separator: "\n")
        #expect(lines.count <= 5, "\(run.error)")
        #expect(lines.first?.contains("extractionState: 22 files, 22 items") == true, "\(run.error)")
        let verbose = CLIRun(["convert", folder + "/Localizable.xcstrings", "--to", "strings", "-o", folder + "/tree-verbose/", "--verbose"])
        #expect(verbose.error.components(separatedBy: "[convert.dropped]").count - 1 == 22)
    }

    /// `inspect DIR` inspects the files inside, one summary each (a batch's walk: hidden files left
    /// out); files in no format Almanac reads are counted in one note, not failed; an empty folder
    /// is an error that says so.
    @Test func inspectAFolder() throws {
        let folder = temporaryDirectory() + "/exports"
        try FileManager.default.createDirectory(atPath: folder + "/2025", withIntermediateDirectories: true)
        try Data("name,date\nRent,2025-07-05\n".utf8).write(to: URL(fileURLWithPath: folder + "/days.csv"))
        try Data(BatchTests.calendar("a@x", "Day").utf8).write(to: URL(fileURLWithPath: folder + "/2025/family.ics"))
        try Data([0x00, 0xFF, 0x13, 0x37]).write(to: URL(fileURLWithPath: folder + "/photo.heic"))
        try Data("hidden".utf8).write(to: URL(fileURLWithPath: folder + "/.DS_Store"))
        let run = CLIRun(["inspect", folder, "--json"])
        #expect(run.status == 0, "\(run.error)")
        let reports = try JSONSerialization.jsonObject(with: Data(run.bytes)) as? [[String: Any]] ?? []
        #expect(reports.map { $0["file"] as? String } == [folder + "/2025/family.ics", folder + "/days.csv"])
        #expect(reports.map { $0["format"] as? String } == ["ics", "csv"])
        #expect(run.error.contains("[inspect.unread-files]") && run.error.contains("1 files"), "\(run.error)")
        let empty = temporaryDirectory() + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let nothing = CLIRun(["inspect", empty])
        #expect(nothing.status == 3)
        #expect(nothing.error.contains("[inspect.empty]"))
    }
}
