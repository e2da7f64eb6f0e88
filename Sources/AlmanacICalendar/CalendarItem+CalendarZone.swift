import AlmanacCore
import AlmanacICU
import AlmanacCalendar
import Foundation

extension CalendarItem {
    /// x-wr-timezone's conversion: UTC times become wall times in the zone, floating times get the zone.
    mutating func applyCalendarZone(_ clock: ICUWallClock) {
        let zone = clock.zone
        func convert(_ value: DateValue?) -> DateValue? {
            guard let value else { return nil }
            switch value {
            case .utc, .offset:
                let instant = Date(timeIntervalSince1970: Double(value.utcTime!.secondsSinceEpoch))
                return .zoned(clock.wallTime(at: instant), zone: zone.identifier)
            case .floating(let time):
                return .zoned(time, zone: zone.identifier)
            case .date, .zoned:
                return value
            }
        }
        start = convert(start)
        end = convert(end)
        due = convert(due)
        recurrenceID = convert(recurrenceID)
        if var recurrence, !recurrence.dates.isEmpty || !recurrence.periods.isEmpty || !recurrence.exceptions.isEmpty {
            recurrence.dates = recurrence.dates.compactMap(convert)
            recurrence.periods = recurrence.periods.map { Period(start: convert($0.start) ?? $0.start, end: convert($0.end), duration: $0.duration) }
            recurrence.exceptions = recurrence.exceptions.compactMap(convert)
            self.recurrence = recurrence
        }
    }
}
