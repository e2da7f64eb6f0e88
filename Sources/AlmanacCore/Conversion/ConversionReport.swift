/// What happened to one input: converted (with warnings), skipped, or failed with the reason.
public struct ConversionReport: Encodable, Sendable {
    public var input: String
    public var output: String?
    public var from: String?
    public var to: String
    public var records: Int?
    /// `converted`, `skipped` or `failed`.
    public var status: String
    public var diagnostics: [Diagnostic]
    /// The line of `convert --manifest` that asked for this file, and the `id` it gave.
    public var manifestLine: Int?
    public var id: JSONValue?
    /// How bad the worst problem was, for an exit status.
    public var exitStatus: AlmanacExitCode

    public init(input: String, output: String?, to: String, status: String = "converted", diagnostics: [Diagnostic] = []) {
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
        status = "failed"
        let isOutput = error.code.hasPrefix("output.")
        diagnostics.append(isOutput ? error : error.inFile(input == "-" ? nil : input))
        exitStatus = max(exitStatus, isOutput ? .outputError : .inputError)
    }

    enum CodingKeys: String, CodingKey { case input, output, from, to, records, status, diagnostics, manifestLine, id }
}

extension ConversionReport {
    /// The report as one line of JSON with its keys sorted — what Foundation's `JSONEncoder`
    /// writes for it (`.sortedKeys`, `.withoutEscapingSlashes`), built directly: a batch streams
    /// one a file (`--report -`), and the encoder cost 80 µs a line, a tenth of converting a small file. An `id` object keeps its
    /// keys in the order the manifest gave them.
    public func jsonLine() -> [UInt8] {
        var line = "{\"diagnostics\":["
        for (index, diagnostic) in diagnostics.enumerated() {
            if index > 0 { line += "," }
            diagnostic.writeJSON(into: &line)
        }
        line += "]"
        if let from { line += ",\"from\":"; JSONValue.quote(from, into: &line, escaping: .shortControls) }
        if let id { line += ",\"id\":" + id.serialized(escaping: .shortControls) }
        line += ",\"input\":"
        JSONValue.quote(input, into: &line, escaping: .shortControls)
        if let manifestLine { line += ",\"manifestLine\":" + String(manifestLine) }
        if let output { line += ",\"output\":"; JSONValue.quote(output, into: &line, escaping: .shortControls) }
        if let records { line += ",\"records\":" + String(records) }
        line += ",\"status\":"
        JSONValue.quote(status, into: &line, escaping: .shortControls)
        line += ",\"to\":"
        JSONValue.quote(to, into: &line, escaping: .shortControls)
        line += "}\n"
        return Array(line.utf8)
    }
}

extension Diagnostic {
    /// The diagnostic as its `Encodable` conformance writes it, keys sorted, on one line.
    func writeJSON(into line: inout String) {
        line += "{\"arguments\":["
        for (index, argument) in message.arguments.enumerated() {
            if index > 0 { line += "," }
            JSONValue.quote(argument, into: &line, escaping: .shortControls)
        }
        line += "],\"code\":"
        JSONValue.quote(code, into: &line, escaping: .shortControls)
        if let location {
            var separator = ""
            line += ",\"location\":{"
            if let column = location.column { line += "\"column\":" + String(column); separator = "," }
            if let file = location.file { line += separator + "\"file\":"; JSONValue.quote(file, into: &line, escaping: .shortControls); separator = "," }
            if let keyPath = location.keyPath { line += separator + "\"keyPath\":"; JSONValue.quote(keyPath, into: &line, escaping: .shortControls); separator = "," }
            if let number = location.line { line += separator + "\"line\":" + String(number) }
            line += "}"
        }
        line += ",\"message\":"
        JSONValue.quote(message.rendered(in: .english), into: &line, escaping: .shortControls)
        line += ",\"severity\":"
        JSONValue.quote(severity.rawValue, into: &line, escaping: .shortControls)
        line += "}"
    }
}
