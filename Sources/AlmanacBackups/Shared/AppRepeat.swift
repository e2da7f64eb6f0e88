import AlmanacCore

/// The apps' repeat choices (none, daily, weekly, monthly, yearly; a lunar day's in the Chinese
/// calendar) as recurrence rules, and back.
enum AppRepeat {
    /// An app's repeat choice as a rule in the Gregorian calendar, nil for `none`.
    static func rule(_ repeat: String) -> RecurrenceRule? {
        switch `repeat` {
        case "yearly": RecurrenceRule(frequency: .yearly)
        case "monthly": RecurrenceRule(frequency: .monthly)
        case "weekly": RecurrenceRule(frequency: .weekly)
        case "daily": RecurrenceRule(frequency: .daily)
        default: nil
        }
    }

    /// What a rule says in an app's repeat choices, and whether details were lost.
    static func repeatChoice(_ rules: [RecurrenceRule]) -> (choice: String, lunar: Bool, simplified: Bool) {
        guard let rule = rules.first else { return ("none", false, false) }
        let choice = switch rule.frequency {
        case .yearly: "yearly"
        case .monthly: "monthly"
        case .weekly: "weekly"
        case .daily: "daily"
        default: "none"
        }
        // What the apps' choices say: a frequency, in the lunar calendar or not, on a month and day.
        let plain = rule.interval == 1 && rule.count == nil && rule.until == nil && rule.bySecond.isEmpty && rule.byMinute.isEmpty
            && rule.byHour.isEmpty && rule.byDay.isEmpty && rule.byYearDay.isEmpty && rule.byWeekNumber.isEmpty
            && rule.bySetPosition.isEmpty && rule.extensions.isEmpty
        return (choice, rule.isLunar, !plain || rules.count > 1 || choice == "none")
    }
}
