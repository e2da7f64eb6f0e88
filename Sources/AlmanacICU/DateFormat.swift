internal import CICUShim
public import FoundationEssentials

/// Formats and parses dates and times for a locale and time zone, by CLDR skeleton (`yMMMd`,
/// `yMMMEd`, `jm`), explicit pattern or ICU style.
///
/// Not thread-safe (ICU's formatters keep a mutable calendar): create one per task and reuse it.
public final class DateFormat {
    public enum Style: Int32, Sendable {
        case none = -1, full = 0, long = 1, medium = 2, short = 3
    }

    private let handle: OpaquePointer
    public let locale: LocaleID
    public let timeZone: TimeZoneID

    /// A formatter for a CLDR skeleton: the locale picks order, separators and words
    /// (`yMMMd` is "Mar 5, 2025" in en-US and "2025年3月5日" in zh-TW).
    public convenience init(skeleton: String, locale: LocaleID, timeZone: TimeZoneID = .utc) throws(ICUError) {
        try self.init(pattern: DateFormat.bestPattern(skeleton: skeleton, locale: locale), locale: locale,
                      timeZone: timeZone)
    }

    /// A formatter for an explicit ICU pattern (`y/M/d`, `Gy年M月d日`).
    public init(pattern: String, locale: LocaleID, timeZone: TimeZoneID = .utc) throws(ICUError) {
        try DateFormat.validate(pattern: pattern)
        var status: Int32 = 0
        let handle = try timeZone.identifier.withUTF16 { (zone, zoneCount) throws(ICUError) in
            try pattern.withUTF16 { (units, count) throws(ICUError) in
                alm_date_open_pattern(locale.icuIdentifier, zone, zoneCount, units, count, &status)
            }
        }
        guard let handle, alm_icu_failure(status) == 0 else {
            throw ICUError.status(status, .invalidPattern, subject: pattern)
        }
        self.handle = handle
        self.locale = locale
        self.timeZone = timeZone
    }

    /// A formatter for ICU's date and time styles.
    public init(dateStyle: Style, timeStyle: Style, locale: LocaleID, timeZone: TimeZoneID = .utc) throws(ICUError) {
        var status: Int32 = 0
        let handle = timeZone.identifier.withUTF16Unchecked { zone, zoneCount in
            alm_date_open_style(locale.icuIdentifier, zone, zoneCount, dateStyle.rawValue, timeStyle.rawValue, &status)
        }
        guard let handle, alm_icu_failure(status) == 0 else {
            throw ICUError.status(status, .invalidPattern, subject: "\(dateStyle)/\(timeStyle)")
        }
        self.handle = handle
        self.locale = locale
        self.timeZone = timeZone
    }

    deinit { alm_date_close(handle) }

    /// The pattern in use (what a skeleton resolved to).
    public var pattern: String {
        (try? utf16Output(subject: "pattern") { buffer, capacity, status in
            alm_date_pattern(handle, buffer, capacity, &status)
        }) ?? ""
    }

    /// The text for an instant, in the formatter's zone.
    public func string(from instant: Date) -> String {
        (try? utf16Output(subject: "date") { buffer, capacity, status in
            alm_date_format(handle, instant.icuMillis, buffer, capacity, &status)
        }) ?? ""
    }

    /// The text for a calendar day (no zone shift: the day is shown as itself).
    public func string(from date: CivilDate) -> String {
        string(from: instant(of: CivilDateTime(unchecked: date, 12, 0, 0)))
    }

    /// The text for a wall-clock time (shown as itself in the formatter's zone).
    public func string(from time: CivilDateTime) -> String {
        string(from: instant(of: time))
    }

    private func instant(of time: CivilDateTime) -> Date {
        (try? timeZone.instant(for: time)) ?? Date(timeIntervalSince1970: Double(time.secondsSinceEpoch))
    }

    /// Parses text that must match the pattern completely; the error's offset is where it stopped.
    public func parse(_ text: String) throws(ICUError) -> Date {
        var status: Int32 = 0
        var position: Int32 = 0
        let millis = text.withUTF16Unchecked { units, count in
            alm_date_parse(handle, units, count, &position, &status)
        }
        guard alm_icu_failure(status) == 0 else {
            throw ICUError(.unparseable, subject: text, detail: pattern, offset: Int(position))
        }
        guard Int(position) == text.utf16.count else {
            throw ICUError(.unparseable, subject: text, detail: pattern, offset: Int(position))
        }
        return Date(icuMillis: millis)
    }

    /// Parses text into the calendar day it names in the formatter's zone.
    public func parseDate(_ text: String) throws(ICUError) -> CivilDate {
        timeZone.wallTime(at: try parse(text)).date
    }

    /// ICU accepts any pattern and fails only when formatting; check letters and quotes up front.
    static func validate(pattern: String) throws(ICUError) {
        let letters = Set("GyYuUrQqMLlwWdDFgEecahHKkjJCmsSAzZOvVXxbB".unicodeScalars)
        var quoted = false
        for (offset, scalar) in pattern.unicodeScalars.enumerated() {
            if scalar == "'" {
                quoted.toggle()
            } else if !quoted, ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar), !letters.contains(scalar) {
                throw ICUError(.invalidPattern, subject: pattern, detail: "'\(scalar)' is not a date pattern letter", offset: offset)
            }
        }
        if quoted { throw ICUError(.invalidPattern, subject: pattern, detail: "unterminated quote") }
    }

    // MARK: Skeletons

    private static let patternCache = Locked<[String: String]>([:])

    /// The locale's pattern for a CLDR skeleton (cached: the pattern generator is slow to open).
    public static func bestPattern(skeleton: String, locale: LocaleID) throws(ICUError) -> String {
        let key = locale.icuIdentifier + "\u{0}" + skeleton
        if let cached = patternCache.withLock({ $0[key] }) { return cached }
        let pattern = try skeleton.withUTF16 { (units, count) throws(ICUError) in
            try utf16Output(subject: skeleton, kind: .invalidPattern) { buffer, capacity, status in
                alm_date_best_pattern(locale.icuIdentifier, units, count, buffer, capacity, &status)
            }
        }
        patternCache.withLock { $0[key] = pattern }
        return pattern
    }
}
