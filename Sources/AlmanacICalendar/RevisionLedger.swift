import AlmanacCore
import AlmanacCalendar

/// Notices, as items stream past, an item written more than once: revisions of one event
/// (RFC 5545 §3.8.7.4) that an export kept beside each other, or a copy. The reader hands every
/// copy on (a conversion keeps what the file holds); expansion takes the newest (`Revisions`).
struct RevisionLedger {
    /// The hash of each item's `Revisions.Key` (a collision between two UIDs would name one
    /// item twice in a warning, not change what is read).
    private var seen = Set<Int>()
    /// Keys written more than once: how often, the first repeat's line and the title.
    private var repeated: [Revisions.Key: (copies: Int, line: Int, title: String)] = [:]
    private var order: [Revisions.Key] = []

    mutating func record(_ item: CalendarItem, line: Int) {
        let key = Revisions.Key(item)
        guard !seen.insert(key.hashValue).inserted else { return }
        if repeated[key] != nil {
            repeated[key]!.copies += 1
        } else {
            repeated[key] = (2, line, item.title)
            order.append(key)
        }
    }

    /// One warning per item written more than once, at the line of its first repeat.
    func diagnostics(fileName: String?) -> [Diagnostic] {
        order.map { key in
            let entry = repeated[key]!
            let which = key.recurrenceID.map { " (RECURRENCE-ID \($0.description))" } ?? ""
            return .warning("ics.revisions", key.uid + which, entry.title, String(entry.copies),
                            at: SourceLocation(file: fileName, line: entry.line))
        }
    }
}
