import AlmanacCore
import AlmanacICU
import AlmanacCalendar
import Foundation

// Timestamps and amounts as the apps' backups write them.

extension DateValue {
    /// A backup timestamp as written: `…Z` is a UTC time, `2025-11-01T09:30:00+08:00` keeps its
    /// offset, so that a backup read and written again says the same. (Fractions of a second,
    /// which the apps do not write, are not kept.)
    init?(timestamp text: String) {
        guard let instant = BackupReader.parseTimestamp(text) else { return nil }
        let utc = CivilDateTime(secondsSinceEpoch: Int(instant.timeIntervalSince1970.rounded(.down)))
        if text.hasSuffix("Z") || text.hasSuffix("z") {
            self = .utc(utc)
        } else if let seconds = Self.writtenOffset(text) {
            self = .offset(CivilDateTime(secondsSinceEpoch: utc.secondsSinceEpoch + seconds), seconds: seconds)
        } else {
            return nil
        }
    }

    /// The `±HH:MM` at the end of a timestamp, in seconds.
    private static func writtenOffset(_ text: String) -> Int? {
        let tail = Array(text.utf8.suffix(6))
        guard tail.count == 6, tail[0] == UInt8(ascii: "+") || tail[0] == UInt8(ascii: "-"), tail[3] == UInt8(ascii: ":") else { return nil }
        let digits = [tail[1], tail[2], tail[4], tail[5]].map { Int($0) - 48 }
        guard digits.allSatisfy({ (0...9).contains($0) }) else { return nil }
        let seconds = (digits[0] * 10 + digits[1]) * 3600 + (digits[2] * 10 + digits[3]) * 60
        return tail[0] == UInt8(ascii: "-") ? -seconds : seconds
    }

    /// The value as a backup timestamp, the way the apps write them: with the offset of `zone`
    /// (the backup's own zone) when one is given, so that an iCalendar CREATED in UTC comes back
    /// as `2024-03-02T10:15:00+08:00`; an offset time as it was read; a zoned time with its
    /// zone's offset; a floating time or a date in `zone`, else the machine's zone.
    func timestamp(in zone: TimeZoneID? = nil) -> String {
        switch self {
        case .utc(let time):
            guard let zone else { return time.isoTimestamp + "Z" }
            // The offset at that instant: going through the wall time would read a time in the
            // repeated hour of a fall-back night as its first occurrence, an hour early.
            let seconds = ICUWallClock.shared(zone).offset(at: Date(timeIntervalSince1970: Double(time.secondsSinceEpoch)))
            return Self.stamp(CivilDateTime(secondsSinceEpoch: time.secondsSinceEpoch + seconds), offset: seconds)
        case .offset(let time, let seconds): return time.isoTimestamp + (seconds == 0 ? "Z" : Self.offsetText(seconds))
        case .zoned(let time, let name):
            guard let source = TimeZoneID.resolve(name)?.zone else { return Self.withOffset(time, in: zone ?? .system) }
            return Self.withOffset(time, in: source)
        case .floating(let time): return Self.withOffset(time, in: zone ?? .system)
        case .date(let date): return Self.withOffset(CivilDateTime(unchecked: date, 0, 0, 0), in: zone ?? .system)
        }
    }

    /// A wall time of `zone` with the offset it had there (`2025-03-09T02:30` in a gap moves on,
    /// a repeated time is the first). Read from the zone's shared transition table, which answers
    /// as ICU does (a test checks them hour by hour): asking ICU cost three calendar calls per
    /// timestamp, a few per item of a batch.
    private static func withOffset(_ time: CivilDateTime, in zone: TimeZoneID) -> String {
        let clock = ICUWallClock.shared(zone)
        let instant = clock.instant(for: time)
        let seconds = clock.offset(at: instant)
        return stamp(CivilDateTime(secondsSinceEpoch: Int(instant.timeIntervalSince1970) + seconds), offset: seconds)
    }

    private static func stamp(_ wall: CivilDateTime, offset seconds: Int) -> String {
        wall.isoTimestamp + (seconds == 0 ? "Z" : offsetText(seconds))
    }
}

extension CivilDateTime {
    /// `YYYY-MM-DDTHH:MM:SS`.
    var isoTimestamp: String { description }
}

extension Decimal {
    /// The exact text of an amount (`1234567.5`), as backups store it.
    var backupText: String { NSDecimalNumber(decimal: self).description(withLocale: Locale(identifier: "en_US_POSIX")) }
}
