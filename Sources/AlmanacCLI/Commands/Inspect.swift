import ArgumentParser
import AlmanacCore
import AlmanacICU
import AlmanacKit

struct Inspect: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "inspect", abstract: L(.cliInspectAbstract), discussion: L(.cliInspectDiscussion))
    }

    @Argument(help: ArgumentHelp(L(.cliArgumentFiles), valueName: "FILE"), completion: .file()) var files: [String]
    @Option(help: ArgumentHelp(L(.cliOptionFrom), valueName: "FORMAT"), completion: .list(Completions.readFormats)) var from: String?
    @OptionGroup var reading: ReadingOptions
    @Flag(help: ArgumentHelp(L(.cliOptionJson))) var json = false
    @OptionGroup var global: GlobalOptions

    struct Report: Encodable {
        var file: String
        var format: String?
        var basis: String?
        var model: String?
        var encoding: String?
        var records: Int?
        var delimiter: String?
        var columns: [String]?
        var diagnostics: [Diagnostic]
    }

    func run() throws {
        let session = Session.current!
        let context = try reading.context()
        let forced = try from.map(Arguments.format)
        var reports: [Report] = []
        var worst = AlmanacExitCode.success
        // A folder is the files inside it (walked as a batch walks it); those in no format Almanac
        // reads are counted, not failed.
        var walked: Set<String> = []
        var unread = 0
        var inputs: [String] = []
        for file in files {
            guard file != "-", OutputFile.isDirectory(file) else {
                inputs.append(file)
                continue
            }
            let folder = file.count > 1 && file.hasSuffix("/") ? String(file.dropLast()) : file
            for relative in ConversionBatch.files(under: folder, skipping: nil) {
                inputs.append(folder + "/" + relative)
                walked.insert(folder + "/" + relative)
            }
        }
        for file in inputs {
            var report = Report(file: file, diagnostics: [])
            do throws(Diagnostic) {
                let (opened, basis) = try session.registry.openIdentified(session.input(file), codec: forced)
                var readContext = context
                readContext.sourceFile = file == "-" ? nil : file
                // A format that streams is counted item by item, in constant memory.
                let decoded: Decoded
                var records: Int
                if let streaming = opened.codec as? any StreamingDecoder {
                    var counter = ItemCounter()
                    decoded = try streaming.decodeItems(opened.input, context: readContext, into: &counter)
                    records = counter.count + decoded.document.recordCount
                } else {
                    decoded = try opened.codec.decode(opened.input, context: readContext)
                    records = decoded.document.recordCount
                }
                report.format = opened.codec.format.id
                report.basis = basis.rawValue
                report.model = decoded.document.kind.rawValue
                report.encoding = decoded.encoding
                report.records = records
                if case .table(let table) = decoded.document, let dialect = table.dialect {
                    report.delimiter = dialect.delimiter == "\t" ? "tab" : dialect.delimiter
                    report.columns = table.columns
                }
                report.diagnostics = decoded.diagnostics.map { $0.inFile(file == "-" ? nil : file) }
                if report.diagnostics.contains(where: { $0.severity >= .warning }), worst == .success { worst = .problemsFound }
            } catch {
                if walked.contains(file), error.code == .formatUndetected {
                    unread += 1
                    continue
                }
                report.diagnostics = [error.inFile(file)]
                worst = .inputError
            }
            reports.append(report)
        }
        if json {
            session.write(try CanonicalJSON.encode(reports))
        } else {
            for (index, report) in reports.enumerated() {
                if index > 0 { session.print() }
                print(report, session: session)
            }
        }
        if unread > 0 { session.report(.note(.inspectUnreadFiles(count: String(unread)))) }
        // Folders with no file in them at all: nothing was inspected.
        if inputs.isEmpty { throw CommandFailure(.inputError, files.map { Diagnostic.error(.inspectEmpty, at: SourceLocation(file: $0)) }) }
        if worst != .success { throw CommandFailure(worst) }
    }

    private func print(_ report: Report, session: Session) {
        session.print(report.file)
        var rows: [[String]] = []
        if let format = report.format, let codec = session.registry.codec(named: format) {
            let basis = session.text(Message(key: "inspect.basis.\(report.basis ?? "content")", table: ModuleMessages.table))
            rows.append([session.text(.inspectLabelFormat), "\(format) (\(codec.format.name)), \(basis)"])
        }
        if let encoding = report.encoding { rows.append([session.text(.inspectLabelEncoding), encoding]) }
        if let delimiter = report.delimiter { rows.append([session.text(.inspectLabelDelimiter), delimiter]) }
        if let columns = report.columns { rows.append([session.text(.inspectLabelColumns), columns.joined(separator: ", ")]) }
        if let records = report.records, let model = report.model {
            rows.append([session.text(.inspectLabelRecords), session.text(Message(key: "inspect.records.\(model)", [String(records)], table: ModuleMessages.table))])
        }
        let problems = report.diagnostics.isEmpty ? session.text(.inspectProblemsNone)
            : session.text(.inspectProblemsCount(count: String(report.diagnostics.count)))
        rows.append([session.text(.inspectLabelProblems), problems])
        for line in TextTable.render(rows) { session.print("  " + line) }
        for diagnostic in report.diagnostics { session.print("    " + diagnostic.rendered(in: session.language)) }
    }
}

/// Counts the items a streaming decoder hands over, keeping none.
struct ItemCounter: DocumentSink {
    var count = 0
    var wantsContent: Bool { false }
    mutating func begin(_ frame: Document) throws(Diagnostic) {}
    mutating func item(_ item: DocumentItem) throws(Diagnostic) {
        count += item.records
    }
}

/// Options about how inputs are read, shared by the commands that read files.
struct ReadingOptions: ParsableArguments {
    @Option(help: ArgumentHelp(L(.cliOptionEncoding), valueName: "CHARSET"), completion: .list(Completions.encodings)) var encoding: String?
    @Option(name: .customLong("locale"), help: ArgumentHelp(L(.cliOptionLocale), valueName: "LOCALE"), completion: .list(Completions.regions)) var locale: String?
    @Option(name: .customLong("time-zone"), help: ArgumentHelp(L(.cliOptionTimeZone), valueName: "ZONE")) var timeZone: String?
    @Option(name: .customLong("option"), help: ArgumentHelp(L(.cliOptionOption), valueName: "NAME=VALUE"), completion: .list(Completions.formatOptions)) var options: [String] = []
    @Option(name: .customLong("columns"), help: ArgumentHelp(L(.cliOptionColumns), valueName: "ROLE=COLUMN,…")) var columns: String?

    func context() throws(CommandFailure) -> CodecContext {
        var context = CodecContext()
        context.machineZone = Session.current?.machineZone
        if let encoding {
            do { context.encoding = try Charset(name: encoding) } catch { throw .usage(.error(.charsetUnknown(name: encoding))) }
        }
        if let locale { context.locale = try Arguments.locale(locale) }
        if let timeZone { context.timeZone = try Arguments.timeZone(timeZone) }
        for option in options {
            let parts = option.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, !parts[0].isEmpty else { throw .usage(.error(.optionMalformed(text: option))) }
            context.options[String(parts[0])] = String(parts[1])
        }
        if let columns { context.options["columns"] = columns }
        return context
    }
}
