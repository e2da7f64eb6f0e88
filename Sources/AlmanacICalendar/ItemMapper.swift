import AlmanacCore
import AlmanacICU
import AlmanacCalendar
import Foundation

/// Turns VEVENT, VTODO and VJOURNAL components into calendar items.
struct ItemMapper {
    let fileName: String?
    var diagnostics: [Diagnostic] = []

    func location(_ line: Int) -> SourceLocation { SourceLocation(file: fileName, line: line) }

    /// Rules already checked, by text (exports repeat the same few rules thousands of times).
    var checkedRules = TextMemo<Result<RecurrenceRule, RecurrenceError>>(limit: 10_000)
    /// CATEGORIES values already split, by text.
    var categoryLists = TextMemo<[String]>(limit: 10_000)

    /// Parameters a mapped property's field already expresses; any other parameter is kept.
    private static let datePropertyParameters = ["VALUE", "TZID"]

    /// Starts an item for a VEVENT, VTODO or VJOURNAL: a copy of an empty one (CalendarItem's
    /// initializer builds its 27 fields into a temporary and copies it).
    static func start(_ componentName: String) -> CalendarItem {
        switch componentName {
        case "VTODO": emptyTodo
        case "VJOURNAL": emptyJournal
        default: emptyEvent
        }
    }

    private static let emptyEvent = CalendarItem(kind: .event, uid: "", title: "")
    private static let emptyTodo = CalendarItem(kind: .todo, uid: "", title: "")
    private static let emptyJournal = CalendarItem(kind: .journal, uid: "", title: "")

    /// Maps one property onto the item; `seen` tracks single-valued properties, which take their
    /// first occurrence (later ones are carried).
    mutating func apply(_ property: ICalProperty, to item: inout CalendarItem, seen: inout UInt64) {
        let bit: UInt64 = 1 << UInt64(property.kind.rawValue)
        let first = seen & bit == 0
        seen |= bit
        switch property.kind {
        case .uid where first: item.uid = property.value
        case .summary where first:
            item.title = PropertyText.unescape(property.value)
            keepParameters(property, except: [], in: &item)
        case .description where first:
            item.notes = PropertyText.unescape(property.value)
            keepParameters(property, except: [], in: &item)
        case .location where first:
            item.location = PropertyText.unescape(property.value)
            keepParameters(property, except: [], in: &item)
        case .geo where first:
            let parts = property.value.split(separator: ";")
            if parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
               abs(latitude) <= 90, abs(longitude) <= 180 {
                item.geo = Geo(latitude: latitude, longitude: longitude)
            } else {
                invalid(property, "GEO (latitude;longitude)", &item)
            }
        case .dtstart where first: item.start = date(property, &item)
        case .dtend where first: item.end = date(property, &item)
        case .due where first: item.due = date(property, &item)
        case .completed where first: item.completedAt = date(property, &item)
        case .created where first: item.created = date(property, &item)
        case .lastModified where first: item.lastModified = date(property, &item)
        case .dtstamp where first: item.stamp = date(property, &item)
        case .recurrenceID where first:
            item.recurrenceID = date(property, &item, except: "RANGE")
            item.recurrenceThisAndFuture = property.parameter("RANGE")?.uppercased() == "THISANDFUTURE"
        case .duration where first:
            if (try? CalendarDuration(parsing: property.value)) != nil {
                item.duration = property.value.uppercased()
            } else {
                invalid(property, "DURATION (P1D, PT1H30M)", &item)
            }
        case .rrule:
            // Exports repeat the same few rules thousands of times: each text is read once.
            let parsed: Result<RecurrenceRule, RecurrenceError>
            if let known = checkedRules[property.value] {
                parsed = known
            } else {
                do throws(RecurrenceError) {
                    parsed = .success(try Self.rule(property.value))
                } catch {
                    // Read what other readers read: a stray `RRULE:` prefix or a part that is
                    // not NAME=VALUE (`RRULE:RRULE:AnythingRandom;FREQ=WEEKLY`, a real Google
                    // export) is dropped with a warning naming it; spaces in lists are ignored.
                    let (repaired, dropped) = Self.repairedRule(property.value)
                    if repaired != property.value, let rule = try? RecurrenceRule(parsing: repaired) {
                        if !dropped.isEmpty {
                            diagnostics.append(.warning(.icsRruleRepaired(dropped: dropped.joined(separator: ", "), rule: repaired), at: location(property.line)))
                        }
                        parsed = .success(rule)
                    } else {
                        parsed = .failure(error)
                    }
                }
                checkedRules.remember(parsed, for: property.value)
            }
            switch parsed {
            case .failure(let problem):
                diagnostics.append(.warning(.icsInvalidRrule(part: problem.part, expected: problem.reason), at: location(property.line)))
                item.carried.append(Self.setAside(property))
            case .success(let rule):
                item.recurrence = item.recurrence ?? Recurrence()
                item.recurrence!.rules.append(rule)
            }
        case .rdate where property.parameter("VALUE")?.uppercased() == "PERIOD":
            guard let periods = periodList(property, &item) else { return }
            item.recurrence = item.recurrence ?? Recurrence()
            item.recurrence!.periods += periods
        case .rdate, .exdate:
            guard let values = dateList(property, &item) else { return }
            item.recurrence = item.recurrence ?? Recurrence()
            if property.kind == .rdate { item.recurrence!.dates += values } else { item.recurrence!.exceptions += values }
        case .categories:
            // Exports repeat a few category lists: each text is split once.
            let categories: [String]
            if let known = categoryLists[property.value] {
                categories = known
            } else {
                categories = PropertyText.splitList(property.value).filter { !$0.isEmpty }
                categoryLists.remember(categories, for: property.value)
            }
            if item.categories.isEmpty { item.categories = categories } else { item.categories += categories }
        case .color where first:
            item.color = property.value
            keepParameters(property, except: [], in: &item)
        case .url where first:
            item.url = property.value
            keepParameters(property, except: [], in: &item)
        case .priority where first:
            guard let number = Int(property.value.trimmingCharacters(in: " ")), (0...9).contains(number) else {
                invalid(property, "PRIORITY (0–9)", &item)
                return
            }
            item.priority = Priority(iCalendar: number)
            // Keep the exact number when the four levels cannot say it (3 is "high", written back as 3).
            if number != item.priority.iCalendarValue { item.carried.append(property.carried) }
        case .status where first:
            item.status = property.value.utf8.contains(where: ASCII.isLowercase) ? property.value.uppercased() : property.value
            if item.status == "COMPLETED" { item.isCompleted = true }
        default:
            // A to-do's length beside its due date (see ICalendarWriter): its duration again.
            if property.name == CarriedName.estimatedDuration, item.kind == .todo, item.duration == nil,
               (try? CalendarDuration(parsing: property.value)) != nil {
                item.duration = property.value.uppercased()
                return
            }
            item.carried.append(property.carried)
        }
    }

    /// `apply` for a property written with no parameters, from its value's bytes, for the kinds
    /// most lines are; false, with nothing done, when it needs the whole property: a later
    /// occurrence of a single-valued one (carried), a date that does not read (a warning), a rule
    /// or category list not met before in this file (read and remembered there).
    mutating func applyPlain(_ kind: PropertyKind, _ value: ByteView, _ parameters: DateParameters,
                             to item: inout CalendarItem, seen: inout UInt64) -> Bool {
        let bit: UInt64 = 1 << UInt64(kind.rawValue)
        let first = seen & bit == 0
        if kind.isDate {
            guard first, let date = Self.date(value, parameters) else { return false }
            switch kind {
            case .dtstart: item.start = date
            case .dtend: item.end = date
            case .due: item.due = date
            case .completed: item.completedAt = date
            case .created: item.created = date
            case .lastModified: item.lastModified = date
            default: item.stamp = date
            }
            seen |= bit
            return true
        }
        switch kind {
        case .uid where first: item.uid = value.string
        case .summary where first: item.title = PropertyText.unescape(value)
        case .description where first: item.notes = PropertyText.unescape(value)
        case .location where first: item.location = PropertyText.unescape(value)
        case .rrule:
            guard case .success(let rule)? = checkedRules[value] else { return false }
            item.recurrence = item.recurrence ?? Recurrence()
            item.recurrence!.rules.append(rule)
        case .categories:
            guard let categories = categoryLists[value] else { return false }
            if item.categories.isEmpty { item.categories = categories } else { item.categories += categories }
        default:
            return false
        }
        seen |= bit
        return true
    }

    /// A date property's value read as `date` reads it, when that gives no warning: it reads, and
    /// VALUE, if written, is DATE or DATE-TIME as its shape is (the rest is `date`'s to say).
    @inline(__always)
    static func date(_ value: ByteView, _ parameters: DateParameters) -> DateValue? {
        guard let date = try? BasicDateTime.parse(value, tzid: parameters.tzid) else { return nil }
        if case .utc = date, parameters.tzid?.isEmpty == false { return nil }
        let type = parameters.valueType
        guard !type.isEmpty else { return date }
        let isDate = if case .date = date { true } else { false }
        return type.matchesIgnoringCase(0, type.count, isDate ? "DATE" : "DATE-TIME") ? date : nil
    }

    /// An RRULE's text read as a rule, remembered for the whole process: a batch of exports from
    /// one app repeats the same few rules file after file, and reading one costs more than
    /// converting a small item (each file also remembers its own answers, with the warnings
    /// they gave).
    static func rule(_ text: String) throws(RecurrenceError) -> RecurrenceRule {
        if let known = knownRules.withLock({ $0[text] }) { return try known.get() }
        let parsed: Result<RecurrenceRule, RecurrenceError>
        do throws(RecurrenceError) { parsed = .success(try RecurrenceRule(parsing: text)) } catch { parsed = .failure(error) }
        knownRules.withLock { rules in
            rules.remember(parsed, for: text)
        }
        return try parsed.get()
    }

    private static let knownRules = Locked(TextMemo<Result<RecurrenceRule, RecurrenceError>>(limit: 4_096))

    /// An RRULE value without the parts no reader can use: spaces, a leading `RRULE:`, empty
    /// parts and parts that are not NAME=VALUE (named in `dropped`).
    static func repairedRule(_ text: String) -> (text: String, dropped: [String]) {
        // A rule escaped as TEXT (`FREQ=DAILY\;COUNT=10`, py-vobject's Ruby sample) means the rule unescaped.
        let unescaped = text.contains("\\") ? text.replacing("\\;", with: ";").replacing("\\,", with: ",") : text
        var rest = Substring(unescaped.filter { $0 != " " && $0 != "\t" })
        var dropped: [String] = []
        while rest.uppercased().hasPrefix("RRULE:") {
            dropped.append(String(rest.prefix(6)))
            rest = rest.dropFirst(6)
        }
        var kept: [Substring] = []
        for part in rest.split(separator: ";", omittingEmptySubsequences: true) {
            if part.contains("="), part.first != "=" { kept.append(part) } else { dropped.append(String(part)) }
        }
        return (kept.joined(separator: ";"), dropped)
    }

    /// A sub-component of the item: an alarm, or something carried.
    mutating func child(_ component: ICalComponent, of item: inout CalendarItem) {
        if component.name == "VALARM" {
            // An alarm no field can hold (no TRIGGER, or one that cannot be read) is carried as
            // written, as every component the model has no place for.
            if let alarm = alarm(from: component) { item.alarms.append(alarm) } else { item.carriedComponents.append(component.text) }
        } else {
            item.carriedComponents.append(component.text)
        }
    }

    /// Completes an item: derived fields, and a stable UID for items that came without one.
    mutating func finish(_ item: inout CalendarItem, line: Int) {
        if item.completedAt != nil { item.isCompleted = true }
        if let start = item.start, let end = item.end, Self.isBefore(end, start) {
            diagnostics.append(.warning(.icsEndBeforeStart(title: item.title, end: end.description, start: start.description), at: location(line)))
        }
        // RFC 5545 wants RDATE of DTSTART's kind; a series of whole days takes the days of timed
        // RDATEs (icalendar-rs's single_event_bad_dtstart), and says so, as a reader keeping the
        // times would not.
        if let start = item.start, start.isAllDay, let timed = item.recurrence?.dates.first(where: { !$0.isAllDay }) {
            diagnostics.append(.warning(.icsRdateKind(title: item.title, rdate: timed.description, start: start.description), at: location(line)))
        }
        if item.uid.isEmpty {
            item.uid = "almanac-" + Self.hash(Self.identityText(item))
            diagnostics.append(.warning(.icsMissingUid(uid: item.uid), at: location(line)))
        }
    }

    /// Whether `a` is certainly earlier than `b`: both instants, or both wall times of one kind
    /// (two zones are not compared here; the expander reads them).
    static func isBefore(_ a: DateValue, _ b: DateValue) -> Bool {
        if let first = a.utcTime, let second = b.utcTime { return first < second }
        switch (a, b) {
        case (.date(let first), .date(let second)): return first < second
        case (.floating(let first), .floating(let second)): return first < second
        case (.zoned(let first, let zone), .zoned(let second, let other)) where zone == other: return first < second
        case (.date(let first), .floating(let second)), (.date(let first), .zoned(let second, _)): return first < second.date
        case (.floating(let first), .date(let second)), (.zoned(let first, _), .date(let second)): return first.date < second
        default: return false
        }
    }

    /// Maps a whole component (for callers that already have one).
    mutating func item(from component: ICalComponent) -> CalendarItem {
        var item = Self.start(component.name)
        var seen: UInt64 = 0
        for property in component.properties { apply(property, to: &item, seen: &seen) }
        for child in component.components { self.child(child, of: &item) }
        finish(&item, line: component.line)
        return item
    }

    private mutating func alarm(from component: ICalComponent) -> Alarm? {
        var alarm = Alarm(trigger: .relative(seconds: 0, fromEnd: false))
        var hasTrigger = false
        for property in component.properties {
            switch property.kind {
            case .action:
                let action: Alarm.Action? = switch property.value {
                case "DISPLAY": .display
                case "AUDIO": .audio
                case "EMAIL": .email
                default: Alarm.Action(rawValue: property.value.lowercased())
                }
                if let action { alarm.action = action } else { alarm.carried.append(property.carried) }
            case .trigger where !hasTrigger:
                if property.parameter("VALUE")?.uppercased() == "DATE-TIME"
                    || property.value.utf8.count >= 15 && !property.value.utf8.contains(UInt8(ascii: "P")) {
                    guard let value = try? BasicDateTime.parse(property.value, tzid: nil) else {
                        diagnostics.append(.warning(.icsInvalidTrigger(value: property.value), at: location(property.line)))
                        return nil
                    }
                    alarm.trigger = .absolute(value)
                } else {
                    guard let duration = try? CalendarDuration(parsing: property.value) else {
                        diagnostics.append(.warning(.icsInvalidTrigger(value: property.value), at: location(property.line)))
                        return nil
                    }
                    alarm.trigger = .relative(seconds: duration.totalSeconds,
                                              fromEnd: property.parameter("RELATED")?.uppercased() == "END")
                }
                hasTrigger = true
            case .description where alarm.message == nil:
                alarm.message = PropertyText.unescape(property.value)
            default:
                alarm.carried.append(property.carried)
            }
        }
        guard hasTrigger else {
            diagnostics.append(.warning(.icsAlarmWithoutTrigger, at: location(component.line)))
            return nil
        }
        return alarm
    }

    private mutating func date(_ property: ICalProperty, _ item: inout CalendarItem, except: String? = nil) -> DateValue? {
        let type = property.parameter("VALUE")?.uppercased()
        if let value = byShape(property.value, tzid: property.parameter("TZID"), declared: type, property) {
            keepParameters(property, except: Self.datePropertyParameters, also: except, in: &item)
            return value
        }
        invalid(property, "a date (20250305) or date-time (20250305T143000, …Z)", &item)
        return nil
    }

    /// A date or date-time value. One whose VALUE parameter contradicts its shape
    /// (`DTSTART;VALUE=DATE:20110804T120000`, as one exporter writes every event) is read by its
    /// shape, with a warning naming both.
    private mutating func byShape(_ written: String, tzid: String?, declared: String?, _ property: ICalProperty) -> DateValue? {
        // Spaces after a date or time are no part of it (lines padded with a trailing space, as in
        // KDE's LibICal test cases); libical reads past them.
        let text = written.trimmingTrailingSpaces()
        guard let value = try? BasicDateTime.parse(text, tzid: tzid, valueType: declared == "DATE" ? nil : declared) else { return nil }
        // RFC 5545 §3.2.19: a UTC time has no TZID. The time is read as UTC (as libical and
        // Python's icalendar read it); the TZID goes, with a word.
        if case .utc = value, let tzid, !tzid.isEmpty {
            diagnostics.append(.warning(.icsTzidOnUtc(property: property.name, zone: tzid, time: text), at: location(property.line)))
        }
        if let declared, declared == "DATE" || declared == "DATE-TIME" {
            let shape = if case .date = value { "DATE" } else { "DATE-TIME" }
            if shape != declared {
                diagnostics.append(.warning(.icsValueTypeMismatch(property: property.name, declared: declared, value: text, found: shape), at: location(property.line)))
            }
        }
        return value
    }

    private mutating func dateList(_ property: ICalProperty, _ item: inout CalendarItem) -> [DateValue]? {
        var values: [DateValue] = []
        var unread: [Substring] = []
        let tzid = property.parameter("TZID")
        let type = property.parameter("VALUE")?.uppercased()
        for part in property.value.split(separator: ",") {
            // RDATE periods are read by `periodList`; an EXDATE written as PERIOD (not RFC 5545,
            // tolerated) excludes the period's start.
            let text = type == "PERIOD" ? String(part.split(separator: "/").first ?? part) : String(part)
            let trimmed = text.trimmingCharacters(in: " ")
            let declared = type == "PERIOD" ? nil : type
            if let value = byShape(trimmed, tzid: tzid, declared: declared, property) { values.append(value) } else { unread.append(part) }
        }
        return readable(values, unread: unread, property, "dates or date-times separated by commas", &item)
    }

    /// RDATE;VALUE=PERIOD: each `start/end` or `start/duration`.
    private mutating func periodList(_ property: ICalProperty, _ item: inout CalendarItem) -> [Period]? {
        var periods: [Period] = []
        var unread: [Substring] = []
        let tzid = property.parameter("TZID")
        for part in property.value.split(separator: ",") {
            let pieces = String(part).trimmingCharacters(in: " " as Character).split(separator: "/", maxSplits: 1).map(String.init)
            if pieces.count == 2, let start = try? BasicDateTime.parse(pieces[0], tzid: tzid) {
                if let end = try? BasicDateTime.parse(pieces[1], tzid: tzid) {
                    periods.append(Period(start: start, end: end))
                    continue
                } else if (try? CalendarDuration(parsing: pieces[1])) != nil {
                    periods.append(Period(start: start, duration: pieces[1].uppercased()))
                    continue
                }
            }
            unread.append(part)
        }
        let read = readable(periods, unread: unread, property,
                            "periods (19970101T180000Z/19970102T070000Z or …/PT5H30M) separated by commas", &item)
        if read != nil { keepParameters(property, except: Self.datePropertyParameters, in: &item) }
        return read
    }

    /// The values of a list that could be read. One bad value does not lose the others: they are
    /// read, and the bad ones kept as written (as `X-ALMANAC-INVALID-RDATE`, with the property's
    /// parameters) with a warning naming them; a list with nothing readable is set aside whole.
    private mutating func readable<Value>(_ values: [Value], unread: [Substring], _ property: ICalProperty, _ expected: String,
                                          _ item: inout CalendarItem) -> [Value]? {
        guard !unread.isEmpty else { return values }
        guard !values.isEmpty else {
            invalid(property, expected, &item)
            return nil
        }
        let written = unread.joined(separator: ",")
        diagnostics.append(.warning(.icsInvalidListValues(property: property.name, bad: written, expected: expected, read: String(values.count)), at: location(property.line)))
        item.carried.append(CarriedProperty(name: CarriedName.invalid(property.name), parameters: property.parameters, value: written))
        return values
    }

    /// Carries the parameters of a mapped property that its field does not express (`except` and
    /// `also` name those that it does: a short list compared name by name, as a Set hashed every
    /// name, and building a union cost an allocation, for every date property).
    private mutating func keepParameters(_ property: ICalProperty, except: [String], also: String? = nil, in item: inout CalendarItem) {
        guard !property.parameters.isEmpty else { return }
        if property.parameters.allSatisfy({ except.contains($0.name) || $0.name == also }) { return }
        // VALUE naming the property's default type says nothing (URL;VALUE=URI is URL).
        let defaultType = property.parameters.contains { $0.name == "VALUE" }
            ? ICalValueType.of(property.name, parameters: [], value: property.value).rawValue.uppercased() : ""
        let extra = property.parameters.filter {
            !except.contains($0.name) && $0.name != also && !($0.name == "VALUE" && $0.values.map { $0.uppercased() } == [defaultType])
        }
        if !extra.isEmpty { item.parameters[property.name, default: []] += extra }
    }

    /// A value that cannot be read is kept as written (carried) with a located warning.
    private mutating func invalid(_ property: ICalProperty, _ expected: String, _ item: inout CalendarItem) {
        diagnostics.append(.warning(.icsInvalidValue(property: property.name, expected: expected), at: location(property.line)))
        item.carried.append(Self.setAside(property))
    }

    /// A standard property with an unreadable value is kept as written under an X- name
    /// (`X-ALMANAC-INVALID-DTSTART`): nothing is lost, and what Almanac writes stays valid.
    static func setAside(_ property: ICalProperty) -> CarriedProperty {
        CarriedProperty(name: CarriedName.invalid(property.name), parameters: property.parameters, value: property.value)
    }

    /// A stable id for items that came without one.
    static func hash(_ text: String) -> String { StableHash.hex(text) }

    /// The text an item without a UID is identified by: its description, with the parameters of
    /// its mapped properties in the order of their names (a dictionary describes itself in the
    /// order of its storage, which differs between two equal dictionaries, and from one run to
    /// the next: the id of an item with two such properties changed each time it was read).
    static func identityText(_ item: CalendarItem) -> String {
        guard item.parameters.count > 1 else { return String(describing: item) }
        var withoutParameters = item
        withoutParameters.parameters = [:]
        return String(describing: withoutParameters) + String(describing: item.parameters.sorted { $0.key < $1.key })
    }
}

private extension String {
    func trimmingCharacters(in set: Character) -> String {
        var text = Substring(self)
        while text.first == set { text = text.dropFirst() }
        while text.last == set { text = text.dropLast() }
        return String(text)
    }
}
