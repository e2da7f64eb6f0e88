import AlmanacCore
public import AlmanacICU
public import Foundation

/// An IANA zone from ICU, with its transitions read once per year into a table.
public final class ICUWallClock: WallClock, @unchecked Sendable {
    public let zone: TimeZoneID
    public var name: String { zone.identifier }
    private let table: TransitionTable

    public init(_ zone: TimeZoneID) {
        self.zone = zone
        self.table = TransitionTable(
            source: { year in
                var result: [TransitionTable.Transition] = []
                let start = CivilDateTime(unchecked: CivilDate(unchecked: year, 1, 1), 0, 0, 0).secondsSinceEpoch
                let end = CivilDateTime(unchecked: CivilDate(unchecked: year + 1, 1, 1), 0, 0, 0).secondsSinceEpoch
                var cursor = Date(timeIntervalSince1970: Double(start - 1))
                while let next = zone.nextTransition(after: cursor), Int(next.timeIntervalSince1970) < end {
                    let seconds = Int(next.timeIntervalSince1970)
                    let before = zone.offset(at: Date(timeIntervalSince1970: Double(seconds - 1))).totalSeconds
                    let after = zone.offset(at: next).totalSeconds
                    if before != after { result.append(.init(instant: seconds, offsetBefore: before, offsetAfter: after)) }
                    cursor = next
                }
                return result
            },
            offsetBefore: { year in
                let start = CivilDateTime(unchecked: CivilDate(unchecked: year, 1, 1), 0, 0, 0).secondsSinceEpoch
                return zone.offset(at: Date(timeIntervalSince1970: Double(start))).totalSeconds
            })
    }

    /// One clock per zone for the whole process: a clock reads its zone's transitions from ICU
    /// the first time a year is asked about, and a batch of a thousand calendars in one zone
    /// need read them only once (the table is filled under a lock, so clocks are shared freely).
    public static func shared(_ zone: TimeZoneID) -> ICUWallClock {
        sharedClocks.withLock { clocks in
            if let clock = clocks[zone.identifier] { return clock }
            let clock = ICUWallClock(zone)
            clocks[zone.identifier] = clock
            return clock
        }
    }

    private static let sharedClocks = Locked<[String: ICUWallClock]>([:])

    public func instant(for time: CivilDateTime) -> Date { Date(timeIntervalSince1970: Double(table.instant(for: time))) }

    public func offset(at instant: Date) -> Int { table.offset(at: Int(instant.timeIntervalSince1970.rounded(.down))) }
}
