import AlmanacCore
import AlmanacICU
import Foundation

/// Times of day as the apps write them.
enum AppTime {
    /// Seconds since midnight of an `HH:mm` time (09:00 when it cannot be read).
    static func seconds(_ time: String) -> Int {
        let parts = time.split(separator: ":").compactMap { Int($0) }
        return parts.count == 2 ? parts[0] * 3600 + parts[1] * 60 : 9 * 3600
    }

    /// `HH:mm`, padded by hand (Foundation's `String(format:)` parses its format at every call).
    static func hoursAndMinutes(_ hours: Int, _ minutes: Int) -> String { pad(hours, 2) + ":" + pad(minutes, 2) }

    /// A time stamp for a backup, in the backup's zone when it has one (`DateValue.timestamp(in:)`).
    static func timestamp(_ value: DateValue?, in zone: TimeZoneID? = nil) -> String? {
        value?.timestamp(in: zone)
    }

    /// The exportedAt of a backup made from other data: the `exported-at` option, else now.
    static func now(_ context: CodecContext) -> String {
        if let fixed = context.options["exported-at"] { return fixed }
        return DateValue.utc(CivilDateTime(secondsSinceEpoch: Int(Date().timeIntervalSince1970))).timestamp()
    }
}

enum WallClockSeconds {
    /// A value as the wall time of `zone`: UTC and zoned times are converted (09:30 in Taipei for
    /// 01:30Z); dates and floating times are already what the clock reads.
    static func local(_ value: DateValue, in zone: TimeZoneID) -> DateValue {
        switch value {
        case .date, .floating: return value
        case .utc, .zoned, .offset:
            guard let instant = try? value.instant(defaultZone: zone) else { return value }
            return .floating(zone.wallTime(at: instant))
        }
    }

    /// Seconds since midnight of a value's wall time (as written, in its own zone).
    static func of(_ value: DateValue) -> Int {
        switch value {
        case .date: 0
        case .floating(let time), .utc(let time), .zoned(let time, _), .offset(let time, _): time.hour * 3600 + time.minute * 60 + time.second
        }
    }
}
