import ArgumentParser
import AlmanacAudit
import AlmanacCore
import Foundation

struct Audit: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(abstract: L("cli.audit.abstract"), discussion: L("cli.audit.discussion"))
    }

    @Argument(help: ArgumentHelp(L("cli.argument.files"), valueName: "PATH")) var paths: [String]
    @Option(help: ArgumentHelp(L("cli.option.base"), valueName: "LOCALE")) var base = "en"
    @Option(help: ArgumentHelp(L("cli.option.locales"), valueName: "LOCALE,…")) var locales: String?
    @Option(parsing: .upToNextOption, help: ArgumentHelp(L("cli.option.sources"), valueName: "DIR")) var sources: [String] = []
    @Option(help: ArgumentHelp(L("cli.option.audit-format"), valueName: "FORMAT")) var format = "text"
    @Option(help: ArgumentHelp(L("cli.option.baseline"), valueName: "FILE")) var baseline: String?
    @Option(name: .customLong("write-baseline"), help: ArgumentHelp(L("cli.option.write-baseline"), valueName: "FILE")) var writeBaseline: String?
    @Option(name: .customLong("fail-on"), help: ArgumentHelp(L("cli.option.fail-on"), valueName: "error|warning")) var failOn = "error"
    @Option(help: ArgumentHelp(L("cli.option.allow"), valueName: "TEXT")) var allow: [String] = []
    @Option(name: .shortAndLong, help: ArgumentHelp(L("cli.option.output"), valueName: "PATH")) var output: String?
    @Flag(help: ArgumentHelp(L("cli.option.force"))) var force = false
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard AuditFormat(rawValue: format) != nil else {
            throw ValidationError(L("cli.value.choices", format, AuditFormat.allCases.map(\.rawValue).joined(separator: ", ")))
        }
        guard ["error", "warning", "note"].contains(failOn) else {
            throw ValidationError(L("cli.value.choices", failOn, "error, warning, note"))
        }
    }

    func run() throws {
        let session = Session.current!
        let missing = paths.filter { !FileManager.default.fileExists(atPath: $0) }
        guard missing.isEmpty else {
            throw CommandFailure(.inputError, missing.map { .error("input.not-found", at: SourceLocation(file: $0)) })
        }
        let tables = AuditTable.load(paths)
        guard tables.contains(where: { !$0.files.isEmpty && !$0.catalog.entries.isEmpty }) || tables.contains(where: { !$0.diagnostics.isEmpty })
        else { throw CommandFailure(.inputError, [.error("audit.nothing")]) }
        var options = Auditor.Options()
        options.base = base
        options.locales = locales.map { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }
        options.allowUntranslated = Set(allow)
        options.allowVocabulary.formUnion(allow)
        if !sources.isEmpty { options.usedKeys = SourceScanner.keys(under: sources) }
        let auditor: Auditor
        do { auditor = try Auditor(options: options) } catch { throw CommandFailure(.inputError, [error]) }
        var report = auditor.audit(tables)
        if let baseline {
            do { report = try Baseline.read(baseline).apply(to: report) } catch { throw CommandFailure(.inputError, [error]) }
        }
        if let writeBaseline {
            do {
                try OutputFile.write(try Baseline(report.findings).bytes(), to: writeBaseline, options: .init(overwrite: force))
            } catch { throw CommandFailure(.outputError, [error]) }
            session.report(.note("audit.baseline-written", String(report.findings.count), writeBaseline))
        }
        let bytes: [UInt8]
        do {
            bytes = try AuditReporter.render(report, as: AuditFormat(rawValue: format)!, language: session.language, tables: tables,
                                             version: AlmanacVersion.current)
        } catch { throw CommandFailure(.outputError, [error]) }
        if let output, output != "-" {
            do { try OutputFile.write(bytes, to: output, options: .init(overwrite: force)) } catch { throw CommandFailure(.outputError, [error]) }
        } else {
            session.write(bytes)
        }
        let threshold = Diagnostic.Severity(rawValue: failOn) ?? .error
        if report.findings.contains(where: { $0.severity >= threshold }) { throw CommandFailure(.problemsFound) }
    }
}
