public import AlmanacCore

/// Where a command's output goes and what it knows about its environment. The `almanac`
/// executable uses the process's streams; tests capture them.
public final class Session: @unchecked Sendable {
    public let registry: FormatRegistry
    public let environment: [String: String]
    public let language: Language
    private let writeOut: @Sendable (String) -> Void
    private let writeError: @Sendable (String) -> Void
    private let readInput: @Sendable () -> [UInt8]
    private let writeBytes: @Sendable ([UInt8]) -> Void

    public init(
        registry: FormatRegistry = BuiltInFormats.registry,
        environment: [String: String] = [:],
        language: Language = .english,
        standardOutput: @escaping @Sendable (String) -> Void,
        standardError: @escaping @Sendable (String) -> Void,
        standardInput: @escaping @Sendable () -> [UInt8] = { [] },
        binaryOutput: (@Sendable ([UInt8]) -> Void)? = nil
    ) {
        self.registry = registry
        self.environment = environment
        self.language = language
        self.writeOut = standardOutput
        self.writeError = standardError
        self.readInput = standardInput
        self.writeBytes = binaryOutput ?? { bytes in standardOutput(String(decoding: bytes, as: UTF8.self)) }
    }

    /// The same session in another language.
    func speaking(_ language: Language) -> Session {
        Session(registry: registry, environment: environment, language: language, standardOutput: writeOut,
                standardError: writeError, standardInput: readInput, binaryOutput: writeBytes)
    }

    @TaskLocal static var current: Session?

    /// A line on standard output.
    func print(_ line: String = "") { writeOut(line + "\n") }

    /// Raw bytes on standard output (a converted document written to `-`).
    func write(_ bytes: [UInt8]) { writeBytes(bytes) }

    /// A diagnostic on standard error, in the session's language.
    func report(_ diagnostic: Diagnostic) { writeError(diagnostic.rendered(in: language) + "\n") }

    /// A message on standard error.
    func printError(_ line: String) { writeError(line + "\n") }

    func standardInput() -> [UInt8] { readInput() }

    /// A message in the session's language.
    func text(_ key: String, _ arguments: String...) -> String {
        Message(key, arguments).rendered(in: language)
    }
}

/// A message in the language of the running command (for help texts, which ArgumentParser reads
/// before any command runs).
func L(_ key: String, _ arguments: String...) -> String {
    Message(key, arguments).rendered(in: Session.current?.language ?? .english)
}
