public import AlmanacCore
public import AlmanacICU
#if canImport(Glibc)
import Glibc
#endif

/// RFC 5545 TEXT escaping (§3.3.11): backslash, semicolon, comma and newline.
public enum ICalText {
    public static func unescape(_ value: String) -> String {
        var value = value
        return value.withUTF8 { bytes -> String? in
            guard let base = bytes.baseAddress, memchr(base, 0x5C, bytes.count) != nil else { return nil }
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count)
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                guard byte == 0x5C, index + 1 < bytes.count else {
                    result.append(byte)
                    index += 1
                    continue
                }
                let next = bytes[index + 1]
                switch next {
                case 0x6E, 0x4E: result.append(0x0A)  // \n \N
                case 0x5C, 0x3B, 0x2C, 0x22: result.append(next)  // \\ \; \, \"
                default:
                    // Not a valid escape: keep both characters rather than lose one.
                    result.append(byte)
                    result.append(next)
                }
                index += 2
            }
            return String(decoding: result, as: UTF8.self)
        } ?? value
    }

    public static func escape(_ text: String) -> String {
        let special: (UInt8) -> Bool = { $0 == 0x5C || $0 == 0x3B || $0 == 0x2C || $0 == 0x0A || $0 == 0x0D }
        let needs = text.utf8.withContiguousStorageIfAvailable { $0.contains(where: special) } ?? text.utf8.contains(where: special)
        guard needs else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\n", "\r\n", "\r": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }

    /// Splits a multi-valued TEXT (CATEGORIES, RESOURCES) at unescaped commas, unescaping each part.
    public static func splitList(_ value: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaping = false
        for character in value {
            if escaping {
                current.append("\\")
                current.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "," {
                parts.append(unescape(current))
                current = ""
            } else {
                current.append(character)
            }
        }
        if escaping { current.append("\\") }
        parts.append(unescape(current))
        return parts
    }
}

/// DATE and DATE-TIME values (§3.3.4, §3.3.5), kept in the form they were written.
public enum ICalDateTime {
    /// Parses a value with its TZID and VALUE parameters. A TZID on a UTC or DATE value is ignored
    /// (RFC 5545 forbids it; some writers add it anyway).
    public static func parse(_ value: String, tzid: String?, valueType: String? = nil) throws(ICUError) -> DateValue {
        // Dates are ASCII and at most 16 bytes: read them from a fixed buffer, no allocation.
        var fields = (0, 0, 0, 0, 0, 0, 0)  // count, year, month, day, hour, minute, second
        var utc = false
        var valid = true
        var copy = value
        copy.withUTF8 { bytes in
            let count = bytes.count
            fields.0 = count
            func digits(_ from: Int, _ to: Int) -> Int {
                var number = 0
                for index in from..<to {
                    let byte = bytes[index]
                    guard byte >= 0x30, byte <= 0x39 else { valid = false; return 0 }
                    number = number * 10 + Int(byte - 0x30)
                }
                return number
            }
            guard count == 8 || count == 15 || count == 16 else { valid = false; return }
            fields.1 = digits(0, 4)
            fields.2 = digits(4, 6)
            fields.3 = digits(6, 8)
            guard count > 8 else { return }
            guard bytes[8] == 0x54 || bytes[8] == 0x74 else { valid = false; return }
            fields.4 = digits(9, 11)
            fields.5 = digits(11, 13)
            fields.6 = digits(13, 15)
            if count == 16 {
                guard bytes[15] == 0x5A || bytes[15] == 0x7A else { valid = false; return }
                utc = true
            }
        }
        guard valid, valueType != "DATE" || fields.0 == 8 else { throw ICUError(.invalidDate, subject: value) }
        let date = try CivilDate(year: fields.1, month: fields.2, day: fields.3)
        if fields.0 == 8 { return .date(date) }
        let time = try CivilDateTime(date: date, hour: fields.4, minute: fields.5, second: min(fields.6, 59))
        if utc { return .utc(time) }
        if let tzid, !tzid.isEmpty { return .zoned(time, zone: tzid) }
        return .floating(time)
    }

    /// The value and the parameters that say how to read it (VALUE=DATE, TZID).
    public static func format(_ value: DateValue) -> (parameters: [CarriedProperty.Parameter], text: String) {
        switch value {
        case .date(let date): ([.init(name: "VALUE", values: ["DATE"])], date.basicISO)
        case .floating(let time): ([], basic(time))
        case .zoned(let time, let zone): ([.init(name: "TZID", values: [zone])], basic(time))
        case .utc(let time): ([], basic(time) + "Z")
        }
    }

    static func basic(_ time: CivilDateTime) -> String {
        time.date.basicISO + "T" + twoDigits(time.hour) + twoDigits(time.minute) + twoDigits(time.second)
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0" + String(value) : String(value) }
}

/// A DURATION value (§3.3.6): weeks, or days and a time, with a sign. Days are nominal (a day
/// across a DST change is 23 or 25 hours), the time part exact.
public struct ICalDuration: Hashable, Sendable, CustomStringConvertible {
    public var isNegative: Bool
    public var weeks: Int
    public var days: Int
    public var seconds: Int

    public init(isNegative: Bool = false, weeks: Int = 0, days: Int = 0, seconds: Int = 0) {
        self.isNegative = isNegative
        self.weeks = weeks
        self.days = days
        self.seconds = seconds
    }

    /// Parses `P1D`, `-PT15M`, `P2W`, `P1DT2H30M`, `PT0S`.
    public init(parsing text: String) throws(ICUError) {
        var characters = Substring(text.uppercased())
        var negative = false
        if characters.first == "+" || characters.first == "-" {
            negative = characters.first == "-"
            characters = characters.dropFirst()
        }
        guard characters.first == "P", characters.count > 1 else { throw ICUError(.invalidDate, subject: text) }
        characters = characters.dropFirst()
        var inTime = false
        var number: Int?
        var weeks = 0, days = 0, seconds = 0
        var sawUnit = false
        for character in characters {
            if let digit = character.wholeNumberValue, character.isASCII {
                number = (number ?? 0) * 10 + digit
                guard number! < 100_000_000 else { throw ICUError(.invalidDate, subject: text) }
                continue
            }
            if character == "T" {
                guard !inTime, number == nil else { throw ICUError(.invalidDate, subject: text) }
                inTime = true
                continue
            }
            guard let value = number else { throw ICUError(.invalidDate, subject: text) }
            switch (character, inTime) {
            case ("W", false): weeks += value
            case ("D", false): days += value
            case ("H", true): seconds += value * 3600
            case ("M", true): seconds += value * 60
            case ("S", true): seconds += value
            default: throw ICUError(.invalidDate, subject: text)
            }
            sawUnit = true
            number = nil
        }
        guard sawUnit, number == nil else { throw ICUError(.invalidDate, subject: text) }
        self.init(isNegative: negative, weeks: weeks, days: days, seconds: seconds)
    }

    /// Nominal days (weeks included), signed.
    public var signedDays: Int { (isNegative ? -1 : 1) * (weeks * 7 + days) }
    /// The exact time part, signed.
    public var signedSeconds: Int { (isNegative ? -1 : 1) * seconds }
    /// The whole duration in seconds, counting days as 86,400 s (for alarms and all-day spans).
    public var totalSeconds: Int { signedDays * 86_400 + signedSeconds }

    public init(totalSeconds: Int) {
        let magnitude = abs(totalSeconds)
        if magnitude % 604_800 == 0 && magnitude > 0 {
            self.init(isNegative: totalSeconds < 0, weeks: magnitude / 604_800)
        } else {
            self.init(isNegative: totalSeconds < 0, days: magnitude / 86_400, seconds: magnitude % 86_400)
        }
    }

    public var description: String {
        var text = isNegative ? "-P" : "P"
        if weeks > 0 && days == 0 && seconds == 0 { return text + "\(weeks)W" }
        let allDays = weeks * 7 + days
        if allDays > 0 { text += "\(allDays)D" }
        if seconds > 0 || allDays == 0 {
            text += "T"
            let hours = seconds / 3600, minutes = seconds % 3600 / 60, rest = seconds % 60
            if hours > 0 { text += "\(hours)H" }
            if minutes > 0 { text += "\(minutes)M" }
            if rest > 0 || seconds == 0 { text += "\(rest)S" }
        }
        return text
    }

    /// Adds the duration to a date value: days move the calendar day (keeping the wall time),
    /// seconds move the clock.
    public func added(to value: DateValue) -> DateValue {
        switch value {
        case .date(let date):
            return .date(date.adding(days: signedDays + signedSeconds / 86_400))
        case .floating(let time):
            return .floating(shift(time))
        case .zoned(let time, let zone):
            return .zoned(shift(time), zone: zone)
        case .utc(let time):
            return .utc(shift(time))
        }
    }

    private func shift(_ time: CivilDateTime) -> CivilDateTime {
        CivilDateTime(secondsSinceEpoch: time.secondsSinceEpoch + signedDays * 86_400 + signedSeconds)
    }
}

/// UTC-OFFSET values (§3.3.14): `+0800`, `-0500`, `+053000`.
public enum ICalUTCOffset {
    public static func parse(_ text: String) throws(ICUError) -> Int {
        let bytes = Array(text.utf8)
        guard bytes.count == 5 || bytes.count == 7, bytes[0] == 0x2B || bytes[0] == 0x2D,
              bytes.dropFirst().allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else { throw ICUError(.invalidDate, subject: text) }
        let digits = bytes.dropFirst().map { Int($0 - 0x30) }
        let hours = digits[0] * 10 + digits[1]
        let minutes = digits[2] * 10 + digits[3]
        let seconds = bytes.count == 7 ? digits[4] * 10 + digits[5] : 0
        guard hours < 24, minutes < 60, seconds < 60 else { throw ICUError(.invalidDate, subject: text) }
        return (bytes[0] == 0x2D ? -1 : 1) * (hours * 3600 + minutes * 60 + seconds)
    }

    public static func format(_ seconds: Int) -> String {
        let magnitude = abs(seconds)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var text = (seconds < 0 ? "-" : "+") + two(magnitude / 3600) + two(magnitude % 3600 / 60)
        if magnitude % 60 != 0 { text += two(magnitude % 60) }
        return text
    }
}
