import ArgumentParser
import AlmanacCore
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
    @Flag(help: ArgumentHelp(L("cli.option.force"))) var force = false
    @OptionGroup var reading: ReadingOptions
    @Flag(help: ArgumentHelp(L("cli.option.json-report"))) var json = false
    @OptionGroup var global: GlobalOptions

    struct Report: Encodable {
        var input: String
        var output: String?
        var from: String?
        var to: String
        var records: Int?
        var status: String
        var diagnostics: [Diagnostic]
    }

    func validate() throws {
        if inputs.count > 1, output == nil { throw ValidationError(L("convert.needs-output-directory")) }
        if json, output == nil || output == "-" { throw ValidationError(L("convert.json-needs-output")) }
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError(L("convert.stdin-once")) }
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
        let toDirectory = inputs.count > 1 || output.map(InputFiles.isDirectory) == true
        if toDirectory, let output {
            do { try InputFiles.makeDirectory(output) } catch { throw CommandFailure(.outputError, [error]) }
        }

        var reports: [Report] = []
        var worst = AlmanacExitCode.success
        for input in inputs {
            var report = Report(input: input, to: target.format.id, status: "converted", diagnostics: [])
            defer { reports.append(report) }
            let opened: (codec: any Codec, basis: FormatRegistry.Basis, input: CodecInput)
            do {
                opened = try Loader.open(input, codec: forced, session: session)
            } catch {
                report.status = "failed"
                report.diagnostics.append(error.inFile(input))
                worst = max(worst, .inputError)
                continue
            }
            report.from = opened.codec.format.id
            let destination = outputPath(for: input, source: opened.codec, target: target, toDirectory: toDirectory)
            report.output = destination
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
                    let file = destination == "-" ? nil : try OutputFile.Stream(destination, options: .init(overwrite: force))
                    let result = try streamed { (bytes) throws(Diagnostic) in
                        if let file { try file.write(bytes) } else { session.write(bytes) }
                    }
                    try file?.commit()
                    report.records = result.records
                    report.diagnostics += result.diagnostics.map { $0.inFile(input) }
                    continue
                }
                var decoded = try opened.codec.decode(opened.input, context: context)
                decoded.diagnostics = decoded.diagnostics.map { $0.inFile(input) }
                report.records = decoded.document.recordCount
                report.diagnostics += decoded.diagnostics
                var document = decoded.document
                if let model {
                    let (converted, notes) = try session.registry.convert(document, to: model, context: conversionContext)
                    report.diagnostics += notes.map { $0.inFile(input) }
                    document = converted
                }
                let (converted, notes) = try session.registry.convert(document, to: target.format.model, context: conversionContext)
                report.diagnostics += notes.map { $0.inFile(input) }
                let encoded = try target.encode(converted, context: context)
                report.diagnostics += encoded.diagnostics.map { $0.inFile(destination) }
                if destination == "-" {
                    session.write(encoded.bytes)
                } else {
                    try OutputFile.write(encoded.bytes, to: destination, options: .init(overwrite: force))
                }
            } catch {
                report.status = "failed"
                if error.code.hasPrefix("output.") {
                    report.diagnostics.append(error)
                    worst = max(worst, .outputError)
                } else {
                    report.diagnostics.append(error.inFile(input))
                    worst = max(worst, .inputError)
                }
            }
        }
        for report in reports {
            for diagnostic in report.diagnostics { session.report(diagnostic) }
        }
        if json { session.write(try CanonicalJSON.encode(reports)) }
        if worst != .success { throw CommandFailure(worst) }
    }

    /// `-o FILE`, `-o DIR/<input name with the target's extension>`, or standard output.
    private func outputPath(for input: String, source: any Codec, target: any Codec, toDirectory: Bool) -> String {
        guard let output else { return "-" }
        guard toDirectory else { return output }
        let name = input == "-" ? "stdin" : OutputNames.stem(of: input, format: source.format)
        let directory = output.hasSuffix("/") ? String(output.dropLast()) : output
        return directory + "/" + name + (target.format.extensions.first ?? ".\(target.format.id)")
    }
}

enum OutputNames {
    /// The file name without directories and without the extension its format matched.
    static func stem(of path: String, format: FormatDescription) -> String {
        let base = path.split(separator: "/").last.map(String.init) ?? path
        let match = format.extensionMatch(base)
        if match > 0 { return String(base.dropLast(match)) }
        if let dot = base.lastIndex(of: "."), dot != base.startIndex { return String(base[..<dot]) }
        return base
    }
}

extension AlmanacExitCode: Comparable {
    public static func < (lhs: AlmanacExitCode, rhs: AlmanacExitCode) -> Bool { lhs.rawValue < rhs.rawValue }
}
