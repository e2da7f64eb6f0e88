import ArgumentParser
import AlmanacCore
import Foundation

struct Convert: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(abstract: L("cli.convert.abstract"), discussion: L("cli.convert.discussion"))
    }

    @Argument(help: ArgumentHelp(L("cli.argument.inputs"), valueName: "INPUT")) var inputs: [String]
    @Option(help: ArgumentHelp(L("cli.option.to"), valueName: "FORMAT")) var to: String
    @Option(help: ArgumentHelp(L("cli.option.from"), valueName: "FORMAT")) var from: String?
    @Option(name: .shortAndLong, help: ArgumentHelp(L("cli.option.output"), valueName: "PATH")) var output: String?
    @Option(help: ArgumentHelp(L("cli.option.via"), valueName: "MODEL")) var via: String?
    @Option(name: .customLong("to-locale"), help: ArgumentHelp(L("cli.option.to-locale"), valueName: "LOCALE")) var toLocale: String?
    @Flag(help: ArgumentHelp(L("cli.option.force"))) var force = false
    @Flag(help: ArgumentHelp(L("cli.option.merge"))) var merge = false
    @Flag(help: ArgumentHelp(L("cli.option.strict"))) var strict = false
    @OptionGroup var reading: ReadingOptions
    @Flag(help: ArgumentHelp(L("cli.option.json-report"))) var json = false
    @Option(name: .shortAndLong, help: ArgumentHelp(L("cli.option.jobs"), valueName: "N")) var jobs: Int?
    @Option(help: ArgumentHelp(L("cli.option.report"), valueName: "FILE")) var report: String?
    @Flag var onError: ErrorPolicy = .continueOnError

    enum ErrorPolicy: String, EnumerableFlag {
        case continueOnError, stopOnError

        static func help(for value: ErrorPolicy) -> ArgumentHelp? {
            ArgumentHelp(L(value == .continueOnError ? "cli.option.continue-on-error" : "cli.option.stop-on-error"))
        }
    }
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if inputs.count > 1, output == nil { throw ValidationError(L("convert.needs-output-directory")) }
        if json, output == nil || output == "-" { throw ValidationError(L("convert.json-needs-output")) }
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError(L("convert.stdin-once")) }
        if let jobs, jobs < 1 { throw ValidationError(L("convert.jobs-positive")) }
        if let via, ModelKind(rawValue: via) == nil {
            throw ValidationError(L("convert.unknown-model", via, ModelKind.allCases.map(\.rawValue).joined(separator: ", ")))
        }
    }

    func run() throws {
        let session = Session.current!
        let target = try Arguments.format(to)
        guard target.format.canWrite else { throw CommandFailure.usage(.error("format.cannot-write", target.format.id)) }
        let forced = try from.map(Arguments.format)
        let context = try reading.context()
        var transforms: [(transform: any DocumentTransform, argument: String)] = []
        if let toLocale {
            guard let transform = session.registry.transform(named: "to-locale") else {
                throw CommandFailure.usage(.error("convert.unknown-transform", "to-locale"))
            }
            transforms.append((transform, toLocale))
        }
        // Each folder is a folder layout a format reads as documents (an .lproj tree), or a folder
        // of files to walk.
        let folders = inputs.filter { $0 != "-" && InputFiles.isDirectory($0) }
        let layouts = Dictionary(uniqueKeysWithValues: folders.compactMap { folder in session.registry.folderLayout(of: folder).map { (folder, $0) } })
        let walked = folders.filter { layouts[$0] == nil }
        if !walked.isEmpty, output == nil || output == "-" { throw ValidationError(L("convert.needs-output-directory")) }
        let toDirectory = inputs.count > 1 || !walked.isEmpty || output.map(InputFiles.isDirectory) == true
        if toDirectory, let output {
            do { try OutputFile.makeDirectories(output) } catch { throw CommandFailure(.outputError, [error]) }
        }
        var conversion = Conversion(registry: session.registry, target: target, source: forced, via: via.flatMap(ModelKind.init(rawValue:)),
                                    transforms: transforms, context: context, overwrite: force, merge: merge,
                                    syncOutput: !toDirectory, standardOutput: { bytes in session.write(bytes) })
        conversion.strict = strict

        do { try conversion.checkOptions() } catch { throw CommandFailure.usage(error) }
        conversion.optionsChecked = true

        // What to do, in order: folder layouts as they come, files (given or found in folders) as jobs.
        var reports: [ConversionReport] = []
        var jobs: [Job] = []
        for input in inputs {
            if let layout = layouts[input] {
                let single = output.map { InputFiles.isDirectory($0) || $0.hasSuffix("/") } == false ? output : nil
                let destination: Conversion.Destination? = single == "-" ? .standardOutput : single.map { .file($0, folder: nil) }
                reports += conversion.runFolder(input, layout: layout, to: output == nil ? .standardOutput : destination,
                                                folder: output.flatMap { $0 == "-" ? nil : $0 })
            } else if folders.contains(input) {
                let folder = input.count > 1 && input.hasSuffix("/") ? String(input.dropLast()) : input
                let found = Batch.files(under: folder, skipping: output)
                if found.isEmpty {
                    var report = ConversionReport(input: input, output: nil, to: target.format.id)
                    report.fail(.error("batch.empty", at: SourceLocation(file: input)))
                    reports.append(report)
                }
                for relative in found {
                    jobs.append(Job(input: folder + "/" + relative, destination: batchDestination(relative, registry: session.registry, target: target),
                                    walked: true))
                }
            } else {
                jobs.append(Job(input: input, destination: toDirectory ? batchDestination(input, registry: session.registry, target: target, flat: true)
                                                                     : (output ?? "-"), walked: false))
            }
        }

        // Two inputs that would write one output (`a.ics` and `a.csv` → `a.json`): the later fails.
        var claimed: [String: String] = [:]
        for index in jobs.indices where jobs[index].destination != "-" {
            if let first = claimed[jobs[index].destination] { jobs[index].sameOutputAs = first } else { claimed[jobs[index].destination] = jobs[index].input }
        }
        // Several files at once use the cores by file; one large file reads on a core of its own.
        conversion.readsInParallel = conversion.readsInParallel && jobs.count <= 1
        if let cores = self.jobs { conversion.workers = cores }
        let prepared = conversion
        let batch = Batch(jobs: jobs, workers: max(1, min(self.jobs ?? ProcessInfo.processInfo.activeProcessorCount, jobs.count)),
                          stopOnError: onError == .stopOnError, session: session, showProgress: toDirectory && jobs.count > 1)
        let results = batch.run { job in convertFile(job, conversion: prepared, toDirectory: toDirectory, session: session) }
        reports += results
        // Outputs were renamed into place without flushing them one file at a time: flush them all now.
        if toDirectory { OutputFile.sync(results.filter { $0.status == "converted" }.compactMap { $0.output }) }
        // Skipped and not-started files are counted in the summary, not listed one by one (a rerun
        // skips thousands; an interrupted batch leaves thousands unstarted).
        let batchSummary = toDirectory && jobs.count > 1
        for report in reports {
            for diagnostic in report.diagnostics
            where !(batchSummary && (diagnostic.code.hasPrefix("batch.skipped-") || diagnostic.code == "batch.not-started")) {
                session.report(diagnostic)
            }
        }
        if batchSummary { batch.printSummary(reports: results) }
        var worst = reports.map(\.exitStatus).max() ?? .success
        if let path = self.report {
            do throws(Diagnostic) {
                try OutputFile.write(batch.jsonReport(reports), to: path, options: .init(overwrite: force))
            } catch {
                session.report(error)
                worst = max(worst, .outputError)
            }
        }
        if json { session.write(try CanonicalJSON.encode(reports)) }
        if batch.interrupted { throw CommandFailure(.interrupted) }
        if worst != .success { throw CommandFailure(worst) }
    }

    /// One file to convert, and where its output goes.
    struct Job: Sendable {
        var input: String
        var destination: String
        /// Found by walking a folder: a file Almanac cannot read there is skipped, not failed.
        var walked: Bool
        /// An earlier input that writes the same output.
        var sameOutputAs: String? = nil
    }

    /// `OUTDIR/<relative folders>/<name without its extension><target's extension>`. A path that
    /// would leave OUTDIR (a name with `..` from an archive or a list) is refused when converted.
    private func batchDestination(_ path: String, registry: FormatRegistry, target: any Codec, flat: Bool = false) -> String {
        let relative = flat ? (path == "-" ? "stdin" : OutputNames.baseName(path)) : path
        let directory = OutputNames.parent(of: relative)
        let base = OutputNames.baseName(relative)
        // The stem without the longest extension any format claims (`.agenda.json`, `.ics`).
        let stem = OutputNames.stem(of: base, extensionLength: registry.codecs.map { $0.format.extensionMatch(base) }.max() ?? 0)
        return OutputNames.join(output!, (directory == "." ? "" : directory + "/") + stem + target.format.preferredExtension)
    }

    /// Converts one file; safe to run for several files at once.
    private func convertFile(_ job: Job, conversion: Conversion, toDirectory: Bool, session: Session) -> ConversionReport {
        let input = job.input
        var report = ConversionReport(input: input, output: job.destination, to: conversion.target.format.id)
        if let first = job.sameOutputAs {
            report.fail(.error("batch.same-output", first, at: SourceLocation(file: input)))
            report.exitStatus = .outputError
            return report
        }
        if toDirectory, job.destination != "-", let output, !OutputNames.isInside(job.destination, directory: output) {
            report.fail(.error("batch.outside-output", job.destination, at: SourceLocation(file: input)))
            report.exitStatus = .outputError
            return report
        }
        // In a batch an output that exists is left alone and reported; a rerun picks up where one stopped.
        if toDirectory, !force, !merge, job.destination != "-", OutputFile.exists(job.destination) {
            report.status = "skipped"
            report.diagnostics.append(.note("batch.skipped-exists", at: SourceLocation(file: job.destination)))
            return report
        }
        let destination: Conversion.Destination = job.destination == "-" ? .standardOutput
            : .file(job.destination, folder: output.flatMap { InputFiles.isDirectory($0) || $0.hasSuffix("/") ? $0 : nil })
        report = conversion.run(session.input(input), to: destination)
        // A file found in a folder that no format reads is skipped, not failed.
        if job.walked, report.status == "failed", report.diagnostics.last?.code == "format.undetected" {
            report.status = "skipped"
            report.exitStatus = .success
            report.diagnostics = [.note("batch.skipped-unknown", at: SourceLocation(file: input))]
        }
        return report
    }
}

// The parsed options are only read while files convert on several threads.
extension Convert: @unchecked Sendable {}
