public import AlmanacICU

/// One part of a time zone a calendar file defines (iCalendar's STANDARD or DAYLIGHT inside a
/// VTIMEZONE): from its onsets on, clocks read `offsetTo`; before them, `offsetFrom`.
///
/// This is the typed form of `TimeZoneDefinition.definition`; a format that writes definitions
/// reads them into observances (`TimeZoneDefinitionReader`), and the calendar engine turns them
/// into a clock. Offsets are seconds east of UTC.
public struct ZoneObservance: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        case standard, daylight
    }

    public var kind: Kind
    /// The first onset, as a wall time in `offsetFrom`.
    public var start: CivilDateTime
    public var offsetFrom: Int
    public var offsetTo: Int
    /// Rules giving later onsets (RRULE), counted from `start`.
    public var rules: [RecurrenceRule]
    /// Single onsets (RDATE), wall times in `offsetFrom`.
    public var dates: [CivilDateTime]
    /// The abbreviation shown while the observance is in force (TZNAME: `CST`, `EDT`).
    public var name: String?

    public init(kind: Kind, start: CivilDateTime, offsetFrom: Int, offsetTo: Int, rules: [RecurrenceRule] = [],
                dates: [CivilDateTime] = [], name: String? = nil) {
        self.kind = kind
        self.start = start
        self.offsetFrom = offsetFrom
        self.offsetTo = offsetTo
        self.rules = rules
        self.dates = dates
        self.name = name
    }
}

/// Reads the observances of a time zone definition. A capability of the formats whose files carry
/// definitions (iCalendar's VTIMEZONE): the conversion pipeline hands the registered one to every
/// codec through `CodecContext.timeZoneDefinitions`, so a calendar read from a file keeps its own
/// zones wherever it is converted or expanded.
public protocol TimeZoneDefinitionReader: Sendable {
    /// The definition's observances, or an error naming the definition when it has none usable.
    func observances(of definition: TimeZoneDefinition) throws(Diagnostic) -> [ZoneObservance]
}
