public import AlmanacCore
import AlmanacICU

/// The Reminders app's backup: lists (name, color, order) holding reminders with a date, time,
/// location, priority, flag, repeat and completion. Version 1.
public struct RemindersBackup: Hashable, Sendable {
    public static let format = "reminders-backup"
    public static let version = 1

    public struct Location: Hashable, Sendable {
        public var name: String
        public var latitude: Double?
        public var longitude: Double?
        public var proximity: String?     // arriving, leaving
    }

    public struct Reminder: Hashable, Sendable {
        public var id: String
        public var title: String
        public var notes: String?
        public var date: CivilDate?
        public var time: String?
        public var location: Location?
        public var priority: String       // none, low, medium, high
        public var flagged: Bool
        public var completed: Bool
        public var completedAt: String?
        public var `repeat`: String       // none, daily, weekly, monthly, yearly
        public var createdAt: String?
        public var updatedAt: String?
    }

    public struct List: Hashable, Sendable {
        public var id: String
        public var name: String
        public var color: String?
        public var order: Int
        public var reminders: [Reminder]
    }

    public var exportedAt: String
    public var lists: [List]

    static func read(_ top: [(String, JSONValue)], version: Int, reader: inout BackupReader) -> RemindersBackup {
        let exportedAt = reader.timestamp(top, "exportedAt", "") ?? ""
        var lists: [List] = []
        var reminderPaths: [(String, String)] = []
        for (index, value) in reader.array(top, "lists", "", required: true).enumerated() {
            let path = "/lists/\(index)"
            guard let object = reader.object(value, path, fields: ["id", "name", "color", "order", "reminders"]) else { continue }
            let id = reader.string(object, "id", path, nonEmpty: true)
            let name = reader.string(object, "name", path, nonEmpty: true)
            let color = reader.color(object, "color", path)
            let order = reader.integer(object, "order", path, required: false, range: 0...100_000) ?? index
            var reminders: [Reminder] = []
            for (reminderIndex, reminderValue) in reader.array(object, "reminders", path).enumerated() {
                let itemPath = path + "/reminders/\(reminderIndex)"
                guard let item = reader.object(reminderValue, itemPath, fields: ["id", "title", "notes", "date", "time", "location", "priority",
                                                                                 "flagged", "completed", "completedAt", "repeat", "createdAt", "updatedAt"])
                else { continue }
                let reminderID = reader.string(item, "id", itemPath, nonEmpty: true)
                let title = reader.string(item, "title", itemPath, nonEmpty: true)
                let date = reader.date(item, "date", itemPath, required: false)
                let time = reader.time(item, "time", itemPath, required: false)
                if time != nil, date == nil { reader.error(.backupTimeWithoutDate, at: itemPath + "/time") }
                var location: Location?
                if let place = reader.object(BackupReader.member(item, "location"), itemPath + "/location",
                                             fields: ["name", "latitude", "longitude", "proximity"]) {
                    func coordinate(_ key: String, _ limit: Double) -> Double? {
                        guard let value = BackupReader.member(place, key), value != .null else { return nil }
                        let number: Double? = switch value {
                        case .integer(let whole): Double(whole)
                        case .number(let real): real
                        default: nil
                        }
                        guard let number, abs(number) <= limit else {
                            reader.error(.backupNotACoordinate(text: value.string ?? BackupReader.typeName(value)), at: itemPath + "/location/" + key)
                            return nil
                        }
                        return number
                    }
                    if let placeName = reader.string(place, "name", itemPath + "/location", nonEmpty: true) {
                        location = Location(name: placeName, latitude: coordinate("latitude", 90), longitude: coordinate("longitude", 180),
                                            proximity: reader.string(place, "proximity", itemPath + "/location", required: false, oneOf: ["arriving", "leaving"]))
                    }
                }
                let priority = reader.string(item, "priority", itemPath, required: false, oneOf: ["none", "low", "medium", "high"]) ?? "none"
                let repeatRule = reader.string(item, "repeat", itemPath, required: false, oneOf: RetireTimeBackup.repeats) ?? "none"
                let completedAt = reader.timestamp(item, "completedAt", itemPath, required: false)
                let created = reader.timestamp(item, "createdAt", itemPath, required: false)
                let updated = reader.timestamp(item, "updatedAt", itemPath, required: false)
                guard let reminderID, let title else { continue }
                reminderPaths.append((reminderID, itemPath + "/id"))
                reminders.append(Reminder(id: reminderID, title: title, notes: reader.string(item, "notes", itemPath, required: false), date: date,
                                          time: time, location: location, priority: priority, flagged: reader.bool(item, "flagged", itemPath, default: false),
                                          completed: reader.bool(item, "completed", itemPath, default: false), completedAt: completedAt,
                                          repeat: repeatRule, createdAt: created, updatedAt: updated))
            }
            guard let id, let name else { continue }
            lists.append(List(id: id, name: name, color: color, order: order, reminders: reminders))
        }
        reader.uniqueIDs(lists.enumerated().map { ($1.id, "/lists/\($0)/id") })
        reader.uniqueIDs(reminderPaths)
        return RemindersBackup(exportedAt: exportedAt, lists: lists)
    }

    public var json: JSONValue {
        .object([
            ("format", .string(Self.format)), ("version", .integer(Self.version)), ("exportedAt", .string(exportedAt)),
            ("lists", .array(lists.map { list in
                var members: [(String, JSONValue)] = [("id", .string(list.id)), ("name", .string(list.name)), ("order", .integer(list.order))]
                if let color = list.color { members.append(("color", .string(color))) }
                members.append(("reminders", .array(list.reminders.map { reminder in
                    var fields: [(String, JSONValue)] = [("id", .string(reminder.id)), ("title", .string(reminder.title)),
                                                         ("priority", .string(reminder.priority)), ("flagged", .bool(reminder.flagged)),
                                                         ("completed", .bool(reminder.completed)), ("repeat", .string(reminder.repeat))]
                    if let notes = reminder.notes { fields.append(("notes", .string(notes))) }
                    if let date = reminder.date { fields.append(("date", .string(date.description))) }
                    if let time = reminder.time { fields.append(("time", .string(time))) }
                    if let location = reminder.location {
                        var place: [(String, JSONValue)] = [("name", .string(location.name))]
                        if let latitude = location.latitude { place.append(("latitude", .number(latitude))) }
                        if let longitude = location.longitude { place.append(("longitude", .number(longitude))) }
                        if let proximity = location.proximity { place.append(("proximity", .string(proximity))) }
                        fields.append(("location", .object(place)))
                    }
                    if let completedAt = reminder.completedAt { fields.append(("completedAt", .string(completedAt))) }
                    if let created = reminder.createdAt { fields.append(("createdAt", .string(created))) }
                    if let updated = reminder.updatedAt { fields.append(("updatedAt", .string(updated))) }
                    return .object(fields)
                })))
                return .object(members)
            })),
        ])
    }
}
