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
