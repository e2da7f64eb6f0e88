public import AlmanacICU
public import Foundation

/// A date or time as calendars store it: an all-day date, a floating wall time, a wall time in a
/// named zone, or an instant in UTC. Kept in the form it was written, so an all-day birthday never
/// shifts a day and a 09:00 meeting in Taipei stays 09:00 Taipei.
///
/// The canonical JSON form is one string: `2025-03-05`, `2025-03-05T14:30:00`,
/// `2025-03-05T14:30:00[Asia/Taipei]` (RFC 9557's zone suffix) or `2025-03-05T06:30:00Z`.
public enum DateValue: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A calendar day (iCalendar VALUE=DATE).
    case date(CivilDate)
    /// A wall time with no zone: the same clock reading wherever the reader is.
    case floating(CivilDateTime)
    /// A wall time in a zone, by the zone's name as the source wrote it (an IANA id once resolved).
    case zoned(CivilDateTime, zone: String)
    /// An instant, written in UTC.
    case utc(CivilDateTime)

    public var isAllDay: Bool {
        if case .date = self { return true }
        return false
    }

    /// The calendar day the value falls on where it was written.
    public var day: CivilDate {
        switch self {
        case .date(let date): date
        case .floating(let time), .zoned(let time, _), .utc(let time): time.date
        }
    }

    /// The instant the value names; floating values and dates are read in `zone`.
    public func instant(defaultZone zone: TimeZoneID = .utc) throws(ICUError) -> Date {
        switch self {
        case .date(let date): return try zone.instant(for: CivilDateTime(date: date))
        case .floating(let time): return try zone.instant(for: time)
        case .zoned(let time, let name):
            let resolved = TimeZoneID.resolve(name)?.zone ?? zone
            return try resolved.instant(for: time)
        case .utc(let time): return Date(timeIntervalSince1970: Double(time.secondsSinceEpoch))
        }
    }

    public var description: String {
        switch self {
        case .date(let date): date.description
        case .floating(let time): time.description
        case .zoned(let time, let zone): "\(time)[\(zone)]"
        case .utc(let time): "\(time)Z"
        }
    }

    /// Parses the canonical form.
    public init(parsing text: String) throws(ICUError) {
        if text.count == 10 {
            self = .date(try CivilDate(iso: text))
            return
        }
        var body = Substring(text)
        var zone: String?
        if body.hasSuffix("]"), let open = body.firstIndex(of: "[") {
            zone = String(body[body.index(after: open)..<body.index(before: body.endIndex)])
            body = body[..<open]
        }
        let isUTC = body.hasSuffix("Z")
        if isUTC { body = body.dropLast() }
        let parts = body.split(separator: "T", maxSplits: 1)
        guard parts.count == 2, zone == nil || !isUTC, zone?.isEmpty != true else {
            throw ICUError(.invalidDate, subject: text)
        }
        let date = try CivilDate(iso: parts[0])
        let clock = parts[1].split(separator: ":")
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
              let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2])
        else { throw ICUError(.invalidDate, subject: text) }
        let time = try CivilDateTime(date: date, hour: hour, minute: minute, second: second)
        if let zone { self = .zoned(time, zone: zone) } else if isUTC { self = .utc(time) } else { self = .floating(time) }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(text)\" is not a date or date-time (2025-03-05, 2025-03-05T14:30:00[Asia/Taipei], 2025-03-05T06:30:00Z)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
