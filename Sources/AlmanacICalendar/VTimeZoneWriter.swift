import AlmanacCore
public import AlmanacICU
import AlmanacCalendar
import Foundation

/// Writes VTIMEZONE definitions for IANA zones from ICU's data: each run of yearly transitions
/// that follow one pattern (month, nth weekday, time) becomes one observance with an RRULE.
public enum VTimeZoneWriter {
    public static func definition(for zone: TimeZoneID, id: String, years: ClosedRange<Int>) -> String {
        struct Change {
            let local: CivilDateTime
            let from: Int
            let to: Int
            let daylight: Bool
            var pattern: String {
                let date = local.date
                let length = CivilDate.daysInMonth(year: date.year, month: date.month)
                let nth = date.day + 7 > length ? -1 : (date.day - 1) / 7 + 1
                return "\(daylight)|\(date.month)|\(nth)|\(date.isoWeekday)|\(local.hour):\(local.minute)|\(from)|\(to)"
            }
        }
        var changes: [Change] = []
        var instant = Date(timeIntervalSince1970: Double(CivilDateTime(unchecked: CivilDate(unchecked: years.lowerBound, 1, 1), 0, 0, 0).secondsSinceEpoch))
        let end = Date(timeIntervalSince1970: Double(CivilDateTime(unchecked: CivilDate(unchecked: years.upperBound, 12, 31), 23, 59, 59).secondsSinceEpoch))
        var before = zone.offset(at: instant)
        while let next = zone.nextTransition(after: instant), next <= end {
            let after = zone.offset(at: next)
            if after.totalSeconds != before.totalSeconds || after.isDaylightSaving != before.isDaylightSaving {
                let local = CivilDateTime(secondsSinceEpoch: Int(next.timeIntervalSince1970) + before.totalSeconds)
                changes.append(Change(local: local, from: before.totalSeconds, to: after.totalSeconds, daylight: after.isDaylightSaving))
            }
            before = after
            instant = next
        }
        // X-LIC-LOCATION marks the definition as a well-known zone (libical's convention).
        var lines = ["BEGIN:VTIMEZONE", "TZID:" + id, "X-LIC-LOCATION:" + zone.identifier]
        if changes.isEmpty {
            let offset = UTCOffset.format(before.totalSeconds)
            lines += ["BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:" + offset, "TZOFFSETTO:" + offset, "END:STANDARD"]
        } else {
            // A change that repeats yearly with one pattern (month, nth weekday, time, offsets)
            // becomes one observance with an RRULE; the rest are single onsets.
            var used = [Bool](repeating: false, count: changes.count)
            for index in changes.indices where !used[index] {
                used[index] = true
                let first = changes[index]
                var last = index
                var probe = index + 1
                while probe < changes.count {
                    let year = changes[probe].local.date.year
                    if year > changes[last].local.date.year + 1 { break }
                    if !used[probe], changes[probe].pattern == first.pattern, year == changes[last].local.date.year + 1 {
                        used[probe] = true
                        last = probe
                    }
                    probe += 1
                }
                let kind = first.daylight ? "DAYLIGHT" : "STANDARD"
                lines += ["BEGIN:" + kind, "DTSTART:" + BasicDateTime.basic(first.local),
                          "TZOFFSETFROM:" + UTCOffset.format(first.from), "TZOFFSETTO:" + UTCOffset.format(first.to)]
                if last > index {
                    let date = first.local.date
                    let length = CivilDate.daysInMonth(year: date.year, month: date.month)
                    let nth = date.day + 7 > length ? -1 : (date.day - 1) / 7 + 1
                    var rule = "FREQ=YEARLY;BYMONTH=\(date.month);BYDAY=\(nth)\(RecurrenceRule.Weekday.codes[date.isoWeekday - 1])"
                    let final = changes[last]
                    // A pattern still followed in the last year written is taken to continue.
                    if final.local.date.year < years.upperBound {
                        rule += ";UNTIL=" + BasicDateTime.basic(CivilDateTime(secondsSinceEpoch: final.local.secondsSinceEpoch - final.from)) + "Z"
                    }
                    lines.append("RRULE:" + rule)
                }
                lines.append("END:" + kind)
            }
        }
        lines.append("END:VTIMEZONE")
        return lines.joined(separator: "\n")
    }
}
