import AlmanacCore

/// The apps' repeat choices (none, daily, weekly, monthly, yearly; a lunar day's in the Chinese
/// calendar) as recurrence rules, and back.
enum AppRepeat {
    /// An app's repeat choice as a rule: a lunar day's yearly or monthly repeat in the Chinese
    /// calendar (RFC 7529), nil for `none`.
    static func rule(_ repeat: String, lunar: RetireTimeBackup.LunarDate?) -> RecurrenceRule? {
        switch (`repeat`, lunar) {
        case ("yearly", let lunar?):
            // RFC 7529: the month (6L for the leap sixth month), the day (-1: the last), and what
            // a year without that day does.
            var rule = RecurrenceRule(frequency: .yearly, scale: "CHINESE")
            rule.byMonth = [RecurrenceRule.Month(lunar.month, isLeap: lunar.leap)]
            rule.byMonthDay = [lunar.day]
            rule.skip = RecurrenceRule.Skip(rawValue: lunar.effectiveSkip.uppercased()) ?? .omit
            return rule
        case ("monthly", let lunar?):
            var rule = RecurrenceRule(frequency: .monthly, scale: "CHINESE")
            rule.byMonthDay = [lunar.day]
            rule.skip = RecurrenceRule.Skip(rawValue: lunar.effectiveSkip.uppercased()) ?? .omit
            return rule
        case ("yearly", nil): return RecurrenceRule(frequency: .yearly)
        case ("monthly", nil): return RecurrenceRule(frequency: .monthly)
        case ("weekly", _): return RecurrenceRule(frequency: .weekly)
        case ("daily", _): return RecurrenceRule(frequency: .daily)
        default: return nil
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
