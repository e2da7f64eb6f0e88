/// The models a codec reads into or writes from.
public enum ModelKind: String, Hashable, Sendable, Codable, CaseIterable {
    case agenda, ledger, catalog
}

/// A decoded document: one of the models.
public enum Document: Hashable, Sendable {
    case agenda(Agenda)
    case ledger(Ledger)
    case catalog(Catalog)

    public var kind: ModelKind {
        switch self {
        case .agenda: .agenda
        case .ledger: .ledger
        case .catalog: .catalog
        }
    }

    /// Items, accounts or entries: what a user would count.
    public var recordCount: Int {
        switch self {
        case .agenda(let agenda): agenda.items.count
        case .ledger(let ledger): ledger.accounts.count + ledger.balanceChanges.count + ledger.snapshots.count + ledger.goals.count
        case .catalog(let catalog): catalog.entries.count
        }
    }
}
