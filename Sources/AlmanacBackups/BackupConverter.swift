public import AlmanacCore

/// Backups through the models: each app's records as its model (Retire Time's days, the
/// Reminders lists and 知习's tasks as calendars; JellySave's money as a ledger, its goal
/// deadlines as a calendar) and back, and one app's backup as another's where their data
/// overlaps. What the target cannot hold is named in a warning. The mappings are the apps' own
/// (`<App>Backup+Calendar.swift`, `JellySaveBackup+Ledger.swift`); this chooses between them.
public struct BackupConverter: DocumentConverter {
    public init() {}

    public var conversions: [(from: ModelKind, to: ModelKind)] {
        [(.backup, .agenda), (.backup, .ledger), (.agenda, .backup), (.ledger, .backup), (.backup, .backup)]
    }

    public var options: [FormatDescription.Option] {
        [.init(name: "exported-at", summary: "The exportedAt time to write when a backup is made from other data (default: now).")]
    }

    /// A backup goes through its app's model (JellySave's through its ledger).
    public func route(_ document: Document, toward target: ModelKind) -> ModelKind? {
        guard case .backup(let backup) = document, target != .backup else { return nil }
        return BackupApps.app(backup.format)?.model ?? .agenda
    }

    public func convert(_ document: Document, to model: ModelKind, context: CodecContext) throws(Diagnostic) -> (Document, [Diagnostic]) {
        switch (document, model) {
        case (.backup(let backup), .agenda):
            let (agenda, diagnostics) = try Self.records(backup).agenda(context: context)
            return (.agenda(agenda), diagnostics)
        case (.backup(let backup), .ledger):
            let (ledger, diagnostics) = try Self.records(backup).ledger(context: context)
            return (.ledger(ledger), diagnostics)
        case (.agenda(let agenda), .backup):
            let target = context.targetFormat ?? BackupApps.first(for: .agenda)?.format ?? ""
            guard let app = BackupApps.app(target) else {
                throw Diagnostic.error(.convertModelMismatch(model: ModelKind.agenda.rawValue, format: target, expected: ModelKind.backup.rawValue))
            }
            let (backup, diagnostics) = try app.make(from: agenda, context: context)
            return (.backup(backup.document), diagnostics)
        case (.ledger(let ledger), .backup):
            let target = context.targetFormat ?? BackupApps.first(for: .ledger)?.format ?? ""
            guard let app = BackupApps.app(target) else {
                throw Diagnostic.error(.convertModelMismatch(model: ModelKind.ledger.rawValue, format: target, expected: ModelKind.agenda.rawValue))
            }
            let (backup, diagnostics) = try app.make(from: ledger, context: context)
            return (.backup(backup.document), diagnostics)
        case (.backup(let backup), .backup):
            if context.targetFormat == backup.format { return (document, []) }
            // Through the calendar the apps share.
            let (agenda, first) = try self.convert(document, to: .agenda, context: context)
            let (result, second) = try self.convert(agenda, to: .backup, context: context)
            return (result, first + second)
        default:
            throw Diagnostic.error(.convertModelMismatch(model: document.kind.rawValue, format: model.rawValue, expected: model.rawValue))
        }
    }

    /// A calendar streams into a Retire Time backup (its days are one flat list); the other apps'
    /// backups are made from whole documents.
    public func itemConverter(path: [ModelKind], context: CodecContext) -> (any DocumentItemConverter)? {
        guard path == [.agenda, .backup], context.targetFormat == RetireTimeBackup.format else { return nil }
        return RetireTimeDaysConverter(context: context)
    }

    /// The records of a backup document, read by its app.
    static func records(_ backup: BackupDocument) throws(Diagnostic) -> any AppBackup {
        guard let app = BackupApps.app(backup.format) else {
            throw Diagnostic.error(.convertModelMismatch(model: backup.format, format: ModelKind.agenda.rawValue, expected: ModelKind.agenda.rawValue))
        }
        return try app.read(backup)
    }
}
