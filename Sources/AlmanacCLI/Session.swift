public import AlmanacCore
import AlmanacKit
import AlmanacICU
import Foundation

/// Where a command's output goes and what it knows about its environment. The `almanac`
/// executable uses the process's streams; tests capture them.
public final class Session: @unchecked Sendable {
    public let registry: FormatRegistry
    /// Plugins on PATH or in ALMANAC_PLUGIN_PATH that could not describe themselves.
    public let pluginProblems: [Diagnostic]
    public let environment: [String: String]
    /// The zone of the machine the command runs on, from this session's `TZ` (then
    /// `/etc/localtime`): what times are read and shown in when no `--time-zone` is given.
    var machineZone: TimeZoneID { .system(environment: environment["TZ"]) }
    public let language: Language
    /// Standard error is a terminal: progress is drawn as one line that updates in place.
    public let isTerminal: Bool
    /// The session is the whole process (not a test): it may handle Ctrl-C itself.
    public let ownsProcess: Bool
    private let writeOut: @Sendable (String) -> Void
    private let writeError: @Sendable (String) -> Void
    private let readInput: @Sendable () -> [UInt8]
    private let writeBytes: @Sendable ([UInt8]) -> Void
    private let writeErrorBytes: @Sendable ([UInt8]) -> Void

    /// Without a registry, the built-in formats and the plugins the environment's PATH and
    /// ALMANAC_PLUGIN_PATH hold; `codecs` come last, so they replace any of the same id.
    public init(
        registry: FormatRegistry? = nil,
        adding codecs: [any Codec] = [],
        environment: [String: String] = [:],
        language: Language = .english,
        isTerminal: Bool = false,
        ownsProcess: Bool = false,
        standardOutput: @escaping @Sendable (String) -> Void,
        standardError: @escaping @Sendable (String) -> Void,
        standardInput: @escaping @Sendable () -> [UInt8] = { [] },
        binaryOutput: (@Sendable ([UInt8]) -> Void)? = nil,
        binaryError: (@Sendable ([UInt8]) -> Void)? = nil
    ) {
        var chosen: FormatRegistry
        if let registry {
            chosen = registry
            self.pluginProblems = []
        } else {
            chosen = BuiltInFormats.registry
            let (plugins, problems) = PluginDiscovery.codecs(environment: environment)
            for plugin in plugins { chosen.register(plugin) }
            self.pluginProblems = problems
        }
        for codec in codecs { chosen.register(codec) }
        self.registry = chosen
        self.environment = environment
        self.language = language
        self.isTerminal = isTerminal
        self.ownsProcess = ownsProcess
        self.writeOut = standardOutput
        self.writeError = standardError
        self.readInput = standardInput
        self.writeBytes = binaryOutput ?? { bytes in standardOutput(String(decoding: bytes, as: UTF8.self)) }
        self.writeErrorBytes = binaryError ?? { bytes in standardError(String(decoding: bytes, as: UTF8.self)) }
    }

    /// The same session in another language.
    func speaking(_ language: Language) -> Session { Session(copying: self, language: language) }

    private init(copying other: Session, language: Language) {
        registry = other.registry
        pluginProblems = other.pluginProblems
        environment = other.environment
        self.language = language
        isTerminal = other.isTerminal
        ownsProcess = other.ownsProcess
        writeOut = other.writeOut
        writeError = other.writeError
        readInput = other.readInput
        writeBytes = other.writeBytes
        writeErrorBytes = other.writeErrorBytes
    }

    @TaskLocal static var current: Session?

    /// A line on standard output.
    func print(_ line: String = "") { writeOut(line + "\n") }

    /// Raw bytes on standard output (a converted document written to `-`).
    func write(_ bytes: [UInt8]) { writeBytes(bytes) }

    /// Bytes gathered before a write to standard output, for commands that print many lines.
    static let block = 1 << 20

    /// Lines printed a block at a time, not with a write each (a listing of 100,000 occurrences).
    func printLines(_ lines: some Sequence<String>) {
        var block = ""
        for line in lines {
            block += line
            block += "\n"
            if block.utf8.count > Self.block {
                write(Array(block.utf8))
                block = ""
            }
        }
        if !block.isEmpty { write(Array(block.utf8)) }
    }

    /// A diagnostic on standard error, in the session's language.
    func report(_ diagnostic: Diagnostic) { writeError(diagnostic.rendered(in: language) + "\n") }

    /// Diagnostics on standard error, written about 64 KB at a time rather than one system call
    /// each (a batch of small exports reports thousands of dropped fields).
    func report(_ diagnostics: some Sequence<Diagnostic>) {
        // As bytes: a string made of each line and appended cost a third of reporting them.
        var bytes: [UInt8] = []
        for diagnostic in diagnostics {
            if bytes.isEmpty { bytes.reserveCapacity(1 << 16 + 1024) }
            diagnostic.render(in: language, into: &bytes)
            bytes.append(ASCII.lineFeed)
            if bytes.count >= 1 << 16 {
                writeErrorBytes(bytes)
                bytes.removeAll(keepingCapacity: true)
            }
        }
        if !bytes.isEmpty { writeErrorBytes(bytes) }
    }

    /// A message on standard error.
    func printError(_ line: String) { writeError(line + "\n") }

    /// Text on standard error as it is (progress lines that redraw themselves).
    func printErrorRaw(_ text: String) { writeError(text) }

    func standardInput() -> [UInt8] { readInput() }

    /// A message in the session's language.
    func text(_ message: Message) -> String {
        message.rendered(in: language)
    }
}

/// A message in the language of the running command (for help texts, which ArgumentParser reads
/// before any command runs).
func L(_ message: Message) -> String {
    message.rendered(in: Session.current?.language ?? .english)
}

extension Session {
    /// This process's environment, language (`LANG`) and standard streams.
    public static func process(adding codecs: [any Codec] = []) -> Session {
        let environment = ProcessInfo.processInfo.environment
        return Session(
            adding: codecs,
            environment: environment,
            language: Language.fromEnvironment(environment),
            isTerminal: isatty(2) != 0 && environment["TERM"] != "dumb",
            ownsProcess: true,
            standardOutput: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
            standardError: { text in FileHandle.standardError.write(Data(text.utf8)) },
            standardInput: { Array(FileHandle.standardInput.readDataToEndOfFile()) },
            binaryOutput: { bytes in FileHandle.standardOutput.write(Data(bytes)) },
            binaryError: { bytes in FileHandle.standardError.write(Data(bytes)) })
    }
}
