import AlmanacCore

extension RetireTimeBackup: AppBackup {
    static let about = (
        name: "Retire Time backup",
        summary: "Retire Time's days (birthdays, anniversaries, countdowns; lunar or Gregorian), categories and settings.",
        example: #"{"format": "retiretime-backup", "version": 2, "exportedAt": "2025-11-20T10:00:00+08:00", "settings": {"dateDisplay": "both", "theme": "system"}, "categories": [{"id": "family", "name": "家人"}], "days": [{"id": "mom", "name": "媽媽生日", "date": "2025-10-06", "calendar": "lunar", "lunarDate": {"month": 8, "day": 15, "leap": false}, "type": "birthday", "repeat": "yearly", "reminder": {"offsetDays": 1, "time": "09:00"}, "categoryId": "family", "pinned": true}]}"#)

    static var model: ModelKind { .agenda }

    static func topLevelFields(version: Int) -> BackupFields { ["settings", "categories", "days"] }

    static let counted: [(list: String, nested: String?)] = [("days", nil)]

    /// A day is the same day when its name, date and type are; a category when its name is.
    static let mergeCollections = [
        BackupMerge.Collection(name: "categories", key: ["name"]),
        BackupMerge.Collection(name: "days", key: ["name", "date", "type"], references: ["categoryId": "categories"]),
    ]
}
