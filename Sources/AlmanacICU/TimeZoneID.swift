internal import CICUShim
public import FoundationEssentials

/// An IANA time zone known to ICU, in canonical form (`Asia/Taipei`; the alias `ROC` becomes
/// `Asia/Taipei`, `Asia/Chongqing` becomes `Asia/Shanghai`).
public struct TimeZoneID: Hashable, Sendable, Codable, CustomStringConvertible {
    public let identifier: String

    public init(_ identifier: String) throws(ICUError) {
        var isSystem: Int32 = 0
        let canonical = try identifier.withUTF16 { (units, count) throws(ICUError) in
            try utf16Output(subject: identifier, kind: .unknownTimeZone) { buffer, capacity, status in
                alm_tz_canonical(units, count, buffer, capacity, &isSystem, &status)
            }
        }
        guard isSystem != 0, !canonical.isEmpty, canonical != "Etc/Unknown" else {
            throw ICUError(.unknownTimeZone, subject: identifier)
        }
        self.identifier = canonical
    }

    init(canonical: String) { self.identifier = canonical }

    /// Whether this is UTC under one of its names (no offsets, no transitions: no ICU needed).
    var isUTC: Bool {
        switch identifier {
        case "Etc/UTC", "UTC", "Etc/GMT", "GMT", "Etc/UCT", "UCT", "Etc/Universal", "Universal", "Etc/Zulu", "Zulu", "Etc/GMT0", "GMT0":
            true
        default: false
        }
    }

    public static let utc = TimeZoneID(canonical: "Etc/UTC")
    public static let taipei = TimeZoneID(canonical: "Asia/Taipei")
    public static let shanghai = TimeZoneID(canonical: "Asia/Shanghai")
    public static let newYork = TimeZoneID(canonical: "America/New_York")

    /// The IANA zone for a Windows zone name (`Taipei Standard Time`), for a region (`TW`) or the
    /// zone's default region when `region` is nil.
    public init(windowsName: String, region: String? = nil) throws(ICUError) {
        let zone = try windowsName.withUTF16 { (units, count) throws(ICUError) in
            try utf16Output(subject: windowsName, kind: .unknownTimeZone) { buffer, capacity, status in
                alm_tz_from_windows(units, count, region ?? "001", buffer, capacity, &status)
            }
        }
        guard !zone.isEmpty else { throw ICUError(.unknownTimeZone, subject: windowsName) }
        self.init(canonical: zone)
    }

    /// The Windows name of this zone (`Taipei Standard Time`), if Windows has one.
    public var windowsName: String? {
        let name = try? identifier.withUTF16 { (units, count) throws(ICUError) in
            try utf16Output(subject: identifier) { buffer, capacity, status in
                alm_tz_to_windows(units, count, buffer, capacity, &status)
            }
        }
        return name?.isEmpty == false ? name : nil
    }

    /// Every canonical IANA zone ICU knows.
    public static var all: [TimeZoneID] {
        var status: Int32 = 0
        return collect(alm_tz_all(&status)).map(TimeZoneID.init(canonical:))
    }

    public var description: String { identifier }

    /// The zone's offset from UTC at an instant, daylight saving included.
    public func offset(at instant: Date) -> Offset {
        if isUTC { return Offset(standardSeconds: 0, daylightSeconds: 0) }
        var raw: Int32 = 0
        var dst: Int32 = 0
        var status: Int32 = 0
        _ = identifier.withUTF16Unchecked { units, count in
            alm_tz_offsets(units, count, instant.icuMillis, &raw, &dst, &status)
        }
        return Offset(standardSeconds: Int(raw) / 1000, daylightSeconds: Int(dst) / 1000)
    }

    /// The zone's offsets at an instant, in seconds.
    public struct Offset: Hashable, Sendable, CustomStringConvertible {
        public let standardSeconds: Int
        public let daylightSeconds: Int
        public var totalSeconds: Int { standardSeconds + daylightSeconds }
        public var isDaylightSaving: Bool { daylightSeconds != 0 }

        /// `+08:00`, `-04:00`, `+05:45`.
        public var description: String { Offset.format(totalSeconds, separator: ":") }

        /// `+0800`, as iCalendar writes TZOFFSETFROM/TZOFFSETTO.
        public var basic: String { Offset.format(totalSeconds, separator: "") }

        static func format(_ seconds: Int, separator: String) -> String {
            let sign = seconds < 0 ? "-" : "+"
            let magnitude = abs(seconds)
            var text = sign + pad(magnitude / 3600, 2) + separator + pad(magnitude % 3600 / 60, 2)
            if magnitude % 60 != 0 { text += separator + pad(magnitude % 60, 2) }
            return text
        }
    }

    /// The first offset change strictly after `instant`, or nil when the zone has no more.
    public func nextTransition(after instant: Date) -> Date? {
        var found: Int32 = 0
        var status: Int32 = 0
        let millis = identifier.withUTF16Unchecked { units, count in
            alm_tz_next_transition(units, count, instant.icuMillis, &found, &status)
        }
        guard found != 0, alm_icu_failure(status) == 0 else { return nil }
        return Date(icuMillis: millis)
    }

    /// The zone's name in a locale ("台北標準時間", "China Standard Time").
    public func displayName(in locale: LocaleID, daylight: Bool = false) -> String {
        (try? identifier.withUTF16 { (units, count) throws(ICUError) in
            try utf16Output(subject: identifier) { buffer, capacity, status in
                alm_tz_display_name(units, count, locale.icuIdentifier, daylight ? 1 : 0, buffer, capacity, &status)
            }
        }) ?? identifier
    }

    // MARK: Wall time

    /// What to do with a wall-clock time that a daylight-saving change skips (02:30 on the night
    /// clocks jump from 02:00 to 03:00).
    public enum GapPolicy: Sendable {
        /// Read it with the offset in force before the gap: 02:30 becomes 03:30 (RFC 5545 §3.3.5).
        case shiftForward
        /// The first valid time after the gap: 03:00.
        case nextValidTime
        /// Read it with the offset in force after the gap: 02:30 becomes 01:30.
        case shiftBackward
        /// Throw `nonexistentTime`.
        case reject
    }

    /// What to do with a wall-clock time that happens twice (01:30 on the night clocks fall back).
    public enum OverlapPolicy: Sendable {
        /// The first occurrence, still on daylight time (RFC 5545 §3.3.5).
        case earlier
        /// The second occurrence.
        case later
        /// Throw `ambiguousTime`.
        case reject
    }

    /// How a wall-clock time relates to the zone's transitions.
    public enum WallTimeKind: Hashable, Sendable {
        case normal
        /// Skipped by a transition (in a gap).
        case skipped
        /// Happens twice (in an overlap).
        case repeated
    }

    /// The instant a wall clock in this zone shows `time`, with explicit policies for gaps and overlaps.
    public func instant(
        for time: CivilDateTime, gap: GapPolicy = .shiftForward, overlap: OverlapPolicy = .earlier
    ) throws(ICUError) -> Date {
        // UTC has no gaps or overlaps; days shown "as themselves" are formatted there, often.
        if isUTC { return Date(timeIntervalSince1970: Double(time.secondsSinceEpoch)) }
        let (kind, ordinary) = classify(time)
        // An ordinary time's instant is the one both readings agreed on: not asked of ICU again.
        if let ordinary { return ordinary }
        switch (kind, gap, overlap) {
        case (.skipped, .reject, _):
            throw ICUError(.nonexistentTime, subject: "\(time) \(identifier)")
        case (.repeated, _, .reject):
            throw ICUError(.ambiguousTime, subject: "\(time) \(identifier)")
        case (.skipped, _, _):
            let option: Int32 = switch gap {
            case .shiftForward, .reject: 0
            case .shiftBackward: 1
            case .nextValidTime: 2
            }
            return try wallToInstant(time, skipped: option, repeated: 0)
        case (.repeated, _, _):
            return try wallToInstant(time, skipped: 0, repeated: overlap == .later ? 1 : 0)
        case (.normal, _, _):
            return try wallToInstant(time, skipped: 0, repeated: 0)
        }
    }

    /// Whether a wall-clock time is skipped, repeated or ordinary in this zone.
    public func wallTimeKind(_ time: CivilDateTime) -> WallTimeKind {
        if isUTC { return .normal }
        return classify(time).kind
    }

    /// The kind of a wall time, read with the earlier and the later offset; for an ordinary time
    /// (both readings agree) also its instant.
    private func classify(_ time: CivilDateTime) -> (kind: WallTimeKind, ordinary: Date?) {
        guard let before = try? wallToInstant(time, skipped: 0, repeated: 0),
              let after = try? wallToInstant(time, skipped: 1, repeated: 1)
        else { return (.normal, nil) }
        if before == after { return (.normal, before) }
        // In an overlap both readings show the same wall time again; in a gap neither does.
        return (wallTime(at: before) == time ? .repeated : .skipped, nil)
    }

    /// The wall-clock time this zone shows at an instant.
    public func wallTime(at instant: Date) -> CivilDateTime {
        let seconds = Int((instant.timeIntervalSince1970).rounded(.down))
        return CivilDateTime(secondsSinceEpoch: seconds + offset(at: instant).totalSeconds)
    }

    private func wallToInstant(_ time: CivilDateTime, skipped: Int32, repeated: Int32) throws(ICUError) -> Date {
        var status: Int32 = 0
        let millis = identifier.withUTF16Unchecked { units, count in
            alm_tz_wall_to_millis(units, count, Int32(time.date.year), Int32(time.date.month), Int32(time.date.day),
                                  Int32(time.hour), Int32(time.minute), Int32(time.second), 0, skipped, repeated,
                                  &status)
        }
        try check(status, .invalidDate, subject: "\(time) \(identifier)")
        return Date(icuMillis: millis)
    }
}

extension Date {
    /// ICU's UDate: milliseconds since the epoch as a double.
    var icuMillis: Double { (timeIntervalSince1970 * 1000).rounded() }
    init(icuMillis: Double) { self.init(timeIntervalSince1970: icuMillis / 1000) }
}
