import AlmanacCore
import AlmanacICU

/// The Reminders lists as a calendar and back: a reminder is a to-do due on its date (at its time,
/// with an alert then), its list its category, its place a location with Apple's location alarm
/// ("when I arrive"); the lists, with their colours and order, are carried on the calendar.
extension RemindersBackup {
    func agenda(context: CodecContext) -> (Agenda, [Diagnostic]) { (calendar, []) }

    /// The lists as a calendar (nothing is lost: what the model has no field for is carried).
    var calendar: Agenda {
        let backup = self
        var agenda = Agenda(name: "Reminders")
        for list in backup.lists.sorted(by: { $0.order < $1.order }) {
            var parameters = [CarriedProperty.Parameter(name: CarriedName.Parameter.id, values: [list.id]), .init(name: CarriedName.Parameter.order, values: [String(list.order)])]
            if let color = list.color { parameters.append(.init(name: CarriedName.Parameter.color, values: [color])) }
            agenda.carried.append(CarriedProperty(name: CarriedName.remindersList, parameters: parameters, text: list.name))
            for reminder in list.reminders {
                var item = CalendarItem(kind: .todo, uid: reminder.id, title: reminder.title, notes: reminder.notes)
                if let date = reminder.date {
                    if let time = reminder.time {
                        let seconds = AppTime.seconds(time)
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
                if let rule = AppRepeat.rule(reminder.repeat) { item.recurrence = Recurrence(rules: [rule]) }
                item.categories = [list.name]
                item.carried.append(CarriedProperty(name: CarriedName.remindersListID, text: list.id))
                if reminder.flagged { item.carried.append(CarriedProperty(name: CarriedName.flagged, value: "TRUE")) }
                item.created = reminder.createdAt.flatMap(DateValue.init(timestamp:))
                item.lastModified = reminder.updatedAt.flatMap(DateValue.init(timestamp:))
                agenda.items.append(item)
            }
        }
        return agenda
    }

    /// The item fields a reminder cannot hold.
    static let unheld = CalendarItem.Field.unheld(holding: [.notes, .location, .geo, .priority, .categories, .timeOfDay, .completion, .alarms, .created, .lastModified])

    static func make(from agenda: Agenda, context: CodecContext) -> (RemindersBackup, [Diagnostic]) {
        var lists: [RemindersBackup.List] = agenda.carried(named: CarriedName.remindersList).enumerated().map { index, property in
            RemindersBackup.List(id: property.parameter(CarriedName.Parameter.id) ?? "list-\(index + 1)", name: property.text,
                                 color: property.parameter(CarriedName.Parameter.color), order: property.parameter(CarriedName.Parameter.order).flatMap(Int.init) ?? index, reminders: [])
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
            let listID = item.carriedText(CarriedName.remindersListID) ?? lists.first { $0.name == listName }?.id
            var index = lists.firstIndex { $0.id == listID }
            if index == nil {
                lists.append(RemindersBackup.List(id: listID ?? "list-\(lists.count + 1)", name: listName, color: nil, order: lists.count, reminders: []))
                index = lists.count - 1
            }
            let when = (item.due ?? item.start).map { WallClockSeconds.local($0, in: zone) }
            var time: String?
            if let when, !when.isAllDay {
                let seconds = WallClockSeconds.of(when)
                time = AppTime.hoursAndMinutes(seconds / 3600, seconds % 3600 / 60)
            }
            let rules = item.recurrence?.rules ?? []
            let (choice, lunar, lossy) = AppRepeat.repeatChoice(rules)
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
                                 proximity: place?.proximity ?? item.carriedText(CarriedName.proximity))
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
            losses.unheld(item, among: Self.unheld)
            lists[index!].reminders.append(RemindersBackup.Reminder(
                id: item.uid, title: item.title, notes: item.notes, date: when?.day, time: time, location: location,
                priority: item.priority.rawValue, flagged: item.carriedText(CarriedName.flagged) == "TRUE", completed: item.isCompleted,
                completedAt: AppTime.timestamp(item.completedAt), repeat: choice, createdAt: AppTime.timestamp(item.created), updatedAt: AppTime.timestamp(item.lastModified)))
        }
        return (RemindersBackup(exportedAt: AppTime.now(context), lists: lists.filter { !$0.reminders.isEmpty || $0.name != agenda.name }),
                losses.diagnostics(target: RemindersBackup.format))
    }
}
