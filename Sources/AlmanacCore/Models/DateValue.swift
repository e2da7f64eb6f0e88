public import AlmanacICU
public import Foundation

/// A date or time as calendars store it: an all-day date, a floating wall time, a wall time in a
/// named zone, or an instant in UTC. Kept in the form it was written, so an all-day birthday never
/// shifts a day and a 09:00 meeting in Taipei stays 09:00 Taipei.
///
/// The canonical JSON form is one string: `2025-03-05`, `2025-03-05T14:30:00`,
/// `2025-03-05T14:30:00[Asia/Taipei]` (RFC 9557's zone suffix), `2025-03-05T06:30:00Z` or
/// `2025-03-05T14:30:00+08:00` (RFC 3339).
public enum DateValue: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A calendar day (iCalendar VALUE=DATE).
    case date(CivilDate)
    /// A wall time with no zone: the same clock reading wherever the reader is.
    case floating(CivilDateTime)
    /// A wall time in a zone, by the zone's name as the source wrote it (an IANA id once resolved).
    case zoned(CivilDateTime, zone: String)
    /// An instant, written in UTC.
    case utc(CivilDateTime)
    /// An instant written as a wall time and its offset from UTC in seconds (`+08:00`), as the
    /// apps' backups write time stamps: kept so that the offset comes back as it was written.
    case offset(CivilDateTime, seconds: Int)

    public var isAllDay: Bool {
        if case .date = self { return true }
        return false
    }

    /// The calendar day the value falls on where it was written.
    public var day: CivilDate {
        switch self {
        case .date(let date): date
        case .floating(let time), .zoned(let time, _), .utc(let time), .offset(let time, _): time.date
        }
    }

    /// The instant in UTC, for values that name one by themselves (UTC and offset times).
    public var utcTime: CivilDateTime? {
        switch self {
        case .utc(let time): time
        case .offset(let time, let seconds): CivilDateTime(secondsSinceEpoch: time.secondsSinceEpoch - seconds)
        case .date, .floating, .zoned: nil
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
        case .offset(let time, let seconds): return Date(timeIntervalSince1970: Double(time.secondsSinceEpoch - seconds))
        }
    }

    public var description: String {
        switch self {
        case .date(let date): date.description
        case .floating(let time): time.description
        case .zoned(let time, let zone): "\(time)[\(zone)]"
        case .utc(let time): "\(time)Z"
        case .offset(let time, let seconds): "\(time)" + Self.offsetText(seconds)
        }
    }

    /// `+08:00`, `-05:00`, `+05:45`.
    public static func offsetText(_ seconds: Int) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return (seconds < 0 ? "-" : "+") + two(abs(seconds) / 3600) + ":" + two(abs(seconds) % 3600 / 60)
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
        // A numeric offset after the time: `+08:00`.
        var offset: Int?
        if zone == nil, !isUTC, body.count >= 25, let sign = body.dropLast(5).last, sign == "+" || sign == "-" {
            let digits = body.suffix(5)
            guard digits.count == 5, digits[digits.index(digits.startIndex, offsetBy: 2)] == ":",
                  let hours = Int(digits.prefix(2)), let minutes = Int(digits.suffix(2)), hours < 24, minutes < 60
            else { throw ICUError(.invalidDate, subject: text) }
            offset = (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
            body = body.dropLast(6)
        }
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
        if let zone { self = .zoned(time, zone: zone) } else if isUTC { self = .utc(time) } else if let offset {
            self = .offset(time, seconds: offset)
        } else { self = .floating(time) }
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

extension JSONWriter {
    /// A date value in its canonical form (`DateValue.description`) as a JSON string, written
    /// without making a String of it.
    package mutating func string(_ value: DateValue) {
        switch value {
        case .date(let date): isoDate(date.year, date.month, date.day, time: nil)
        case .floating(let time): string(time)
        case .zoned(let time, let zone): string(time, zone: zone)
        case .utc(let time): string(time, suffix: "Z")
        case .offset: string(value.description)
        }
    }

    /// A wall time as `YYYY-MM-DDTHH:MM:SS`, with `suffix` (`Z`) and `zone` in brackets after it.
    package mutating func string(_ time: CivilDateTime, suffix: StaticString = "", zone: String? = nil) {
        let date = time.date
        isoDate(date.year, date.month, date.day, time: (time.hour, time.minute, time.second), suffix: suffix, zone: zone)
    }
}
