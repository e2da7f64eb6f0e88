public import AlmanacCore
import AlmanacICU
import AlmanacCalendar
import Foundation

/// Backups through the models: Retire Time's days and the Reminders lists as calendars (and back),
/// 知习's tasks and JellySave's goal deadlines as calendars, JellySave as a ledger (and back), and
/// one app's backup as another's where their data overlaps. What the target cannot hold is named
/// in a warning.
public struct BackupConverter: DocumentConverter {
    public init() {}

    public var conversions: [(from: ModelKind, to: ModelKind)] {
        [(.backup, .agenda), (.backup, .ledger), (.agenda, .backup), (.ledger, .backup), (.backup, .backup)]
    }

    public var options: [FormatDescription.Option] {
        [.init(name: "exported-at", summary: "The exportedAt time to write when a backup is made from other data (default: now).")]
    }

    /// JellySave goes through its ledger; the others through their calendars.
    public func route(_ document: Document, toward target: ModelKind) -> ModelKind? {
        guard case .backup(let backup) = document, target != .backup else { return nil }
        return backup.format == JellySaveBackup.format ? .ledger : .agenda
    }

    public func convert(_ document: Document, to model: ModelKind, context: CodecContext) throws(Diagnostic) -> (Document, [Diagnostic]) {
        switch (document, model) {
        case (.backup(let backup), .agenda):
            return try agenda(from: backup, context: context)
        case (.backup(let backup), .ledger):
            guard backup.format == JellySaveBackup.format else {
                throw Diagnostic.error("backup.not-a-ledger", backup.format)
            }
            let jelly = try Self.jellySave(backup)
            // The ledger model has no settings: the app's daily reminder stays in the backup.
            var losses = Losses()
            if jelly.notifications.enabled { losses.dropped("notifications", of: "\(jelly.notifications.time) " + jelly.notifications.kinds.joined(separator: ", ")) }
            if let theme = jelly.theme { losses.dropped("theme", of: theme) }
            return (.ledger(Self.ledger(jelly)), losses.diagnostics(target: context.targetFormat ?? ModelKind.ledger.rawValue))
        case (.agenda(let agenda), .backup):
            return try backup(from: agenda, context: context)
        case (.ledger(let ledger), .backup):
            let target = context.targetFormat ?? JellySaveBackup.format
            guard target == JellySaveBackup.format else {
                throw Diagnostic.error("convert.model-mismatch", ModelKind.ledger.rawValue, target, ModelKind.agenda.rawValue)
            }
            return (.backup(Self.document(Self.jellySave(ledger, context: context))), [])
        case (.backup(let backup), .backup):
            // Through the model both apps share.
            if backup.format == JellySaveBackup.format, context.targetFormat == JellySaveBackup.format { return (document, []) }
            let (agenda, first) = try self.agenda(from: backup, context: context)
            let (result, second) = try self.convert(agenda, to: .backup, context: context)
            return (result, first + second)
        default:
            throw Diagnostic.error("convert.model-mismatch", document.kind.rawValue, model.rawValue, model.rawValue)
        }
    }

    // MARK: Backup documents

    /// The item fields each app's records cannot hold, worked out once, not for every item.
    static let retireTimeUnheld = unheld(holding: [.notes, .location, .categories, .color, .alarms, .created, .lastModified])
    static let remindersUnheld = unheld(holding: [.notes, .location, .geo, .priority, .categories, .timeOfDay, .completion, .alarms, .created, .lastModified])
    static let zhiXiReviewUnheld = unheld(holding: [.completion])

    private static func unheld(holding: Set<CalendarItem.Field>) -> [CalendarItem.Field] {
        CalendarItem.Field.allCases.filter { !holding.contains($0) }
    }

    /// `HH:mm`, padded by hand (Foundation's `String(format:)` parses its format at every call).
    static func hoursAndMinutes(_ hours: Int, _ minutes: Int) -> String { pad(hours, 2) + ":" + pad(minutes, 2) }

    static func reader(_ backup: BackupDocument) -> (members: [(String, JSONValue)], reader: BackupReader) {
        (backup.content.object ?? [], BackupReader(file: nil))
    }

    static func retireTime(_ backup: BackupDocument) throws(Diagnostic) -> RetireTimeBackup {
        var (members, reader) = reader(backup)
        let result = RetireTimeBackup.read(members, version: RetireTimeBackup.version, reader: &reader)
        if let problem = reader.problems.first(where: { $0.severity == .error }) { throw problem }
        return result
    }

    static func jellySave(_ backup: BackupDocument) throws(Diagnostic) -> JellySaveBackup {
        var (members, reader) = reader(backup)
        let result = JellySaveBackup.read(members, version: JellySaveBackup.version, reader: &reader)
        if let problem = reader.problems.first(where: { $0.severity == .error }) { throw problem }
        return result
    }

    static func zhiXi(_ backup: BackupDocument) throws(Diagnostic) -> ZhiXiBackup {
        var (members, reader) = reader(backup)
        let result = ZhiXiBackup.read(members, version: ZhiXiBackup.version, reader: &reader)
        if let problem = reader.problems.first(where: { $0.severity == .error }) { throw problem }
        return result
    }

    static func reminders(_ backup: BackupDocument) throws(Diagnostic) -> RemindersBackup {
        var (members, reader) = reader(backup)
        let result = RemindersBackup.read(members, version: RemindersBackup.version, reader: &reader)
        if let problem = reader.problems.first(where: { $0.severity == .error }) { throw problem }
        return result
    }

    static func document(_ backup: RetireTimeBackup) -> BackupDocument {
        counted(RetireTimeBackup.format, RetireTimeBackup.version, backup.json)
    }

    static func document(_ backup: JellySaveBackup) -> BackupDocument {
        counted(JellySaveBackup.format, JellySaveBackup.version, backup.json)
    }

    static func document(_ backup: RemindersBackup) -> BackupDocument {
        counted(RemindersBackup.format, RemindersBackup.version, backup.json)
    }

    static func document(_ backup: ZhiXiBackup) -> BackupDocument {
        counted(ZhiXiBackup.format, ZhiXiBackup.version, backup.json)
    }

    private static func counted(_ format: String, _ version: Int, _ content: JSONValue) -> BackupDocument {
        BackupDocument(format: format, version: version, content: content, recordCount: BackupRecords.count(format: format, content: content))
    }

    static func now(_ context: CodecContext) -> String {
        if let fixed = context.options["exported-at"] { return fixed }
        return DateValue.utc(CivilDateTime(secondsSinceEpoch: Int(Date().timeIntervalSince1970))).timestamp()
    }

    // MARK: To calendars

    static let carriedType = "X-ALMANAC-TYPE"
    static let carriedIcon = "X-ALMANAC-ICON"
    static let carriedPinned = "X-ALMANAC-PINNED"
    static let carriedCalendar = "X-ALMANAC-CALENDAR"
    static let carriedCategory = "X-RETIRETIME-CATEGORY"
    static let carriedSettings = "X-RETIRETIME-SETTINGS"
    static let carriedList = "X-REMINDERS-LIST"
    static let carriedFlagged = "X-ALMANAC-FLAGGED"
    static let carriedZhiXiItem = "X-ZHIXI-ITEM-ID"
    static let carriedZhiXiInterval = "X-ZHIXI-INTERVAL"
    static let carriedZhiXiRepetitions = "X-ZHIXI-REPETITIONS"
    static let carriedProximity = "X-ALMANAC-PROXIMITY"

    func agenda(from backup: BackupDocument, context: CodecContext) throws(Diagnostic) -> (Document, [Diagnostic]) {
        switch backup.format {
        case RetireTimeBackup.format: return (.agenda(Self.agenda(try Self.retireTime(backup))), [])
        case RemindersBackup.format: return (.agenda(Self.agenda(try Self.reminders(backup))), [])
        case ZhiXiBackup.format:
            // A calendar holds the tasks and reviews; what was studied and the libraries'
            // contents are not dated things to do.
            let zhixi = try Self.zhiXi(backup)
            var losses = Losses()
            for record in zhixi.studyRecords { losses.dropped("studyRecords", of: "\(record.date) \(record.minutes) min") }
            for library in zhixi.libraries where !library.items.isEmpty { losses.dropped("libraries.items", of: library.name) }
            if zhixi.settings != nil { losses.dropped("settings", of: "知习") }
            for achievement in zhixi.achievements { losses.dropped("achievements", of: achievement.title) }
            return (.agenda(Self.agenda(zhixi, language: AppTerms.language(context))), losses.diagnostics(target: context.targetFormat ?? ModelKind.agenda.rawValue))
        case JellySaveBackup.format:
            // A calendar holds the saving goals' deadlines; money has no date to be put on.
            let jelly = try Self.jellySave(backup)
            var losses = Losses()
            for account in jelly.accounts { losses.dropped("accounts", of: account.name) }
            let names = Dictionary(jelly.accounts.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            for change in jelly.balanceChanges { losses.dropped("balanceChanges", of: "\(names[change.accountID] ?? change.accountID) \(change.date.day)") }
            for snapshot in jelly.snapshots { losses.dropped("snapshots", of: snapshot.date.description) }
            for goal in jelly.goals where goal.deadline == nil { losses.dropped("goals", of: goal.name) }  // no deadline to put it on
            return (.agenda(Self.agenda(jelly, language: AppTerms.language(context))), losses.diagnostics(target: context.targetFormat ?? ModelKind.agenda.rawValue))
        default:
            throw Diagnostic.error("convert.model-mismatch", backup.format, ModelKind.agenda.rawValue, ModelKind.agenda.rawValue)
        }
    }

    static func rule(_ repeat: String, lunar: RetireTimeBackup.LunarDate?) -> RecurrenceRule? {
        switch (`repeat`, lunar) {
        case ("yearly", let lunar?):
            // RFC 7529: the month (6L for the leap sixth month), the day (-1: the last), and what
            // a year without that day does.
            var rule = RecurrenceRule(frequency: .yearly, scale: "CHINESE")
            rule.byMonth = [RecurrenceRule.Month(lunar.month, isLeap: lunar.leap)]
            rule.byMonthDay = [lunar.day]
            rule.skip = RecurrenceRule.Skip(rawValue: lunar.effectiveSkip.uppercased()) ?? .omit
            return rule
        case ("monthly", let lunar?):
            var rule = RecurrenceRule(frequency: .monthly, scale: "CHINESE")
            rule.byMonthDay = [lunar.day]
            rule.skip = RecurrenceRule.Skip(rawValue: lunar.effectiveSkip.uppercased()) ?? .omit
            return rule
        case ("yearly", nil): return RecurrenceRule(frequency: .yearly)
        case ("monthly", nil): return RecurrenceRule(frequency: .monthly)
        case ("weekly", _): return RecurrenceRule(frequency: .weekly)
        case ("daily", _): return RecurrenceRule(frequency: .daily)
        default: return nil
        }
    }

    static func seconds(_ time: String) -> Int {
        let parts = time.split(separator: ":").compactMap { Int($0) }
        return parts.count == 2 ? parts[0] * 3600 + parts[1] * 60 : 9 * 3600
    }

    static func agenda(_ backup: RetireTimeBackup) -> Agenda {
        var agenda = Agenda(name: "Retire Time", timeZone: backup.settings.timeZone)
        let settings: [(String, JSONValue)] = (backup.json.object?.first { $0.0 == "settings" }?.1.object) ?? []
        agenda.carried.append(CarriedProperty(name: carriedSettings, value: PropertyText.escape(JSONValue.object(settings).serialized())))
        for category in backup.categories {
            var parameters = [CarriedProperty.Parameter(name: "X-ID", values: [category.id])]
            if let color = category.color { parameters.append(.init(name: "X-COLOR", values: [color])) }
            if let icon = category.icon { parameters.append(.init(name: "X-ICON", values: [icon])) }
            agenda.carried.append(CarriedProperty(name: carriedCategory, parameters: parameters, value: PropertyText.escape(category.name)))
        }
        for day in backup.days {
            var item = CalendarItem(kind: .event, uid: day.id, title: day.name, notes: day.notes, location: day.location, start: .date(day.date))
            if let rule = rule(day.repeat, lunar: day.calendar == "lunar" ? day.lunarDate : nil) { item.recurrence = Recurrence(rules: [rule]) }
            if day.calendar == "lunar", day.repeat != "yearly", day.repeat != "monthly" {
                item.carried.append(CarriedProperty(name: carriedCalendar, value: "lunar"))
            }
            if let reminder = day.reminder {
                // Relative to the start of the day: the evening before is -PT15H. The notification
                // shows the day's name and its notes, as the app's does (FR6).
                let message = day.notes.map { $0.isEmpty ? day.name : day.name + "\n" + $0 } ?? day.name
                item.alarms = [Alarm(trigger: .relative(seconds: -reminder.offsetDays * 86_400 + seconds(reminder.time), fromEnd: false),
                                     action: .display, message: message)]
            }
            if let category = backup.categories.first(where: { $0.id == day.categoryID }) {
                item.categories = [category.name]
                item.carried.append(CarriedProperty(name: "X-ALMANAC-CATEGORY-ID", value: PropertyText.escape(category.id)))
            }
            item.carried.append(CarriedProperty(name: carriedType, value: day.type))
            if let icon = day.icon { item.carried.append(CarriedProperty(name: carriedIcon, value: PropertyText.escape(icon))) }
            if day.pinned { item.carried.append(CarriedProperty(name: carriedPinned, value: "TRUE")) }
            item.color = day.color
            item.created = day.createdAt.flatMap(DateValue.init(timestamp:))
            item.lastModified = day.updatedAt.flatMap(DateValue.init(timestamp:))
            agenda.items.append(item)
        }
        return agenda
    }

    static func agenda(_ backup: RemindersBackup) -> Agenda {
        var agenda = Agenda(name: "Reminders")
        for list in backup.lists.sorted(by: { $0.order < $1.order }) {
            var parameters = [CarriedProperty.Parameter(name: "X-ID", values: [list.id]), .init(name: "X-ORDER", values: [String(list.order)])]
            if let color = list.color { parameters.append(.init(name: "X-COLOR", values: [color])) }
            agenda.carried.append(CarriedProperty(name: carriedList, parameters: parameters, value: PropertyText.escape(list.name)))
            for reminder in list.reminders {
                var item = CalendarItem(kind: .todo, uid: reminder.id, title: reminder.title, notes: reminder.notes)
                if let date = reminder.date {
                    if let time = reminder.time {
                        let seconds = Self.seconds(time)
                        item.due = .floating(CivilDateTime(unchecked: date, seconds / 3600, seconds % 3600 / 60, 0))
                        // A timed reminder alerts at its time, as the Reminders app does.
                        item.alarms = [Alarm(trigger: .relative(seconds: 0, fromEnd: true), action: .display, message: reminder.title)]
                    } else {
                        item.due = .date(date)
                    }
                }
                if let location = reminder.location {
                    item.location = location.name
                    if let latitude = location.latitude, let longitude = location.longitude { item.geo = Geo(latitude: latitude, longitude: longitude) }
                    // "When I arrive" / "when I leave": the location alarm Apple's apps read.
                    if let proximity = location.proximity {
                        let place = AppleLocationAlarm(title: location.name, latitude: location.latitude, longitude: location.longitude, proximity: proximity)
                        item.alarms.append(place.alarm(message: reminder.title))
                    }
                }
                item.priority = Priority(rawValue: reminder.priority) ?? .none
                item.isCompleted = reminder.completed
                item.completedAt = reminder.completedAt.flatMap(DateValue.init(timestamp:))
                if let rule = rule(reminder.repeat, lunar: nil) { item.recurrence = Recurrence(rules: [rule]) }
                item.categories = [list.name]
                item.carried.append(CarriedProperty(name: "X-REMINDERS-LIST-ID", value: PropertyText.escape(list.id)))
                if reminder.flagged { item.carried.append(CarriedProperty(name: carriedFlagged, value: "TRUE")) }
                item.created = reminder.createdAt.flatMap(DateValue.init(timestamp:))
                item.lastModified = reminder.updatedAt.flatMap(DateValue.init(timestamp:))
                agenda.items.append(item)
            }
        }
        return agenda
    }

    /// 知习's tasks as to-dos; what kind of task and which review method are categories in the
    /// reader's language (学习, 复习, 间隔重复).
    static func agenda(_ backup: ZhiXiBackup, language: Language = .english) -> Agenda {
        var agenda = Agenda(name: "知习")
        var titles: [String: String] = [:]
        for library in backup.libraries { for item in library.items { titles[item.id] = item.title } }
        for task in backup.studyTasks {
            var item = CalendarItem(kind: .todo, uid: task.id, title: task.title, due: .date(task.date), isCompleted: task.done)
            if let minutes = task.minutes { item.duration = "PT\(minutes)M" }
            item.categories = [AppTerms.word("study", language)]
            agenda.items.append(item)
        }
        for review in backup.reviewTasks {
            var item = CalendarItem(kind: .todo, uid: review.id, title: titles[review.itemID] ?? review.itemID, due: .date(review.due),
                                    isCompleted: review.done)
            item.categories = [AppTerms.word("review", language), AppTerms.ids.contains(review.method) ? AppTerms.word(review.method, language) : review.method]
            // The knowledge item's library, and the spacing so far, so that the task comes back whole.
            var parameters: [CarriedProperty.Parameter] = []
            if let library = backup.libraries.first(where: { $0.items.contains { $0.id == review.itemID } }) {
                parameters = [.init(name: "X-LIBRARY-ID", values: [library.id]), .init(name: "X-LIBRARY", values: [library.name])]
            }
            item.carried.append(CarriedProperty(name: carriedZhiXiItem, parameters: parameters, value: PropertyText.escape(review.itemID)))
            if let days = review.intervalDays { item.carried.append(CarriedProperty(name: carriedZhiXiInterval, value: String(days))) }
            if let count = review.repetitions { item.carried.append(CarriedProperty(name: carriedZhiXiRepetitions, value: String(count))) }
            agenda.items.append(item)
        }
        return agenda
    }

    static func agenda(_ backup: JellySaveBackup, language: Language = .english) -> Agenda {
        var agenda = Agenda(name: "JellySave")
        for goal in backup.goals {
            guard let deadline = goal.deadline else { continue }
            var item = CalendarItem(kind: .event, uid: goal.id + "-deadline", title: goal.name, start: .date(deadline))
            item.categories = [AppTerms.word("goal", language)]
            item.carried.append(CarriedProperty(name: "X-ALMANAC-AMOUNT", value: goal.target.backupText))
            item.carried.append(CarriedProperty(name: "X-ALMANAC-SAVED", value: goal.saved.backupText))
            item.carried.append(CarriedProperty(name: "X-ALMANAC-CURRENCY", value: goal.currency))
            agenda.items.append(item)
        }
        return agenda
    }

    // MARK: From calendars

    func backup(from agenda: Agenda, context: CodecContext) throws(Diagnostic) -> (Document, [Diagnostic]) {
        let target = context.targetFormat ?? RetireTimeBackup.format
        switch target {
        case RetireTimeBackup.format:
            let (backup, diagnostics) = Self.retireTime(agenda, context: context)
            return (.backup(Self.document(backup)), diagnostics)
        case RemindersBackup.format:
            let (backup, diagnostics) = Self.reminders(agenda, context: context)
            return (.backup(Self.document(backup)), diagnostics)
        case ZhiXiBackup.format:
            let (backup, diagnostics) = Self.zhiXi(agenda, context: context)
            return (.backup(Self.document(backup)), diagnostics)
        default:
            throw Diagnostic.error("convert.model-mismatch", ModelKind.agenda.rawValue, target,
                                   target == JellySaveBackup.format ? ModelKind.ledger.rawValue : ModelKind.backup.rawValue)
        }
    }

    static func carried(_ name: String, _ item: CalendarItem) -> String? {
        item.carried.first { $0.name == name }.map { PropertyText.unescape($0.value) }
    }

    static func carried(_ name: String, _ agenda: Agenda) -> [CarriedProperty] { agenda.carried.filter { $0.name == name } }

    static func parameter(_ property: CarriedProperty, _ name: String) -> String? {
        property.parameters.first { $0.name == name }?.values.first
    }

    /// What a rule says in an app's repeat choices, and whether details were lost.
    static func repeatChoice(_ rules: [RecurrenceRule]) -> (choice: String, lunar: Bool, simplified: Bool) {
        guard let rule = rules.first else { return ("none", false, false) }
        let choice = switch rule.frequency {
        case .yearly: "yearly"
        case .monthly: "monthly"
        case .weekly: "weekly"
        case .daily: "daily"
        default: "none"
        }
        // What the apps' choices say: a frequency, in the lunar calendar or not, on a month and day.
        let plain = rule.interval == 1 && rule.count == nil && rule.until == nil && rule.bySecond.isEmpty && rule.byMinute.isEmpty
            && rule.byHour.isEmpty && rule.byDay.isEmpty && rule.byYearDay.isEmpty && rule.byWeekNumber.isEmpty
            && rule.bySetPosition.isEmpty && rule.extensions.isEmpty
        return (choice, rule.isLunar, !plain || rules.count > 1 || choice == "none")
    }

    /// A time stamp for a backup, in the backup's zone when it has one (`DateValue.timestamp(in:)`).
    static func timestamp(_ value: DateValue?, in zone: TimeZoneID? = nil) -> String? {
        value?.timestamp(in: zone)
    }

    static func retireTime(_ agenda: Agenda, context: CodecContext) -> (RetireTimeBackup, [Diagnostic]) {
        var settings = RetireTimeBackup.Settings(theme: "system", dateDisplay: "both", language: nil, timeZone: agenda.timeZone)
        if let saved = carried(carriedSettings, agenda).first,
           let json = try? JSONValue(parsing: Array(PropertyText.unescape(saved.value).utf8)), let members = json.object {
            var reader = BackupReader(file: nil)
            let restored = RetireTimeBackup.read([("exportedAt", .string("2000-01-01T00:00:00Z")), ("settings", .object(members)), ("days", .array([]))],
                                                 version: 2, reader: &reader)
            settings = restored.settings
        }
        var categories: [RetireTimeBackup.Category] = carried(carriedCategory, agenda).map { property in
            RetireTimeBackup.Category(id: parameter(property, "X-ID") ?? PropertyText.unescape(property.value), name: PropertyText.unescape(property.value),
                                      color: parameter(property, "X-COLOR"), icon: parameter(property, "X-ICON"))
        }
        let zone = settings.timeZone.flatMap { try? TimeZoneID($0) } ?? context.timeZone
        var days: [RetireTimeBackup.Day] = []
        var losses = Losses()
        let today = context.readingZone.wallTime(at: Date()).date
        for item in agenda.items {
            if item.recurrenceID != nil {
                losses.dropped("recurrenceID", of: item.title)
                continue
            }
            guard let when = item.start ?? item.due else {
                losses.dropped("start", of: item.title)
                continue
            }
            var date = when.day
            let rules = item.recurrence?.rules ?? []
            let (choice, lunar, lossy) = repeatChoice(rules)
            var lunarDay: RetireTimeBackup.LunarDate?
            if lunar || carried(carriedCalendar, item) == "lunar" {
                lunarDay = lunarDate(of: date, rule: lunar ? rules.first : nil)
                // RFC 5545 leaves a DTSTART off its rule undefined; the app's first date must be
                // on its lunar date, so the day starts at the rule's first date instead, and says so.
                if let rule = rules.first, lunar, let lunarDay, !lunarDay.fallsOn(date) {
                    var occurrences = RuleIterator(rule: rule, start: CivilDateTime(unchecked: date, 0, 0, 0))
                    _ = occurrences.next()
                    if let first = occurrences.next()?.date {
                        losses.approximated("start", of: item.title, as: "\(first) (\(date) is not lunar \(lunarDay.label))")
                        date = first
                    }
                }
            }
            if lossy { losses.approximated("recurrence.rules", of: item.title, as: choice == "none" ? "no repeat" : choice) }
            if item.recurrence?.hasExtraDates == true { losses.dropped("recurrence.dates", of: item.title) }
            if item.recurrence?.exceptions.isEmpty == false { losses.dropped("recurrence.exceptions", of: item.title) }
            let type = carried(carriedType, item).flatMap { RetireTimeBackup.types.contains($0) ? $0 : nil }
                ?? guessType(item, date: date, repeats: choice != "none", today: today)
            var categoryID = carried("X-ALMANAC-CATEGORY-ID", item)
            if let name = item.categories.first, categoryID == nil || !categories.contains(where: { $0.id == categoryID }) {
                if let existing = categories.first(where: { $0.name == name }) {
                    categoryID = existing.id
                } else {
                    // The id the day came with (a table in the iso style keeps it), else a new one.
                    let id = categoryID.flatMap { id in categories.contains { $0.id == id } ? nil : id } ?? "category-\(categories.count + 1)"
                    categories.append(.init(id: id, name: name, color: nil, icon: nil))
                    categoryID = id
                }
            } else if item.categories.isEmpty {
                categoryID = nil
            }
            var reminder: RetireTimeBackup.Reminder?
            if let alarm = item.alarms.first(where: { $0.action == .display || $0.action == .audio }),
               case .relative(let seconds, false) = alarm.trigger {
                // Relative to the start of the day (00:00 for all-day days).
                let startSeconds = when.isAllDay ? 0 : WallClockSeconds.of(when)
                let offset = startSeconds + seconds
                let days = offset >= 0 ? 0 : (-offset + 86_399) / 86_400
                let timeOfDay = offset + days * 86_400
                reminder = .init(offsetDays: days, time: Self.hoursAndMinutes(timeOfDay / 3600 % 24, timeOfDay % 3600 / 60))
            } else if !item.alarms.isEmpty {
                losses.dropped("alarms", of: item.title)
            }
            if item.alarms.count > 1 { losses.dropped("alarms", of: item.title) }
            if item.categories.count > 1 { losses.approximated("categories", of: item.title, as: "the first category") }
            losses.unheld(item, among: Self.retireTimeUnheld)
            days.append(RetireTimeBackup.Day(
                id: item.uid, name: item.title, date: date, calendar: lunarDay != nil ? "lunar" : "gregorian",
                lunarDate: lunarDay, type: type, repeat: choice,
                reminder: reminder, notes: item.notes, location: item.location, categoryID: categoryID, icon: carried(carriedIcon, item),
                color: item.color, pinned: carried(carriedPinned, item) == "TRUE", createdAt: timestamp(item.created, in: zone),
                updatedAt: timestamp(item.lastModified, in: zone)))
        }
        return (RetireTimeBackup(exportedAt: now(context), settings: settings, categories: categories, days: days),
                losses.diagnostics(target: RetireTimeBackup.format))
    }

    /// The lunar date a day keeps: what its rule says (the last day of the twelfth month stays the
    /// last day, a leap month stays leap, SKIP as written), else the date's own lunar date.
    static func lunarDate(of date: CivilDate, rule: RecurrenceRule?) -> RetireTimeBackup.LunarDate {
        let written = ChineseCalendar.lunarDate(for: date)
        var lunar = RetireTimeBackup.LunarDate(month: written.month, day: written.day, leap: written.isLeapMonth)
        guard let rule else { return lunar }
        if let month = rule.byMonth.first, rule.byMonth.count == 1 {
            lunar.month = month.number
            lunar.leap = month.isLeap
        }
        if let day = rule.byMonthDay.first, rule.byMonthDay.count == 1, day == -1 || (1...30).contains(day) { lunar.day = day }
        let skip = rule.skip.rawValue.lowercased()
        if skip != lunar.effectiveSkip { lunar.skip = skip }
        return lunar
    }

    /// Birthdays and anniversaries repeat every year; other days count down to the future or up
    /// from the past.
    static func guessType(_ item: CalendarItem, date: CivilDate, repeats: Bool, today: CivilDate) -> String {
        // Searched as bytes: Foundation's `contains` folds every character through CF, and the
        // standard library's `firstRange(of:)` builds a searcher per call; both cost more than
        // reading the file.
        // ASCII letters lowercased in place (the terms are lowercase English and Chinese, which
        // has no case), then each term's first byte found and the rest compared.
        var words: [UInt8] = []
        words.reserveCapacity(item.title.utf8.count + 16)
        words += item.title.utf8
        for category in item.categories {
            words.append(ASCII.space)
            words += category.utf8
        }
        for index in words.indices { words[index] = ASCII.lowercased(words[index]) }
        func mentions(_ terms: [StaticString]) -> Bool {
            words.withByteView { text in terms.contains { text.contains($0) } }
        }
        if mentions(["birthday", "生日", "生辰"]) { return "birthday" }
        if mentions(["anniversary", "纪念日", "紀念日", "週年", "周年"]) { return "anniversary" }
        if repeats { return "anniversary" }
        return date >= today ? "countdown" : "countup"
    }

    static func reminders(_ agenda: Agenda, context: CodecContext) -> (RemindersBackup, [Diagnostic]) {
        var lists: [RemindersBackup.List] = carried(carriedList, agenda).enumerated().map { index, property in
            RemindersBackup.List(id: parameter(property, "X-ID") ?? "list-\(index + 1)", name: PropertyText.unescape(property.value),
                                 color: parameter(property, "X-COLOR"), order: parameter(property, "X-ORDER").flatMap(Int.init) ?? index, reminders: [])
        }
        var losses = Losses()
        // Times are the wall times of the reader's zone (a UTC due time from a calendar is 09:30 in Taipei).
        let zone = context.readingZone
        for item in agenda.items {
            if item.recurrenceID != nil {
                losses.dropped("recurrenceID", of: item.title)
                continue
            }
            let listName = item.categories.first ?? agenda.name ?? "Reminders"
            let listID = carried("X-REMINDERS-LIST-ID", item) ?? lists.first { $0.name == listName }?.id
            var index = lists.firstIndex { $0.id == listID }
            if index == nil {
                lists.append(RemindersBackup.List(id: listID ?? "list-\(lists.count + 1)", name: listName, color: nil, order: lists.count, reminders: []))
                index = lists.count - 1
            }
            let when = (item.due ?? item.start).map { WallClockSeconds.local($0, in: zone) }
            var time: String?
            if let when, !when.isAllDay {
                let seconds = WallClockSeconds.of(when)
                time = Self.hoursAndMinutes(seconds / 3600, seconds % 3600 / 60)
            }
            let rules = item.recurrence?.rules ?? []
            let (choice, lunar, lossy) = repeatChoice(rules)
            if lunar {
                losses.approximated("recurrence.rules", of: item.title, as: choice + " (Gregorian calendar)")
            } else if lossy {
                losses.approximated("recurrence.rules", of: item.title, as: choice == "none" ? "no repeat" : choice)
            }
            if item.recurrence?.hasExtraDates == true { losses.dropped("recurrence.dates", of: item.title) }
            if item.recurrence?.exceptions.isEmpty == false { losses.dropped("recurrence.exceptions", of: item.title) }
            // The place: LOCATION and GEO, or Apple's location alarm (which names the place too).
            // Apple's Calendar puts the coordinates of an event's place in X-APPLE-STRUCTURED-LOCATION.
            let place = item.alarms.lazy.compactMap(AppleLocationAlarm.init).first
            let structured = item.carried.first { $0.name == AppleLocationAlarm.structuredLocation }.map { AppleLocationAlarm.coordinates($0.value) }
            let latitude = item.geo?.latitude ?? place?.latitude ?? structured?.0
            let longitude = item.geo?.longitude ?? place?.longitude ?? structured?.1
            var location: RemindersBackup.Location?
            if let name = item.location ?? place?.title {
                location = .init(name: name, latitude: latitude, longitude: longitude,
                                 proximity: place?.proximity ?? carried(carriedProximity, item))
            } else if item.geo != nil {
                losses.dropped("geo", of: item.title)
            }
            // The reminder's own time is its alert, and "when I arrive" is its place; any other
            // alarm has no place.
            let others = item.alarms.filter { alarm in
                if location != nil, AppleLocationAlarm(alarm) != nil { return false }
                return !(time != nil && alarm.trigger == .relative(seconds: 0, fromEnd: true))
            }
            if !others.isEmpty { losses.dropped("alarms", of: item.title) }
            if item.categories.count > 1 { losses.approximated("categories", of: item.title, as: "the list of the first category") }
            losses.unheld(item, among: Self.remindersUnheld)
            lists[index!].reminders.append(RemindersBackup.Reminder(
                id: item.uid, title: item.title, notes: item.notes, date: when?.day, time: time, location: location,
                priority: item.priority.rawValue, flagged: carried(carriedFlagged, item) == "TRUE", completed: item.isCompleted,
                completedAt: timestamp(item.completedAt), repeat: choice, createdAt: timestamp(item.created), updatedAt: timestamp(item.lastModified)))
        }
        return (RemindersBackup(exportedAt: now(context), lists: lists.filter { !$0.reminders.isEmpty || $0.name != agenda.name }),
                losses.diagnostics(target: RemindersBackup.format))
    }

    /// A calendar as 知习's plan: review to-dos (category `review`, with the knowledge item they
    /// review) become review tasks; every other dated item becomes a study task on its day, its
    /// length in minutes. A knowledge item's content is not in a calendar: items come back with
    /// their titles, in their library when the calendar names it, else in one named after the
    /// calendar.
    static func zhiXi(_ agenda: Agenda, context: CodecContext) -> (ZhiXiBackup, [Diagnostic]) {
        var losses = Losses()
        let zone = context.readingZone
        var libraries: [ZhiXiBackup.Library] = []
        var tasks: [ZhiXiBackup.StudyTask] = []
        var reviews: [ZhiXiBackup.ReviewTask] = []
        var usedIDs: Set<String> = []
        func uniqueID(_ id: String) -> String {
            var candidate = id
            var number = 2
            while usedIDs.contains(candidate) { candidate = "\(id)-\(number)"; number += 1 }
            usedIDs.insert(candidate)
            return candidate
        }
        for item in agenda.items {
            if item.recurrenceID != nil {
                losses.dropped("recurrenceID", of: item.title)
                continue
            }
            guard let when = (item.due ?? item.start).map({ WallClockSeconds.local($0, in: zone) }) else {
                losses.dropped(item.kind == .todo ? "due" : "start", of: item.title)
                continue
            }
            if let recurrence = item.recurrence {
                if !recurrence.rules.isEmpty { losses.approximated("recurrence.rules", of: item.title, as: "its first date only") }
                if recurrence.hasExtraDates { losses.dropped("recurrence.dates", of: item.title) }
            }
            // The categories that say what kind of task it is (in any language) are not lost.
            let kinds = item.categories.compactMap(AppTerms.id(of:))
            var rest = item
            rest.categories.removeAll { category in AppTerms.id(of: category).map { $0 == "study" || $0 == "review" || ZhiXiBackup.methods.contains($0) } ?? false }
            let reviewed = kinds.contains("review") ? item.carried.first { $0.name == carriedZhiXiItem } : nil
            if kinds.contains("review") {
                // A review read from a table (复习、间隔重复 in a region-style CSV) has no item id:
                // the knowledge item is the one with its title, or a new one.
                let known = libraries.lazy.flatMap(\.items).first { $0.title == item.title }?.id
                let itemID = reviewed.map { PropertyText.unescape($0.value) } ?? known ?? uniqueID("item-" + item.uid)
                let libraryID = reviewed.flatMap { parameter($0, "X-LIBRARY-ID") } ?? "calendar"
                let libraryName = reviewed.flatMap { parameter($0, "X-LIBRARY") } ?? agenda.name ?? "Calendar"
                var index = libraries.firstIndex { $0.id == libraryID }
                if index == nil {
                    libraries.append(.init(id: libraryID, name: libraryName, items: []))
                    index = libraries.count - 1
                }
                if !libraries.contains(where: { $0.items.contains { $0.id == itemID } }) {
                    libraries[index!].items.append(.init(id: itemID, title: item.title, content: "", subject: nil, tags: [], createdAt: nil, updatedAt: nil))
                }
                let method = kinds.first { ZhiXiBackup.methods.contains($0) } ?? "spacedRepetition"
                reviews.append(.init(id: uniqueID(item.uid), itemID: itemID, method: method, due: when.day,
                                     intervalDays: carried(carriedZhiXiInterval, item).flatMap(Int.init),
                                     repetitions: carried(carriedZhiXiRepetitions, item).flatMap(Int.init), done: item.isCompleted))
                losses.unheld(rest, among: Self.zhiXiReviewUnheld)
                continue
            }
            // How long: a to-do's DURATION, an event's end minus its start.
            var minutes: Int?
            if let text = item.duration, let duration = try? CalendarDuration(parsing: text), duration.totalSeconds > 0 {
                minutes = duration.totalSeconds / 60
            } else if let start = item.start, let end = item.end, !start.isAllDay,
                      let from = try? start.instant(defaultZone: zone), let to = try? end.instant(defaultZone: zone) {
                minutes = Int(to.timeIntervalSince(from)) / 60
            }
            var holds: Set<CalendarItem.Field> = [.completion]
            if let length = minutes, (1...1440).contains(length) { holds.insert(.end) } else { minutes = nil }
            tasks.append(.init(id: uniqueID(item.uid), title: item.title, date: when.day, minutes: minutes, done: item.isCompleted))
            losses.unheld(rest, holds: holds)
        }
        return (ZhiXiBackup(exportedAt: now(context), libraries: libraries, studyTasks: tasks, reviewTasks: reviews, studyRecords: []),
                losses.diagnostics(target: ZhiXiBackup.format))
    }

    // MARK: Ledgers

    static func ledger(_ backup: JellySaveBackup) -> Ledger {
        Ledger(baseCurrency: backup.baseCurrency, accounts: backup.accounts, balanceChanges: backup.balanceChanges,
               snapshots: backup.snapshots.map { AssetSnapshot(id: $0.id, date: $0.date, total: $0.total, byKind: $0.byKind) },
               goals: backup.goals.map {
                   SavingGoal(id: $0.id, name: $0.name, target: $0.target, saved: $0.saved, currency: $0.currency, deadline: $0.deadline,
                              createdAt: $0.createdAt.flatMap(DateValue.init(timestamp:)))
               })
    }

    static func jellySave(_ ledger: Ledger, context: CodecContext) -> JellySaveBackup {
        JellySaveBackup(exportedAt: now(context), baseCurrency: ledger.baseCurrency, accounts: ledger.accounts, balanceChanges: ledger.balanceChanges,
                        snapshots: ledger.snapshots.map { .init(id: $0.id ?? "snapshot-" + $0.date.description, date: $0.date, total: $0.total, byKind: $0.byKind) },
                        goals: ledger.goals.map { .init(id: $0.id, name: $0.name, target: $0.target, saved: $0.saved, currency: $0.currency,
                                                       deadline: $0.deadline, createdAt: $0.createdAt?.timestamp()) },
                        notifications: .init(enabled: false, time: "21:00", kinds: ["motivation"]))
    }
}

enum WallClockSeconds {
    /// A value as the wall time of `zone`: UTC and zoned times are converted (09:30 in Taipei for
    /// 01:30Z); dates and floating times are already what the clock reads.
    static func local(_ value: DateValue, in zone: TimeZoneID) -> DateValue {
        switch value {
        case .date, .floating: return value
        case .utc, .zoned, .offset:
            guard let instant = try? value.instant(defaultZone: zone) else { return value }
            return .floating(zone.wallTime(at: instant))
        }
    }

    /// Seconds since midnight of a value's wall time (as written, in its own zone).
    static func of(_ value: DateValue) -> Int {
        switch value {
        case .date: 0
        case .floating(let time), .utc(let time), .zoned(let time, _), .offset(let time, _): time.hour * 3600 + time.minute * 60 + time.second
        }
    }
}
