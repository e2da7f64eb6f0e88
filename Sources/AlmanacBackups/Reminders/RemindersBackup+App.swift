import AlmanacCore

extension RemindersBackup: AppBackup {
    static let about = (
        name: "Reminders backup",
        summary: "Reminders lists with reminders: date, time, location, priority, flag, repeat, completion.",
        example: ##"{"format": "reminders-backup", "version": 1, "exportedAt": "2025-11-20T08:00:00Z", "lists": [{"id": "shopping", "name": "Shopping", "color": "#FF9500", "order": 0, "reminders": [{"id": "r1", "title": "Milk", "date": "2025-11-22", "time": "18:00", "priority": "medium"}]}]}"##)

    static var model: ModelKind { .agenda }

    static func topLevelFields(version: Int) -> BackupFields { ["lists"] }

    static let counted: [(list: String, nested: String?)] = [("lists", "reminders")]

    /// A list is the same list when its name is; a reminder in it when its title and date are.
    static let mergeCollections = [
        BackupMerge.Collection(name: "lists", key: ["name"], nested: [BackupMerge.Collection(name: "reminders", key: ["title", "date"])]),
    ]
}
