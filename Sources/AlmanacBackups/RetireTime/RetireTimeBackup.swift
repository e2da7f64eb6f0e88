public import AlmanacCore
import AlmanacICU
import AlmanacCalendar

/// Retire Time's backup (FR15): the days people count to and from, their categories, and the
/// app's settings. Version 3 is current: a day's location (FR1), the last day of a lunar month and
/// what a lunar day does in a year without it (RFC 7529 SKIP), and the settings the app keeps
/// (sort order FR4, accent colour FR11, background image FR12, font size FR13, default reminder).
/// Version 2 reads unchanged; version 1 (a lunar flag, reminder fields at the top of a day,
/// categories by name) is migrated when read.
public struct RetireTimeBackup: Hashable, Sendable {
    public static let format = "retiretime-backup"
    public static let version = 3

    public struct Settings: Hashable, Sendable {
        public var theme: String          // system, light, dark
        public var dateDisplay: String    // date, relative, both
        public var language: String?
        public var timeZone: String?
        /// How the list is sorted (FR4): date (nearest first), category, name.
        public var sortOrder: String?
        /// A custom accent colour (FR11), `#RRGGBB`.
        public var accentColor: String?
        /// The list's background image (FR12): a file name in the app, or a built-in one's name.
        public var backgroundImage: String?
        /// small, medium, large, extraLarge (FR13).
        public var fontSize: String?
        /// The reminder a new day gets.
        public var defaultReminder: Reminder?

        init(theme: String = "system", dateDisplay: String = "both", language: String? = nil, timeZone: String? = nil) {
            self.theme = theme
            self.dateDisplay = dateDisplay
            self.language = language
            self.timeZone = timeZone
        }
    }

    static let sortOrders = ["date", "category", "name"]
    static let fontSizes = ["small", "medium", "large", "extraLarge"]

    public struct Category: Hashable, Sendable {
        public var id: String
        public var name: String
        public var color: String?
        public var icon: String?
    }

    public struct LunarDate: Hashable, Sendable {
        public var month: Int
        /// 1–30, or -1: the last day of the month (除夕 is the last day of the twelfth month, the
        /// 29th or the 30th).
        public var day: Int
        public var leap: Bool
        /// What the day does in a year without it (a leap month, a 30th): RFC 7529's SKIP —
        /// `backward` to the day before (the app's default), `forward`, or `omit` the year.
        public var skip: String?

        public init(month: Int, day: Int, leap: Bool, skip: String? = nil) {
            self.month = month
            self.day = day
            self.leap = leap
            self.skip = skip
        }

        /// The skip the app uses when none is written: a leap-month or 30th-day birthday still
        /// comes every year, on the day before.
        var effectiveSkip: String { skip ?? (leap || day == 30 ? "backward" : "omit") }

        /// The day's yearly or monthly repeat in the Chinese calendar (RFC 7529): the month (6L
        /// for the leap sixth month), the day (-1: the last), and what a year without that day does.
        func rule(yearly: Bool) -> RecurrenceRule {
            var rule = RecurrenceRule(frequency: yearly ? .yearly : .monthly, scale: "CHINESE")
            if yearly { rule.byMonth = [RecurrenceRule.Month(month, isLeap: leap)] }
            rule.byMonthDay = [day]
            rule.skip = RecurrenceRule.Skip(rawValue: effectiveSkip.uppercased()) ?? .omit
            return rule
        }

        /// `6-10`, `L6-10`, `12--1`: month and day as the rule names them.
        var label: String { "\(leap ? "L" : "")\(month)-\(day)" }

        /// Whether the day falls on `date`: the date is this lunar month and day (the month's last
        /// day for -1), or is where SKIP moved it in a year without it (a 30th in a 29-day month,
        /// a leap month the year lacks).
        public func fallsOn(_ date: CivilDate) -> Bool {
            let written = ChineseCalendar.lunarDate(for: date)
            let isLast = ChineseCalendar.lunarDate(for: date.adding(days: 1)).day == 1
            let dayMatches = day == -1 ? isLast : written.day == day
            if written.month == month, written.isLeapMonth == leap, dayMatches { return true }
            guard effectiveSkip != "omit", leap || day == 30 else { return false }
            // Walk the yearly rule from a little over a year before: does it land on `date`?
            let rule = self.rule(yearly: true)
            var occurrences = RuleIterator(rule: rule, start: CivilDateTime(unchecked: date.adding(days: -400), 0, 0, 0))
            _ = occurrences.next()  // the walk's own start, which RFC 5545 counts whatever it is
            while let next = occurrences.next(), next.date <= date {
                if next.date == date { return true }
            }
            return false
        }
    }

    public struct Reminder: Hashable, Sendable {
        /// Days before the day (0: on the day).
        public var offsetDays: Int
        /// `HH:MM`.
        public var time: String
    }

    public struct Day: Hashable, Sendable {
        public var id: String
        public var name: String
        /// The day itself (for a lunar day, its first Gregorian date).
        public var date: CivilDate
        public var calendar: String       // gregorian, lunar
        public var lunarDate: LunarDate?
        public var type: String           // birthday, anniversary, countdown, countup, custom
        public var `repeat`: String       // none, daily, weekly, monthly, yearly
        public var reminder: Reminder?
        public var notes: String?
        /// Where it happens (FR1).
        public var location: String?
        public var categoryID: String?
        public var icon: String?
        public var color: String?
        public var pinned: Bool
        public var createdAt: String?
        public var updatedAt: String?
    }

    public var exportedAt: String
    public var settings: Settings
    public var categories: [Category]
    public var days: [Day]

    static let types = DayType.allCases.map(\.rawValue)
    // The members each object may have, made once, not for every day.
    static let reminderFields: BackupFields = ["offsetDays", "time"]
    static let categoryFields: BackupFields = ["id", "name", "color", "icon"]
    static let lunarFields: BackupFields = ["month", "day", "leap", "skip"]
    static let lunarFieldsBefore3: BackupFields = ["month", "day", "leap"]
    static let repeats = ["none", "daily", "weekly", "monthly", "yearly"]
    static let dayFieldsVersion1: BackupFields = ["id", "name", "date", "isLunar", "type", "repeat", "remindBefore", "remindTime", "notes",
                                                 "category", "icon", "color", "pinned", "createdAt", "updatedAt"]
    static let dayFieldsVersion2: BackupFields = ["id", "name", "date", "calendar", "lunarDate", "type", "repeat", "reminder", "notes",
                                                 "categoryId", "icon", "color", "pinned", "createdAt", "updatedAt"]
    static let dayFields = dayFieldsVersion2.union(["location"])

    // MARK: Reading

    /// Reads (and migrates) a backup's members; problems go to `reader`.
    static func read(_ top: [(String, JSONValue)], version: Int, reader: inout BackupReader) -> RetireTimeBackup {
        let exportedAt = reader.timestamp(top, "exportedAt", "") ?? ""
        var settings = Settings()
        let settingFields: BackupFields = version >= 3
            ? ["theme", "dateDisplay", "language", "timeZone", "sortOrder", "accentColor", "backgroundImage", "fontSize", "defaultReminder"]
            : ["theme", "dateDisplay", "language", "timeZone"]
        if let object = reader.object(BackupReader.member(top, "settings"), "/settings", fields: settingFields) {
            settings.theme = reader.string(object, "theme", "/settings", required: false, oneOf: ["system", "light", "dark"]) ?? "system"
            settings.dateDisplay = reader.string(object, "dateDisplay", "/settings", required: false, oneOf: ["date", "relative", "both"]) ?? "both"
            settings.language = reader.string(object, "language", "/settings", required: false)
            if let zone = reader.string(object, "timeZone", "/settings", required: false) {
                if (try? TimeZoneID(zone)) == nil { reader.error(.backupUnknownTimeZone(zone: zone), at: "/settings/timeZone") } else { settings.timeZone = zone }
            }
            settings.sortOrder = reader.string(object, "sortOrder", "/settings", required: false, oneOf: sortOrders)
            settings.accentColor = reader.color(object, "accentColor", "/settings")
            settings.backgroundImage = reader.string(object, "backgroundImage", "/settings", required: false)
            settings.fontSize = reader.string(object, "fontSize", "/settings", required: false, oneOf: fontSizes)
            if let reminderObject = reader.object(BackupReader.member(object, "defaultReminder"), "/settings/defaultReminder", fields: Self.reminderFields),
               let offset = reader.integer(reminderObject, "offsetDays", "/settings/defaultReminder", range: 0...365),
               let time = reader.time(reminderObject, "time", "/settings/defaultReminder") {
                settings.defaultReminder = Reminder(offsetDays: offset, time: time)
            }
        }
        var categories: [Category] = []
        for (index, value) in reader.array(top, "categories", "").enumerated() {
            let path = "/categories/\(index)"
            guard let object = reader.object(value, path, fields: Self.categoryFields) else { continue }
            guard let id = reader.string(object, "id", path, nonEmpty: true), let name = reader.string(object, "name", path, nonEmpty: true) else { continue }
            categories.append(Category(id: id, name: name, color: reader.color(object, "color", path), icon: reader.string(object, "icon", path, required: false)))
        }
        reader.uniqueIDs(categories.enumerated().map { ($1.id, "/categories/\($0)/id") })

        let dayFields = version == 1 ? Self.dayFieldsVersion1 : version == 2 ? Self.dayFieldsVersion2 : Self.dayFields
        var days: [Day] = []
        var dayPaths: [(String, String)] = []
        for (index, value) in reader.array(top, "days", "", required: true).enumerated() {
            let path = "/days/\(index)"
            guard let object = reader.object(value, path, fields: dayFields) else { continue }
            let id = reader.string(object, "id", path, nonEmpty: true)
            let name = reader.string(object, "name", path, nonEmpty: true)
            let date = reader.date(object, "date", path)
            let type = reader.string(object, "type", path, oneOf: types)
            let repeatRule = reader.string(object, "repeat", path, required: false, oneOf: repeats) ?? "none"
            var calendar = "gregorian"
            var lunar: LunarDate?
            var reminder: Reminder?
            var categoryID: String?
            if version == 1 {
                // v1: "isLunar": true; the lunar date is the one the first date falls on.
                if reader.bool(object, "isLunar", path, default: false) {
                    calendar = "lunar"
                    if let date {
                        let written = ChineseCalendar.lunarDate(for: date)
                        lunar = LunarDate(month: written.month, day: written.day, leap: written.isLeapMonth)
                    }
                }
                if let before = reader.integer(object, "remindBefore", path, required: false, range: 0...365) {
                    reminder = Reminder(offsetDays: before, time: reader.time(object, "remindTime", path, required: false) ?? "09:00")
                }
                if let name = reader.string(object, "category", path, required: false), !name.isEmpty {
                    if let existing = categories.first(where: { $0.name == name }) {
                        categoryID = existing.id
                    } else {
                        let id = "category-\(categories.count + 1)"
                        categories.append(Category(id: id, name: name, color: nil, icon: nil))
                        categoryID = id
                    }
                }
            } else {
                calendar = reader.string(object, "calendar", path, required: false, oneOf: ["gregorian", "lunar"]) ?? "gregorian"
                let lunarPath = path + "/lunarDate"
                if let lunarObject = reader.object(BackupReader.member(object, "lunarDate"), lunarPath,
                                                   fields: version >= 3 ? Self.lunarFields : Self.lunarFieldsBefore3) {
                    if let month = reader.integer(lunarObject, "month", lunarPath, range: 1...12),
                       let day = reader.integer(lunarObject, "day", lunarPath, range: version >= 3 ? -1...30 : 1...30) {
                        if day == 0 { reader.error(.backupOutOfRange(value: "0", range: "-1, 1…30"), at: lunarPath + "/day") }
                        lunar = LunarDate(month: month, day: day, leap: reader.bool(lunarObject, "leap", lunarPath, default: false),
                                          skip: reader.string(lunarObject, "skip", lunarPath, required: false, oneOf: ["omit", "backward", "forward"]))
                    }
                }
                if calendar == "lunar", lunar == nil, BackupReader.member(object, "lunarDate") == nil {
                    reader.error(.backupMissing(field: "lunarDate"), at: path + "/lunarDate")
                }
                if calendar == "lunar", let lunar, let date {
                    // The first date falls on the lunar date (the last day of the month for -1, or
                    // where SKIP moved it).
                    if !lunar.fallsOn(date) {
                        reader.error(.backupLunarMismatch(date: date.description, lunarDate: lunar.label), at: path + "/lunarDate")
                    }
                }
                if let reminderObject = reader.object(BackupReader.member(object, "reminder"), path + "/reminder", fields: Self.reminderFields) {
                    if let offset = reader.integer(reminderObject, "offsetDays", path + "/reminder", range: 0...365),
                       let time = reader.time(reminderObject, "time", path + "/reminder") {
                        reminder = Reminder(offsetDays: offset, time: time)
                    }
                }
                categoryID = reader.string(object, "categoryId", path, required: false)
                if let categoryID, !categories.contains(where: { $0.id == categoryID }) {
                    reader.error(.backupUnknownReference(id: categoryID, collection: "/categories"), at: path + "/categoryId")
                }
            }
            let createdAt = reader.timestamp(object, "createdAt", path, required: false)
            let updatedAt = reader.timestamp(object, "updatedAt", path, required: false)
            guard let id, let name, let date, let type else { continue }
            dayPaths.append((id, path + "/id"))
            days.append(Day(id: id, name: name, date: date, calendar: calendar, lunarDate: lunar, type: type, repeat: repeatRule,
                            reminder: reminder, notes: reader.string(object, "notes", path, required: false),
                            location: reader.string(object, "location", path, required: false), categoryID: categoryID,
                            icon: reader.string(object, "icon", path, required: false), color: reader.color(object, "color", path),
                            pinned: reader.bool(object, "pinned", path, default: false), createdAt: createdAt, updatedAt: updatedAt))
        }
        reader.uniqueIDs(dayPaths)
        return RetireTimeBackup(exportedAt: exportedAt, settings: settings, categories: categories, days: days)
    }

    // MARK: Writing

    /// The backup as JSON, every object's members built in code point order (the order
    /// `BackupJSON` writes them in), so writing sorts nothing.
    public var json: JSONValue {
        var settingsMembers: [(String, JSONValue)] = []
        if let color = settings.accentColor { settingsMembers.append(("accentColor", .string(color))) }
        if let image = settings.backgroundImage { settingsMembers.append(("backgroundImage", .string(image))) }
        settingsMembers.append(("dateDisplay", .string(settings.dateDisplay)))
        if let reminder = settings.defaultReminder {
            settingsMembers.append(("defaultReminder", .object([("offsetDays", .integer(reminder.offsetDays)), ("time", .string(reminder.time))])))
        }
        if let size = settings.fontSize { settingsMembers.append(("fontSize", .string(size))) }
        if let language = settings.language { settingsMembers.append(("language", .string(language))) }
        if let order = settings.sortOrder { settingsMembers.append(("sortOrder", .string(order))) }
        settingsMembers.append(("theme", .string(settings.theme)))
        if let zone = settings.timeZone { settingsMembers.append(("timeZone", .string(zone))) }
        let categoryValues: [JSONValue] = categories.map { category in
            var members: [(String, JSONValue)] = []
            members.reserveCapacity(4)
            if let color = category.color { members.append(("color", .string(color))) }
            if let icon = category.icon { members.append(("icon", .string(icon))) }
            members.append(("id", .string(category.id)))
            members.append(("name", .string(category.name)))
            return .object(members)
        }
        let dayValues = days.map(Self.json(of:))
        return .object([
            ("categories", .array(categoryValues)), ("days", .array(dayValues)), ("exportedAt", .string(exportedAt)),
            ("format", .string(Self.format)), ("settings", .object(settingsMembers)), ("version", .integer(Self.version)),
        ])
    }

    /// A day as its backup writes it, members in code point order.
    static func json(of day: Day) -> JSONValue {
        var members: [(String, JSONValue)] = []
        members.reserveCapacity(16)
        members.append(("calendar", .string(day.calendar)))
        if let category = day.categoryID { members.append(("categoryId", .string(category))) }
        if let color = day.color { members.append(("color", .string(color))) }
        if let created = day.createdAt { members.append(("createdAt", .string(created))) }
        members.append(("date", .string(day.date.description)))
        if let icon = day.icon { members.append(("icon", .string(icon))) }
        members.append(("id", .string(day.id)))
        if let location = day.location { members.append(("location", .string(location))) }
        if let lunar = day.lunarDate {
            var lunarMembers: [(String, JSONValue)] = [("day", .integer(lunar.day)), ("leap", .bool(lunar.leap)), ("month", .integer(lunar.month))]
            if let skip = lunar.skip { lunarMembers.append(("skip", .string(skip))) }
            members.append(("lunarDate", .object(lunarMembers)))
        }
        members.append(("name", .string(day.name)))
        if let notes = day.notes { members.append(("notes", .string(notes))) }
        members.append(("pinned", .bool(day.pinned)))
        if let reminder = day.reminder {
            members.append(("reminder", .object([("offsetDays", .integer(reminder.offsetDays)), ("time", .string(reminder.time))])))
        }
        members.append(("repeat", .string(day.repeat)))
        members.append(("type", .string(day.type)))
        if let updated = day.updatedAt { members.append(("updatedAt", .string(updated))) }
        return .object(members)
    }
}
