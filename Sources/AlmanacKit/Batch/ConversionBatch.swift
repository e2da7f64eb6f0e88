public import AlmanacCore
import Foundation
import Synchronization

/// Many files converted as `almanac convert` converts them: given files, folders walked, folder
/// layouts (an `.lproj` tree), or a manifest's lines; on several threads, with shares
/// (`--shard`), outputs that two inputs would both write refused, outputs that exist left alone
/// (a rerun continues where one stopped), temporary files that a killed run left removed, and a
/// clean stop: files in progress finish whole, no new one starts.
///
/// ```swift
/// var options = ConversionBatch.Options(target: "retiretime-backup")
/// options.output = "out"
/// options.workers = 8
/// let manifest = try BatchManifest(contentsOf: "work.jsonl")
/// let batch = try ConversionBatch(manifest: manifest, registry: BuiltInFormats.registry, options: options)
/// let outcome = batch.run()
/// for report in outcome.reports where report.status == .failed { print(report.input) }
/// try OutputFile.write(outcome.reportFile(), to: "report.json")   // what `--report` writes
/// ```
///
/// Planning (`init`) reads no input and writes nothing; `run()` converts. The reports come back
/// in the order of the inputs, whatever order the files ran in.
public final class ConversionBatch: Sendable {
    /// What `almanac convert`'s options say.
    public struct Options: Sendable {
        /// The format to write (`--to`); a manifest's lines may name their own.
        public var target: String?
        /// The format to read (`--from`), else each file's is detected.
        public var source: String?
        /// The model to convert through (`--via`).
        public var via: ModelKind?
        /// Transforms by name with their argument (`--to-locale zh-Hant` is `("to-locale", "zh-Hant")`).
        public var transforms: [(name: String, argument: String)] = []
        public var context = CodecContext()
        /// Replace outputs that exist (`--force`); without it, a batch skips them.
        public var overwrite = false
        /// Merge into outputs that exist (`--merge`).
        public var merge = false
        /// Fail a file whose conversion would lose anything (`--strict`).
        public var strict = false
        /// A file, or the folder outputs go beneath (`-o`); `-` or nil writes one input to `standardOutput`.
        public var output: String?
        /// This worker's share of the batch (`--shard K/N`).
        public var shard: BatchShard?
        /// Threads (`--jobs`); nil uses every core.
        public var workers: Int?
        /// Start no file after one fails (`--stop-on-error`).
        public var stopOnError = false
        /// Where an output of `-` goes.
        public var standardOutput: @Sendable ([UInt8]) -> Void = { _ in }
        /// What an input of `-` reads (called once).
        public var standardInput: @Sendable () -> [UInt8] = { [] }

        public init(target: String? = nil, source: String? = nil) {
            self.target = target
            self.source = source
        }
    }

    /// Why a batch could not be planned, with the exit status `almanac convert` gives it.
    public struct Failure: Error, Sendable {
        public let exitCode: AlmanacExitCode
        public let diagnostic: Diagnostic

        public init(_ exitCode: AlmanacExitCode, _ diagnostic: Diagnostic) {
            self.exitCode = exitCode
            self.diagnostic = diagnostic
        }
    }

    /// One file to convert, and where its output goes.
    public struct Job: Sendable {
        public internal(set) var input: String
        /// The output path as reports show it (`-` for standard output).
        public internal(set) var destination: String
        /// The output folder `relative` is written beneath, without following links (a batch's
        /// outputs, a manifest's relative ones), or nil for a path the user named.
        public internal(set) var beneath: OutputFolder? = nil
        public internal(set) var relative: String? = nil
        /// Found by walking a folder (or so marked in a manifest): a file Almanac cannot read is
        /// skipped, not failed.
        public internal(set) var skipUnknown: Bool
        /// Which of the prepared conversions converts it.
        var conversion = 0
        /// The manifest line that listed it, and the `id` the line gave.
        public internal(set) var line: Int? = nil
        public internal(set) var id: JSONValue? = nil
        /// What is wrong with its manifest line: reported as the file's failure, nothing converted.
        public internal(set) var problem: Diagnostic? = nil
        /// An earlier input that writes the same output.
        public internal(set) var sameOutputAs: String? = nil

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

    /// What is done before the files: folder layouts converted whole, and folders with no file
    /// (reported), in the order the inputs name them.
    enum Upfront: Sendable {
        case layout(input: String, layout: any FolderLayoutCodec, destination: Conversion.Destination?, folder: String?)
        case report(ConversionReport)
    }

    public let options: Options
    /// The files to convert, in the order they are reported.
    public let jobs: [Job]
    /// Outputs go into a folder (several inputs, a folder walked, a manifest, `-o` a folder).
    public let writesToFolder: Bool
    let upfront: [Upfront]
    let conversions: [Conversion]
    let outputFolder: OutputFolder?
    /// The threads the files run on.
    let workers: Int
    /// The order jobs start in (see `folderByFolder`).
    let order: [Int]
    let state = RunState()

    /// Plans the batch of `inputs` (files, folders, folder layouts; `-` is standard input), or of a
    /// manifest's lines (then `inputs` is empty). Nothing is read or written but the output folder,
    /// which is made when it does not exist.
    public init(inputs: [String] = [], manifest: BatchManifest? = nil, registry: FormatRegistry, options: Options) throws(Failure) {
        self.options = options
        let output = options.output
        if manifest != nil, !inputs.isEmpty { throw Failure(.usage, .error(.convertManifestAndInputs)) }
        if manifest == nil, inputs.isEmpty { throw Failure(.usage, .error(.convertNeedsInput)) }
        if inputs.count > 1, output == nil { throw Failure(.usage, .error(.convertNeedsOutputDirectory)) }
        func require(_ name: String) throws(Failure) -> any Codec {
            do { return try registry.require(name) } catch { throw Failure(.usage, error) }
        }
        let defaultTarget = try options.target.map { name throws(Failure) in try require(name) }
        if let defaultTarget, !defaultTarget.format.canWrite { throw Failure(.usage, .error(.formatCannotWrite(format: defaultTarget.format.id))) }
        if manifest == nil, defaultTarget == nil { throw Failure(.usage, .error(.convertNeedsFormat)) }
        let forced = try options.source.map { name throws(Failure) in try require(name) }
        var transforms: [(transform: any DocumentTransform, argument: String)] = []
        for (name, argument) in options.transforms {
            guard let transform = registry.transform(named: name) else { throw Failure(.usage, .error(.convertUnknownTransform(name: name))) }
            transforms.append((transform, argument))
        }
        // Each folder is a folder layout a format reads as documents (an .lproj tree), or a folder
        // of files to walk.
        let folders = inputs.filter { $0 != "-" && OutputFile.isDirectory($0) }
        let layouts = Dictionary(uniqueKeysWithValues: folders.compactMap { folder in registry.folderLayout(of: folder).map { (folder, $0) } })
        let walked = folders.filter { layouts[$0] == nil }
        if !walked.isEmpty, output == nil || output == "-" { throw Failure(.usage, .error(.convertNeedsOutputDirectory)) }
        // `-o out/` names a folder even before it exists.
        let toDirectory = manifest != nil || inputs.count > 1 || !walked.isEmpty || output.map(OutputFile.isDirectory) == true
            || (output?.hasSuffix("/") == true && layouts.isEmpty)
        writesToFolder = toDirectory
        // The output folder: the user's word; what goes beneath it is named from the inputs and
        // written without following links out of it.
        var outputFolder: OutputFolder?
        if toDirectory, let output {
            do { outputFolder = try OutputFolder(output) } catch { throw Failure(.outputError, error) }
        }
        self.outputFolder = outputFolder
        // One conversion for each pair of formats (a manifest's lines may each name their own).
        func prepare(_ target: any Codec, _ source: (any Codec)?) throws(Diagnostic) -> Conversion {
            var conversion = Conversion(registry: registry, target: target, source: source, via: options.via,
                                        transforms: transforms, context: options.context, overwrite: options.overwrite, merge: options.merge,
                                        syncOutput: !toDirectory, standardOutput: options.standardOutput)
            conversion.strict = options.strict
            try conversion.checkOptions()
            conversion.optionsChecked = true
            return conversion
        }
        var conversions: [Conversion] = []
        if let defaultTarget, manifest == nil {
            do { conversions.append(try prepare(defaultTarget, forced)) } catch { throw Failure(.usage, error) }
        }

        // What to do, in order: folder layouts as they come, files (given, found in folders or
        // listed in a manifest) as jobs.
        var upfront: [Upfront] = []
        var jobs: [Job] = []
        if let manifest {
            jobs = Self.manifestJobs(manifest, registry: registry, options: options, conversions: &conversions, prepare: prepare)
            for index in jobs.indices where jobs[index].relative != nil { jobs[index].beneath = outputFolder }
        }
        let shard = options.shard
        for input in inputs {
            if let shard, layouts[input] != nil, !shard.contains(input) { continue }
            let conversion = conversions[0]
            if let layout = layouts[input] {
                let single = output.map { OutputFile.isDirectory($0) || $0.hasSuffix("/") } == false ? output : nil
                let destination: Conversion.Destination? = single == "-" ? .standardOutput : single.map { .file($0, folder: nil) }
                upfront.append(.layout(input: input, layout: layout, destination: output == nil ? .standardOutput : destination,
                                       folder: output.flatMap { $0 == "-" ? nil : $0 }))
            } else if folders.contains(input) {
                let folder = input.count > 1 && input.hasSuffix("/") ? String(input.dropLast()) : input
                let found = Self.files(under: folder, skipping: output)
                if found.isEmpty {
                    var report = ConversionReport(input: input, output: nil, to: conversion.target.format.id)
                    report.fail(.error(.batchEmpty, at: SourceLocation(file: input)))
                    upfront.append(.report(report))
                }
                for relative in found {
                    jobs.append(Job(input: folder + "/" + relative, beneath: outputFolder!,
                                    relative: Self.batchName(relative, registry: registry, target: conversion.target), skipUnknown: true))
                }
            } else if toDirectory {
                jobs.append(Job(input: input, beneath: outputFolder!, relative: Self.batchName(input, registry: registry, target: conversion.target, flat: true),
                                skipUnknown: false))
            } else {
                jobs.append(Job(input: input, destination: output ?? "-", skipUnknown: false))
            }
        }
        // A share of the batch, by output path: see `BatchShard`. The key is the output path
        // inside -o, so workers that mount the output at different paths still agree.
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
        // unless one thread was asked for (then reading, converting and writing take turns on it).
        for index in conversions.indices {
            conversions[index].readsInParallel = conversions[index].readsInParallel && jobs.count <= 1 && options.workers != 1
            if let cores = options.workers { conversions[index].workers = cores }
        }
        self.upfront = upfront
        self.jobs = jobs
        self.conversions = conversions
        workers = max(1, min(options.workers ?? ProcessInfo.processInfo.activeProcessorCount, jobs.count))
        order = workers > 1 ? Self.folderByFolder(jobs) : Array(jobs.indices)
    }

    /// The jobs a manifest lists, preparing a conversion for each pair of formats its lines name.
    /// A line that cannot be a job is one with its `problem`.
    private static func manifestJobs(_ manifest: BatchManifest, registry: FormatRegistry, options: Options, conversions: inout [Conversion],
                                     prepare: (any Codec, (any Codec)?) throws(Diagnostic) -> Conversion) -> [Job] {
        let name = manifest.name
        let output = options.output
        var prepared: [String: Result<Int, Diagnostic>] = [:]
        var jobs: [Job] = []
        for (line, parsed) in manifest.lines {
            let here = SourceLocation(file: name, line: line)
            var job = Job(input: "", destination: "", skipUnknown: false, line: line)
            do throws(Diagnostic) {
                let entry = try parsed.get()
                job.input = entry.input
                job.skipUnknown = entry.skipUnknown
                job.id = entry.id
                guard let targetName = entry.to ?? options.target else { throw Diagnostic.error(.convertNeedsFormat, at: here) }
                let key = (entry.from ?? options.source ?? "") + "\u{0}" + targetName
                if prepared[key] == nil {
                    prepared[key] = Result { () throws(Diagnostic) -> Int in
                        let target = try registry.require(targetName)
                        guard target.format.canWrite else { throw Diagnostic.error(.formatCannotWrite(format: target.format.id)) }
                        let source = try (entry.from ?? options.source).map { name throws(Diagnostic) in try registry.require(name) }
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
                let name = batchName(entry.input, registry: registry, target: target, flat: true)
                switch entry.output {
                case .some(let given) where !given.hasPrefix("/") && output != nil:
                    let relative = normalized(given.hasSuffix("/") ? given + name : given)
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
    private static func batchName(_ path: String, registry: FormatRegistry, target: any Codec, flat: Bool = false) -> String {
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

    /// The jobs' places, the output folders taking turns, each folder's files in their order.
    /// With several workers, workers writing into one folder wait for its lock in turn (and on
    /// ext4 the waiting one spins, `rwsem_spin_on_owner`); taking turns keeps them apart.
    static func folderByFolder(_ jobs: [Job]) -> [Int] {
        var groups: [String: Int] = [:]
        var members: [[Int]] = []
        for (index, job) in jobs.enumerated() {
            let folder = OutputNames.parent(of: job.destination)
            if let group = groups[folder] {
                members[group].append(index)
            } else {
                groups[folder] = members.count
                members.append([index])
            }
        }
        guard members.count > 1 else { return Array(jobs.indices) }
        var order: [Int] = []
        order.reserveCapacity(jobs.count)
        var round = 0
        while order.count < jobs.count {
            for group in members where round < group.count { order.append(group[round]) }
            round += 1
        }
        return order
    }

    /// Files under a folder, relative to it and sorted: hidden files and folders are left out,
    /// folders reached through symbolic links are not followed (no loops), and `skipping` (the
    /// output folder, when it sits inside the input) is not entered.
    public static func files(under directory: String, skipping: String?) -> [String] {
        let manager = FileManager.default
        let skipped = skipping.map { URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path }
        var result: [String] = []
        func walk(_ relative: String) {
            let path = relative.isEmpty ? directory : directory + "/" + relative
            guard let names = try? manager.contentsOfDirectory(atPath: path) else { return }
            for name in names where !name.hasPrefix(".") {
                let child = relative.isEmpty ? name : relative + "/" + name
                let full = directory + "/" + child
                var info = stat()
                guard lstat(full, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    if let skipped, URL(fileURLWithPath: full).standardizedFileURL.resolvingSymlinksInPath().path == skipped { continue }
                    walk(child)
                case S_IFREG:
                    result.append(child)
                case S_IFLNK:
                    // A link to a file is converted; a link to a folder is not followed.
                    var target = stat()
                    if stat(full, &target) == 0, target.st_mode & S_IFMT == S_IFREG { result.append(child) }
                default:
                    continue
                }
            }
        }
        walk("")
        return result.sorted()
    }
}
