public import AlmanacICU

/// A DURATION value (§3.3.6): weeks, or days and a time, with a sign. Days are nominal (a day
/// across a DST change is 23 or 25 hours), the time part exact.
public struct CalendarDuration: Hashable, Sendable, CustomStringConvertible {
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
        // Over the UTF-8 bytes, letters in either case, with no uppercased copy: alarms' TRIGGERs
        // are read a hundred thousand times in a large export.
        guard let parsed = text.withByteView(Self.parse) else { throw ICUError(.invalidDate, subject: text) }
        self = parsed
    }

    private static func parse(_ bytes: ByteView) -> CalendarDuration? {
        var index = 0
        var negative = false
        if index < bytes.count, bytes[index] == ASCII.plus || bytes[index] == ASCII.hyphen {
            negative = bytes[index] == ASCII.hyphen
            index += 1
        }
        guard index + 1 < bytes.count, ASCII.uppercased(bytes[index]) == UInt8(ascii: "P") else { return nil }
        index += 1
        var inTime = false
        var number: Int?
        var weeks = 0, days = 0, seconds = 0
        var sawUnit = false
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if ASCII.isDigit(byte) {
                number = (number ?? 0) * 10 + Int(byte - ASCII.zero)
                guard number! < 100_000_000 else { return nil }
                continue
            }
            let letter = ASCII.uppercased(byte)
            if letter == UInt8(ascii: "T") {
                guard !inTime, number == nil else { return nil }
                inTime = true
                continue
            }
            guard let value = number else { return nil }
            switch (letter, inTime) {
            case (UInt8(ascii: "W"), false): weeks += value
            case (UInt8(ascii: "D"), false): days += value
            case (UInt8(ascii: "H"), true): seconds += value * 3600
            case (UInt8(ascii: "M"), true): seconds += value * 60
            case (UInt8(ascii: "S"), true): seconds += value
            default: return nil
            }
            sawUnit = true
            number = nil
        }
        guard sawUnit, number == nil else { return nil }
        return CalendarDuration(isNegative: negative, weeks: weeks, days: days, seconds: seconds)
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
        case .offset(let time, let seconds):
            return .offset(shift(time), seconds: seconds)
        }
    }

    private func shift(_ time: CivilDateTime) -> CivilDateTime {
        CivilDateTime(secondsSinceEpoch: time.secondsSinceEpoch + signedDays * 86_400 + signedSeconds)
    }
}
