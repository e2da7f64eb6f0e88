/// The property names the reader maps, recognised from the bytes once per line so that mapping
/// switches on a small integer instead of comparing strings.
enum PropertyKind: UInt8 {
    case other
    case begin, end
    case uid, summary, description, location, geo, dtstart, dtend, due, completed, created, lastModified
    case recurrenceID, duration, rrule, rdate, exdate, categories, color, url, priority, status, dtstamp
    case version, prodid, calscale, name, xWRCalname, xWRTimezone
    case action, trigger, tzid

    static let names: [(String, PropertyKind)] = [
        ("BEGIN", .begin), ("END", .end), ("UID", .uid), ("SUMMARY", .summary), ("DESCRIPTION", .description),
        ("LOCATION", .location), ("GEO", .geo), ("DTSTART", .dtstart), ("DTEND", .dtend), ("DUE", .due),
        ("COMPLETED", .completed), ("CREATED", .created), ("LAST-MODIFIED", .lastModified),
        ("RECURRENCE-ID", .recurrenceID), ("DURATION", .duration), ("RRULE", .rrule), ("RDATE", .rdate),
        ("EXDATE", .exdate), ("CATEGORIES", .categories), ("COLOR", .color), ("URL", .url), ("PRIORITY", .priority),
        ("STATUS", .status), ("DTSTAMP", .dtstamp), ("VERSION", .version), ("PRODID", .prodid), ("CALSCALE", .calscale), ("NAME", .name),
        ("X-WR-CALNAME", .xWRCalname), ("X-WR-TIMEZONE", .xWRTimezone), ("ACTION", .action), ("TRIGGER", .trigger),
        ("TZID", .tzid),
    ]

    /// Names packed as two little-endian words and a length, for a compare without strings.
    private static let table: [(length: Int, low: UInt64, high: UInt64, kind: PropertyKind, name: String)] = names.map { name, kind in
        let bytes = Array(name.utf8)
        return (bytes.count, pack(bytes, 0), pack(bytes, 8), kind, name)
    }

    private static func pack(_ bytes: [UInt8], _ from: Int) -> UInt64 {
        var word: UInt64 = 0
        var index = from
        while index < min(from + 8, bytes.count) {
            word |= UInt64(bytes[index]) << UInt64((index - from) * 8)
            index += 1
        }
        return word
    }

    /// The kind and the canonical (uppercase, shared) name of the name bytes in `buffer[start..<end]`.
    static func classify(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> (PropertyKind, String?) {
        let length = end - start
        guard length <= 16 else { return (.other, nil) }
        var low: UInt64 = 0
        var high: UInt64 = 0
        for index in 0..<length {
            var byte = buffer[start + index]
            if byte >= 0x61 && byte <= 0x7A { byte -= 0x20 }
            if index < 8 { low |= UInt64(byte) << UInt64(index * 8) } else { high |= UInt64(byte) << UInt64((index - 8) * 8) }
        }
        for entry in table where entry.length == length && entry.low == low && entry.high == high {
            return (entry.kind, entry.name)
        }
        return (.other, nil)
    }
}
