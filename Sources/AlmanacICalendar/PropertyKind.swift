import AlmanacCore

/// The property names the reader maps, recognised from the bytes once per line so that mapping
/// switches on a small integer instead of comparing strings.
enum PropertyKind: UInt8, Sendable {
    case other
    case begin, end
    case uid, summary, description, location, geo, dtstart, dtend, due, completed, created, lastModified
    case recurrenceID, duration, rrule, rdate, exdate, categories, color, url, priority, status, dtstamp
    case sequence, version, prodid, calscale, name, xWRCalname, xWRTimezone
    case action, trigger, tzid

    static let names: [(String, PropertyKind)] = [
        ("BEGIN", .begin), ("END", .end), ("UID", .uid), ("SUMMARY", .summary), ("DESCRIPTION", .description),
        ("LOCATION", .location), ("GEO", .geo), ("DTSTART", .dtstart), ("DTEND", .dtend), ("DUE", .due),
        ("COMPLETED", .completed), ("CREATED", .created), ("LAST-MODIFIED", .lastModified),
        ("RECURRENCE-ID", .recurrenceID), ("DURATION", .duration), ("RRULE", .rrule), ("RDATE", .rdate),
        ("EXDATE", .exdate), ("CATEGORIES", .categories), ("COLOR", .color), ("URL", .url), ("PRIORITY", .priority),
        ("STATUS", .status), ("DTSTAMP", .dtstamp), ("SEQUENCE", .sequence), ("VERSION", .version), ("PRODID", .prodid), ("CALSCALE", .calscale), ("NAME", .name),
        ("X-WR-CALNAME", .xWRCalname), ("X-WR-TIMEZONE", .xWRTimezone), ("ACTION", .action), ("TRIGGER", .trigger),
        ("TZID", .tzid),
    ]

    private static let table = PackedNameTable(names)

    /// A property whose value is one date or date-time (read with its TZID and VALUE).
    var isDate: Bool {
        switch self {
        case .dtstart, .dtend, .due, .completed, .created, .lastModified, .dtstamp: true
        default: false
        }
    }

    /// The kind and the canonical (uppercase, shared) name of the name bytes in `buffer[start..<end]`.
    @inline(__always)
    static func classify(_ buffer: ByteView, _ start: Int, _ end: Int) -> (PropertyKind, String?) {
        guard let (kind, name) = table.lookup(buffer, start, end) else { return (.other, nil) }
        return (kind, name)
    }
}
