public import AlmanacCore
import AlmanacICU

/// 知习's backup (its local persistence: study tasks, review tasks, study records and the
/// libraries of knowledge items). Version 2 is current: a library's emoji, colour, progress and
/// tags (the library card), a knowledge item's mastery (已掌握) and weak-point score and priority
/// (the weak-points list), and the learner's settings (daily goal, language) and achievements.
/// Version 1 reads unchanged, without them.
public struct ZhiXiBackup: Hashable, Sendable {
    public static let format = "zhixi-backup"
    public static let version = 2
    static let statuses = ["new", "learning", "mastered"]
    static let priorities = ["high", "medium", "low"]

    /// How weak an item is (the weak-points list: score, then priority).
    public struct WeakPoint: Hashable, Sendable {
        /// 0–100: how well the learner recalls it.
        public var score: Int
        public var priority: String     // high, medium, low
    }

    public struct Settings: Hashable, Sendable {
        /// Minutes of study a day the learner aims for.
        public var dailyGoalMinutes: Int?
        /// The app's language (zh-Hans, zh-Hant, en), nil to follow the system.
        public var language: String?
    }

    public struct Achievement: Hashable, Sendable {
        public var id: String
        public var emoji: String
        public var title: String
        public var unlockedAt: String?
    }

    public struct Item: Hashable, Sendable {
        public var id: String
        public var title: String
        public var content: String
        public var subject: String?
        public var tags: [String]
        public var createdAt: String?
        public var updatedAt: String?
        /// new, learning or mastered (已掌握).
        public var status: String? = nil
        public var weakPoint: WeakPoint? = nil
    }

    public struct Library: Hashable, Sendable {
        public var id: String
        public var name: String
        public var items: [Item]
        public var emoji: String? = nil
        /// `#RRGGBB`: the card's colour bar.
        public var color: String? = nil
        /// 0–100: how much of the library is mastered, as the app shows it.
        public var progress: Int? = nil
        public var tags: [String] = []
    }

    public struct StudyTask: Hashable, Sendable {
        public var id: String
        public var title: String
        public var date: CivilDate
        public var minutes: Int?
        public var done: Bool
    }

    public struct ReviewTask: Hashable, Sendable {
        public var id: String
        public var itemID: String
        public var method: String       // spacedRepetition, feynman, recall, weakPoint
        public var due: CivilDate
        public var intervalDays: Int?
        public var repetitions: Int?
        public var done: Bool
    }

    public struct StudyRecord: Hashable, Sendable {
        public var id: String
        public var date: CivilDate
        public var minutes: Int
        public var itemIDs: [String]
        public var score: Int?
    }

    public var exportedAt: String
    public var libraries: [Library]
    public var studyTasks: [StudyTask]
    public var reviewTasks: [ReviewTask]
    public var studyRecords: [StudyRecord]
    public var settings: Settings? = nil
    public var achievements: [Achievement] = []

    static let methods = ["spacedRepetition", "feynman", "recall", "weakPoint"]

    static func read(_ top: [(String, JSONValue)], version: Int, reader: inout BackupReader) -> ZhiXiBackup {
        let exportedAt = reader.timestamp(top, "exportedAt", "") ?? ""
        var libraries: [Library] = []
        var itemPaths: [(String, String)] = []
        for (index, value) in reader.array(top, "libraries", "", required: true).enumerated() {
            let path = "/libraries/\(index)"
            guard let object = reader.object(value, path, fields: version >= 2 ? ["id", "name", "items", "emoji", "color", "progress", "tags"]
                                                                                : ["id", "name", "items"]) else { continue }
            let id = reader.string(object, "id", path, nonEmpty: true)
            let name = reader.string(object, "name", path, nonEmpty: true)
            let emoji = version >= 2 ? reader.string(object, "emoji", path, required: false) : nil
            let color = version >= 2 ? reader.color(object, "color", path) : nil
            let progress = version >= 2 ? reader.integer(object, "progress", path, required: false, range: 0...100) : nil
            let libraryTags = version >= 2 ? Self.strings(&reader, object, "tags", path) : []
            var items: [Item] = []
            for (itemIndex, itemValue) in reader.array(object, "items", path).enumerated() {
                let itemPath = path + "/items/\(itemIndex)"
                let itemFields: BackupFields = ["id", "title", "content", "subject", "tags", "createdAt", "updatedAt"]
                guard let item = reader.object(itemValue, itemPath, fields: version >= 2 ? itemFields.union(["status", "weakPoint"]) : itemFields)
                else { continue }
                let itemID = reader.string(item, "id", itemPath, nonEmpty: true)
                let title = reader.string(item, "title", itemPath, nonEmpty: true)
                let content = reader.string(item, "content", itemPath, required: false) ?? ""
                let tags = Self.strings(&reader, item, "tags", itemPath)
                let status = version >= 2 ? reader.string(item, "status", itemPath, required: false, oneOf: statuses) : nil
                var weakPoint: WeakPoint?
                if version >= 2, let weak = reader.object(BackupReader.member(item, "weakPoint"), itemPath + "/weakPoint", fields: ["score", "priority"]),
                   let score = reader.integer(weak, "score", itemPath + "/weakPoint", range: 0...100),
                   let priority = reader.string(weak, "priority", itemPath + "/weakPoint", oneOf: priorities) {
                    weakPoint = WeakPoint(score: score, priority: priority)
                }
                let created = reader.timestamp(item, "createdAt", itemPath, required: false)
                let updated = reader.timestamp(item, "updatedAt", itemPath, required: false)
                guard let itemID, let title else { continue }
                itemPaths.append((itemID, itemPath + "/id"))
                items.append(Item(id: itemID, title: title, content: content, subject: reader.string(item, "subject", itemPath, required: false),
                                  tags: tags, createdAt: created, updatedAt: updated, status: status, weakPoint: weakPoint))
            }
            guard let id, let name else { continue }
            libraries.append(Library(id: id, name: name, items: items, emoji: emoji, color: color, progress: progress, tags: libraryTags))
        }
        reader.uniqueIDs(libraries.enumerated().map { ($1.id, "/libraries/\($0)/id") })
        reader.uniqueIDs(itemPaths)
        let itemIDs = Set(itemPaths.map(\.0))

        var tasks: [StudyTask] = []
        for (index, value) in reader.array(top, "studyTasks", "").enumerated() {
            let path = "/studyTasks/\(index)"
            guard let object = reader.object(value, path, fields: ["id", "title", "date", "minutes", "done"]) else { continue }
            let id = reader.string(object, "id", path, nonEmpty: true)
            let title = reader.string(object, "title", path, nonEmpty: true)
            let date = reader.date(object, "date", path)
            let minutes = reader.integer(object, "minutes", path, required: false, range: 1...1440)
            guard let id, let title, let date else { continue }
            tasks.append(StudyTask(id: id, title: title, date: date, minutes: minutes, done: reader.bool(object, "done", path, default: false)))
        }
        reader.uniqueIDs(tasks.enumerated().map { ($1.id, "/studyTasks/\($0)/id") })

        var reviews: [ReviewTask] = []
        for (index, value) in reader.array(top, "reviewTasks", "").enumerated() {
            let path = "/reviewTasks/\(index)"
            guard let object = reader.object(value, path, fields: ["id", "itemId", "method", "due", "intervalDays", "repetitions", "done"]) else { continue }
            let id = reader.string(object, "id", path, nonEmpty: true)
            let item = reader.string(object, "itemId", path)
            if let item, !itemIDs.contains(item) { reader.error(.backupUnknownReference(id: item, collection: "/libraries/*/items"), at: path + "/itemId") }
            let method = reader.string(object, "method", path, oneOf: methods)
            let due = reader.date(object, "due", path)
            let interval = reader.integer(object, "intervalDays", path, required: false, range: 0...3650)
            let repetitions = reader.integer(object, "repetitions", path, required: false, range: 0...10000)
            guard let id, let item, let method, let due else { continue }
            reviews.append(ReviewTask(id: id, itemID: item, method: method, due: due, intervalDays: interval, repetitions: repetitions,
                                      done: reader.bool(object, "done", path, default: false)))
        }
        reader.uniqueIDs(reviews.enumerated().map { ($1.id, "/reviewTasks/\($0)/id") })

        var records: [StudyRecord] = []
        for (index, value) in reader.array(top, "studyRecords", "").enumerated() {
            let path = "/studyRecords/\(index)"
            guard let object = reader.object(value, path, fields: ["id", "date", "minutes", "itemIds", "score"]) else { continue }
            let id = reader.string(object, "id", path, nonEmpty: true)
            let date = reader.date(object, "date", path)
            let minutes = reader.integer(object, "minutes", path, range: 0...1440)
            var items: [String] = []
            for (itemIndex, item) in reader.array(object, "itemIds", path).enumerated() {
                guard let text = item.string else {
                    reader.error(.backupType(expected: "text", found: BackupReader.typeName(item)), at: path + "/itemIds/\(itemIndex)")
                    continue
                }
                if !itemIDs.contains(text) { reader.error(.backupUnknownReference(id: text, collection: "/libraries/*/items"), at: path + "/itemIds/\(itemIndex)") }
                items.append(text)
            }
            let score = reader.integer(object, "score", path, required: false, range: 0...100)
            guard let id, let date, let minutes else { continue }
            records.append(StudyRecord(id: id, date: date, minutes: minutes, itemIDs: items, score: score))
        }
        reader.uniqueIDs(records.enumerated().map { ($1.id, "/studyRecords/\($0)/id") })

        var settings: Settings?
        var achievements: [Achievement] = []
        if version >= 2 {
            if let object = reader.object(BackupReader.member(top, "settings"), "/settings", fields: ["dailyGoalMinutes", "language"]) {
                settings = Settings(dailyGoalMinutes: reader.integer(object, "dailyGoalMinutes", "/settings", required: false, range: 1...1440),
                                    language: reader.string(object, "language", "/settings", required: false))
            }
            for (index, value) in reader.array(top, "achievements", "").enumerated() {
                let path = "/achievements/\(index)"
                guard let object = reader.object(value, path, fields: ["id", "emoji", "title", "unlockedAt"]) else { continue }
                guard let id = reader.string(object, "id", path, nonEmpty: true), let emoji = reader.string(object, "emoji", path, nonEmpty: true),
                      let title = reader.string(object, "title", path, nonEmpty: true) else { continue }
                achievements.append(Achievement(id: id, emoji: emoji, title: title, unlockedAt: reader.timestamp(object, "unlockedAt", path, required: false)))
            }
            reader.uniqueIDs(achievements.enumerated().map { ($1.id, "/achievements/\($0)/id") })
        }
        return ZhiXiBackup(exportedAt: exportedAt, libraries: libraries, studyTasks: tasks, reviewTasks: reviews, studyRecords: records,
                           settings: settings, achievements: achievements)
    }

    /// An array of texts (tags).
    static func strings(_ reader: inout BackupReader, _ object: [(String, JSONValue)], _ key: String, _ path: String) -> [String] {
        var result: [String] = []
        for (index, value) in reader.array(object, key, path).enumerated() {
            if let text = value.string { result.append(text) } else {
                reader.error(.backupType(expected: "text", found: BackupReader.typeName(value)), at: path + "/\(key)/\(index)")
            }
        }
        return result
    }

    public var json: JSONValue {
        .object([
            ("format", .string(Self.format)), ("version", .integer(Self.version)), ("exportedAt", .string(exportedAt)),
            ("libraries", .array(libraries.map { library in
                var members: [(String, JSONValue)] = [("id", .string(library.id)), ("name", .string(library.name))]
                if let emoji = library.emoji { members.append(("emoji", .string(emoji))) }
                if let color = library.color { members.append(("color", .string(color))) }
                if let progress = library.progress { members.append(("progress", .integer(progress))) }
                if !library.tags.isEmpty { members.append(("tags", .array(library.tags.map(JSONValue.string)))) }
                members.append(("items", .array(library.items.map { item in
                    var fields: [(String, JSONValue)] = [("id", .string(item.id)), ("title", .string(item.title)), ("content", .string(item.content))]
                    if let subject = item.subject { fields.append(("subject", .string(subject))) }
                    fields.append(("tags", .array(item.tags.map(JSONValue.string))))
                    if let status = item.status { fields.append(("status", .string(status))) }
                    if let weak = item.weakPoint {
                        fields.append(("weakPoint", .object([("score", .integer(weak.score)), ("priority", .string(weak.priority))])))
                    }
                    if let created = item.createdAt { fields.append(("createdAt", .string(created))) }
                    if let updated = item.updatedAt { fields.append(("updatedAt", .string(updated))) }
                    return .object(fields)
                })))
                return .object(members)
            })),
            ("studyTasks", .array(studyTasks.map { task in
                var fields: [(String, JSONValue)] = [("id", .string(task.id)), ("title", .string(task.title)), ("date", .string(task.date.description))]
                if let minutes = task.minutes { fields.append(("minutes", .integer(minutes))) }
                fields.append(("done", .bool(task.done)))
                return .object(fields)
            })),
            ("reviewTasks", .array(reviewTasks.map { review in
                var fields: [(String, JSONValue)] = [("id", .string(review.id)), ("itemId", .string(review.itemID)), ("method", .string(review.method)),
                                                     ("due", .string(review.due.description))]
                if let days = review.intervalDays { fields.append(("intervalDays", .integer(days))) }
                if let count = review.repetitions { fields.append(("repetitions", .integer(count))) }
                fields.append(("done", .bool(review.done)))
                return .object(fields)
            })),
            ("studyRecords", .array(studyRecords.map { record in
                var fields: [(String, JSONValue)] = [("id", .string(record.id)), ("date", .string(record.date.description)),
                                                     ("minutes", .integer(record.minutes)), ("itemIds", .array(record.itemIDs.map(JSONValue.string)))]
                if let score = record.score { fields.append(("score", .integer(score))) }
                return .object(fields)
            })),
        ] + (settings.map { settings in
            var members: [(String, JSONValue)] = []
            if let goal = settings.dailyGoalMinutes { members.append(("dailyGoalMinutes", .integer(goal))) }
            if let language = settings.language { members.append(("language", .string(language))) }
            return [("settings", JSONValue.object(members))]
        } ?? []) + (achievements.isEmpty ? [] : [("achievements", .array(achievements.map { achievement in
            var members: [(String, JSONValue)] = [("id", .string(achievement.id)), ("emoji", .string(achievement.emoji)),
                                                  ("title", .string(achievement.title))]
            if let unlocked = achievement.unlockedAt { members.append(("unlockedAt", .string(unlocked))) }
            return .object(members)
        }))]))
    }
}
