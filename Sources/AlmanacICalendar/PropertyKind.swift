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

    /// Names packed as two little-endian words (zero-padded, so the words alone tell names apart),
    /// placed in 128 slots by a multiplicative hash chosen so that no two names share a slot: a
    /// line's name is one multiply and one compare away from its kind.
    private struct Table {
        struct Slot {
            var low: UInt64 = 0
            var high: UInt64 = 0
            var kind = PropertyKind.other
            var name: String?
        }
        var multiplier: UInt64 = 0
        var slots: [Slot] = []

        @inline(__always)
        static func index(_ low: UInt64, _ high: UInt64, _ multiplier: UInt64) -> Int {
            Int(truncatingIfNeeded: ((low ^ (high &* 0x9E37_79B9_7F4A_7C15)) &* multiplier) >> 57)
        }
    }

    private static let table: Table = {
        // A fixed sequence of odd multipliers: the first without a collision is found in a few
        // dozen tries (33 names in 128 slots), the same one every run.
        var candidate: UInt64 = 0x2545_F491_4F6C_DD1D
        while true {
            candidate = candidate &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let multiplier = candidate | 1
            var slots = Array(repeating: Table.Slot(), count: 128)
            var placed = true
            for (name, kind) in names {
                let bytes = Array(name.utf8)
                let low = pack(bytes, 0), high = pack(bytes, 8)
                let index = Table.index(low, high, multiplier)
                if slots[index].name != nil {
                    placed = false
                    break
                }
                slots[index] = Table.Slot(low: low, high: high, kind: kind, name: name)
            }
            if placed { return Table(multiplier: multiplier, slots: slots) }
        }
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

    /// The kind and the canonical (uppercase, shared) name of the name bytes in `buffer[start..<end]`,
    /// which are letters, digits and dashes (as the parser's name loop admits them).
    static func classify(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> (PropertyKind, String?) {
        let length = end - start
        guard length <= 16 else { return (.other, nil) }
        var low: UInt64 = 0
        var high: UInt64 = 0
        if start + 16 <= buffer.count, let base = buffer.baseAddress {
            // Two word loads (bytes past the name, still inside the buffer, are masked off), and
            // uppercase in one step: of letters, digits and dash, only lowercase letters have both
            // 0x40 and 0x20 set, so clearing 0x20 where 0x40 is set uppercases exactly them.
            low = UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self)
            high = UnsafeRawPointer(base + start + 8).loadUnaligned(as: UInt64.self)
            low = length >= 8 ? low : low & ((1 << UInt64(length &* 8)) &- 1)
            high = length >= 16 ? high : length <= 8 ? 0 : high & ((1 << UInt64((length &- 8) &* 8)) &- 1)
            let fortyBits: UInt64 = 0x4040_4040_4040_4040
            low &= ~((low & fortyBits) >> 1)
            high &= ~((high & fortyBits) >> 1)
        } else {
            for index in 0..<length {
                var byte = buffer[start + index]
                if byte >= 0x61 && byte <= 0x7A { byte -= 0x20 }
                if index < 8 { low |= UInt64(byte) << UInt64(index * 8) } else { high |= UInt64(byte) << UInt64((index - 8) * 8) }
            }
        }
        let table = Self.table
        let slot = table.slots[Table.index(low, high, table.multiplier)]
        return slot.low == low && slot.high == high ? (slot.kind, slot.name) : (.other, nil)
    }
}
