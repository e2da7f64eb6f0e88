import AlmanacCore

extension CalendarItem.Field {
    /// The item fields an app's records cannot hold, given those they can (worked out once per
    /// app, not for every item).
    static func unheld(holding: Set<CalendarItem.Field>) -> [CalendarItem.Field] {
        CalendarItem.Field.allCases.filter { !holding.contains($0) }
    }
}
