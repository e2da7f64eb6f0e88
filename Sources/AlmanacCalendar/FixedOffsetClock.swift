import AlmanacCore
public import AlmanacICU
public import Foundation

/// A clock a fixed number of seconds ahead of UTC: the clock of a time written with its offset
/// (`2025-11-01T09:30:00+08:00`), which names no zone and so never changes offset.
public struct FixedOffsetClock: WallClock {
    public let seconds: Int

    public init(seconds: Int) { self.seconds = seconds }

    public var name: String { DateValue.offset(CivilDateTime(unchecked: CivilDate(unchecked: 1970, 1, 1), 0, 0, 0), seconds: seconds).description.suffix(6).description }
    public func instant(for time: CivilDateTime) -> Date { Date(timeIntervalSince1970: Double(time.secondsSinceEpoch - seconds)) }
    public func offset(at instant: Date) -> Int { seconds }
}
