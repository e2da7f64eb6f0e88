public import AlmanacCore

/// Revisions of one calendar item. RFC 5545 §3.8.7.4: an organizer who changes an event sends it
/// again with the same UID and a higher SEQUENCE, and some exports (Thunderbird's, Exchange's) keep
/// the old copies beside the new. The item is its newest revision: the highest SEQUENCE, then the
/// latest DTSTAMP, then the latest LAST-MODIFIED, then the one written last. An override
/// (RECURRENCE-ID) is revised the same way, by UID and the occurrence it replaces.
public enum Revisions {
    /// The item's SEQUENCE, 0 when it has none (RFC 5545's default) or it is not a number.
    public static func sequence(of item: CalendarItem) -> Int {
        guard let written = item.carried.first(where: { $0.name == CarriedName.sequence }) else { return 0 }
        return Int(written.value.trimmingCharacters(in: .whitespaces)) ?? 0
    }

    /// Whether `later`, written after `earlier`, is the newer revision of the same item.
    public static func supersedes(_ later: CalendarItem, _ earlier: CalendarItem) -> Bool {
        let (laterSequence, earlierSequence) = (sequence(of: later), sequence(of: earlier))
        if laterSequence != earlierSequence { return laterSequence > earlierSequence }
        for moment in [\CalendarItem.stamp, \CalendarItem.lastModified] {
            let laterTime = Self.instant(later[keyPath: moment]), earlierTime = Self.instant(earlier[keyPath: moment])
            if laterTime != earlierTime { return laterTime > earlierTime }
        }
        return true
    }

    /// Seconds since 1970 of a UTC time (DTSTAMP and LAST-MODIFIED are written in UTC), else the least.
    private static func instant(_ value: DateValue?) -> Int { value?.utcTime?.secondsSinceEpoch ?? Int.min }

    /// What makes two items revisions of one: the UID and, for an override, the occurrence it replaces.
    public struct Key: Hashable, Sendable {
        public let uid: String
        public let recurrenceID: DateValue?

        public init(_ item: CalendarItem) {
            uid = item.uid
            recurrenceID = item.recurrenceID
        }
    }

    /// The positions of `items` that are not superseded by a later revision, in their order.
    public static func current(_ items: [CalendarItem]) -> [Int] {
        var newest: [Key: Int] = [:]
        newest.reserveCapacity(items.count)
        var superseded = false
        for (index, item) in items.enumerated() {
            let key = Key(item)
            if let known = newest[key] {
                superseded = true
                if supersedes(item, items[known]) { newest[key] = index }
            } else {
                newest[key] = index
            }
        }
        guard superseded else { return Array(items.indices) }
        return newest.values.sorted()
    }

    /// The hashes that occur more than once in `hashes` (of UIDs, of UIDs and RECURRENCE-IDs), found
    /// by sorting a copy: a stream of items keeps a hash each and asks once, at its end.
    public static func repeated(_ hashes: [Int]) -> Set<Int> {
        var repeated = Set<Int>()
        let sorted = hashes.sorted()
        for index in sorted.indices.dropFirst() where sorted[index] == sorted[index - 1] { repeated.insert(sorted[index]) }
        return repeated
    }

    /// The newest of several revisions of one item (given in the order they were written).
    public static func newest(_ revisions: [CalendarItem]) -> CalendarItem? {
        guard var newest = revisions.first else { return nil }
        for revision in revisions.dropFirst() where supersedes(revision, newest) { newest = revision }
        return newest
    }
}
