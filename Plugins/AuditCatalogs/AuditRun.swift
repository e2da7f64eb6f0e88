import Foundation
import PackagePlugin

/// What `swift package audit-catalogs` and `swift package fix-catalogs` do: `almanac audit` (with
/// `--fix` for the second) on the package's catalogs and sources, each finding left reported as a
/// diagnostic with its file and line. (The one file both plugins compile: FixCatalogs links to it.)
enum CatalogAudit {
    static func run(context: PluginContext, arguments: [String], fixing: Bool) throws {
        var catalogs: [String] = []
        var sources: [String] = []
        // The StringAccessors configuration says the development language (the audit's base) and
        // the accessors' enum (keys used through it count as used).
        struct Settings: Decodable {
            var enumName: String?
            var sourceLanguage: String?
        }
        var settings = Settings()
        for target in context.package.targets {
            guard let target = target as? SourceModuleTarget else { continue }
            sources.append(target.directoryURL.path)
            if let data = FileManager.default.contents(atPath: target.directoryURL.appending(path: "almanac-strings.json").path),
               let found = try? JSONDecoder().decode(Settings.self, from: data) {
                settings.enumName = settings.enumName ?? found.enumName
                settings.sourceLanguage = settings.sourceLanguage ?? found.sourceLanguage
            }
            let files = target.sourceFiles.map(\.url).filter { ["strings", "stringsdict", "xcstrings", "xliff"].contains($0.pathExtension) }
            catalogs += files.map(\.path)
        }
        guard !catalogs.isEmpty else {
            Diagnostics.remark("No string catalogs in this package's targets.")
            return
        }
        let almanac = try context.tool(named: "almanac").url
        let process = Process()
        process.executableURL = almanac
        // Keys the sources reach through StringAccessors' enum count as used.
        let accessors = arguments.contains("--accessors") ? [] : ["--accessors", settings.enumName ?? "L10n"]
        let base = arguments.contains("--base") ? [] : ["--base", settings.sourceLanguage ?? "en"]
        process.arguments = ["audit"] + catalogs + ["--sources"] + sources + accessors + base + ["--format", "json"] + (fixing ? ["--fix"] : [])
            + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        // What --fix changed is said on standard error ("Fixed 3 findings in 2 files: …"), kept in a
        // file (a second pipe could fill while the first is read) and printed.
        let notes = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-fix-\(UUID().uuidString).txt")
        if fixing {
            _ = FileManager.default.createFile(atPath: notes.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: notes)
        }
        defer { try? FileManager.default.removeItem(at: notes) }
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if fixing, let said = try? String(contentsOf: notes, encoding: .utf8) {
            for line in said.split(separator: "\n") where !line.isEmpty { print(line) }
        }

        struct Report: Decodable {
            struct Finding: Decodable {
                var check: String
                var severity: String
                var message: String
                var file: String?
                var line: Int?
            }
            var findings: [Finding]
        }
        guard let report = try? JSONDecoder().decode(Report.self, from: data) else {
            Diagnostics.error("almanac audit did not report (status \(process.terminationStatus))")
            return
        }
        let root = context.package.directoryURL.path + "/"
        for finding in report.findings {
            // `swift package` prints a command plugin's diagnostics without their location, so the
            // message starts with it too (relative to the package), the way compilers write it.
            var place = ""
            if let file = finding.file {
                place = (file.hasPrefix(root) ? String(file.dropFirst(root.count)) : file) + (finding.line.map { ":\($0)" } ?? "") + ": "
            }
            let message = "\(place)\(finding.message) [\(finding.check)]"
            switch finding.severity {
            case "error": Diagnostics.error(message, file: finding.file, line: finding.line)
            case "warning": Diagnostics.warning(message, file: finding.file, line: finding.line)
            default: Diagnostics.remark(message, file: finding.file, line: finding.line)
            }
        }
        if report.findings.contains(where: { $0.severity == "error" }) {
            throw AuditFailed(count: report.findings.filter { $0.severity == "error" }.count)
        }
    }

    struct AuditFailed: Error, CustomStringConvertible {
        var count: Int
        var description: String { "\(count) catalog error(s)" }
    }
}
