public import AlmanacCore

/// The four apps' backup files. Reading checks every field and reports every problem with its
/// JSON path; older versions are migrated; a newer version than Almanac knows is refused. Writing
/// is canonical JSON (sorted keys, two-space indent), so an unchanged backup is written back byte
/// for byte. Schemas: `Schemas/<id>.schema.json`.
public struct BackupCodec: MergingCodec {
    public let id: String
    /// The app whose backups these are.
    let app: any AppBackup.Type

    init(app: any AppBackup.Type) {
        self.id = app.format
        self.app = app
    }

    /// The codec of the app whose format id this is (`retiretime-backup`), or nil for another id.
    public init?(id: String) {
        guard let app = BackupApps.app(id) else { return nil }
        self.init(app: app)
    }

    /// One codec per app of `BackupApps.all`.
    public static let all = BackupApps.all.map(BackupCodec.init(app:))

    /// Built once: registries ask every codec for it on every file.
    public var format: FormatDescription { Self.formats[id] ?? makeFormat() }
    static let formats = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0.makeFormat()) })

    func makeFormat() -> FormatDescription {
        let about = app.about
        // Retire Time's days are one flat list and stream; the others nest their records (a list's
        // reminders, a library's items) and are made from the whole document.
        let summary = about.summary + (app.format == RetireTimeBackup.format
            ? " Written from a calendar as it is read, in memory that does not grow with its days."
            : " Made from the whole document, in memory under 10× the input's size.")
        return FormatDescription(
            id: id, name: about.name, summary: summary, aliases: [id.replacingOccurrences(of: "-backup", with: "")],
            extensions: [".\(id).json"], mediaTypes: ["application/json"], model: .backup,
            options: [.init(name: "exported-at", summary: "The exportedAt time to write when a backup is made from other data (default: now).")],
            examples: [.init(summary: "A small backup", input: about.example)],
            // A table of the app's records is read as its model (JellySave's: a ledger).
            via: app.model == .agenda ? nil : app.model)
    }

    public func identify(_ probe: Probe) -> Identification {
        let text = probe.text.prefix(4096)
        guard text.drop(while: \.isWhitespace).hasPrefix("{") else { return .no }
        let compact = text.replacingOccurrences(of: " ", with: "")
        return compact.contains("\"format\":\"\(id)\"") ? .yes : .cannotTell
    }

    public func decode(_ input: CodecInput, context: CodecContext) throws(Diagnostic) -> Decoded {
        try read(JSONValue(parsing: try input.readAll(), fileName: input.fileName), file: input.fileName)
    }

    /// Checks and reads a backup's JSON (what `decode` does after parsing the text).
    func read(_ json: JSONValue, file: String?) throws(Diagnostic) -> Decoded {
        let (content, diagnostics) = try check(json, file: file)
        let canonical = BackupJSON.canonical(content)
        return Decoded(document: .backup(BackupDocument(format: id, version: app.version, content: canonical,
                                                        recordCount: BackupRecords.count(app.counted, in: canonical))),
                       diagnostics: diagnostics, encoding: "UTF-8")
    }

    /// Every problem of a backup's JSON, and its content at the current version (migrated when
    /// it is older). Writing checks with this alone: the canonical copy `read` makes is not
    /// needed there (the writer orders keys itself), and making it was a third of the check.
    func check(_ json: JSONValue, file: String?) throws(Diagnostic) -> (content: JSONValue, diagnostics: [Diagnostic]) {
        guard case .object(let top) = json else {
            throw Diagnostic.error(.backupNotABackup(format: id), at: SourceLocation(file: file, keyPath: "/"))
        }
        let format = BackupReader.member(top, "format")?.string
        guard format == id else {
            if let format, format.hasSuffix("-backup") {
                throw Diagnostic.error(.backupWrongFormat(format: format, expected: id), at: SourceLocation(file: file, keyPath: "/format"))
            }
            throw Diagnostic.error(.backupNotABackup(format: id), at: SourceLocation(file: file, keyPath: "/format"))
        }
        guard case .integer(let version)? = BackupReader.member(top, "version"), version >= 1 else {
            throw Diagnostic.error(.backupNoVersion, at: SourceLocation(file: file, keyPath: "/version"))
        }
        guard version <= app.version else {
            throw Diagnostic.error(.backupNewerVersion(format: id, version: String(version), knownVersion: String(app.version)), at: SourceLocation(file: file, keyPath: "/version"))
        }
        var reader = BackupReader(file: file)
        let known: BackupFields = ["format", "version", "exportedAt"]
        _ = reader.object(json, "", fields: known.union(app.topLevelFields(version: version)))
        let backup = app.read(top, version: version, reader: &reader)
        // An older version is migrated: its content is what the app's records say now.
        let content = version == app.version ? json : backup.json
        var diagnostics = reader.problems
        if version < app.version {
            diagnostics.append(.note(.backupMigrated(format: id, version: String(version), currentVersion: String(app.version)), at: SourceLocation(file: file, keyPath: "/version")))
        }
        return (content, diagnostics)
    }

    public func encode(_ document: Document, context: CodecContext) throws(Diagnostic) -> Encoded {
        guard case .backup(let backup) = document else {
            throw Diagnostic.error(.convertModelMismatch(model: document.kind.rawValue, format: id, expected: ModelKind.backup.rawValue))
        }
        guard backup.format == id else {
            throw Diagnostic.error(.backupWrongFormat(format: backup.format, expected: id))
        }
        // Never write what would not read back: a backup is checked before it is written.
        // (The content is checked as it is: reading back the text it is written as parsed it again.)
        let check = try check(backup.content, file: nil)
        if let problem = check.diagnostics.first(where: { $0.severity == .error }) { throw problem }
        return Encoded(bytes: BackupJSON.bytes(backup.content))
    }
}

extension BackupCodec {
    /// Restores into an existing backup: records match by id, then by what identifies them in
    /// the app, and the newer `updatedAt` wins (see `BackupMerge`).
    public func merge(existing: Document, incoming: Document, context: CodecContext) throws(Diagnostic) -> (document: Document, diagnostics: [Diagnostic]) {
        guard case .backup(let old) = existing, case .backup(let new) = incoming else {
            throw Diagnostic.error(.convertModelMismatch(model: incoming.kind.rawValue, format: format.id, expected: ModelKind.backup.rawValue))
        }
        let (merged, summary) = try BackupMerge.merge(existing: old, incoming: new)
        let note = Diagnostic.note(.backupMerged(added: String(summary.added), updated: String(summary.updated), keptNewer: String(summary.keptNewer), keptTied: String(summary.keptTied), unchanged: String(summary.unchanged), keptExisting: String(summary.keptExisting)))
        let matches = summary.matchedByKey.map { match in
            let names = match.names.prefix(5).map { "“\($0)”" }.joined(separator: ", ") + (match.names.count > 5 ? " (+\(match.names.count - 5))" : "")
            return Diagnostic.note(.backupMatchedByKey(collection: match.collection, count: String(match.names.count), key: match.key.joined(separator: " + "), names: names))
        }
        return (.backup(merged), [note] + matches)
    }
}
