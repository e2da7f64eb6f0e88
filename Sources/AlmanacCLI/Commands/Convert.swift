import ArgumentParser
import AlmanacCore
import Foundation
import AlmanacBackups
import AlmanacCatalogs
import AlmanacCSV
import AlmanacICalendar

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

    struct Report: Encodable, Sendable {
        var input: String
        var output: String?
        var from: String?
        var to: String
        var records: Int?
        var status: String
        var diagnostics: [Diagnostic]

        /// Records a failure: an output problem as it is (it names the output), any other
        /// located in the input; returns the exit status it calls for.
        mutating func fail(_ error: Diagnostic, input: String) -> AlmanacExitCode {
            status = "failed"
            let isOutput = error.code.hasPrefix("output.")
            diagnostics.append(isOutput ? error : error.inFile(input))
            return isOutput ? .outputError : .inputError
        }
    }

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
        let model = via.flatMap(ModelKind.init(rawValue:))
        // Each folder is an .lproj tree (one catalog per table) or a folder of files to walk.
        let folders = inputs.filter { $0 != "-" && InputFiles.isDirectory($0) }
        let trees = Set(folders.filter(CatalogTree.isTree))
        let walked = folders.filter { !trees.contains($0) }
        if !walked.isEmpty, output == nil || output == "-" { throw ValidationError(L("convert.needs-output-directory")) }
        let toDirectory = inputs.count > 1 || !walked.isEmpty || output.map(InputFiles.isDirectory) == true
        if toDirectory, let output {
            do { try OutputFile.makeDirectories(output) } catch { throw CommandFailure(.outputError, [error]) }
        }

        // What to do, in order: .lproj trees as they come, files (given or found in folders) as jobs.
        var reports: [Report] = []
        var worst = AlmanacExitCode.success
        var jobs: [Job] = []
        for input in inputs {
            if folders.contains(input) {
                if trees.contains(input) {
                    convertTree(input, target: target, model: model, context: context, toDirectory: toDirectory, session: session,
                                reports: &reports, worst: &worst)
                } else {
                    let folder = input.count > 1 && input.hasSuffix("/") ? String(input.dropLast()) : input
                    let found = Batch.files(under: folder, skipping: output)
                    if found.isEmpty {
                        reports.append(Report(input: input, to: target.format.id, status: "failed",
                                              diagnostics: [.error("batch.empty", at: SourceLocation(file: input))]))
                        worst = max(worst, .inputError)
                    }
                    for relative in found {
                        jobs.append(Job(input: folder + "/" + relative, destination: batchDestination(relative, registry: session.registry, target: target),
                                        walked: true))
                    }
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
        let batch = Batch(jobs: jobs, workers: max(1, min(self.jobs ?? ProcessInfo.processInfo.activeProcessorCount, jobs.count)),
                          stopOnError: onError == .stopOnError, session: session, showProgress: toDirectory && jobs.count > 1)
        let results = batch.run { job in
            convertFile(job, target: target, forced: forced, context: context, model: model, toDirectory: toDirectory, session: session)
        }
        for (report, status) in results {
            reports.append(report)
            worst = max(worst, status)
        }
        // Outputs were renamed into place without flushing their folders one file at a time.
        if toDirectory { OutputFile.syncDirectories(of: results.filter { $0.0.status == "converted" }.compactMap { $0.0.output }) }
        // Skipped and not-started files are counted in the summary, not listed one by one (a rerun
        // skips thousands; an interrupted batch leaves thousands unstarted).
        let batchSummary = toDirectory && jobs.count > 1
        for report in reports {
            for diagnostic in report.diagnostics
            where !(batchSummary && (diagnostic.code.hasPrefix("batch.skipped-") || diagnostic.code == "batch.not-started")) {
                session.report(diagnostic)
            }
        }
        if batchSummary { batch.printSummary(reports: results.map { $0.0 }) }
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
        return directoryPath(output!, name: (directory == "." ? "" : directory + "/") + stem, target: target)
    }

    /// An Xcode project's .lproj folders: each table becomes one catalog of every locale.
    private func convertTree(_ input: String, target: any Codec, model: ModelKind?, context: CodecContext, toDirectory: Bool, session: Session,
                             reports: inout [Report], worst: inout AlmanacExitCode) {
        let tables = CatalogTree.read(input, context: context)
        guard !tables.isEmpty else {
            reports.append(Report(input: input, to: target.format.id, status: "failed",
                                  diagnostics: [.error("convert.empty-directory", at: SourceLocation(file: input))]))
            worst = max(worst, .inputError)
            return
        }
        let intoDirectory = toDirectory || tables.count > 1
        if intoDirectory, let output { try? OutputFile.makeDirectories(output) }
        for table in tables {
            var report = Report(input: input + "/*.lproj/" + table.name, from: "lproj", to: target.format.id,
                                records: table.catalog.entries.count, status: "converted", diagnostics: table.diagnostics)
            if intoDirectory, output == nil {
                report.status = "failed"
                report.diagnostics.append(.error("convert.needs-output-directory-tables", String(tables.count)))
                worst = max(worst, .usage)
            } else {
                let destination = intoDirectory ? directoryPath(output!, name: table.name, target: target) : (output ?? "-")
                finish(.catalog(table.catalog), input: input, name: table.name, destination: destination, target: target,
                       model: model, context: context, session: session, report: &report, worst: &worst)
            }
            reports.append(report)
        }
    }

    /// Converts one file; safe to run for several files at once.
    private func convertFile(_ job: Job, target: any Codec, forced: (any Codec)?, context: CodecContext, model: ModelKind?, toDirectory: Bool,
                             session: Session) -> (Report, AlmanacExitCode) {
        let input = job.input
        var report = Report(input: input, output: job.destination, to: target.format.id, status: "converted", diagnostics: [])
        var worst = AlmanacExitCode.success
        if let first = job.sameOutputAs {
            report.status = "failed"
            report.diagnostics.append(.error("batch.same-output", first, at: SourceLocation(file: input)))
            return (report, .outputError)
        }
        if toDirectory, job.destination != "-", let output, !OutputNames.isInside(job.destination, directory: output) {
            report.status = "failed"
            report.diagnostics.append(.error("batch.outside-output", job.destination, at: SourceLocation(file: input)))
            return (report, .outputError)
        }
        // In a batch an output that exists is left alone and reported; a rerun picks up where one stopped.
        if toDirectory, !force, !merge, job.destination != "-", OutputFile.exists(job.destination) {
            report.status = "skipped"
            report.diagnostics.append(.note("batch.skipped-exists", at: SourceLocation(file: job.destination)))
            return (report, .success)
        }
        let opened: (codec: any Codec, basis: FormatRegistry.Basis, input: CodecInput)
        do {
            opened = try Loader.open(input, codec: forced, session: session)
        } catch {
            if job.walked, error.code == "format.undetected" {
                report.status = "skipped"
                report.diagnostics.append(.note("batch.skipped-unknown", at: SourceLocation(file: input)))
                return (report, .success)
            }
            let status = report.fail(error, input: input)
            return (report, status)
        }
        report.from = opened.codec.format.id
        let destination = job.destination
        var conversionContext = context
        conversionContext.options["file"] = input == "-" ? nil : input
        do throws(Diagnostic) {
            // Calendars and days written as tables stream, in constant memory.
            let streamed: ((([UInt8]) throws(Diagnostic) -> Void) throws(Diagnostic) -> (records: Int, diagnostics: [Diagnostic]))?
            switch (opened.codec, target, model) {
            case (let source as CSVCodec, let sink as CSVCodec, .agenda?):
                streamed = { (write) throws(Diagnostic) in
                    try source.streamAgenda(opened.input, to: sink, readContext: conversionContext, writeContext: context, write: write)
                }
            case (let source as ICalendarCodec, let sink as CSVCodec, .agenda?), (let source as ICalendarCodec, let sink as CSVCodec, nil):
                streamed = { (write) throws(Diagnostic) in
                    try sink.streamCalendar(opened.input, reader: source.reader(context), writeContext: context, write: write)
                }
            default:
                streamed = nil
            }
            if let streamed {
                let file = destination == "-" ? nil : try OutputFile.Stream(destination, options: .init(overwrite: force, syncDirectory: !toDirectory))
                let result = try streamed { (bytes) throws(Diagnostic) in
                    if let file { try file.write(bytes) } else { session.write(bytes) }
                }
                try file?.commit()
                report.records = result.records
                report.diagnostics += result.diagnostics.map { $0.inFile(input) }
                return (report, worst)
            }
            var decoded = try opened.codec.decode(opened.input, context: context)
            decoded.diagnostics = decoded.diagnostics.map { $0.inFile(input) }
            report.records = decoded.document.recordCount
            report.diagnostics += decoded.diagnostics
            // An input with errors is not converted: nothing half-valid is written.
            let errors = decoded.diagnostics.filter { $0.severity == .error }
            if !errors.isEmpty {
                throw Diagnostic.error("backup.invalid", String(errors.count), at: SourceLocation(file: input))
            }
            let name = input == "-" ? "stdin" : OutputNames.stem(of: input, format: opened.codec.format)
            finish(decoded.document, input: input, name: name, destination: destination, target: target, model: model,
                   context: context, session: session, report: &report, worst: &worst, syncDirectory: !toDirectory)
        } catch {
            worst = max(worst, report.fail(error, input: input))
        }
        return (report, worst)
    }

    /// Converts a decoded document to the target's model (through `--via`, drafting `--to-locale`),
    /// encodes it and writes it; failures go into the report.
    private func finish(_ document: Document, input: String, name: String, destination: String, target: any Codec, model: ModelKind?,
                        context: CodecContext, session: Session, report: inout Report, worst: inout AlmanacExitCode,
                        syncDirectory: Bool = true) {
        var conversionContext = context
        conversionContext.options["file"] = input == "-" ? nil : input
        conversionContext.options["target-format"] = target.format.id
        report.output = destination
        do throws(Diagnostic) {
            var document = document
            if let model {
                let (converted, notes) = try session.registry.convert(document, to: model, context: conversionContext)
                report.diagnostics += notes.map { $0.inFile(input) }
                document = converted
            }
            let (converted, notes) = try session.registry.convert(document, to: target.format.model, context: conversionContext)
            report.diagnostics += notes.map { $0.inFile(input) }
            document = converted
            if let toLocale {
                guard case .catalog(let catalog) = document else {
                    throw Diagnostic.error("convert.to-locale-needs-catalog", document.kind.rawValue)
                }
                let locale = CatalogLocales.catalogName(toLocale, among: catalog.locales)
                let (drafted, count, kept) = try ScriptDrafts.draft(catalog, target: locale)
                report.diagnostics.append(.note("catalog.drafted", String(count), locale, String(kept), at: SourceLocation(file: input)))
                document = .catalog(drafted)
            }
            // A catalog of several locales written as .strings into a folder: an .lproj tree.
            if case .catalog(let catalog) = document, target is StringsCodec || target is StringsdictCodec, catalog.locales.count > 1,
               context.locale == nil, context.options["locale"] == nil, let output, InputFiles.isDirectory(output) || output.hasSuffix("/") {
                let table = catalog.presentation["table"] ?? name
                let directory = output.hasSuffix("/") ? String(output.dropLast()) : output
                report.output = directory + "/*.lproj/" + table
                for file in try CatalogTree.files(of: catalog, table: table, context: context) {
                    let path = directory + "/" + file.path
                    try OutputFile.makeDirectories(OutputNames.parent(of: path))
                    try OutputFile.write(file.bytes, to: path, options: .init(overwrite: force))
                }
                return
            }
            // Restoring into an existing backup: records merge by id and updatedAt.
            let isBackup = target.format.model == .backup
            if merge, isBackup, destination != "-", OutputFile.exists(destination), case .backup(let incoming) = document {
                let existing = try target.decode(CodecInput(contentsOf: destination), context: context)
                guard case .backup(let old) = existing.document, !existing.diagnostics.contains(where: { $0.severity == .error }) else {
                    throw Diagnostic.error("backup.invalid", "1", at: SourceLocation(file: destination))
                }
                let (merged, summary) = try BackupMerge.merge(existing: old, incoming: incoming)
                report.diagnostics.append(.note("backup.merged", String(summary.added), String(summary.updated), String(summary.keptNewer),
                                                String(summary.unchanged), String(summary.keptExisting), at: SourceLocation(file: destination)))
                document = .backup(merged)
            }
            let encoded = try target.encode(document, context: context)
            report.diagnostics += encoded.diagnostics.map { $0.inFile(destination) }
            if destination == "-" {
                session.write(encoded.bytes)
            } else {
                // A replaced backup is kept as NAME.bak.
                try OutputFile.write(encoded.bytes, to: destination,
                                     options: .init(overwrite: force || (merge && isBackup), keepBackup: isBackup, syncDirectory: syncDirectory))
            }
        } catch {
            worst = max(worst, report.fail(error, input: input))
        }
    }

    private func directoryPath(_ output: String, name: String, target: any Codec) -> String {
        let directory = output.hasSuffix("/") ? String(output.dropLast()) : output
        return directory + "/" + name + (target.format.extensions.first ?? ".\(target.format.id)")
    }

}

enum OutputNames {
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }

    static func baseName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Whether `path`, with `.` and `..` resolved as written, stays inside `directory`.
    static func isInside(_ path: String, directory: String) -> Bool {
        func components(_ text: String) -> [Substring] {
            var result: [Substring] = []
            for part in text.split(separator: "/") where part != "." {
                if part == ".." {
                    if result.isEmpty || result.last == ".." { result.append(part) } else { result.removeLast() }
                } else {
                    result.append(part)
                }
            }
            return result
        }
        let inside = components(path), base = components(directory)
        return inside.count > base.count && Array(inside.prefix(base.count)) == base
    }

    /// The file name without directories and without the extension its format matched.
    static func stem(of path: String, format: FormatDescription) -> String {
        stem(of: path, extensionLength: format.extensionMatch(baseName(path)))
    }

    /// The file name without its last `extensionLength` characters (a format's extension), or
    /// without its last `.…` when no extension matched or it is the whole name (`todo.txt`).
    static func stem(of path: String, extensionLength match: Int) -> String {
        let base = baseName(path)
        if match > 0 && match < base.count { return String(base.dropLast(match)) }
        if let dot = base.lastIndex(of: "."), dot != base.startIndex { return String(base[..<dot]) }
        return base
    }
}

// The parsed options are only read while files convert on several threads.
extension Convert: @unchecked Sendable {}

extension AlmanacExitCode: Comparable {
    public static func < (lhs: AlmanacExitCode, rhs: AlmanacExitCode) -> Bool { lhs.rawValue < rhs.rawValue }
}
