import AlmanacCore

extension ZhiXiBackup: AppBackup {
    static let about = (
        name: "知习 backup",
        summary: "知习's libraries of knowledge items, study tasks, review tasks and study records.",
        example: #"{"format": "zhixi-backup", "version": 1, "exportedAt": "2025-11-20T22:00:00+08:00", "libraries": [{"id": "math", "name": "高等数学", "items": [{"id": "k1", "title": "洛必达法则", "content": "0/0 型极限", "tags": ["极限"]}]}], "reviewTasks": [{"id": "r1", "itemId": "k1", "method": "spacedRepetition", "due": "2025-11-21"}]}"#)

    static var model: ModelKind { .agenda }

    static func topLevelFields(version: Int) -> BackupFields {
        BackupFields(["libraries", "studyTasks", "reviewTasks", "studyRecords"] + (version >= 2 ? ["settings", "achievements"] : []))
    }

    static let counted: [(list: String, nested: String?)] = [("libraries", "items"), ("studyTasks", nil), ("reviewTasks", nil)]

    /// A knowledge item is the same item when its title is (in a library of the same name); a
    /// review when it reviews the same item on the same day.
    static let mergeCollections = [
        BackupMerge.Collection(name: "libraries", key: ["name"], nested: [BackupMerge.Collection(name: "items", key: ["title"])]),
        BackupMerge.Collection(name: "studyTasks", key: ["title", "date"]),
        BackupMerge.Collection(name: "reviewTasks", key: ["itemId", "due"], references: ["itemId": "items"]),
        BackupMerge.Collection(name: "studyRecords", key: ["date", "itemIds"], references: ["itemIds": "items"]),
    ]
}
