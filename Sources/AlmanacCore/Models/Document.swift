/// The models a codec reads into or writes from.
public enum ModelKind: String, Hashable, Sendable, Codable, CaseIterable {
    case agenda, ledger, catalog, table
}

/// A decoded document: one of the models.
public enum Document: Hashable, Sendable {
    case agenda(Agenda)
    case ledger(Ledger)
    case catalog(Catalog)
    case table(Table)

    public var kind: ModelKind {
        switch self {
        case .agenda: .agenda
        case .ledger: .ledger
        case .catalog: .catalog
        case .table: .table
        }
    }

    /// Items, accounts or entries: what a user would count.
    public var recordCount: Int {
        switch self {
        case .agenda(let agenda): agenda.items.count
        case .ledger(let ledger): ledger.accounts.count + ledger.balanceChanges.count + ledger.snapshots.count + ledger.goals.count
        case .catalog(let catalog): catalog.entries.count
        case .table(let table): table.rows.count
        }
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
}
