import AlmanacCore
import Foundation

/// JellySave's money as a ledger and back: accounts, balance changes, asset snapshots and saving
/// goals are the ledger's own; the notification settings and the theme are not.
extension JellySaveBackup {
    func ledger(context: CodecContext) -> (Ledger, [Diagnostic]) {
        // The ledger model has no settings: the app's daily reminder stays in the backup.
        var losses = Losses()
        if notifications.enabled { losses.dropped("notifications", of: "\(notifications.time) " + notifications.kinds.joined(separator: ", ")) }
        if let theme { losses.dropped("theme", of: theme) }
        return (ledger, losses.diagnostics(target: context.targetFormat ?? ModelKind.ledger.rawValue))
    }

    /// The records as a ledger.
    var ledger: Ledger {
        Ledger(baseCurrency: baseCurrency, accounts: accounts, balanceChanges: balanceChanges,
               snapshots: snapshots.map { AssetSnapshot(id: $0.id, date: $0.date, total: $0.total, byKind: $0.byKind) },
               goals: goals.map {
                   SavingGoal(id: $0.id, name: $0.name, target: $0.target, saved: $0.saved, currency: $0.currency, deadline: $0.deadline,
                              createdAt: $0.createdAt.flatMap(DateValue.init(timestamp:)))
               })
    }

    /// A backup of a ledger; its notifications off, as a new install has them.
    static func make(from ledger: Ledger, context: CodecContext) -> (JellySaveBackup, [Diagnostic]) {
        let backup = JellySaveBackup(
            exportedAt: AppTime.now(context), baseCurrency: ledger.baseCurrency, accounts: ledger.accounts, balanceChanges: ledger.balanceChanges,
            snapshots: ledger.snapshots.map { .init(id: $0.id ?? "snapshot-" + $0.date.description, date: $0.date, total: $0.total, byKind: $0.byKind) },
            goals: ledger.goals.map {
                .init(id: $0.id, name: $0.name, target: $0.target, saved: $0.saved, currency: $0.currency, deadline: $0.deadline,
                      createdAt: $0.createdAt?.timestamp())
            },
            notifications: .init(enabled: false, time: "21:00", kinds: ["motivation"]))
        return (backup, [])
    }
}
