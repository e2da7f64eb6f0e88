import ArgumentParser
import AlmanacCore
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
        if let shard, Shard(argument: shard) == nil { throw ValidationError(L(.convertShardInvalid(shard: shard))) }
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError(L(.convertStdinOnce)) }
        if let jobs, jobs < 1 { throw ValidationError(L(.convertJobsPositive)) }
        if let via, ModelKind(rawValue: via) == nil {
            throw ValidationError(L(.convertUnknownModel(name: via, models: ModelKind.allCases.map(\.rawValue).joined(separator: ", "))))
        }
    }

    func run() throws {
        let session = Session.current!
        let defaultTarget = try to.map(Arguments.format)
        if let defaultTarget, !defaultTarget.format.canWrite { throw CommandFailure.usage(.error(.formatCannotWrite(format: defaultTarget.format.id))) }
        let forced = try from.map(Arguments.format)
        let context = try reading.context()
        var transforms: [(transform: any DocumentTransform, argument: String)] = []
        if let toLocale {
            guard let transform = session.registry.transform(named: "to-locale") else {
                throw CommandFailure.usage(.error(.convertUnknownTransform(name: "to-locale")))
            }
            transforms.append((transform, toLocale))
        }
        let shard = self.shard.flatMap(Shard.init(argument:))
        // Each folder is a folder layout a format reads as documents (an .lproj tree), or a folder
        // of files to walk.
        let folders = inputs.filter { $0 != "-" && InputFiles.isDirectory($0) }
        let layouts = Dictionary(uniqueKeysWithValues: folders.compactMap { folder in session.registry.folderLayout(of: folder).map { (folder, $0) } })
        let walked = folders.filter { layouts[$0] == nil }
        if !walked.isEmpty, output == nil || output == "-" { throw ValidationError(L(.convertNeedsOutputDirectory)) }
        // `-o out/` names a folder even before it exists.
        let toDirectory = manifest != nil || inputs.count > 1 || !walked.isEmpty || output.map(InputFiles.isDirectory) == true
            || (output?.hasSuffix("/") == true && layouts.isEmpty)
        // The output folder: the user's word; what goes beneath it is named from the inputs and
        // written without following links out of it.
        var outputFolder: OutputFolder?
        if toDirectory, let output {
            do { outputFolder = try OutputFolder(output) } catch { throw CommandFailure(.outputError, [error]) }
        }
        // One conversion for each pair of formats (a manifest's lines may each name their own).
        func prepare(_ target: any Codec, from source: (any Codec)?) throws(Diagnostic) -> Conversion {
            var conversion = Conversion(registry: session.registry, target: target, source: source, via: via.flatMap(ModelKind.init(rawValue:)),
                                        transforms: transforms, context: context, overwrite: force, merge: merge,
                                        syncOutput: !toDirectory, standardOutput: { bytes in session.write(bytes) })
            conversion.strict = strict
            try conversion.checkOptions()
            conversion.optionsChecked = true
            return conversion
        }
        var conversions: [Conversion] = []
        if let defaultTarget, manifest == nil {
            do { conversions.append(try prepare(defaultTarget, from: forced)) } catch { throw CommandFailure.usage(error) }
        }

        // What to do, in order: folder layouts as they come, files (given, found in folders or
        // listed in a manifest) as jobs.
        var reports: [ConversionReport] = []
        var jobs: [Job] = []
        if let manifest {
            jobs = try manifestJobs(manifest, session: session, defaultTarget: defaultTarget, forced: forced, conversions: &conversions, prepare: prepare)
            for index in jobs.indices where jobs[index].relative != nil { jobs[index].beneath = outputFolder }
        }
        for input in inputs {
            if let shard, layouts[input] != nil, !shard.contains(input) { continue }
            let conversion = conversions[0]
            if let layout = layouts[input] {
                let single = output.map { InputFiles.isDirectory($0) || $0.hasSuffix("/") } == false ? output : nil
                let destination: Conversion.Destination? = single == "-" ? .standardOutput : single.map { .file($0, folder: nil) }
                reports += conversion.runFolder(input, layout: layout, to: output == nil ? .standardOutput : destination,
                                                folder: output.flatMap { $0 == "-" ? nil : $0 })
            } else if folders.contains(input) {
                let folder = input.count > 1 && input.hasSuffix("/") ? String(input.dropLast()) : input
                let found = Batch.files(under: folder, skipping: output)
                if found.isEmpty {
                    var report = ConversionReport(input: input, output: nil, to: conversion.target.format.id)
                    report.fail(.error(.batchEmpty, at: SourceLocation(file: input)))
                    reports.append(report)
                }
                for relative in found {
                    jobs.append(Job(input: folder + "/" + relative, beneath: outputFolder!,
                                    relative: batchName(relative, registry: session.registry, target: conversion.target), skipUnknown: true))
                }
            } else if toDirectory {
                jobs.append(Job(input: input, beneath: outputFolder!, relative: batchName(input, registry: session.registry, target: conversion.target, flat: true),
                                skipUnknown: false))
            } else {
                jobs.append(Job(input: input, destination: output ?? "-", skipUnknown: false))
            }
        }
        // A share of the batch (`--shard K/N`), by output path: see `Shard`.
        // The key is the output path inside -o, so workers that mount the output at different
        // paths still agree.
        if let shard {
            let root = output.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
            jobs = jobs.filter { job in
                guard job.problem == nil else { return shard.contains("\(job.input)\n\(job.line ?? 0)") }
                if let root, job.destination.hasPrefix(root) { return shard.contains(String(job.destination.dropFirst(root.count))) }
                return shard.contains(job.destination)
            }
        }

        // Two inputs that would write one output (`a.ics` and `a.csv` → `a.json`): the later fails.
        var claimed: [String: String] = [:]
        for index in jobs.indices where jobs[index].destination != "-" && jobs[index].problem == nil {
            if let first = claimed[jobs[index].destination] { jobs[index].sameOutputAs = first } else { claimed[jobs[index].destination] = jobs[index].input }
        }
        // Several files at once use the cores by file; one large file reads on a core of its own,
        // unless `--jobs 1` asked for one core (then reading, converting and writing take turns on it).
        for index in conversions.indices {
            conversions[index].readsInParallel = conversions[index].readsInParallel && jobs.count <= 1 && self.jobs != 1
            if let cores = self.jobs { conversions[index].workers = cores }
        }
        // Temporary files that a run stopped at once (SIGKILL) left where these outputs go.
        var cleaned: Set<String> = []
        for job in jobs where job.problem == nil && job.destination != "-" && cleaned.insert(OutputNames.parent(of: job.destination)).inserted {
            let removed = if let beneath = job.beneath, let relative = job.relative { beneath.removeAbandoned(besides: relative) }
                else { OutputFile.removeAbandoned(in: OutputNames.parent(of: job.destination)) }
            if !removed.isEmpty {
                session.report(.note(.outputRemovedAbandoned(count: String(removed.count)), at: SourceLocation(file: OutputNames.parent(of: job.destination))))
            }
        }
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
        if streaming { reports.forEach(streamReport) }
        let prepared = conversions
        let batch = Batch(jobs: jobs, workers: max(1, min(self.jobs ?? ProcessInfo.processInfo.activeProcessorCount, jobs.count)),
                          stopOnError: onError == .stopOnError, session: session, showProgress: toDirectory && jobs.count > 1)
        let results = batch.run(finished: streaming ? streamReport : nil) { job in
            convertFile(job, conversions: prepared, toDirectory: toDirectory, session: session)
        }
        if streaming { results.filter { $0.status == .notStarted }.forEach(streamReport) }
        reports += results
        // Outputs were renamed into place without flushing them one file at a time: flush them all now.
        if toDirectory {
            let converted = Set(results.indices.filter { results[$0].status == .converted })
            outputFolder?.sync(jobs.indices.filter { converted.contains($0) && jobs[$0].beneath != nil }.compactMap { jobs[$0].relative })
            OutputFile.sync(jobs.indices.filter { converted.contains($0) && jobs[$0].beneath == nil }.map { jobs[$0].destination })
        }
        // Skipped and not-started files are counted in the summary, not listed one by one (a rerun
        // skips thousands; an interrupted batch leaves thousands unstarted).
        let batchSummary = toDirectory && jobs.count > 1
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
        if batchSummary { batch.printSummary(reports: results) }
        var worst = reports.map(\.exitStatus).max() ?? .success
        if let path = self.report, !streaming {
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
        /// The output path as reports show it (`-` for standard output).
        var destination: String
        /// The output folder `relative` is written beneath, without following links (a batch's
        /// outputs, a manifest's relative ones), or nil for a path the user named.
        var beneath: OutputFolder? = nil
        var relative: String? = nil
        /// Found by walking a folder (or so marked in a manifest): a file Almanac cannot read is
        /// skipped, not failed.
        var skipUnknown: Bool
        /// Which of the prepared conversions converts it.
        var conversion = 0
        /// The manifest line that listed it, and the `id` the line gave.
        var line: Int? = nil
        var id: JSONValue? = nil
        /// What is wrong with its manifest line: reported as the file's failure, nothing converted.
        var problem: Diagnostic? = nil
        /// An earlier input that writes the same output.
        var sameOutputAs: String? = nil

        init(input: String, destination: String, skipUnknown: Bool, line: Int? = nil) {
            self.input = input
            self.destination = destination
            self.skipUnknown = skipUnknown
            self.line = line
        }

        /// A job whose output is `relative` beneath `folder`.
        init(input: String, beneath folder: OutputFolder, relative: String, skipUnknown: Bool) {
            self.init(input: input, destination: folder.display(relative), skipUnknown: skipUnknown)
            beneath = folder
            self.relative = relative
        }

        /// Where the conversion writes; `layouts` is where a folder layout goes for a path the user named.
        func target(layouts: String?) -> Conversion.Destination {
            if destination == "-" { return .standardOutput }
            if let beneath, let relative { return .beneath(beneath, relative) }
            return .file(destination, folder: layouts)
        }
    }

    /// The jobs a manifest lists (see `Manifest`), preparing a conversion for each pair of formats
    /// its lines name. A line that cannot be a job is one with its `problem`.
    private func manifestJobs(_ path: String, session: Session, defaultTarget: (any Codec)?, forced: (any Codec)?, conversions: inout [Conversion],
                              prepare: (any Codec, (any Codec)?) throws(Diagnostic) -> Conversion) throws -> [Job] {
        var bytes: [UInt8] = []
        if path == "-" {
            bytes = session.standardInput()
        } else {
            do throws(Diagnostic) {
                try FileChunks.read(path, chunkSize: 1 << 20) { chunk in bytes += chunk }
            } catch {
                throw CommandFailure(.inputError, [error])
            }
        }
        let name = path == "-" ? "manifest" : path
        var prepared: [String: Result<Int, Diagnostic>] = [:]
        var jobs: [Job] = []
        for (line, parsed) in Manifest.parse(bytes, name: name) {
            let here = SourceLocation(file: name, line: line)
            var job = Job(input: "", destination: "", skipUnknown: false, line: line)
            do throws(Diagnostic) {
                let entry = try parsed.get()
                job.input = entry.input
                job.skipUnknown = entry.skipUnknown
                job.id = entry.id
                guard let targetName = entry.to ?? to else { throw Diagnostic.error(.convertNeedsFormat, at: here) }
                let key = (entry.from ?? from ?? "") + "\u{0}" + targetName
                if prepared[key] == nil {
                    prepared[key] = Result { () throws(Diagnostic) -> Int in
                        let target = try session.registry.require(targetName)
                        guard target.format.canWrite else { throw Diagnostic.error(.formatCannotWrite(format: target.format.id)) }
                        let source = try (entry.from ?? from).map { name throws(Diagnostic) in try session.registry.require(name) }
                        conversions.append(try prepare(target, source))
                        return conversions.count - 1
                    }
                }
                do { job.conversion = try prepared[key]!.get() } catch {
                    // An unknown format or a refused option, named at the line that asked for it.
                    var located = error
                    located.location = here
                    throw located
                }
                let target = conversions[job.conversion].target
                // A relative output goes beneath -o (`relative` is set; the jobs are given the folder
                // once it is made); an absolute one, or any without -o, is a path the user named.
                let name = batchName(entry.input, registry: session.registry, target: target, flat: true)
                switch entry.output {
                case .some(let given) where !given.hasPrefix("/") && output != nil:
                    let relative = Self.normalized(given.hasSuffix("/") ? given + name : given)
                    job.destination = OutputNames.join(output!, relative)
                    job.relative = relative
                case .some(let given):
                    job.destination = given.hasSuffix("/") ? OutputNames.join(given, name) : given
                case .none:
                    guard let output else { throw Diagnostic.error(.manifestNoOutput, at: here) }
                    job.destination = OutputNames.join(output, name)
                    job.relative = name
                }
            } catch {
                job.problem = error
                if job.input.isEmpty { job.input = name + ":" + String(line) }
            }
            jobs.append(job)
        }
        return jobs
    }

    /// `<relative folders>/<name without its extension><target's extension>`, the output's place
    /// beneath -o (`flat`: the name alone). A path that would leave -o (a name with `..` from an
    /// archive or a list) is refused when converted.
    private func batchName(_ path: String, registry: FormatRegistry, target: any Codec, flat: Bool = false) -> String {
        let relative = flat ? (path == "-" ? "stdin" : OutputNames.baseName(path)) : path
        let directory = OutputNames.parent(of: relative)
        let base = OutputNames.baseName(relative)
        // The stem without the longest extension any format claims (`.agenda.json`, `.ics`).
        let stem = OutputNames.stem(of: base, extensionLength: registry.longestExtension(of: base))
        return (directory == "." ? "" : directory + "/") + stem + target.format.preferredExtension
    }

    /// A manifest's relative output as a path of names: `./` and doubled slashes, which a person
    /// or a script writes, dropped (a `..` stays, and is refused when the file converts).
    static func normalized(_ relative: String) -> String {
        relative.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
    }

    /// Converts one file; safe to run for several files at once.
    private func convertFile(_ job: Job, conversions: [Conversion], toDirectory: Bool, session: Session) -> ConversionReport {
        var report = convertFile(job, conversion: job.problem == nil ? conversions[job.conversion] : nil, toDirectory: toDirectory, session: session)
        report.manifestLine = job.line
        report.id = job.id
        return report
    }

    private func convertFile(_ job: Job, conversion: Conversion?, toDirectory: Bool, session: Session) -> ConversionReport {
        let input = job.input
        guard let conversion else {
            var report = ConversionReport(input: input, output: nil, to: "", status: .failed, diagnostics: [job.problem!])
            report.exitStatus = .inputError
            return report
        }
        var report = ConversionReport(input: input, output: job.destination, to: conversion.target.format.id)
        if let first = job.sameOutputAs {
            report.fail(.error(.batchSameOutput(other: first), at: SourceLocation(file: input)))
            report.exitStatus = .outputError
            return report
        }
        // A manifest's relative output that climbs, or its absolute one outside -o.
        let outside = if let relative = job.relative { OutputNames.climbs(relative) }
            else { toDirectory && job.destination != "-" && output.map { !OutputNames.isInside(job.destination, directory: $0) } == true }
        if outside {
            report.fail(.error(.batchOutsideOutput(path: job.destination), at: SourceLocation(file: input)))
            report.exitStatus = .outputError
            return report
        }
        // In a batch an output that exists is left alone and reported; a rerun picks up where one
        // stopped. A link in its place, or on the way to it, is refused.
        if toDirectory, !force, !merge, job.destination != "-" {
            do throws(Diagnostic) {
                let exists = if let beneath = job.beneath, let relative = job.relative { try beneath.contains(relative) }
                    else { OutputFile.exists(job.destination) }
                if exists {
                    report.status = .skipped
                    report.diagnostics.append(.note(.batchSkippedExists, at: SourceLocation(file: job.destination)))
                    return report
                }
            } catch {
                report.fail(error)
                report.exitStatus = .outputError
                return report
            }
        }
        // A batch's -o is a folder (not asked of the file system for each file).
        let destination = job.target(layouts: output.flatMap { toDirectory || InputFiles.isDirectory($0) || $0.hasSuffix("/") ? $0 : nil })
        report = conversion.run(session.input(input), to: destination)
        // A file found in a folder that no format reads is skipped, not failed.
        if job.skipUnknown, report.status == .failed, report.diagnostics.last?.code == .formatUndetected {
            report.status = .skipped
            report.exitStatus = .success
            report.diagnostics = [.note(.batchSkippedUnknown, at: SourceLocation(file: input))]
        }
        // The output appeared while this file converted (another worker on the same folder: a
        // second batch, a speculative Spark task): it is left alone, as if it had been there first.
        if toDirectory, !force, !merge, report.status == .failed, report.diagnostics.last?.code == .outputExists {
            report.status = .skipped
            report.exitStatus = .success
            report.records = nil
            report.diagnostics = [.note(.batchSkippedExists, at: SourceLocation(file: job.destination))]
        }
        return report
    }
}

// The parsed options are only read while files convert on several threads.
extension Convert: @unchecked Sendable {}
