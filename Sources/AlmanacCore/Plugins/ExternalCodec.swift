import AlmanacICU
import Foundation

/// Codecs in other programs: an executable named `almanac-codec-NAME` on `PATH` or in
/// `ALMANAC_PLUGIN_PATH` that speaks the plugin protocol (version 1):
///
/// - `almanac-codec-NAME --describe` prints `{"protocol": 1, "codec": <FormatDescription>}`, and
///   optionally `"messages": {"en": {code: text}, "zh-Hans": {…}, "zh-Hant": {…}}`: the plugin's own
///   messages, so its diagnostics (which may then carry `"arguments"` for `%@` placeholders) are
///   shown in the user's language.
/// - `almanac-codec-NAME decode [--file NAME] [--locale L] [--time-zone Z] [--option K=V]…` reads the
///   format's bytes on standard input and prints
///   `{"protocol": 1, "document": <the model's canonical JSON>, "diagnostics": [<diagnostic>…]}`.
/// - `almanac-codec-NAME encode [same options]` reads the model's canonical JSON on standard input
///   and prints the format's bytes.
/// - On failure a command exits non-zero and prints `{"protocol": 1, "error": <diagnostic>}` (on
///   standard output for `decode`, on standard error for `encode`). A diagnostic is
///   `{"severity", "code", "message", "file"?, "line"?, "column"?, "keyPath"?}`.
///
/// A plugin that hangs is stopped after the timeout; one that crashes, exits non-zero or prints
/// something else is reported by name, and the rest of a batch goes on.
public struct ExternalCodec: Codec {
    public static let protocolVersion = 1

    public let executable: String
    public let format: FormatDescription
    /// Seconds a decode or encode may take.
    public let timeout: Double
    /// The plugin's own messages, when its description brings them.
    public let messages: MessageTable?

    /// The plugin's name as users see it (`android-strings (almanac-codec-android)`).
    var pluginName: String { format.id + " (" + (executable.split(separator: "/").last.map(String.init) ?? executable) + ")" }

    public init(executable: String, format: FormatDescription, timeout: Double = 30, messages: MessageTable? = nil) {
        self.executable = executable
        self.format = format
        self.timeout = timeout
        self.messages = messages
    }

    /// Asks an executable for its description.
    public static func describe(_ executable: String, timeout: Double = 5) throws(Diagnostic) -> ExternalCodec {
        let name = executable.split(separator: "/").last.map(String.init) ?? executable
        let result = try PluginProcess.run(executable, ["--describe"], input: [], timeout: timeout, name: name)
        guard result.status == 0 else {
            throw Diagnostic.error(.pluginFailed(plugin: name, status: String(result.status), output: result.errorSummary))
        }
        struct Description: Decodable {
            let `protocol`: Int
            let codec: FormatDescription
            let messages: [String: [String: String]]?
        }
        let description: Description
        do {
            description = try JSONDecoder().decode(Description.self, from: Data(result.output))
        } catch {
            throw Diagnostic.error(.pluginBadOutput(plugin: name, reason: "--describe", output: "\(error)"))
        }
        guard description.protocol == protocolVersion else {
            throw Diagnostic.error(.pluginProtocol(plugin: name, version: String(description.protocol), expected: String(protocolVersion)))
        }
        let messages = description.messages.map { texts in
            MessageTable(name: description.codec.id, english: texts["en"] ?? [:], simplifiedChinese: texts["zh-Hans"] ?? [:],
                         traditionalChinese: texts["zh-Hant"] ?? [:])
        }
        return ExternalCodec(executable: executable, format: description.codec, timeout: timeout * 6, messages: messages)
    }

    public func identify(_ probe: Probe) -> Identification {
        // Plugins are asked by name and extension; their content is not sniffed (that would mean
        // running every plugin on every file).
        .cannotTell
    }

    func arguments(_ command: String, _ context: CodecContext, file: String?) -> [String] {
        var arguments = [command]
        if let file { arguments += ["--file", file] }
        if let locale = context.locale { arguments += ["--locale", locale.bcp47] }
        if let zone = context.timeZone { arguments += ["--time-zone", zone.identifier] }
        for (key, value) in context.options.sorted(by: { $0.key < $1.key }) {
            arguments += ["--option", key + "=" + value]
        }
        return arguments
    }

    public func decode(_ input: CodecInput, context: CodecContext) throws(Diagnostic) -> Decoded {
        let bytes = try input.readAll()
        let name = pluginName
        let result = try PluginProcess.run(executable, arguments("decode", context, file: input.fileName), input: bytes, timeout: timeout, name: name)
        let json: JSONValue
        do {
            json = try JSONValue(parsing: result.output)
        } catch {
            if result.status != 0 { throw Diagnostic.error(.pluginFailed(plugin: name, status: String(result.status), output: result.errorSummary)) }
            throw Diagnostic.error(.pluginBadOutput(plugin: name, reason: "decode", output: error.message.rendered()).localizing(error.message))
        }
        let members = json.object ?? []
        if let error = members.first(where: { $0.0 == "error" })?.1 {
            throw diagnostic(error, plugin: name, file: input.fileName)
        }
        guard result.status == 0 else { throw Diagnostic.error(.pluginFailed(plugin: name, status: String(result.status), output: result.errorSummary)) }
        guard let document = members.first(where: { $0.0 == "document" })?.1 else {
            throw Diagnostic.error(.pluginBadOutput(plugin: name, reason: "decode", output: "no \"document\""))
        }
        let decoded: Decoded
        do {
            decoded = try ModelJSONCodec(format.model).decode(CodecInput(bytes: Array(document.serialized().utf8), fileName: input.fileName),
                                                              context: context)
        } catch where error.code == .catalogLocaleNotTag {
            // A locale the plugin read from the input: the input's problem, named as any reader names it.
            throw error
        } catch {
            throw Diagnostic.error(.pluginBadOutput(plugin: name, reason: "decode", output: error.message.rendered()).localizing(error.message))
        }
        let diagnostics = (members.first { $0.0 == "diagnostics" }?.1.array ?? []).map { diagnostic($0, plugin: name, file: input.fileName) }
        return Decoded(document: decoded.document, diagnostics: diagnostics, encoding: nil)
    }

    public func encode(_ document: Document, context: CodecContext) throws(Diagnostic) -> Encoded {
        let name = pluginName
        let model = try ModelJSONCodec(format.model).encode(document, context: context).bytes
        let result = try PluginProcess.run(executable, arguments("encode", context, file: nil), input: model, timeout: timeout, name: name)
        guard result.status == 0 else {
            if let json = try? JSONValue(parsing: result.error), let error = json.object?.first(where: { $0.0 == "error" })?.1 {
                throw diagnostic(error, plugin: name, file: nil)
            }
            throw Diagnostic.error(.pluginFailed(plugin: name, status: String(result.status), output: result.errorSummary))
        }
        return Encoded(bytes: result.output)
    }

    /// A plugin's diagnostic: in the user's language when the plugin's messages have its code,
    /// else its English text with the plugin's name.
    func diagnostic(_ value: JSONValue, plugin: String, file: String?) -> Diagnostic {
        let members = value.object ?? []
        func text(_ key: String) -> String? { members.first { $0.0 == key }?.1.string }
        func number(_ key: String) -> Int? {
            if case .integer(let value)? = members.first(where: { $0.0 == key })?.1 { return value }
            return nil
        }
        let severity = Diagnostic.Severity(rawValue: text("severity") ?? "error") ?? .error
        let location = SourceLocation(file: text("file") ?? file, line: number("line"), column: number("column"), keyPath: text("keyPath"))
        if let code = text("code"), let messages, messages.format(code, in: .english) != nil {
            let arguments = members.first { $0.0 == "arguments" }?.1.array?.compactMap(\.string) ?? []
            return Diagnostic(severity, Message(code, arguments, table: messages), at: location)
        }
        return Diagnostic(severity, Message.pluginDiagnostic(plugin: plugin, message: text("message") ?? "", code: text("code") ?? "plugin"), at: location)
    }
}
