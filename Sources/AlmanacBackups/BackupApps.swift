import AlmanacCore

/// One app's backup file: everything Almanac knows of that app lives in its folder
/// (`RetireTime/`, `JellySave/`, `ZhiXi/`, `Reminders/`) behind this protocol, and the app is named
/// once, in `BackupApps.all`. The codec, the converter, counting and merging are shared and ask the
/// app; a fifth app is a folder and a line in the list.
protocol AppBackup: Hashable, Sendable {
    /// The format id, which the file's `format` member says (`retiretime-backup`).
    static var format: String { get }
    /// The schema version Almanac writes; `read` migrates every older one to it.
    static var version: Int { get }
    /// What `almanac formats` shows: the app's name, what its backup holds, a small example.
    static var about: (name: String, summary: String, example: String) { get }
    /// The model the app's records meet other formats through: its days and tasks as a
    /// calendar (`.agenda`), or its money as a ledger.
    static var model: ModelKind { get }

    /// The members of the top object at a schema version, besides `format`, `version` and `exportedAt`.
    static func topLevelFields(version: Int) -> BackupFields
    /// Reads the top object of a backup of `version` (migrating an older one), every problem
    /// reported to `reader` with its JSON path.
    static func read(_ top: [(String, JSONValue)], version: Int, reader: inout BackupReader) -> Self
    /// The backup at the current version, as its file holds it.
    var json: JSONValue { get }

    /// What a person would count: the lists of records, and the list nested in each (a library's items).
    static var counted: [(list: String, nested: String?)] { get }
    /// How a restore matches records when ids differ (`BackupMerge`), referenced lists first.
    static var mergeCollections: [BackupMerge.Collection] { get }

    /// The records as a calendar, naming what a calendar cannot hold.
    func agenda(context: CodecContext) -> (Agenda, [Diagnostic])
    /// A backup of the app from a calendar, naming what the app cannot hold.
    static func make(from agenda: Agenda, context: CodecContext) throws(Diagnostic) -> (Self, [Diagnostic])
    /// The records as a ledger (JellySave's money); the others have none.
    func ledger(context: CodecContext) throws(Diagnostic) -> (Ledger, [Diagnostic])
    /// A backup of the app from a ledger; only an app whose model is `.ledger` makes one.
    static func make(from ledger: Ledger, context: CodecContext) throws(Diagnostic) -> (Self, [Diagnostic])
}

/// The apps whose backups Almanac reads and writes.
enum BackupApps {
    static let all: [any AppBackup.Type] = [RetireTimeBackup.self, JellySaveBackup.self, ZhiXiBackup.self, RemindersBackup.self]

    static let byFormat: [String: any AppBackup.Type] = Dictionary(uniqueKeysWithValues: all.map { ($0.format, $0) })

    static func app(_ format: String) -> (any AppBackup.Type)? { byFormat[format] }

    /// The app a backup made from a model is for when no target format is named: the first
    /// listed whose model it is (Retire Time for a calendar, JellySave for a ledger).
    static func first(for model: ModelKind) -> (any AppBackup.Type)? { all.first { $0.model == model } }
}

extension AppBackup {
    func ledger(context: CodecContext) throws(Diagnostic) -> (Ledger, [Diagnostic]) {
        throw Diagnostic.error(.backupNotALedger(format: Self.format))
    }

    static func make(from ledger: Ledger, context: CodecContext) throws(Diagnostic) -> (Self, [Diagnostic]) {
        throw Diagnostic.error(.convertModelMismatch(model: ModelKind.ledger.rawValue, format: format, expected: model.rawValue))
    }

    /// The app's records in a backup document (the content checked when the document was read).
    static func read(_ backup: BackupDocument) throws(Diagnostic) -> Self {
        var reader = BackupReader(file: nil)
        let result = read(backup.content.object ?? [], version: version, reader: &reader)
        if let problem = reader.problems.first(where: { $0.severity == .error }) { throw problem }
        return result
    }

    /// The backup as a document, its records counted.
    var document: BackupDocument {
        let content = json
        return BackupDocument(format: Self.format, version: Self.version, content: content,
                              recordCount: BackupRecords.count(Self.counted, in: content))
    }
}

/// What a person would count in a backup, one definition for reading, converting and merging:
/// days; accounts and goals; library items, study and review tasks; reminders.
enum BackupRecords {
    static func count(format: String, content: JSONValue) -> Int {
        count(BackupApps.app(format)?.counted ?? [], in: content)
    }

    static func count(_ lists: [(list: String, nested: String?)], in content: JSONValue) -> Int {
        guard let object = content.object else { return 0 }
        return lists.reduce(0) { total, part in
            let records = BackupMerge.member(object, part.list)?.array ?? []
            guard let nested = part.nested else { return total + records.count }
            return total + records.reduce(0) { $0 + ($1.object.flatMap { BackupMerge.member($0, nested)?.array?.count } ?? 0) }
        }
    }
}
