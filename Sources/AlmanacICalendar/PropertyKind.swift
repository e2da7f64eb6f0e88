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

    /// Names packed as two little-endian words, for a compare without strings, grouped by length
    /// (at most six names share one), so a line compares against its length's names only.
    private static let table: [[(low: UInt64, high: UInt64, kind: PropertyKind, name: String)]] = {
        var byLength = Array(repeating: [(low: UInt64, high: UInt64, kind: PropertyKind, name: String)](), count: 17)
        for (name, kind) in names {
            let bytes = Array(name.utf8)
            byLength[bytes.count].append((pack(bytes, 0), pack(bytes, 8), kind, name))
        }
        return byLength
    }()

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
        var packed = PackedName()
        for index in start..<end { packed.add(buffer[index]) }
        return classify(packed)
    }

    /// A name's first 16 bytes, uppercased and packed as the table packs them, built a byte at a
    /// time by a loop that reads the name anyway (the parser's).
    struct PackedName {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var length = 0

        @inline(__always)
        mutating func add(_ byte: UInt8) {
            let upper = UInt64(byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte)
            if length < 8 {
                low |= upper << UInt64(length &* 8)
            } else if length < 16 {
                high |= upper << UInt64((length &- 8) &* 8)
            }
            length &+= 1
        }
    }

    static func classify(_ packed: PackedName) -> (PropertyKind, String?) {
        let length = packed.length, low = packed.low, high = packed.high
        guard length <= 16 else { return (.other, nil) }
        for entry in table[length] where entry.low == low && entry.high == high {
            return (entry.kind, entry.name)
        }
        return (.other, nil)
    }
}
