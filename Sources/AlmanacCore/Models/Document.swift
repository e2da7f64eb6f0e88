/// The models a codec reads into or writes from.
public enum ModelKind: String, Hashable, Sendable, Codable, CaseIterable {
    case agenda, ledger, catalog, table
    /// An app's own backup (Retire Time, JellySave, 知习, Reminders), kept whole.
    case backup
}

/// A decoded document: one of the models.
public enum Document: Hashable, Sendable {
    case agenda(Agenda)
    case ledger(Ledger)
    case catalog(Catalog)
    case table(Table)
    case backup(BackupDocument)

    public var kind: ModelKind {
        switch self {
        case .agenda: .agenda
        case .ledger: .ledger
        case .catalog: .catalog
        case .table: .table
        case .backup: .backup
        }
    }

    /// Items, accounts or entries: what a user would count.
    public var recordCount: Int {
        switch self {
        case .agenda(let agenda): agenda.items.count
        case .ledger(let ledger): ledger.accounts.count + ledger.balanceChanges.count + ledger.snapshots.count + ledger.goals.count
        case .catalog(let catalog): catalog.entries.count
        case .table(let table): table.rows.count
        case .backup(let backup): backup.recordCount
        }
    }
}

/// An app's backup: which format and version it is, and its validated content in the current
/// version (older versions are migrated when read). Its codec knows the records; the model keeps
/// the document whole so a backup read and written back is the same bytes.
public struct BackupDocument: Hashable, Sendable {
    /// The format id (`retiretime-backup`, `jellysave-backup`, `zhixi-backup`, `reminders-backup`).
    public var format: String
    public var version: Int
    public var content: JSONValue
    /// Days, accounts, reminders…: what a person would count.
    public var recordCount: Int

    public init(format: String, version: Int, content: JSONValue, recordCount: Int) {
        self.format = format
        self.version = version
        self.content = content
        self.recordCount = recordCount
    }
}

/// Turns a document of one model into another (a table of rows into calendar items, a calendar
/// into rows for a spreadsheet). Registered next to the codecs; the CLI's convert uses them when
/// the target format holds a different model from the source.
public protocol DocumentConverter: Sendable {
    /// The pairs this converter handles.
    var conversions: [(from: ModelKind, to: ModelKind)] { get }
    /// The converted document and what could not be carried over (as warnings).
    func convert(_ document: Document, to model: ModelKind, context: CodecContext) throws(Diagnostic) -> (Document, [Diagnostic])
    /// The model a document is best carried through on its way to `target` when no converter
    /// goes directly (a JellySave backup through its ledger, not its calendar); nil: any.
    func route(_ document: Document, toward target: ModelKind) -> ModelKind?
    /// A converter that works item by item along `path` (`[.table, .agenda]`, or a longer path it
    /// handles as a whole, such as rows read as days and written back as rows), or nil.
    func itemConverter(path: [ModelKind], context: CodecContext) -> (any DocumentItemConverter)?
    /// The options (`--option name=value`) the converter reads, as codecs declare theirs.
    var options: [FormatDescription.Option] { get }
}

extension DocumentConverter {
    public func route(_ document: Document, toward target: ModelKind) -> ModelKind? { nil }
    public func itemConverter(path: [ModelKind], context: CodecContext) -> (any DocumentItemConverter)? { nil }
    public var options: [FormatDescription.Option] { [] }
}
