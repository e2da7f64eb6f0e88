internal import CICUShim

/// Says how far a day is from today in a locale's words: "明天", "3 天後", "in 3 days", "3 days ago".
///
/// Not thread-safe: create one per task.
public final class RelativeDayFormat {
    public enum Width: Int32, Sendable {
        case long = 0, short = 1, narrow = 2
    }

    public enum Unit: Int32, Sendable {
        case second = 0, minute, hour, day, week, month, year
    }

    private let handle: OpaquePointer
    public let locale: LocaleID

    public init(locale: LocaleID, width: Width = .long) throws(ICUError) {
        var status: Int32 = 0
        guard let handle = alm_relative_open(locale.icuIdentifier, width.rawValue, &status), alm_icu_failure(status) == 0
        else { throw ICUError.status(status, .unknownLocale, subject: locale.icuIdentifier) }
        self.handle = handle
        self.locale = locale
    }

    deinit { alm_relative_close(handle) }

    /// `days` from today: named forms where the locale has them ("tomorrow", "後天") unless
    /// `numeric` asks for "in 1 day".
    public func string(days: Int, numeric: Bool = false) -> String {
        string(Double(days), unit: .day, numeric: numeric)
    }

    /// The distance from `date` to `target` ("3 days ago" when `target` is before `date`).
    public func string(from date: CivilDate, to target: CivilDate, numeric: Bool = false) -> String {
        string(days: date.days(until: target), numeric: numeric)
    }

    public func string(_ offset: Double, unit: Unit, numeric: Bool = true) -> String {
        (try? utf16Output(subject: "relative") { buffer, capacity, status in
            alm_relative_format(handle, offset, unit.rawValue, numeric ? 1 : 0, buffer, capacity, &status)
        }) ?? String(offset)
    }
}
