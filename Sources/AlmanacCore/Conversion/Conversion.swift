import Foundation


/// One conversion, as `almanac convert` runs it for each file and a Swift program can run it
/// without the CLI: decode → model conversion (`via`, then the target's model) → transforms →
/// merge into an existing file → encode → atomic write. What each step could not carry over is
/// in the report's diagnostics.
///
/// The pipeline streams — reads and writes item by item in constant memory — whenever the source
/// codec is a `StreamingDecoder`, the target a `StreamingEncoder`, and the models meet directly or
/// through converters that convert item by item; otherwise it works on whole documents. It asks
/// codecs for capabilities (`MergingCodec`, `FolderLayoutCodec`), never for their types.
public struct Conversion: Sendable {
    public var registry: FormatRegistry
    /// The format to write.
    public var target: any Codec
    /// The format to read, when it is given (`--from`); otherwise it is identified.
    public var source: (any Codec)?
    /// A model to carry the document through on the way (`--via agenda`).
    public var via: ModelKind?
    /// Transforms applied, in order, after the model conversion.
    public var transforms: [(transform: any DocumentTransform, argument: String)]
    public var context: CodecContext
    /// Replace an existing output (`--force`).
    public var overwrite: Bool
    /// Merge into an existing output of a `MergingCodec` (`--merge`).
    public var merge: Bool
    /// Flush each output file and its folder as it is written (a batch flushes them all once at the end).
    public var syncOutput: Bool
    /// Where output to `-` goes.
    public var standardOutput: @Sendable ([UInt8]) -> Void
    /// Refuse a conversion that drops or approximates anything (`--strict`): the warnings
    /// `Losses.codes` names become one error, and nothing is written.
    public var strict = false
    /// Stream when both ends can (the default); false converts whole documents, as a check that
    /// both ways write the same bytes.
    public var streams = true
    /// Read a large input on a core of its own while converting and writing on another (see
    /// `ItemPipeline`); a batch that already converts several files at once turns this off.
    public var readsInParallel = ProcessInfo.processInfo.activeProcessorCount > 1
    /// Threads that convert the batches of one large input read in parallel, when its converter
    /// converts batches independently (`ConcurrentItemConverter`); 1 converts on the writing thread.
    public var workers = ProcessInfo.processInfo.activeProcessorCount
    /// Inputs smaller than this are converted whole when streaming them needs two passes.
    public static let firstPassThreshold = 1 << 20
    /// The size from which a conversion that needs two passes streams (tests lower it).
    public var firstPassThreshold = Conversion.firstPassThreshold
    /// Inputs smaller than this are read on the calling thread (a thread costs more than it saves).
    public static let parallelReadThreshold = 8 << 20
    /// The size from which this conversion reads in parallel (tests lower it).
    public var parallelReadThreshold = Conversion.parallelReadThreshold
    /// About how many bytes of items go between the threads at once (tests lower it).
    public var parallelBatchBytes = ItemPipeline.batchBytes

    public init(registry: FormatRegistry, target: any Codec, source: (any Codec)? = nil, via: ModelKind? = nil,
                transforms: [(transform: any DocumentTransform, argument: String)] = [], context: CodecContext = CodecContext(),
                overwrite: Bool = false, merge: Bool = false, syncOutput: Bool = true,
                standardOutput: @escaping @Sendable ([UInt8]) -> Void = { bytes in OutputFile.writeStandardOutput(bytes) }) {
        self.registry = registry
        self.target = target
        self.source = source
        self.via = via
        self.transforms = transforms
        var context = context
        if context.timeZoneDefinitions == nil { context.timeZoneDefinitions = registry.timeZoneDefinitionReader }
        context.targetFormat = target.format.id
        context.typedCells = target.format.typedCells
        self.context = context
        self.overwrite = overwrite
        self.merge = merge
        self.syncOutput = syncOutput
        self.standardOutput = standardOutput
    }

    /// Where a conversion writes.
    public enum Destination: Hashable, Sendable {
        /// Standard output (`-`).
        case standardOutput
        /// A file the user named (links followed; a device or FIFO written as it is). `folder` is
        /// where a document that is written as a folder layout (a catalog of several locales as
        /// `xx.lproj/Table.strings`) goes instead, when the output is a folder.
        case file(String, folder: String? = nil)
        /// A file at a path made from input names (a batch's relative place), beneath an output
        /// folder, written without following links; a folder layout goes beneath the folder too.
        case beneath(OutputFolder, String)

        /// The path reports and messages show.
        public var path: String {
            switch self {
            case .standardOutput: "-"
            case .file(let path, _): path
            case .beneath(let folder, let relative): folder.display(relative)
            }
        }

        /// Whether what is written cannot be taken back (standard output, a device, a FIFO).
        var isWrittenInPlace: Bool {
            switch self {
            case .standardOutput: true
            case .file(let path, _): OutputFile.isWrittenInPlace(path)
            case .beneath: false
            }
        }

        /// The folder a folder layout's files go beneath, opened (and made) now.
        func layoutFolder() throws(Diagnostic) -> OutputFolder? {
            switch self {
            case .standardOutput, .file(_, folder: nil): nil
            case .file(_, let folder?): try OutputFolder(folder)
            case .beneath(let folder, _): folder
            }
        }

        /// Whether the target is a file that exists (what `--merge` reads and merges into).
        func existingFile() throws(Diagnostic) -> Bool {
            switch self {
            case .standardOutput: false
            case .file(let path, _): OutputFile.isFile(path)
            case .beneath(let folder, let relative): try folder.contains(relative)
            }
        }

        /// A stream to the target (see `OutputFile.Stream`).
        func open(_ options: OutputFile.Options, checkingFirst: Bool = true) throws(Diagnostic) -> OutputFile.Stream {
            switch self {
            case .standardOutput: try OutputFile.Stream("-", options: options)
            case .file(let path, _): try OutputFile.Stream(path, options: options, checkingFirst: checkingFirst)
            case .beneath(let folder, let relative): try OutputFile.Stream(relative, in: folder, options: options, checkingFirst: checkingFirst)
            }
        }
    }

    /// Checks the options against what the target, the source (any readable format when it is
    /// not given) and the converters declare (`FormatRegistry.checkOptions`). `run` checks too;
    /// a batch checks once before it starts.
    public func checkOptions() throws(Diagnostic) {
        try registry.checkOptions(context.options, codecs: [target] + (source.map { [$0] } ?? registry.codecs.filter(\.format.canRead)))
    }

    /// Set once `checkOptions` passed (a batch checks before it starts): `run` then does not check
    /// the same options again for every file.
    public var optionsChecked = false

    /// Converts one input (a file, or bytes read from standard input).
    public func run(_ input: ConversionInput, to destination: Destination) -> ConversionReport {
        var report = ConversionReport(input: input.name, output: destination.path, to: target.format.id)
        let opened: (codec: any Codec, input: CodecInput)
        do throws(Diagnostic) {
            if !optionsChecked { try checkOptions() }
            opened = try registry.open(input, codec: source)
        } catch {
            report.fail(error)
            return report
        }
        report.from = opened.codec.format.id
        var context = self.context
        context.sourceFile = input.path
        do throws(Diagnostic) {
            if let streamed = try stream(opened.input, codec: opened.codec, to: destination, context: context) {
                report.records = streamed.records
                report.diagnostics += streamed.diagnostics.map { $0.inFile(input.path) }
                return report
            }
            var decoded = try opened.codec.decode(opened.input, context: context)
            decoded.diagnostics = decoded.diagnostics.map { $0.inFile(input.path) }
            report.records = decoded.document.recordCount
            report.diagnostics += decoded.diagnostics
            // An input with errors is not converted: nothing half-valid is written.
            let errors = decoded.diagnostics.filter { $0.severity == .error }
            if !errors.isEmpty {
                throw Diagnostic.error(.convertInputHasErrors(count: String(errors.count)), at: SourceLocation(file: input.path))
            }
            let name = input.path.map { OutputNames.stem(of: $0, format: opened.codec.format) } ?? "stdin"
            var left = false
            try finish(decoded.document, name: name, to: destination, context: context, report: &report, left: &left)
        } catch {
            report.fail(error)
        }
        return report
    }

    /// Converts every document a folder layout holds (each table of an `.lproj` tree): into
    /// `folder` as `NAME` + the target's extension when there are several or `destination` is
    /// nil, else into `destination`.
    public func runFolder(_ path: String, layout: any FolderLayoutCodec, to destination: Destination?, folder: String?) -> [ConversionReport] {
        var context = self.context
        context.sourceFile = path
        let documents = layout.decodeFolder(path, context: context)
        guard !documents.isEmpty else {
            var report = ConversionReport(input: path, output: nil, to: target.format.id)
            report.fail(.error(.convertEmptyDirectory, at: SourceLocation(file: path)))
            return [report]
        }
        let intoFolder = destination == nil || documents.count > 1
        let outputFolder: Result<OutputFolder, Diagnostic>? = intoFolder ? folder.map { path in Result { () throws(Diagnostic) in try OutputFolder(path) } } : nil
        // The tables a transform had nothing to work from in, written as they are: one note for all.
        var left: [String] = []
        // What the transforms said of each table, said once for all where a transform can.
        let transformNotes = TransformNotes(count: transforms.count)
        let gathersNotes = documents.count > 1
        var reports = documents.map { document in
            var report = ConversionReport(input: path + "/*.lproj/" + document.name, output: nil, to: target.format.id)
            report.from = "lproj"
            report.records = document.decoded.document.recordCount
            report.diagnostics = document.decoded.diagnostics
            // A file of the tree that could not be read is named and left out; the rest is written.
            if document.decoded.diagnostics.hasErrors { report.exitStatus = .inputError }
            if intoFolder, folder == nil {
                report.fail(.error(.convertNeedsOutputDirectoryTables(count: String(documents.count))))
                report.exitStatus = .usage
                return report
            }
            do throws(Diagnostic) {
                let target: Destination = intoFolder ? .beneath(try outputFolder!.get(), document.name + self.target.format.preferredExtension)
                    : destination!
                report.output = target.path
                var nothingToDo = false
                // What a transform says of a table is said at the table (`App/*.lproj/InfoPlist`).
                var context = context
                context.sourceFile = report.input
                try finish(document.decoded.document, name: document.name, to: target, context: context, report: &report,
                           leavingUntransformed: documents.count > 1, left: &nothingToDo,
                           transformNotes: gathersNotes ? transformNotes : nil)
                if nothingToDo { left.append(document.name) }
            } catch {
                report.fail(error)
            }
            return report
        }
        // Each transform's notes: one for the folder, at the first table's report, or each table's own.
        for (place, (transform, argument)) in transforms.enumerated() where gathersNotes {
            let notes = transformNotes.notes[place]
            guard !notes.isEmpty, !reports.isEmpty else { continue }
            if let said = transform.folderNotes(notes, argument: argument, documents: documents.count, folder: path) {
                reports[0].diagnostics += said
            } else {
                for note in notes {
                    let index = reports.firstIndex { $0.input == note.location?.file } ?? 0
                    reports[index].diagnostics.append(note)
                }
            }
        }
        if let first = left.first, let index = reports.firstIndex(where: { $0.input.hasSuffix("/" + first) }) {
            let options = transforms.map { "--\($0.transform.id) \($0.argument)" }.joined(separator: " ")
            reports[index].diagnostics.append(.note(.convertTablesLeft(options: options, count: String(left.count), tables: left.joined(separator: ", ")),
                                                    at: SourceLocation(file: path)))
        }
        return reports
    }

    /// The model to go through from a source model: `via` when given, else the one the target's
    /// format names (`FormatDescription.via`) when the registry converts through it.
    func route(from source: ModelKind) -> ModelKind? {
        if let via { return via }
        guard let preferred = target.format.via, source != target.format.model, preferred != source, preferred != target.format.model,
              registry.path(from: source, to: preferred) != nil, registry.path(from: preferred, to: target.format.model) != nil
        else { return nil }
        return preferred
    }

    // MARK: Whole documents

    /// Converts a decoded document to the target's model (through `via`), transforms it, merges
    /// it, encodes it and writes it.
    /// With `leavingUntransformed`, a transform's error that says it had nothing to work from
    /// (`DocumentTransform.nothingToDo`) leaves the document as it is, and sets `left`.
    /// `transformNotes`, when given, collects each transform's notes (by the transform's place)
    /// instead of the report: a folder's documents, whose notes are said once for all.
    private func finish(_ document: Document, name: String, to destination: Destination, context: CodecContext,
                        report: inout ConversionReport, leavingUntransformed: Bool = false, left: inout Bool,
                        transformNotes: TransformNotes? = nil) throws(Diagnostic) {
        let file = context.sourceFile
        var document = document
        if let via = route(from: document.kind) {
            let (converted, notes) = try registry.convert(document, to: via, context: context)
            report.diagnostics += notes.map { $0.inFile(file) }
            document = converted
        }
        let (converted, notes) = try registry.convert(document, to: target.format.model, context: context)
        report.diagnostics += notes.map { $0.inFile(file) }
        document = converted
        for (place, (transform, argument)) in transforms.enumerated() {
            do throws(Diagnostic) {
                let (changed, notes) = try transform.apply(document, argument: argument, context: context)
                if let transformNotes {
                    transformNotes.notes[place] += notes.map { $0.inFile(file) }
                } else {
                    report.diagnostics += notes.map { $0.inFile(file) }
                }
                document = changed
            } catch where leavingUntransformed && transform.nothingToDo.contains(error.code) {
                left = true
            }
        }
        // A document the target writes as a folder (a catalog of several locales as .lproj/).
        if let layout = target as? any FolderLayoutCodec, let folder = try destination.layoutFolder(),
           var files = try layout.encodeFolder(document, name: name, context: context) {
            // A batch's file keeps its place: `sub/x.xcstrings` becomes `sub/zh-Hant.lproj/x.strings`.
            var place = ""
            if case .beneath(_, let relative) = destination, let slash = relative.lastIndex(of: "/") { place = String(relative[...slash]) }
            if !place.isEmpty { files = files.map { FolderLayoutFile(path: place + $0.path, bytes: $0.bytes, diagnostics: $0.diagnostics) } }
            for file in files { report.diagnostics += file.diagnostics.map { $0.inFile(folder.display(file.path)) } }
            try checkStrict(report.diagnostics)
            report.output = OutputNames.join(folder.path, place + "*") + "/" + name
            try write(files, beneath: folder)
            return
        }
        // Restoring into an existing file of records: they merge instead of replacing it.
        let merging = target as? any MergingCodec
        if merge, let merging, try destination.existingFile() {
            let path = destination.path
            let existing = try target.decode(CodecInput(contentsOf: path), context: context)
            guard !existing.diagnostics.hasErrors else {
                throw Diagnostic.error(.convertInputHasErrors(count: String(existing.diagnostics.filter { $0.severity == .error }.count)), at: SourceLocation(file: path))
            }
            let (merged, notes) = try merging.merge(existing: existing.document, incoming: document, context: context)
            report.diagnostics += notes.map { $0.inFile(path) }
            document = merged
        }
        let encoded = try target.encode(document, context: context)
        report.diagnostics += encoded.diagnostics.map { $0.inFile(destination.path) }
        try checkStrict(report.diagnostics)
        if destination == .standardOutput {
            standardOutput(encoded.bytes)
            return
        }
        // A replaced file of records is kept as NAME.bak.
        let output = try destination.open(.init(overwrite: overwrite || (merge && merging != nil), keepBackup: merging != nil, sync: syncOutput),
                                          checkingFirst: false)
        try output.write(encoded.bytes)
        try output.commit()
    }

    /// Writes a folder layout's files beneath `folder`, all or none as far as the file system
    /// allows: every path is checked (the locales and tables in them come from the input), every
    /// file written to its temporary, and only then are they renamed into place.
    private func write(_ files: [FolderLayoutFile], beneath folder: OutputFolder) throws(Diagnostic) {
        // A table the folder already spells otherwise (`zh-Hans.lproj/infoPlist.strings`) is that
        // file, as on a Mac, whose disk ignores letter case: it is not written a second time beside it.
        let files = files.map { FolderLayoutFile(path: folder.spelledAsPresent($0.path), bytes: $0.bytes, diagnostics: $0.diagnostics) }
        // Every path looked at before anything is made: a name that is not plain, a link on the
        // way, or (without --force) a file already there stops the whole layout.
        for file in files where try folder.contains(file.path) && !overwrite {
            throw Diagnostic.error(.outputExists, at: SourceLocation(file: folder.display(file.path)))
        }
        var streams: [OutputFile.Stream] = []
        for file in files {
            let stream = try OutputFile.Stream(file.path, in: folder, options: .init(overwrite: overwrite, sync: syncOutput), checkingFirst: false)
            try stream.write(file.bytes)
            streams.append(stream)
        }
        for stream in streams { try stream.commit() }
    }

    /// Under `strict`, what the conversion dropped or approximated is an error.
    private func checkStrict(_ diagnostics: [Diagnostic]) throws(Diagnostic) {
        guard strict else { return }
        let losses = diagnostics.filter(Losses.isLoss)
        guard let first = losses.first else { return }
        throw Diagnostic.error(.convertStrict(count: String(losses.count), first: first.message.rendered()).localizing(first.message), at: first.location)
    }

    // MARK: Streams

    /// Streams the conversion when both ends and the model conversion can; nil when they cannot.
    private func stream(_ input: CodecInput, codec: any Codec, to destination: Destination, context: CodecContext) throws(Diagnostic)
        -> (records: Int, diagnostics: [Diagnostic])?
    {
        // Under --strict, standard output (or a device, a FIFO) is not streamed: what is written
        // there cannot be taken back.
        guard streams, transforms.isEmpty, !merge || !(target is any MergingCodec), !(strict && destination.isWrittenInPlace),
              let decoder = codec as? any StreamingDecoder, let encoder = target as? any StreamingEncoder
        else { return nil }
        // A folder layout decides per document whether it is one file or many: not streamed.
        if target is any FolderLayoutCodec {
            if case .file(_, _?) = destination { return nil }
            if case .beneath = destination { return nil }
        }
        var path = [codec.format.model]
        if let via = route(from: codec.format.model), via != path.last! { path.append(via) }
        if target.format.model != path.last! { path.append(target.format.model) }
        var converter: (any DocumentItemConverter)?
        if path.count > 1 {
            guard let found = registry.itemConverter(path: path, context: context) else { return nil }
            converter = found
        }
        // A first pass over the items (the columns a calendar fills) needs an input it can read
        // twice; below a megabyte, reading it once as a whole document costs less.
        if let converter, converter.needsFirstPass, (input.sizeHint ?? Int.max) < firstPassThreshold { return nil }
        if let converter, converter.needsFirstPass {
            var observer = ItemObserver(converter: converter)
            _ = try decoder.decodeItems(input, context: context, into: &observer)
        }
        // A replaced file of records is kept as NAME.bak, as when it is written whole.
        let file = destination == .standardOutput ? nil
            : try destination.open(.init(overwrite: overwrite, keepBackup: target is any MergingCodec, sync: syncOutput))
        let standardOutput = self.standardOutput
        var sink = StreamingSink(encoder: encoder, converter: converter, context: context) { (bytes) throws(Diagnostic) in
            if let file { try file.write(bytes) } else { standardOutput(bytes) }
        }
        let parallel = readsInParallel && (input.sizeHint ?? 0) >= parallelReadThreshold
        let decoded: Decoded
        if parallel, workers > 1, converter == nil || converter is any ConcurrentItemConverter {
            // Batches convert and encode on every core, and are written in order.
            decoded = try ItemPipeline.run(decoder, input, context: context, converting: converter as? any ConcurrentItemConverter,
                                           workers: workers, batchBytes: parallelBatchBytes, into: &sink)
        } else if parallel {
            decoded = try ItemPipeline.run(decoder, input, context: context, batchBytes: parallelBatchBytes, into: &sink)
        } else {
            decoded = try decoder.decodeItems(input, context: context, into: &sink)
        }
        let notes = try sink.finish(decoded.document)
        // Under --strict a loss found at the end leaves the temporary file uncommitted (removed).
        try checkStrict(decoded.diagnostics + notes)
        try file?.commit()
        return (sink.records, decoded.diagnostics + notes)
    }
}

/// Feeds a converter's first pass.
private struct ItemObserver: DocumentSink {
    let converter: any DocumentItemConverter
    mutating func begin(_ frame: Document) throws(Diagnostic) { converter.observeFrame(frame) }
    mutating func item(_ item: DocumentItem) throws(Diagnostic) { converter.observe(item) }
}

/// Takes a decoder's items through a converter into an encoder's writer.
private struct StreamingSink: ConvertedItemSink {
    let encoder: any StreamingEncoder
    let converter: (any DocumentItemConverter)?
    let context: CodecContext
    let output: ByteOutput
    var writer: (any DocumentItemWriter)?
    var records = 0

    init(encoder: any StreamingEncoder, converter: (any DocumentItemConverter)?, context: CodecContext, output: @escaping ByteOutput) {
        self.encoder = encoder
        self.converter = converter
        self.context = context
        self.output = output
    }

    mutating func begin(_ frame: Document) throws(Diagnostic) {
        let target = try converter?.frame(frame) ?? frame
        writer = try encoder.itemWriter(target, context: context, output: output)
    }

    mutating func item(_ item: DocumentItem) throws(Diagnostic) {
        guard let writer else { return }
        guard let converter else {
            try write(item, writer)
            return
        }
        try converter.convert(item) { (converted) throws(Diagnostic) in try write(converted, writer) }
    }

    var concurrentWriter: (any ConcurrentItemWriter)? { writer as? any ConcurrentItemWriter }

    mutating func converted(_ item: DocumentItem) throws(Diagnostic) {
        guard let writer else { return }
        try write(item, writer)
    }

    mutating func encoded(_ batch: EncodedBatch, records: Int) throws(Diagnostic) {
        guard let writer = concurrentWriter else { return }
        try writer.write(batch)
        self.records += records
    }

    private mutating func write(_ item: DocumentItem, _ writer: any DocumentItemWriter) throws(Diagnostic) {
        try writer.write(item)
        records += item.records
    }

    mutating func finish(_ frame: Document) throws(Diagnostic) -> [Diagnostic] {
        if writer == nil { try begin(frame) }
        var frame = frame
        var notes: [Diagnostic] = []
        if let converter {
            (frame, notes) = try converter.finish(frame)
        }
        return notes + (try writer!.finish(frame))
    }
}

/// Each transform's notes on a folder's documents, by the transform's place, gathered while the
/// documents are converted.
final class TransformNotes {
    var notes: [[Diagnostic]]
    init(count: Int) { notes = Array(repeating: [], count: count) }
}
