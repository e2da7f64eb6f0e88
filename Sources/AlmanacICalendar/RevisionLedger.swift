import AlmanacCore
import AlmanacCalendar

/// Notices, as items stream past, an item written more than once: revisions of one event
/// (RFC 5545 §3.8.7.4) that an export kept beside each other, or a copy. The reader hands every
/// copy on (a conversion keeps what the file holds); expansion takes the newest (`Revisions`).
///
/// Each item leaves a hash of its UID and RECURRENCE-ID and its line, appended in order; the
/// copies are found once, at the end, by sorting the hashes: a set asked about every item cost a
/// tenth of reading a large calendar (its table outgrew the caches), and keeping the UIDs would
/// keep every one of them in memory. A warning therefore names copies by their lines.
struct RevisionLedger {
    private var hashes: [Int] = []
    private var lines: [Int32] = []

    mutating func record(_ item: CalendarItem, line: Int) {
        var hasher = Hasher()
        hasher.combine(item.uid)
        hasher.combine(item.recurrenceID)
        hashes.append(hasher.finalize())
        lines.append(Int32(clamping: line))
    }

    /// One warning per item written more than once, at the line of its first copy, naming the
    /// lines of the others (a collision of two hashes would name two different items so).
    func diagnostics(fileName: String?) -> [Diagnostic] {
        let repeated = Revisions.repeated(hashes)
        guard !repeated.isEmpty else { return [] }
        var copies: [Int: [Int32]] = [:]
        for (hash, line) in zip(hashes, lines) where repeated.contains(hash) { copies[hash, default: []].append(line) }
        return copies.values.sorted { $0[0] < $1[0] }.map { lines in
            let others = lines.dropFirst().prefix(5).map(String.init).joined(separator: ", ") + (lines.count > 6 ? " (+\(lines.count - 6))" : "")
            return .warning(.icsRevisions(count: String(lines.count), lines: others), at: SourceLocation(file: fileName, line: Int(lines[0])))
        }
    }
}
