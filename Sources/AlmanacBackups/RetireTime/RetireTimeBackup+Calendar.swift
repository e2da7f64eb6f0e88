import AlmanacCore
import AlmanacICU
import AlmanacCalendar
import Foundation

/// Retire Time's days as a calendar and back: a day is an all-day event repeating as the app
/// says (a lunar day in the Chinese calendar, RFC 7529), its reminder an alarm relative to the
/// day's start, its category a category; the categories and the settings are carried on the
/// calendar, the day's type, icon and pin on the item (`CarriedName`).
extension RetireTimeBackup {
    func agenda(context: CodecContext) -> (Agenda, [Diagnostic]) { (calendar, []) }

    /// The days as a calendar (nothing is lost: what the model has no field for is carried).
    var calendar: Agenda {
        let backup = self
        var agenda = Agenda(name: "Retire Time", timeZone: backup.settings.timeZone)
        let settings: [(String, JSONValue)] = (backup.json.object?.first { $0.0 == "settings" }?.1.object) ?? []
        agenda.carried.append(CarriedProperty(name: CarriedName.retireTimeSettings, text: JSONValue.object(settings).serialized()))
        agenda.carried += Self.carried(backup.categories)
        for day in backup.days {
            var item = CalendarItem(kind: .event, uid: day.id, title: day.name, notes: day.notes, location: day.location, start: .date(day.date))
            if let rule = Self.rule(day) { item.recurrence = Recurrence(rules: [rule]) }
            if day.calendar == "lunar", day.repeat != "yearly", day.repeat != "monthly" {
                item.carried.append(CarriedProperty(name: CarriedName.calendar, value: "lunar"))
            }
            if let reminder = day.reminder {
                // Relative to the start of the day: the evening before is -PT15H. The notification
                // shows the day's name and its notes, as the app's does (FR6).
                let message = day.notes.map { $0.isEmpty ? day.name : day.name + "\n" + $0 } ?? day.name
                item.alarms = [Alarm(trigger: .relative(seconds: -reminder.offsetDays * 86_400 + AppTime.seconds(reminder.time), fromEnd: false),
                                     action: .display, message: message)]
            }
            if let category = backup.categories.first(where: { $0.id == day.categoryID }) {
                item.categories = [category.name]
                item.carried.append(CarriedProperty(name: CarriedName.categoryID, text: category.id))
            }
            item.carried.append(CarriedProperty(name: CarriedName.dayType, text: day.type))
            if let icon = day.icon { item.carried.append(CarriedProperty(name: CarriedName.icon, text: icon)) }
            if day.pinned { item.carried.append(CarriedProperty(name: CarriedName.pinned, value: "TRUE")) }
            item.color = day.color
            item.created = day.createdAt.flatMap(DateValue.init(timestamp:))
            item.lastModified = day.updatedAt.flatMap(DateValue.init(timestamp:))
            agenda.items.append(item)
        }
        return agenda
    }

    /// A day's repeat: a lunar day's in the Chinese calendar (yearly or monthly; the app has no
    /// lunar week or day, which repeat as in the Gregorian calendar).
    static func rule(_ day: Day) -> RecurrenceRule? {
        if day.calendar == "lunar", let lunar = day.lunarDate, day.repeat == "yearly" || day.repeat == "monthly" {
            return lunar.rule(yearly: day.repeat == "yearly")
        }
        return AppRepeat.rule(day.repeat)
    }

    /// The item fields a day cannot hold.
    static let unheld = CalendarItem.Field.unheld(holding: [.notes, .location, .categories, .color, .alarms, .created, .lastModified])

    static func make(from agenda: Agenda, context: CodecContext) -> (RetireTimeBackup, [Diagnostic]) {
        var maker = DayMaker(agenda, context: context)
        let days = agenda.items.compactMap { maker.day(from: $0) }
        return (maker.backup(days: days), maker.losses.diagnostics(target: RetireTimeBackup.format))
    }

    /// Makes the days of a backup from a calendar's items one at a time, with what they share
    /// (the settings, the categories found so far, the losses): `make(from:)` over a whole
    /// calendar, and the streamed writer over items as they are read.
    struct DayMaker {
        var settings: RetireTimeBackup.Settings
        var categories: [RetireTimeBackup.Category]
        let zone: TimeZoneID?
        let today: CivilDate
        let exportedAt: String
        var losses = Losses()

        init(_ agenda: Agenda, context: CodecContext) {
            var settings = RetireTimeBackup.Settings(theme: "system", dateDisplay: "both", language: nil, timeZone: agenda.timeZone)
            if let saved = agenda.carried(named: CarriedName.retireTimeSettings).first,
               let json = try? JSONValue(parsing: Array(saved.text.utf8)), let members = json.object {
                var reader = BackupReader(file: nil)
                let restored = RetireTimeBackup.read([("exportedAt", .string("2000-01-01T00:00:00Z")), ("settings", .object(members)), ("days", .array([]))],
                                                     version: 2, reader: &reader)
                settings = restored.settings
            }
            self.settings = settings
            categories = agenda.carried(named: CarriedName.retireTimeCategory).map { property in
                RetireTimeBackup.Category(id: property.parameter(CarriedName.Parameter.id) ?? property.text, name: property.text,
                                          color: property.parameter(CarriedName.Parameter.color), icon: property.parameter(CarriedName.Parameter.icon))
            }
            zone = settings.timeZone.flatMap { try? TimeZoneID($0) } ?? context.timeZone
            today = context.readingZone.wallTime(at: Date()).date
            exportedAt = AppTime.now(context)
        }

        /// The backup of these days, with the settings and categories made so far.
        func backup(days: [RetireTimeBackup.Day]) -> RetireTimeBackup {
            RetireTimeBackup(exportedAt: exportedAt, settings: settings, categories: categories, days: days)
        }

        /// The day an item is, or nil for an item a day cannot be (an override, an item with no date).
        mutating func day(from item: CalendarItem) -> RetireTimeBackup.Day? {
            let zone = self.zone
            let today = self.today
            if item.recurrenceID != nil {
                losses.dropped("recurrenceID", of: item.title)
                return nil
            }
            guard let when = item.start ?? item.due else {
                losses.dropped("start", of: item.title)
                return nil
            }
            var date = when.day
            let rules = item.recurrence?.rules ?? []
            let (choice, lunar, lossy) = AppRepeat.repeatChoice(rules)
            var lunarDay: RetireTimeBackup.LunarDate?
            if lunar || item.carriedText(CarriedName.calendar) == "lunar" {
                lunarDay = RetireTimeBackup.lunarDate(of: date, rule: lunar ? rules.first : nil)
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
            let type = (item.carriedText(CarriedName.dayType).flatMap(DayType.init(rawValue:))
                ?? RetireTimeBackup.guessType(item, date: date, repeats: choice != "none", today: today)).rawValue
            var categoryID = item.carriedText(CarriedName.categoryID)
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
                reminder = .init(offsetDays: days, time: AppTime.hoursAndMinutes(timeOfDay / 3600 % 24, timeOfDay % 3600 / 60))
            } else if !item.alarms.isEmpty {
                losses.dropped("alarms", of: item.title)
            }
            if item.alarms.count > 1 { losses.dropped("alarms", of: item.title) }
            if item.categories.count > 1 { losses.approximated("categories", of: item.title, as: "the first category") }
            losses.unheld(item, among: RetireTimeBackup.unheld)
            return RetireTimeBackup.Day(
                id: item.uid, name: item.title, date: date, calendar: lunarDay != nil ? "lunar" : "gregorian",
                lunarDate: lunarDay, type: type, repeat: choice,
                reminder: reminder, notes: item.notes, location: item.location, categoryID: categoryID, icon: item.carriedText(CarriedName.icon),
                color: item.color, pinned: item.carriedText(CarriedName.pinned) == "TRUE", createdAt: AppTime.timestamp(item.created, in: zone),
                updatedAt: AppTime.timestamp(item.lastModified, in: zone))
        }
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
    static func guessType(_ item: CalendarItem, date: CivilDate, repeats: Bool, today: CivilDate) -> DayType {
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
        if mentions(["birthday", "生日", "生辰"]) { return .birthday }
        if mentions(["anniversary", "纪念日", "紀念日", "週年", "周年"]) { return .anniversary }
        if repeats { return .anniversary }
        return date >= today ? .countdown : .countup
    }
}
