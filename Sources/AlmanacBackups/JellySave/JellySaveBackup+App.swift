import AlmanacCore

extension JellySaveBackup: AppBackup {
    static let about = (
        name: "JellySave backup",
        summary: "JellySave's accounts, balance changes, asset snapshots and saving goals, in exact decimals.",
        example: #"{"format": "jellysave-backup", "version": 2, "exportedAt": "2025-11-20T21:00:00+08:00", "baseCurrency": "TWD", "accounts": [{"id": "a1", "name": "台新活存", "kind": "cash", "currency": "TWD", "balance": "1234567.50"}], "goals": [{"id": "g1", "name": "日本旅行", "target": "120000", "saved": "45000", "currency": "TWD", "deadline": "2026-04-01"}]}"#)

    /// Its records are accounts and money: a table of them is read as a ledger.
    static var model: ModelKind { .ledger }

    static func topLevelFields(version: Int) -> BackupFields {
        BackupFields(["baseCurrency", "accounts", "balanceChanges", "snapshots", "goals", "notifications"] + (version >= 3 ? ["theme"] : []))
    }

    static let counted: [(list: String, nested: String?)] = [("accounts", nil), ("goals", nil)]

    /// An account is the same account when its name and kind are; a balance change when its
    /// account, date and amount are.
    static let mergeCollections = [
        BackupMerge.Collection(name: "accounts", key: ["name", "kind"]),
        BackupMerge.Collection(name: "balanceChanges", key: ["accountId", "date", "amount"], references: ["accountId": "accounts"]),
        BackupMerge.Collection(name: "snapshots", key: ["date"]),
        BackupMerge.Collection(name: "goals", key: ["name"]),
    ]
}
