import AlmanacCore
public import AlmanacICU
public import Foundation

/// A zone that turns wall times into instants and back: an IANA zone through ICU, or a
/// VTIMEZONE definition from the file, used as given.
public protocol WallClock: Sendable {
    var name: String { get }
    /// The instant a wall time names (gaps read with the offset before them, overlaps as the
    /// first occurrence: RFC 5545 §3.3.5).
    func instant(for time: CivilDateTime) -> Date
    /// The offset from UTC in seconds at an instant.
    func offset(at instant: Date) -> Int
}

extension WallClock {
    public func wallTime(at instant: Date) -> CivilDateTime {
        CivilDateTime(secondsSinceEpoch: Int(instant.timeIntervalSince1970.rounded(.down)) + offset(at: instant))
    }
}
