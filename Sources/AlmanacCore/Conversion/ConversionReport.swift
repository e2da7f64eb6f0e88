/// What happened to one input: converted (with warnings), skipped, or failed with the reason.
public struct ConversionReport: Encodable, Sendable {
    public var input: String
    public var output: String?
    public var from: String?
    public var to: String
    public var records: Int?
    public var status: Status
    public var diagnostics: [Diagnostic]
    /// The line of `convert --manifest` that asked for this file, and the `id` it gave.
    public var manifestLine: Int?
    public var id: JSONValue?
    /// How bad the worst problem was, for an exit status.
    public var exitStatus: AlmanacExitCode

    /// What happened to the input.
    public enum Status: String, Hashable, Sendable, Codable {
        case converted, skipped, failed
        /// A batch stopped (Ctrl-C, `--stop-on-error`) before this file started.
        case notStarted = "not-started"
    }

    public init(input: String, output: String?, to: String, status: Status = .converted, diagnostics: [Diagnostic] = []) {
        self.input = input
        self.output = output
        self.to = to
        self.status = status
        self.diagnostics = diagnostics
        self.exitStatus = .success
    }

    /// Records a failure: an output problem as it is (it names the output), any other located in
    /// the input.
    public mutating func fail(_ error: Diagnostic) {
        status = .failed
        let isOutput = error.code.isIn(.output)
        diagnostics.append(isOutput ? error : error.inFile(input == "-" ? nil : input))
        exitStatus = max(exitStatus, isOutput ? .outputError : .inputError)
    }

    enum CodingKeys: String, CodingKey { case input, output, from, to, records, status, diagnostics, manifestLine, id }
}

extension ConversionReport {
    /// The report as one line of JSON with its keys sorted, written token by token: a batch
    /// streams one a file (`--report -`), and encoding it through `Encodable` would cost a large
    /// share of converting a small file. An `id` object keeps its keys in the order the manifest gave them.
    public func jsonLine() -> [UInt8] {
        var writer = JSONWriter(layout: .compactShortControls, capacity: 512)
        writer.beginObject()
        writer.key("diagnostics")
        writer.beginArray()
        for diagnostic in diagnostics { diagnostic.writeJSON(into: &writer) }
        writer.endArray()
        if let from {
            writer.key("from")
            writer.string(from)
        }
        if let id {
            writer.key("id")
            writer.value(id)
        }
        writer.key("input")
        writer.string(input)
        if let manifestLine {
            writer.key("manifestLine")
            writer.integer(manifestLine)
        }
        if let output {
            writer.key("output")
            writer.string(output)
        }
        if let records {
            writer.key("records")
            writer.integer(records)
        }
        writer.key("status")
        writer.string(status.rawValue)
        writer.key("to")
        writer.string(to)
        writer.endObject()
        writer.raw("\n")
        return writer.take()
    }
}

extension Diagnostic {
    /// The diagnostic as its `Encodable` conformance writes it, keys sorted.
    func writeJSON(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("arguments")
        writer.beginArray()
        for argument in message.arguments { writer.string(argument) }
        writer.endArray()
        writer.key("code")
        writer.string(code.rawValue)
        if let location {
            writer.key("location")
            writer.beginObject()
            if let column = location.column {
                writer.key("column")
                writer.integer(column)
            }
            if let file = location.file {
                writer.key("file")
                writer.string(file)
            }
            if let keyPath = location.keyPath {
                writer.key("keyPath")
                writer.string(keyPath)
            }
            if let line = location.line {
                writer.key("line")
                writer.integer(line)
            }
            writer.endObject()
        }
        writer.key("message")
        writer.string(message.rendered(in: .english))
        writer.key("severity")
        writer.string(severity.rawValue)
        writer.endObject()
    }
}
