public import AlmanacCore

/// Where a command's output goes and what it knows about its environment. The `almanac`
/// executable uses the process's streams; tests capture them.
public final class Session: @unchecked Sendable {
    public let registry: FormatRegistry
    /// Plugins on PATH or in ALMANAC_PLUGIN_PATH that could not describe themselves.
    public let pluginProblems: [Diagnostic]
    public let environment: [String: String]
    public let language: Language
    private let writeOut: @Sendable (String) -> Void
    private let writeError: @Sendable (String) -> Void
    private let readInput: @Sendable () -> [UInt8]
    private let writeBytes: @Sendable ([UInt8]) -> Void

    /// Without a registry, the built-in formats and the plugins the environment's PATH and
    /// ALMANAC_PLUGIN_PATH hold.
    public init(
        registry: FormatRegistry? = nil,
        environment: [String: String] = [:],
        language: Language = .english,
        standardOutput: @escaping @Sendable (String) -> Void,
        standardError: @escaping @Sendable (String) -> Void,
        standardInput: @escaping @Sendable () -> [UInt8] = { [] },
        binaryOutput: (@Sendable ([UInt8]) -> Void)? = nil
    ) {
        if let registry {
            self.registry = registry
            self.pluginProblems = []
        } else {
            var builtIn = BuiltInFormats.registry
            let (plugins, problems) = PluginDiscovery.codecs(environment: environment)
            for plugin in plugins { builtIn.register(plugin) }
            self.registry = builtIn
            self.pluginProblems = problems
        }
        self.environment = environment
        self.language = language
        self.writeOut = standardOutput
        self.writeError = standardError
        self.readInput = standardInput
        self.writeBytes = binaryOutput ?? { bytes in standardOutput(String(decoding: bytes, as: UTF8.self)) }
    }

    /// The same session in another language.
    func speaking(_ language: Language) -> Session {
        Session(registry: registry, pluginProblems: pluginProblems, environment: environment, language: language, standardOutput: writeOut,
                standardError: writeError, standardInput: readInput, binaryOutput: writeBytes)
    }

    private init(registry: FormatRegistry, pluginProblems: [Diagnostic], environment: [String: String], language: Language,
                 standardOutput: @escaping @Sendable (String) -> Void, standardError: @escaping @Sendable (String) -> Void,
                 standardInput: @escaping @Sendable () -> [UInt8], binaryOutput: @escaping @Sendable ([UInt8]) -> Void) {
        self.registry = registry
        self.pluginProblems = pluginProblems
        self.environment = environment
        self.language = language
        self.writeOut = standardOutput
        self.writeError = standardError
        self.readInput = standardInput
        self.writeBytes = binaryOutput
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
