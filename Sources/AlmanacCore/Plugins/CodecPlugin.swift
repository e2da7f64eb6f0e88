import AlmanacICU
import Foundation

/// Turns a Swift `Codec` into a plugin executable (`almanac-codec-NAME`) that speaks the plugin
/// protocol (see `ExternalCodec`): the whole `main.swift` of a plugin is
/// `exit(CodecPlugin.main(MyCodec()))`. A codec with messages of its own passes their table
/// (`messages:`), and Almanac shows its diagnostics in the user's language.
public enum CodecPlugin {
    /// Runs the protocol for `codec` with the process's arguments and standard streams; returns
    /// the exit status.
    public static func main(_ codec: any Codec, messages: MessageTable? = nil, arguments: [String] = Array(CommandLine.arguments.dropFirst()),
                            input: () -> [UInt8] = { Array(FileHandle.standardInput.readDataToEndOfFile()) },
                            output: ([UInt8]) -> Void = { FileHandle.standardOutput.write(Data($0)) },
                            errorOutput: ([UInt8]) -> Void = { FileHandle.standardError.write(Data($0)) }) -> Int32 {
        guard let command = arguments.first else {
            errorOutput(Array("usage: \(codec.format.id) --describe | decode | encode [--file F] [--locale L] [--time-zone Z] [--option K=V]\n".utf8))
            return 2
        }
        if command == "--describe" {
            struct Description: Encodable {
                let `protocol`: Int
                let codec: FormatDescription
                let messages: [String: [String: String]]?
            }
            let texts = messages.map { table in
                Dictionary(uniqueKeysWithValues: Language.allCases.map { ($0.rawValue, table.texts(in: $0)) })
            }
            output((try? CanonicalJSON.encode(Description(protocol: ExternalCodec.protocolVersion, codec: codec.format, messages: texts))) ?? [])
            return 0
        }
        var context = CodecContext()
        var file: String?
        var index = 1
        while index + 1 < arguments.count {
            let value = arguments[index + 1]
            switch arguments[index] {
            case "--file": file = value
            case "--locale": context.locale = try? LocaleID(value)
            case "--time-zone": context.timeZone = try? TimeZoneID(value)
            case "--option":
                let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2 { context.options[parts[0]] = parts[1] }
            default: break
            }
            index += 2
        }
        switch command {
        case "decode":
            do {
                let decoded = try codec.decode(CodecInput(bytes: input(), fileName: file), context: context)
                let model = try ModelJSONCodec(codec.format.model).encode(decoded.document, context: context).bytes
                let document = try JSONValue(parsing: model)
                let result: JSONValue = .object([("protocol", .integer(ExternalCodec.protocolVersion)), ("document", document),
                                                 ("diagnostics", .array(decoded.diagnostics.map(json)))])
                output(Array(result.serialized().utf8))
                return 0
            } catch {
                output(Array(JSONValue.object([("protocol", .integer(ExternalCodec.protocolVersion)), ("error", json(error))]).serialized().utf8))
                return 1
            }
        case "encode":
            do {
                let decoded = try ModelJSONCodec(codec.format.model).decode(CodecInput(bytes: input(), fileName: nil), context: context)
                output(try codec.encode(decoded.document, context: context).bytes)
                return 0
            } catch {
                errorOutput(Array(JSONValue.object([("protocol", .integer(ExternalCodec.protocolVersion)), ("error", json(error))]).serialized().utf8))
                return 1
            }
        default:
            errorOutput(Array("unknown command \(command)\n".utf8))
            return 2
        }
    }

    static func json(_ diagnostic: Diagnostic) -> JSONValue {
        var members: [(String, JSONValue)] = [("severity", .string(diagnostic.severity.rawValue)), ("code", .string(diagnostic.code.rawValue)),
                                              ("message", .string(diagnostic.message.rendered())),
                                              ("arguments", .array(diagnostic.message.arguments.map(JSONValue.string)))]
        if let file = diagnostic.location?.file { members.append(("file", .string(file))) }
        if let line = diagnostic.location?.line { members.append(("line", .integer(line))) }
        if let column = diagnostic.location?.column { members.append(("column", .integer(column))) }
        if let keyPath = diagnostic.location?.keyPath { members.append(("keyPath", .string(keyPath))) }
        return .object(members)
    }
}
