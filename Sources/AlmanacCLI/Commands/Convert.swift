import ArgumentParser
import AlmanacCore
import AlmanacKit
import Foundation

struct Convert: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "convert", abstract: L(.cliConvertAbstract), discussion: L(.cliConvertDiscussion))
    }

    @Argument(help: ArgumentHelp(L(.cliArgumentInputs), valueName: "INPUT"), completion: .file()) var inputs: [String] = []
    @Option(help: ArgumentHelp(L(.cliOptionTo), valueName: "FORMAT"), completion: .list(Completions.writtenFormats)) var to: String?
    @Option(help: ArgumentHelp(L(.cliOptionFrom), valueName: "FORMAT"), completion: .list(Completions.readFormats)) var from: String?
    @Option(name: .shortAndLong, help: ArgumentHelp(L(.cliOptionOutput), valueName: "PATH"), completion: .file()) var output: String?
    @Option(help: ArgumentHelp(L(.cliOptionVia), valueName: "MODEL"), completion: .list(ModelKind.allCases.map(\.rawValue))) var via: String?
    @Option(name: .customLong("to-locale"), help: ArgumentHelp(L(.cliOptionToLocale), valueName: "LOCALE"), completion: .list(["zh-Hant", "zh-Hans"])) var toLocale: String?
    @Flag(help: ArgumentHelp(L(.cliOptionForce))) var force = false
    @Flag(help: ArgumentHelp(L(.cliOptionMerge))) var merge = false
    @Flag(help: ArgumentHelp(L(.cliOptionStrict))) var strict = false
    @OptionGroup var reading: ReadingOptions
    @Flag(help: ArgumentHelp(L(.cliOptionJsonReport))) var json = false
    @Flag(help: ArgumentHelp(L(.cliOptionVerbose))) var verbose = false
    @Option(name: .shortAndLong, help: ArgumentHelp(L(.cliOptionJobs), valueName: "N")) var jobs: Int?
    @Option(help: ArgumentHelp(L(.cliOptionReport), valueName: "FILE"), completion: .file()) var report: String?
    @Option(help: ArgumentHelp(L(.cliOptionManifest), valueName: "FILE"), completion: .file()) var manifest: String?
    @Option(help: ArgumentHelp(L(.cliOptionShard), valueName: "K/N")) var shard: String?
    @Flag var onError: ErrorPolicy = .continueOnError

    enum ErrorPolicy: String, EnumerableFlag {
        case continueOnError, stopOnError

        static func help(for value: ErrorPolicy) -> ArgumentHelp? {
            ArgumentHelp(L(value == .continueOnError ? .cliOptionContinueOnError : .cliOptionStopOnError))
        }
    }
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if manifest == nil, inputs.isEmpty { throw ValidationError(L(.convertNeedsInput)) }
        if manifest != nil, !inputs.isEmpty { throw ValidationError(L(.convertManifestAndInputs)) }
        if manifest == nil, to == nil { throw ValidationError(L(.convertNeedsFormat)) }
        if inputs.count > 1, output == nil { throw ValidationError(L(.convertNeedsOutputDirectory)) }
        if json, output == nil || output == "-" { throw ValidationError(L(.convertJsonNeedsOutput)) }
        if report == "-", json || output == "-" || (output == nil && manifest == nil) { throw ValidationError(L(.convertReportAndOutput)) }
        if let shard, BatchShard(shard) == nil { throw ValidationError(L(.convertShardInvalid(shard: shard))) }
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError(L(.convertStdinOnce)) }
        if let jobs, jobs < 1 { throw ValidationError(L(.convertJobsPositive)) }
        if let via, ModelKind(rawValue: via) == nil {
            throw ValidationError(L(.convertUnknownModel(name: via, models: ModelKind.allCases.map(\.rawValue).joined(separator: ", "))))
        }
    }

    func run() throws {
        let session = Session.current!
        var options = ConversionBatch.Options(target: to, source: from)
        options.via = via.flatMap(ModelKind.init(rawValue:))
        if let toLocale { options.transforms = [("to-locale", toLocale)] }
        options.context = try reading.context()
        options.overwrite = force
        options.merge = merge
        options.strict = strict
        options.output = output
        options.shard = shard.flatMap(BatchShard.init)
        options.workers = jobs
        options.stopOnError = onError == .stopOnError
        options.standardOutput = { bytes in session.write(bytes) }
        options.standardInput = { session.standardInput() }
        var list: BatchManifest?
        if let manifest {
            do throws(Diagnostic) {
                list = manifest == "-" ? BatchManifest(session.standardInput(), name: "manifest") : try BatchManifest(contentsOf: manifest)
            } catch {
                throw CommandFailure(.inputError, [error])
            }
        }
        let batch: ConversionBatch
        do {
            batch = try ConversionBatch(inputs: inputs, manifest: list, registry: session.registry, options: options)
        } catch {
            // A folder to walk with nowhere to write is a usage error, shown with the usage.
            if error.diagnostic.code == .convertNeedsOutputDirectory { throw ValidationError(L(.convertNeedsOutputDirectory)) }
            throw CommandFailure(error.exitCode, [error.diagnostic])
        }
        for note in batch.removeAbandonedFiles() { session.report(note) }
        // `--report -`: one JSON line per file on standard output as it finishes.
        let streaming = report == "-"
        // (The lock guards a count, not Void: ThreadSanitizer reports accesses to a zero-sized
        // value under a pthread mutex as races.)
        let streamed = Locked(0)
        let streamReport: @Sendable (ConversionReport) -> Void = { report in
            let line = report.jsonLine()
            streamed.withLock { count in
                session.write(line)
                count += 1
            }
        }
        // Skipped and not-started files are counted in the summary, not listed one by one (a rerun
        // skips thousands; an interrupted batch leaves thousands unstarted).
        let batchSummary = batch.writesToFolder && batch.jobs.count > 1
        let progress = BatchProgress(batch, session: session, showProgress: batchSummary)
        let outcome = progress.run(finished: streaming ? streamReport : nil)
        if streaming { outcome.fileReports.filter { $0.status == .notStarted }.forEach(streamReport) }
        let reports = outcome.reports
        if !streaming {
            // A full disk fails the files in flight at once, each for the same reason: one line says it.
            let full = batchSummary ? reports.flatMap(\.diagnostics).filter { $0.code == .outputNoSpace } : []
            let shown = reports.lazy.flatMap(\.diagnostics).filter { diagnostic in
                !(batchSummary && [.batchSkippedExists, .batchSkippedUnknown, .batchNotStarted, .outputNoSpace].contains(diagnostic.code))
            }
            // Warnings grouped by kind (2,000 exports dropping the same field are one line with
            // counts, not 2,000; a catalog written as 22 locale files says a loss once), and what a
            // table for people leaves out by design in one line; failures always one by one.
            if !verbose {
                let lines = WarningGroups(shown).lines(in: session.language, inline: !batchSummary)
                if !lines.isEmpty { session.printErrorRaw(lines.joined(separator: "\n") + "\n") }
            } else {
                session.report(shown)
            }
            if let first = full.first {
                session.report(.error(.batchNoSpaceSummary(count: String(full.count), file: first.location?.file ?? "")))
            }
        }
        if batchSummary { progress.printSummary(outcome) }
        var worst = reports.map(\.exitStatus).max() ?? .success
        if let path = self.report, !streaming {
            do throws(Diagnostic) {
                try OutputFile.write(outcome.reportFile(), to: path, options: .init(overwrite: force))
            } catch {
                session.report(error)
                worst = max(worst, .outputError)
            }
        }
        if json { session.write(try CanonicalJSON.encode(reports)) }
        if outcome.interrupted { throw CommandFailure(.interrupted) }
        if worst != .success { throw CommandFailure(worst) }
    }
}
