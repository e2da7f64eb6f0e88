import Foundation

/// Almanac's own JSON for each model: the canonical form plugins exchange and tests compare.
///
/// `{"model": "agenda", "version": 1, ...the model's fields}`, keys sorted, two-space indentation,
/// one trailing newline, so the same model always gives the same bytes.
public struct ModelJSONCodec: Codec {
    public static let version = 1

    public let model: ModelKind

    public init(_ model: ModelKind) { self.model = model }

    /// One per model; backups are JSON documents of their own and have their own codecs.
    public static let all: [ModelJSONCodec] = ModelKind.allCases.filter { $0 != .backup }.map(ModelJSONCodec.init)

    /// Built once: registries ask every codec for it on every file.
    public var format: FormatDescription { Self.formats[model] ?? makeFormat() }
    static let formats = Dictionary(uniqueKeysWithValues: all.map { ($0.model, $0.makeFormat()) })

    func makeFormat() -> FormatDescription {
        FormatDescription(
            id: "\(model.rawValue)-json",
            name: "Almanac \(model.rawValue) JSON",
            summary: "Almanac's canonical JSON for the \(model.rawValue) model: what codec plugins read and write.",
            aliases: ["\(model.rawValue).json"],
            extensions: [".\(model.rawValue).json"],
            mediaTypes: ["application/vnd.almanac.\(model.rawValue)+json"],
            model: model,
            examples: [FormatDescription.Example(summary: "An empty \(model.rawValue)", input: Self.emptyExample(model))])
    }

    static func emptyExample(_ model: ModelKind) -> String {
        switch model {
        case .agenda: #"{"model": "agenda", "version": 1, "items": [], "carried": []}"#
        case .ledger: #"{"model": "ledger", "version": 1, "baseCurrency": "TWD", "accounts": [], "balanceChanges": [], "snapshots": [], "goals": []}"#
        case .catalog: #"{"model": "catalog", "version": 1, "sourceLanguage": "en", "entries": []}"#
        case .table: #"{"model": "table", "version": 1, "columns": ["name", "date"], "rows": [["媽媽生日", "2025-10-06"]]}"#
        case .backup: "{}"
        }
    }

    public func identify(_ probe: Probe) -> Identification {
        let text = probe.trimmedText
        guard text.first == "{" else { return .no }
        // The header is written first by Almanac, but other writers may order keys differently.
        let compact = text.prefix(4096).filter { !$0.isWhitespace }
        if compact.contains("\"model\":\"\(model.rawValue)\"") { return .yes }
        if compact.contains("\"model\":\"") { return .no }
        return .cannotTell
    }

    public func decode(_ input: CodecInput, context: CodecContext) throws(Diagnostic) -> Decoded {
        let data = Data(try input.readAll())
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: data)
        } catch {
            throw CanonicalJSON.diagnostic(for: error, in: input)
        }
        guard header.model == model.rawValue else {
            throw Diagnostic.error(.jsonWrongModel(model: header.model, expected: model.rawValue), at: SourceLocation(file: input.fileName, keyPath: "/model"))
        }
        guard header.version <= Self.version else {
            throw Diagnostic.error(.jsonNewerVersion(version: String(header.version), knownVersion: String(Self.version)), at: SourceLocation(file: input.fileName, keyPath: "/version"))
        }
        let decoded: Decoded
        do {
            let document: Document = switch model {
            case .agenda: .agenda(try JSONDecoder().decode(Agenda.self, from: data))
            case .ledger: .ledger(try JSONDecoder().decode(Ledger.self, from: data))
            case .catalog: .catalog(try JSONDecoder().decode(Catalog.self, from: data))
            case .table: .table(try JSONDecoder().decode(Table.self, from: data))
            case .backup: throw Diagnostic.error(.convertModelMismatch(model: model.rawValue, format: format.id, expected: model.rawValue))
            }
            decoded = Decoded(document: document, encoding: "UTF-8")
        } catch {
            throw CanonicalJSON.diagnostic(for: error, in: input)
        }
        // Locales become folder names (`zh-Hant.lproj`): a file's or a plugin's are checked here.
        if case .catalog(let catalog) = decoded.document { try catalog.checkLocaleNames(file: input.fileName) }
        return decoded
    }

    public func encode(_ document: Document, context: CodecContext) throws(Diagnostic) -> Encoded {
        guard document.kind == model else {
            throw Diagnostic.error(.convertModelMismatch(model: document.kind.rawValue, format: format.id, expected: model.rawValue))
        }
        let body: any Encodable = switch document {
        case .agenda(let agenda): agenda
        case .ledger(let ledger): ledger
        case .catalog(let catalog): catalog
        case .table(let table): table
        case .backup: throw Diagnostic.error(.convertModelMismatch(model: document.kind.rawValue, format: format.id, expected: model.rawValue))
        }
        return Encoded(bytes: try CanonicalJSON.encode(Envelope(model: model.rawValue, version: Self.version, body: body)))
    }

    struct Header: Decodable {
        let model: String
        let version: Int
    }

    /// The model's fields with the header beside them, in one object.
    struct Envelope: Encodable {
        let model: String
        let version: Int
        let body: any Encodable

        enum Keys: String, CodingKey { case model, version }

        func encode(to encoder: any Encoder) throws {
            try body.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(model, forKey: .model)
            try container.encode(version, forKey: .version)
        }
    }
}

/// The one JSON style Almanac writes for its models, reports and baselines: sorted keys,
/// two-space indentation, `" : "`, unescaped slashes and a final newline (Foundation's
/// `JSONEncoder` layout, which earlier files have), so output is deterministic and diffs cleanly.
/// Written by `JSONWriter`, like every JSON Almanac writes.
public enum CanonicalJSON {
    public static func encode(_ value: some Encodable) throws(Diagnostic) -> [UInt8] {
        let tree: JSONTreeEncoder.Node
        do {
            tree = try JSONTreeEncoder.tree(of: value)
        } catch {
            throw Diagnostic.error(.jsonUnencodable(reason: String(describing: error)))
        }
        var writer = JSONWriter(layout: .foundation, capacity: 16 * 1024)
        JSONTreeEncoder.write(tree, into: &writer)
        writer.raw("\n")
        return writer.take()
    }

    /// A decoding error as a diagnostic with the JSON path (`/items/3/start`) it happened at.
    public static func diagnostic(for error: any Error, in input: CodecInput) -> Diagnostic {
        func path(_ codingPath: [any CodingKey]) -> String {
            "/" + codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "/")
        }
        guard let decodingError = error as? DecodingError else {
            return Diagnostic.error(.jsonInvalid(file: input.fileName ?? "-", reason: String(describing: error)), at: SourceLocation(file: input.fileName))
        }
        switch decodingError {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return Diagnostic.error(.jsonSyntax(reason: CanonicalJSON.underlyingDescription(context)), at: SourceLocation(file: input.fileName))
        case .dataCorrupted(let context):
            return Diagnostic.error(.jsonBadValue(reason: context.debugDescription), at: SourceLocation(file: input.fileName, keyPath: path(context.codingPath)))
        case .keyNotFound(let key, let context):
            return Diagnostic.error(.jsonMissingKey(field: key.stringValue), at: SourceLocation(file: input.fileName, keyPath: path(context.codingPath + [key])))
        case .typeMismatch(let type, let context):
            return Diagnostic.error(.jsonWrongType(type: String(describing: type)), at: SourceLocation(file: input.fileName, keyPath: path(context.codingPath)))
        case .valueNotFound(let type, let context):
            return Diagnostic.error(.jsonWrongType(type: String(describing: type)), at: SourceLocation(file: input.fileName, keyPath: path(context.codingPath)))
        @unknown default:
            return Diagnostic.error(.jsonInvalid(file: input.fileName ?? "-", reason: String(describing: error)), at: SourceLocation(file: input.fileName))
        }
    }

    private static func underlyingDescription(_ context: DecodingError.Context) -> String {
        if let underlying = context.underlyingError as? NSError,
           let description = underlying.userInfo[NSDebugDescriptionErrorKey] as? String {
            return description
        }
        return context.debugDescription
    }
}
