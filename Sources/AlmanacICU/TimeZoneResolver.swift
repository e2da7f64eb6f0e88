internal import FoundationEssentials

extension TimeZoneID {
    /// How a zone name from a real file was understood.
    public enum Resolution: Hashable, Sendable {
        /// An IANA id or alias (`Asia/Taipei`, `ROC`, `US/Eastern`).
        case iana
        /// A Windows zone id (`Taipei Standard Time`), as Outlook and Exchange write TZIDs.
        case windows
        /// A Windows display name (`(UTC+08:00) Taipei`), matched by its cities and checked against its offset.
        case windowsDisplayName
        /// An IANA id behind a vendor prefix (`/freeassociation.sourceforge.net/Tzfile/Asia/Taipei`).
        case prefixed
        /// A fixed offset (`GMT+08:00`, `UTC+8`), as an `Etc/GMT` zone.
        case fixedOffset
    }

    /// Resolves the zone names real calendar files use: IANA ids and aliases, Windows ids and display
    /// names, vendor-prefixed Olson ids and fixed offsets. Returns nil for names that match nothing
    /// (such as Outlook's `Customized Time Zone`, which only its VTIMEZONE defines).
    public static func resolve(_ name: String) -> (zone: TimeZoneID, resolution: Resolution)? {
        var text = name.trimmingASCIIWhitespace()
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
        guard !text.isEmpty, text.utf8.count <= 256 else { return nil }

        if text.contains("/") || !text.contains(" "), let zone = try? TimeZoneID(text), !text.hasPrefix("/") {
            return (zone, .iana)
        }
        if let zone = try? TimeZoneID(windowsName: text) { return (zone, .windows) }
        if let zone = fixedOffset(text) { return (zone, .fixedOffset) }
        if let zone = displayName(text) { return (zone, .windowsDisplayName) }
        if text.contains("/") {
            // Vendor prefixes: try ever shorter suffixes of the path ("Tzfile/Asia/Taipei", "Asia/Taipei").
            let parts = text.split(separator: "/")
            for start in parts.indices.dropLast() {
                let candidate = parts[start...].joined(separator: "/")
                if let zone = try? TimeZoneID(candidate), candidate.contains("/") || parts.count - start == 1 {
                    return (zone, .prefixed)
                }
            }
        }
        return nil
    }

    /// `GMT+08:00`, `UTC+8`, `UTC-05:30`, `GMT`: whole-hour offsets map to `Etc/GMT∓N`
    /// (POSIX signs are inverted); others are not representable as IANA zones.
    static func fixedOffset(_ text: String) -> TimeZoneID? {
        guard let seconds = offsetSeconds(text, prefixes: ["GMT", "UTC"]) else { return nil }
        if seconds == 0 { return .utc }
        guard seconds % 3600 == 0 else { return nil }
        let hours = seconds / 3600
        return try? TimeZoneID("Etc/GMT" + (hours > 0 ? "-" : "+") + String(abs(hours)))
    }

    /// Parses `PREFIX±H`, `PREFIX±HH:MM` or `PREFIX±HHMM` (and a bare PREFIX) into seconds.
    static func offsetSeconds(_ text: String, prefixes: [String]) -> Int? {
        guard let prefix = prefixes.first(where: { text.uppercased().hasPrefix($0) }) else { return nil }
        let rest = Array(text.dropFirst(prefix.count))
        if rest.isEmpty { return 0 }
        guard let sign = rest.first, sign == "+" || sign == "-" || sign == "−" else { return nil }
        let digits = rest.dropFirst().filter { $0 != ":" }
        guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy(\.isASCII), let value = Int(String(digits)) else { return nil }
        let (hours, minutes) = digits.count <= 2 ? (value, 0) : (value / 100, value % 100)
        guard hours <= 14, minutes < 60 else { return nil }
        return (sign == "+" ? 1 : -1) * (hours * 3600 + minutes * 60)
    }

    /// Windows display names name an offset and some cities: `(UTC+08:00) Taipei`,
    /// `(UTC+08:00) Beijing, Chongqing, Hong Kong, Urumqi`, `(UTC-05:00) Eastern Time (US & Canada)`.
    static func displayName(_ text: String) -> TimeZoneID? {
        guard text.hasPrefix("("), let close = text.firstIndex(of: ")") else { return nil }
        let offsetText = String(text[text.index(after: text.startIndex)..<close])
        guard let offset = offsetSeconds(offsetText, prefixes: ["UTC", "GMT"]) else { return nil }
        let label = String(text[text.index(after: close)...]).trimmingASCIIWhitespace()
        var candidates: [String] = []
        if let known = windowsLabels[label] { candidates.append(known) }
        for city in label.split(separator: ",") {
            let name = String(city).trimmingASCIIWhitespace()
            if let known = windowsLabels[name] { candidates.append(known) }
            let id = name.replacingSpaces()
            candidates += ["Asia", "America", "Europe", "Africa", "Australia", "Pacific", "Atlantic", "Indian"].map { $0 + "/" + id }
        }
        let now = Date.now
        for candidate in candidates {
            guard let zone = try? TimeZoneID(candidate) else { continue }
            // The label's offset is the zone's standard offset; a city that matches a different
            // offset is a different place with the same name.
            if zone.offset(at: now).standardSeconds == offset || zone.standardOffsetInJanuary == offset {
                return zone
            }
        }
        return nil
    }

    /// Display-name labels that are not IANA cities.
    static let windowsLabels: [String: String] = [
        "Coordinated Universal Time": "Etc/UTC",
        "Eastern Time (US & Canada)": "America/New_York",
        "Central Time (US & Canada)": "America/Chicago",
        "Mountain Time (US & Canada)": "America/Denver",
        "Pacific Time (US & Canada)": "America/Los_Angeles",
        "Atlantic Time (Canada)": "America/Halifax",
        "Alaska": "America/Anchorage",
        "Hawaii": "Pacific/Honolulu",
        "Arizona": "America/Phoenix",
        "Beijing": "Asia/Shanghai",
        "Osaka": "Asia/Tokyo",
        "Sapporo": "Asia/Tokyo",
        "Edinburgh": "Europe/London",
        "Brussels": "Europe/Brussels",
        "New Delhi": "Asia/Kolkata",
        "Mumbai": "Asia/Kolkata",
        "Chennai": "Asia/Kolkata",
        "Canberra": "Australia/Sydney",
        "Wellington": "Pacific/Auckland",
    ]

    private var standardOffsetInJanuary: Int {
        offset(at: Date(timeIntervalSince1970: 1_735_689_600)).standardSeconds  // 2025-01-01
    }
}


extension String {
    fileprivate func replacingSpaces() -> String {
        String(map { $0 == " " ? "_" : $0 })
    }
}
