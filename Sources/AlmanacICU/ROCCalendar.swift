/// The Republic of China (民國) calendar used in Taiwan: Gregorian months and days, years counted
/// from 1912 (民國元年). 2025 is 民國114年.
public enum ROCCalendar {
    /// The ROC year of a Gregorian year: 2025 → 114; years before 1912 are negative ("民國前").
    public static func year(ofGregorianYear year: Int) -> Int {
        year >= 1912 ? year - 1911 : year - 1912
    }

    /// The Gregorian year of an ROC year: 114 → 2025.
    public static func gregorianYear(ofROCYear year: Int) -> Int {
        year > 0 ? year + 1911 : year + 1912
    }

    /// The locale with the ROC calendar selected, for `DateFormat`: `zh_TW@calendar=roc`.
    public static func locale(_ base: LocaleID = .taiwan) -> LocaleID {
        base.setting("calendar", to: "roc")
    }

    /// "民國114年3月5日" (ICU's formatting, so it matches what Taiwanese software prints).
    public static func written(_ date: CivilDate, locale: LocaleID = .taiwan) throws(ICUError) -> String {
        try DateFormat(pattern: "Gy年M月d日", locale: Self.locale(locale)).string(from: date)
    }

    /// Reads "民國114年3月5日" (also "民國114年03月05日").
    public static func parse(_ text: String, locale: LocaleID = .taiwan) throws(ICUError) -> CivilDate {
        try DateFormat(pattern: "Gy年M月d日", locale: Self.locale(locale)).parseDate(text)
    }
}
