public import AlmanacICU

/// RFC 5545 DATE and DATE-TIME text (§3.3.4, §3.3.5): the form rules (UNTIL), iCalendar and the
/// apps' exports write dates in, read into a `DateValue` kept in the form it was written.
public enum BasicDateTime {
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
        // RFC 5545 has no numeric offsets: the same instant, in UTC.
        case .offset: ([], basic(value.utcTime!) + "Z")
        }
    }

    public static func basic(_ time: CivilDateTime) -> String {
        time.date.basicISO + "T" + twoDigits(time.hour) + twoDigits(time.minute) + twoDigits(time.second)
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0" + String(value) : String(value) }
}
