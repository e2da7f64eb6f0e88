import ArgumentParser
import AlmanacCore
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
            if input != "-", InputFiles.isDirectory(input) {
                // An Xcode project's .lproj folders: each table becomes one catalog of every locale.
                let tables = CatalogTree.read(input, context: context)
                guard !tables.isEmpty else {
                    report.status = "failed"
                    report.diagnostics.append(.error("convert.empty-directory", at: SourceLocation(file: input)))
                    worst = max(worst, .inputError)
                    continue
                }
                let intoDirectory = toDirectory || tables.count > 1
                if intoDirectory, let output { try? InputFiles.makeDirectory(output) }
                for (position, table) in tables.enumerated() {
                    var tableReport = Report(input: input + "/*.lproj/" + table.name, from: "lproj", to: target.format.id,
                                             records: table.catalog.entries.count, status: "converted", diagnostics: table.diagnostics)
                    if intoDirectory, output == nil {
                        tableReport.status = "failed"
                        tableReport.diagnostics.append(.error("convert.needs-output-directory-tables", String(tables.count)))
                        worst = max(worst, .usage)
                    } else {
                        let destination = intoDirectory ? directoryPath(output!, name: table.name, target: target) : (output ?? "-")
                        finish(.catalog(table.catalog), input: input, name: table.name, destination: destination, target: target,
                               model: model, context: context, session: session, report: &tableReport, worst: &worst)
                    }
                    if position == tables.count - 1 { report = tableReport } else { reports.append(tableReport) }
                }
                continue
            }
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
                // An input with errors is not converted: nothing half-valid is written.
                let errors = decoded.diagnostics.filter { $0.severity == .error }
                if !errors.isEmpty {
                    throw Diagnostic.error("backup.invalid", String(errors.count), at: SourceLocation(file: input))
                }
                let name = input == "-" ? "stdin" : OutputNames.stem(of: input, format: opened.codec.format)
                finish(decoded.document, input: input, name: name, destination: destination, target: target, model: model,
                       context: context, session: session, report: &report, worst: &worst)
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

    /// Converts a decoded document to the target's model (through `--via`, drafting `--to-locale`),
    /// encodes it and writes it; failures go into the report.
    private func finish(_ document: Document, input: String, name: String, destination: String, target: any Codec, model: ModelKind?,
                        context: CodecContext, session: Session, report: inout Report, worst: inout AlmanacExitCode) {
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
                    try InputFiles.makeDirectory(OutputNames.parent(of: path))
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
                try OutputFile.write(encoded.bytes, to: destination, options: .init(overwrite: force || (merge && isBackup), keepBackup: isBackup))
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

    private func directoryPath(_ output: String, name: String, target: any Codec) -> String {
        let directory = output.hasSuffix("/") ? String(output.dropLast()) : output
        return directory + "/" + name + (target.format.extensions.first ?? ".\(target.format.id)")
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
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }

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
