public import AlmanacICU

/// RFC 5545 DATE and DATE-TIME text (§3.3.4, §3.3.5): the form rules (UNTIL), iCalendar and the
/// apps' exports write dates in, read into a `DateValue` kept in the form it was written.
public enum BasicDateTime {
    /// Parses a value with its TZID and VALUE parameters. A TZID on a UTC or DATE value is ignored
    /// (RFC 5545 forbids it; some writers add it anyway).
    public static func parse(_ value: String, tzid: String?, valueType: String? = nil) throws(ICUError) -> DateValue {
        // Dates are ASCII and at most 16 bytes: read from the string's bytes, no allocation.
        let parsed = value.withByteView { Fields($0) }
        return try parse(parsed, tzid: tzid, valueType: valueType) { value }
    }

    /// The same, from the value's UTF-8 bytes (a reader that has not made a string of them).
    package static func parse(_ bytes: ByteView, tzid: String?, valueType: String? = nil) throws(ICUError) -> DateValue {
        try parse(Fields(bytes), tzid: tzid, valueType: valueType) { bytes.string }
    }

    @inline(__always)
    private static func parse(_ parsed: Fields?, tzid: String?, valueType: String?, text: () -> String) throws(ICUError) -> DateValue {
        guard let fields = parsed, valueType != "DATE" || fields.count == 8 else { throw ICUError(.invalidDate, subject: text()) }
        let date = try CivilDate(year: fields.year, month: fields.month, day: fields.day)
        if fields.count == 8 { return .date(date) }
        let time = try CivilDateTime(date: date, hour: fields.hour, minute: fields.minute, second: min(fields.second, 59))
        if fields.utc { return .utc(time) }
        if let tzid, !tzid.isEmpty { return .zoned(time, zone: tzid) }
        return .floating(time)
    }

    /// The numbers of `YYYYMMDD`, `YYYYMMDDTHHMMSS` or `YYYYMMDDTHHMMSSZ`; nil for any other shape.
    private struct Fields {
        var count = 0, year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0
        var utc = false

        init?(_ bytes: ByteView) {
            count = bytes.count
            guard count == 8 || count == 15 || count == 16 else { return nil }
            guard let year = Digits.value(bytes, 0, 4), let month = Digits.value(bytes, 4, 6), let day = Digits.value(bytes, 6, 8) else { return nil }
            (self.year, self.month, self.day) = (year, month, day)
            guard count > 8 else { return }
            guard ASCII.uppercased(bytes[8]) == UInt8(ascii: "T"),
                  let hour = Digits.value(bytes, 9, 11), let minute = Digits.value(bytes, 11, 13), let second = Digits.value(bytes, 13, 15) else { return nil }
            (self.hour, self.minute, self.second) = (hour, minute, second)
            if count == 16 {
                guard ASCII.uppercased(bytes[15]) == UInt8(ascii: "Z") else { return nil }
                utc = true
            }
        }
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
        time.date.basicISO + "T" + pad(time.hour, 2) + pad(time.minute, 2) + pad(time.second, 2)
    }
}
