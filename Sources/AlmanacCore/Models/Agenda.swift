/// Calendars and lists: events, all-day days, birthdays, to-dos. What iCalendar, the Retire Time and
/// Reminders backups and their CSV exports have in common.
public struct Agenda: Hashable, Sendable, Codable {
    /// The calendar's or list's name (X-WR-CALNAME, a Reminders list name).
    public var name: String?
    /// The zone floating times are meant in, when the source says (X-WR-TIMEZONE).
    public var timeZone: String?
    public var items: [CalendarItem]
    /// Calendar-level properties no field here holds, carried so a round trip keeps them.
    public var carried: [CarriedProperty]
    /// Time zone definitions the source gave (iCalendar VTIMEZONE), used as given.
    public var timeZones: [TimeZoneDefinition]
    /// Components no field here holds (VFREEBUSY, VAVAILABILITY, X- components), as iCalendar text.
    public var carriedComponents: [String]

    public init(name: String? = nil, timeZone: String? = nil, items: [CalendarItem] = [], carried: [CarriedProperty] = [],
                timeZones: [TimeZoneDefinition] = [], carriedComponents: [String] = []) {
        self.name = name
        self.timeZone = timeZone
        self.items = items
        self.carried = carried
        self.timeZones = timeZones
        self.carriedComponents = carriedComponents
    }
}

/// A time zone as a calendar file defines it: its TZID and its VTIMEZONE text (unfolded lines
/// joined by newlines, BEGIN:VTIMEZONE to END:VTIMEZONE).
public struct TimeZoneDefinition: Hashable, Sendable, Codable {
    public var id: String
    public var definition: String

    public init(id: String, definition: String) {
        self.id = id
        self.definition = definition
    }
}

/// One event, to-do or journal entry.
public struct CalendarItem: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        case event, todo, journal
    }

    public var kind: Kind
    /// A stable identity across exports (iCalendar UID, a backup's record id).
    public var uid: String
    public var title: String
    public var notes: String?
    public var location: String?
    public var geo: Geo?
    public var start: DateValue?
    public var end: DateValue?
    /// When a to-do is due.
    public var due: DateValue?
    public var recurrence: Recurrence?
    public var categories: [String]
    /// A CSS color or `#RRGGBB`.
    public var color: String?
    public var priority: Priority
    public var isCompleted: Bool
    public var completedAt: DateValue?
    public var alarms: [Alarm]
    public var url: String?
    /// How long the item lasts when it has no end (RFC 5545 duration: `PT1H`, `P1D`).
    public var duration: String?
    /// The source's status word (`CONFIRMED`, `TENTATIVE`, `CANCELLED`, `NEEDS-ACTION`, `COMPLETED`).
    public var status: String?
    /// For an item that changes one occurrence of a repeating item: the occurrence it replaces.
    public var recurrenceID: DateValue?
    /// Whether the change applies to that occurrence and all later ones (RANGE=THISANDFUTURE).
    public var recurrenceThisAndFuture: Bool
    public var created: DateValue?
    public var lastModified: DateValue?
    /// When this copy of the item was written out (iCalendar DTSTAMP).
    public var stamp: DateValue?
    /// The source's properties no field here holds (X- properties, unknown ones), carried as written.
    public var carried: [CarriedProperty]
    /// Parameters of mapped properties that no field holds (`SUMMARY;LANGUAGE=zh-TW`), by property name.
    public var parameters: [String: [CarriedProperty.Parameter]]
    /// Sub-components no field holds, as iCalendar text.
    public var carriedComponents: [String]

    // Inlinable: built in place where it is called (out of line, the 27 fields are built in a
    // temporary and copied, for every item).
    @inlinable
    public init(
        kind: Kind = .event, uid: String, title: String, notes: String? = nil, location: String? = nil, geo: Geo? = nil,
        start: DateValue? = nil, end: DateValue? = nil, due: DateValue? = nil, recurrence: Recurrence? = nil,
        categories: [String] = [], color: String? = nil, priority: Priority = .none, isCompleted: Bool = false,
        completedAt: DateValue? = nil, alarms: [Alarm] = [], url: String? = nil, duration: String? = nil,
        status: String? = nil, recurrenceID: DateValue? = nil, recurrenceThisAndFuture: Bool = false,
        created: DateValue? = nil, lastModified: DateValue? = nil, stamp: DateValue? = nil, carried: [CarriedProperty] = [],
        parameters: [String: [CarriedProperty.Parameter]] = [:], carriedComponents: [String] = []
    ) {
        self.kind = kind
        self.uid = uid
        self.title = title
        self.notes = notes
        self.location = location
        self.geo = geo
        self.start = start
        self.end = end
        self.due = due
        self.recurrence = recurrence
        self.categories = categories
        self.color = color
        self.priority = priority
        self.isCompleted = isCompleted
        self.completedAt = completedAt
        self.alarms = alarms
        self.url = url
        self.duration = duration
        self.status = status
        self.recurrenceID = recurrenceID
        self.recurrenceThisAndFuture = recurrenceThisAndFuture
        self.created = created
        self.lastModified = lastModified
        self.stamp = stamp
        self.carried = carried
        self.parameters = parameters
        self.carriedComponents = carriedComponents
    }

    public var isAllDay: Bool { start?.isAllDay ?? due?.isAllDay ?? false }
}

public struct Geo: Hashable, Sendable, Codable {
    public var latitude: Double
    public var longitude: Double
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// The four priorities the apps show; iCalendar's 1–9 map onto them (RFC 5545 §3.8.1.9).
public enum Priority: String, Hashable, Sendable, Codable, CaseIterable {
    case none, low, medium, high

    /// iCalendar PRIORITY: 0 none, 1–4 high, 5 medium, 6–9 low.
    public init(iCalendar value: Int) {
        switch value {
        case 1...4: self = .high
        case 5: self = .medium
        case 6...9: self = .low
        default: self = .none
        }
    }

    /// The value written back: 1 high, 5 medium, 9 low, 0 none.
    public var iCalendarValue: Int {
        switch self {
        case .none: 0
        case .high: 1
        case .medium: 5
        case .low: 9
        }
    }
}

/// How an item repeats: typed rules (RFC 5545 with RFC 7529's RSCALE and SKIP), extra dates and
/// exceptions. The calendar engine (`AlmanacCalendar`) expands them; a rule a source wrote that
/// cannot be read is not a rule here but a carried property of the item, kept as written.
public struct Recurrence: Hashable, Sendable, Codable {
    /// The rules; in JSON each is its RRULE text, e.g. `RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=8;BYMONTHDAY=15`.
    public var rules: [RecurrenceRule]
    public var dates: [DateValue]
    public var exceptions: [DateValue]
    /// Extra occurrences with their own length (RDATE;VALUE=PERIOD, RFC 5545 §3.3.9): each lasts
    /// until its end, or for its duration, instead of the item's.
    public var periods: [Period]

    public init(rules: [RecurrenceRule] = [], dates: [DateValue] = [], exceptions: [DateValue] = [], periods: [Period] = []) {
        self.rules = rules
        self.dates = dates
        self.exceptions = exceptions
        self.periods = periods
    }

    /// Whether there are occurrences besides the rules' (RDATE, as a date or a period).
    public var hasExtraDates: Bool { !dates.isEmpty || !periods.isEmpty }
}

/// A start with an end or a duration (RFC 5545 PERIOD: `19970101T180000Z/19970102T070000Z`,
/// `19970101T180000Z/PT5H30M`).
public struct Period: Hashable, Sendable, Codable {
    public var start: DateValue
    public var end: DateValue?
    /// RFC 5545 DURATION text, when the period was given with one.
    public var duration: String?

    public init(start: DateValue, end: DateValue? = nil, duration: String? = nil) {
        self.start = start
        self.end = end
        self.duration = duration
    }
}

/// A reminder before, after or at a time.
public struct Alarm: Hashable, Sendable, Codable {
    public enum Trigger: Hashable, Sendable, Codable {
        /// Seconds relative to the item's start (negative: before), or its end/due when `fromEnd`.
        case relative(seconds: Int, fromEnd: Bool)
        /// An absolute time.
        case absolute(DateValue)
    }

    public enum Action: String, Hashable, Sendable, Codable {
        case display, audio, email
    }

    public var trigger: Trigger
    public var action: Action
    public var message: String?
    public var carried: [CarriedProperty]

    public init(trigger: Trigger, action: Action = .display, message: String? = nil, carried: [CarriedProperty] = []) {
        self.trigger = trigger
        self.action = action
        self.message = message
        self.carried = carried
    }
}

/// A property carried through a conversion untouched: its name, parameters in order and raw value
/// (for iCalendar, the content line's parts after unfolding; values keep their escaping).
public struct CarriedProperty: Hashable, Sendable, Codable {
    public var name: String
    public var parameters: [Parameter]
    public var value: String

    public struct Parameter: Hashable, Sendable, Codable {
        public var name: String
        public var values: [String]
        public init(name: String, values: [String]) {
            self.name = name
            self.values = values
        }
    }

    public init(name: String, parameters: [Parameter] = [], value: String) {
        self.name = name
        self.parameters = parameters
        self.value = value
    }
}

// Decoding with defaults: plugins and hand-written JSON may leave out empty lists and default
// values; the canonical writer always writes them.

extension Agenda {
    enum CodingKeys: String, CodingKey { case name, timeZone, items, carried, timeZones, carriedComponents }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try container.decodeIfPresent(String.self, forKey: .name),
                  timeZone: try container.decodeIfPresent(String.self, forKey: .timeZone),
                  items: try container.decodeIfPresent([CalendarItem].self, forKey: .items) ?? [],
                  carried: try container.decodeIfPresent([CarriedProperty].self, forKey: .carried) ?? [],
                  timeZones: try container.decodeIfPresent([TimeZoneDefinition].self, forKey: .timeZones) ?? [],
                  carriedComponents: try container.decodeIfPresent([String].self, forKey: .carriedComponents) ?? [])
    }
}

extension CalendarItem {
    enum CodingKeys: String, CodingKey {
        case kind, uid, title, notes, location, geo, start, end, due, recurrence, categories, color, priority,
             isCompleted, completedAt, alarms, url, duration, status, recurrenceID, recurrenceThisAndFuture, created,
             lastModified, stamp, carried, parameters, carriedComponents
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            kind: try c.decodeIfPresent(Kind.self, forKey: .kind) ?? .event,
            uid: try c.decode(String.self, forKey: .uid),
            title: try c.decodeIfPresent(String.self, forKey: .title) ?? "",
            notes: try c.decodeIfPresent(String.self, forKey: .notes),
            location: try c.decodeIfPresent(String.self, forKey: .location),
            geo: try c.decodeIfPresent(Geo.self, forKey: .geo),
            start: try c.decodeIfPresent(DateValue.self, forKey: .start),
            end: try c.decodeIfPresent(DateValue.self, forKey: .end),
            due: try c.decodeIfPresent(DateValue.self, forKey: .due),
            recurrence: try c.decodeIfPresent(Recurrence.self, forKey: .recurrence),
            categories: try c.decodeIfPresent([String].self, forKey: .categories) ?? [],
            color: try c.decodeIfPresent(String.self, forKey: .color),
            priority: try c.decodeIfPresent(Priority.self, forKey: .priority) ?? .none,
            isCompleted: try c.decodeIfPresent(Bool.self, forKey: .isCompleted) ?? false,
            completedAt: try c.decodeIfPresent(DateValue.self, forKey: .completedAt),
            alarms: try c.decodeIfPresent([Alarm].self, forKey: .alarms) ?? [],
            url: try c.decodeIfPresent(String.self, forKey: .url),
            duration: try c.decodeIfPresent(String.self, forKey: .duration),
            status: try c.decodeIfPresent(String.self, forKey: .status),
            recurrenceID: try c.decodeIfPresent(DateValue.self, forKey: .recurrenceID),
            recurrenceThisAndFuture: try c.decodeIfPresent(Bool.self, forKey: .recurrenceThisAndFuture) ?? false,
            created: try c.decodeIfPresent(DateValue.self, forKey: .created),
            lastModified: try c.decodeIfPresent(DateValue.self, forKey: .lastModified),
            stamp: try c.decodeIfPresent(DateValue.self, forKey: .stamp),
            carried: try c.decodeIfPresent([CarriedProperty].self, forKey: .carried) ?? [],
            parameters: try c.decodeIfPresent([String: [CarriedProperty.Parameter]].self, forKey: .parameters) ?? [:],
            carriedComponents: try c.decodeIfPresent([String].self, forKey: .carriedComponents) ?? [])
    }
}

extension Recurrence {
    enum CodingKeys: String, CodingKey { case rules, dates, exceptions, periods }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(rules: try c.decodeIfPresent([RecurrenceRule].self, forKey: .rules) ?? [],
                  dates: try c.decodeIfPresent([DateValue].self, forKey: .dates) ?? [],
                  exceptions: try c.decodeIfPresent([DateValue].self, forKey: .exceptions) ?? [],
                  periods: try c.decodeIfPresent([Period].self, forKey: .periods) ?? [])
    }

    /// `periods` only when there are some, so calendars without them read as they always did.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(rules, forKey: .rules)
        try c.encode(dates, forKey: .dates)
        try c.encode(exceptions, forKey: .exceptions)
        if !periods.isEmpty { try c.encode(periods, forKey: .periods) }
    }
}

extension Alarm {
    enum CodingKeys: String, CodingKey { case trigger, action, message, carried }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(trigger: try c.decode(Trigger.self, forKey: .trigger),
                  action: try c.decodeIfPresent(Action.self, forKey: .action) ?? .display,
                  message: try c.decodeIfPresent(String.self, forKey: .message),
                  carried: try c.decodeIfPresent([CarriedProperty].self, forKey: .carried) ?? [])
    }
}

extension CarriedProperty {
    enum CodingKeys: String, CodingKey { case name, parameters, value }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try c.decode(String.self, forKey: .name),
                  parameters: try c.decodeIfPresent([Parameter].self, forKey: .parameters) ?? [],
                  value: try c.decode(String.self, forKey: .value))
    }
}
