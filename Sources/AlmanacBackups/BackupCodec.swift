public import AlmanacCore

/// The four apps' backup files. Reading checks every field and reports every problem with its
/// JSON path; older versions are migrated; a newer version than Almanac knows is refused. Writing
/// is canonical JSON (sorted keys, two-space indent), so an unchanged backup is written back byte
/// for byte. Schemas: `Schemas/<id>.schema.json`.
public struct BackupCodec: MergingCodec {
    public let id: String

    public init(id: String) { self.id = id }

    public static let retireTime = BackupCodec(id: RetireTimeBackup.format)
    public static let jellySave = BackupCodec(id: JellySaveBackup.format)
    public static let zhiXi = BackupCodec(id: ZhiXiBackup.format)
    public static let reminders = BackupCodec(id: RemindersBackup.format)
    public static let all = [retireTime, jellySave, zhiXi, reminders]

    var currentVersion: Int {
        switch id {
        case RetireTimeBackup.format: RetireTimeBackup.version
        case JellySaveBackup.format: JellySaveBackup.version
        case ZhiXiBackup.format: ZhiXiBackup.version
        default: RemindersBackup.version
        }
    }

    /// Built once: registries ask every codec for it on every file.
    public var format: FormatDescription { Self.formats[id] ?? makeFormat() }
    static let formats = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0.makeFormat()) })

    func makeFormat() -> FormatDescription {
        let (name, summary, example): (String, String, String) = switch id {
        case RetireTimeBackup.format:
            ("Retire Time backup", "Retire Time's days (birthdays, anniversaries, countdowns; lunar or Gregorian), categories and settings.",
             #"{"format": "retiretime-backup", "version": 2, "exportedAt": "2025-11-20T10:00:00+08:00", "settings": {"dateDisplay": "both", "theme": "system"}, "categories": [{"id": "family", "name": "家人"}], "days": [{"id": "mom", "name": "媽媽生日", "date": "2025-10-06", "calendar": "lunar", "lunarDate": {"month": 8, "day": 15, "leap": false}, "type": "birthday", "repeat": "yearly", "reminder": {"offsetDays": 1, "time": "09:00"}, "categoryId": "family", "pinned": true}]}"#)
        case JellySaveBackup.format:
            ("JellySave backup", "JellySave's accounts, balance changes, asset snapshots and saving goals, in exact decimals.",
             #"{"format": "jellysave-backup", "version": 2, "exportedAt": "2025-11-20T21:00:00+08:00", "baseCurrency": "TWD", "accounts": [{"id": "a1", "name": "台新活存", "kind": "cash", "currency": "TWD", "balance": "1234567.50"}], "goals": [{"id": "g1", "name": "日本旅行", "target": "120000", "saved": "45000", "currency": "TWD", "deadline": "2026-04-01"}]}"#)
        case ZhiXiBackup.format:
            ("知习 backup", "知习's libraries of knowledge items, study tasks, review tasks and study records.",
             #"{"format": "zhixi-backup", "version": 1, "exportedAt": "2025-11-20T22:00:00+08:00", "libraries": [{"id": "math", "name": "高等数学", "items": [{"id": "k1", "title": "洛必达法则", "content": "0/0 型极限", "tags": ["极限"]}]}], "reviewTasks": [{"id": "r1", "itemId": "k1", "method": "spacedRepetition", "due": "2025-11-21"}]}"#)
        default:
            ("Reminders backup", "Reminders lists with reminders: date, time, location, priority, flag, repeat, completion.",
             ##"{"format": "reminders-backup", "version": 1, "exportedAt": "2025-11-20T08:00:00Z", "lists": [{"id": "shopping", "name": "Shopping", "color": "#FF9500", "order": 0, "reminders": [{"id": "r1", "title": "Milk", "date": "2025-11-22", "time": "18:00", "priority": "medium"}]}]}"##)
        }
        return FormatDescription(
            id: id, name: name, summary: summary, aliases: [id.replacingOccurrences(of: "-backup", with: "")],
            extensions: [".\(id).json"], mediaTypes: ["application/json"], model: .backup,
            options: [.init(name: "exported-at", summary: "The exportedAt time to write when a backup is made from other data (default: now).")],
            examples: [.init(summary: "A small backup", input: example)],
            // JellySave's records are accounts and money: a table of them is read as a ledger.
            via: id == JellySaveBackup.format ? .ledger : nil)
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
        return Decoded(document: .backup(BackupDocument(format: id, version: currentVersion, content: canonical,
                                                        recordCount: BackupRecords.count(format: id, content: canonical))),
                       diagnostics: diagnostics, encoding: "UTF-8")
    }

    /// Every problem of a backup's JSON, and its content at the current version (migrated when
    /// it is older). Writing checks with this alone: the canonical copy `read` makes is not
    /// needed there (the writer orders keys itself), and making it was a third of the check.
    func check(_ json: JSONValue, file: String?) throws(Diagnostic) -> (content: JSONValue, diagnostics: [Diagnostic]) {
        guard case .object(let top) = json else {
            throw Diagnostic.error("backup.not-a-backup", id, at: SourceLocation(file: file, keyPath: "/"))
        }
        let format = BackupReader.member(top, "format")?.string
        guard format == id else {
            if let format, format.hasSuffix("-backup") {
                throw Diagnostic.error("backup.wrong-format", format, id, at: SourceLocation(file: file, keyPath: "/format"))
            }
            throw Diagnostic.error("backup.not-a-backup", id, at: SourceLocation(file: file, keyPath: "/format"))
        }
        guard case .integer(let version)? = BackupReader.member(top, "version"), version >= 1 else {
            throw Diagnostic.error("backup.no-version", at: SourceLocation(file: file, keyPath: "/version"))
        }
        guard version <= currentVersion else {
            throw Diagnostic.error("backup.newer-version", id, String(version), String(currentVersion), at: SourceLocation(file: file, keyPath: "/version"))
        }
        var reader = BackupReader(file: file)
        let known: BackupFields = ["format", "version", "exportedAt"]
        let content: JSONValue
        switch id {
        case RetireTimeBackup.format:
            _ = reader.object(json, "", fields: known.union(["settings", "categories", "days"]))
            let backup = RetireTimeBackup.read(top, version: version, reader: &reader)
            content = version == RetireTimeBackup.version ? json : backup.json
        case JellySaveBackup.format:
            _ = reader.object(json, "", fields: known.union(BackupFields(["baseCurrency", "accounts", "balanceChanges", "snapshots", "goals", "notifications"]
                + (version >= 3 ? ["theme"] : []))))
            let backup = JellySaveBackup.read(top, version: version, reader: &reader)
            content = version == JellySaveBackup.version ? json : backup.json
        case ZhiXiBackup.format:
            _ = reader.object(json, "", fields: known.union(BackupFields(["libraries", "studyTasks", "reviewTasks", "studyRecords"]
                + (version >= 2 ? ["settings", "achievements"] : []))))
            let backup = ZhiXiBackup.read(top, version: version, reader: &reader)
            content = version == ZhiXiBackup.version ? json : backup.json
        default:
            _ = reader.object(json, "", fields: known.union(["lists"]))
            _ = RemindersBackup.read(top, version: version, reader: &reader)
            content = json
        }
        var diagnostics = reader.problems
        if version < currentVersion {
            diagnostics.append(.note("backup.migrated", id, String(version), String(currentVersion), at: SourceLocation(file: file, keyPath: "/version")))
        }
        return (content, diagnostics)
    }

    public func encode(_ document: Document, context: CodecContext) throws(Diagnostic) -> Encoded {
        guard case .backup(let backup) = document else {
            throw Diagnostic.error("convert.model-mismatch", document.kind.rawValue, id, ModelKind.backup.rawValue)
        }
        guard backup.format == id else {
            throw Diagnostic.error("backup.wrong-format", backup.format, id)
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
            throw Diagnostic.error("convert.model-mismatch", incoming.kind.rawValue, format.id, ModelKind.backup.rawValue)
        }
        let (merged, summary) = try BackupMerge.merge(existing: old, incoming: new)
        let note = Diagnostic.note("backup.merged", String(summary.added), String(summary.updated), String(summary.keptNewer),
                                   String(summary.keptTied), String(summary.unchanged), String(summary.keptExisting))
        let matches = summary.matchedByKey.map { match in
            let names = match.names.prefix(5).map { "“\($0)”" }.joined(separator: ", ") + (match.names.count > 5 ? " (+\(match.names.count - 5))" : "")
            return Diagnostic.note("backup.matched-by-key", match.collection, String(match.names.count),
                                   match.key.joined(separator: " + "), names)
        }
        return (.backup(merged), [note] + matches)
    }
}

/// What a person would count in a backup, one definition for reading, converting and merging:
/// days; accounts and goals; library items, study and review tasks; reminders.
enum BackupRecords {
    static let counted: [String: [(list: String, nested: String?)]] = [
        RetireTimeBackup.format: [("days", nil)],
        JellySaveBackup.format: [("accounts", nil), ("goals", nil)],
        ZhiXiBackup.format: [("libraries", "items"), ("studyTasks", nil), ("reviewTasks", nil)],
        RemindersBackup.format: [("lists", "reminders")],
    ]

    static func count(format: String, content: JSONValue) -> Int {
        guard let object = content.object else { return 0 }
        return (counted[format] ?? []).reduce(0) { total, part in
            let records = BackupMerge.member(object, part.list)?.array ?? []
            guard let nested = part.nested else { return total + records.count }
            return total + records.reduce(0) { $0 + ($1.object.flatMap { BackupMerge.member($0, nested)?.array?.count } ?? 0) }
        }
    }
}
