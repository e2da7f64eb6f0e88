import AlmanacCore

/// The value types of RFC 5545 §3.3, as xCal (RFC 6321) and jCal (RFC 7265) name them.
enum ICalValueType: String {
    case text, date, dateTime = "date-time", duration, recur, integer, float, utcOffset = "utc-offset", period
    case uri, calAddress = "cal-address", boolean, binary, time, unknown

    /// The type of a property's value: its VALUE parameter, else the property's default type.
    static func of(_ name: String, parameters: [CarriedProperty.Parameter], value: String) -> ICalValueType {
        if let explicit = parameters.first(where: { $0.name == "VALUE" })?.values.first?.lowercased(),
           let type = ICalValueType(rawValue: explicit) {
            return type
        }
        switch name {
        case "DTSTART", "DTEND", "DUE", "RECURRENCE-ID", "EXDATE", "RDATE":
            // A DATE written without VALUE=DATE (tolerated on reading) is still a date.
            return value.count == 8 ? .date : .dateTime
        case "COMPLETED", "CREATED", "DTSTAMP", "LAST-MODIFIED": return .dateTime
        case "DURATION", "TRIGGER", CarriedName.estimatedDuration: return .duration
        case "RRULE", "EXRULE": return .recur
        case "PRIORITY", "SEQUENCE", "PERCENT-COMPLETE", "REPEAT": return .integer
        case "GEO": return .float
        case "TZOFFSETFROM", "TZOFFSETTO": return .utcOffset
        case "FREEBUSY": return .period
        case "URL", "TZURL", "ATTACH", "IMAGE", "SOURCE", "CONFERENCE": return .uri
        case "ORGANIZER", "ATTENDEE": return .calAddress
        case let other where other.hasPrefix("X-") || !knownText.contains(other): return .unknown
        default: return .text
        }
    }

    static let knownText: Set<String> = [
        "SUMMARY", "DESCRIPTION", "LOCATION", "COMMENT", "CATEGORIES", "RESOURCES", "STATUS", "CLASS", "TRANSP",
        "UID", "TZID", "TZNAME", "CONTACT", "RELATED-TO", "ACTION", "PRODID", "VERSION", "CALSCALE", "METHOD",
        "NAME", "COLOR", "REQUEST-STATUS",
    ]

    /// Text properties whose value is a comma-separated list (one jCal/xCal value per item).
    static let listProperties: Set<String> = ["CATEGORIES", "RESOURCES", "EXDATE", "RDATE", "FREEBUSY"]
}

/// One value of a property in the structured form xCal and jCal share.
indirect enum StructuredValue: Hashable {
    case string(String)
    case integer(Int)
    case number(Double)
    case boolean(Bool)
    /// A RECUR: parts in order, names lowercase, each with one or more values.
    case recur([(String, [StructuredValue])])
    /// Latitude and longitude.
    case geo(Double, Double)
    /// REQUEST-STATUS: code, description and optional data (RFC 7265 §3.4.1.3, RFC 6321 §3.4.1.3).
    case status([String])

    static func == (lhs: StructuredValue, rhs: StructuredValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.boolean(let a), .boolean(let b)): a == b
        case (.geo(let a, let b), .geo(let c, let d)): a == c && b == d
        case (.status(let a), .status(let b)): a == b
        case (.recur(let a), .recur(let b)): a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        default: false
        }
    }

    func hash(into hasher: inout Hasher) { hasher.combine(String(describing: self)) }
}

/// Conversions between an iCalendar property value (as text) and its structured values.
enum StructuredValues {
    /// The structured values of a property's raw iCalendar value.
    static func values(of value: String, type: ICalValueType, property: String) -> [StructuredValue] {
        if property == "REQUEST-STATUS", type == .text {
            return [.status(splitUnescaped(value, on: ";", maxParts: 3).map(PropertyText.unescape))]
        }
        return items(of: value, property: property).map { item in
            switch type {
            case .text: .string(PropertyText.unescape(item))
            case .date: .string(isoDate(item))
            case .dateTime: .string(isoDateTime(item))
            case .period:
                .string(item.split(separator: "/", maxSplits: 1).enumerated()
                    .map { $0.offset == 0 || $0.element.count >= 15 ? isoDateTime(String($0.element)) : String($0.element) }
                    .joined(separator: "/"))
            // Text that is not a number (the reader warned) is 0 where a number must stand, as
            // ical.js reads it.
            case .integer: .integer(isNumber(item, integer: true) ? Int(item) ?? 0 : 0)
            case .float where property == "GEO":
                geo(item)
            case .float: .number(isNumber(item, integer: false) ? Double(item) ?? 0 : 0)
            case .boolean: .boolean(item.uppercased() == "TRUE")
            case .utcOffset: .string(colonOffset(item))
            case .recur: recur(item)
            case .time: .string(isoTime(item))
            case .duration, .uri, .calAddress, .binary, .unknown: .string(item)
            }
        }
    }

    /// The raw iCalendar value of structured values.
    static func text(of values: [StructuredValue], type: ICalValueType, property: String) -> String {
        values.map { value -> String in
            switch (value, type) {
            case (.string(let text), .text): PropertyText.escape(text)
            case (.string(let text), .date): text.replacingOccurrences(of: "-", with: "")
            case (.string(let text), .dateTime), (.string(let text), .period):
                text.split(separator: "/").map { part in
                    part.contains("T") ? part.filter { $0 != "-" && $0 != ":" } : String(part)
                }.joined(separator: "/")
            case (.string(let text), .utcOffset), (.string(let text), .time): text.replacingOccurrences(of: ":", with: "")
            case (.string(let text), _): text
            case (.integer(let number), _): String(number)
            case (.number(let number), _): ICalendarWriter.number(number)
            case (.boolean(let flag), _): flag ? "TRUE" : "FALSE"
            case (.geo(let latitude, let longitude), _): "\(ICalendarWriter.number(latitude));\(ICalendarWriter.number(longitude))"
            case (.status(let parts), _): parts.map(PropertyText.escape).joined(separator: ";")
            case (.recur(let parts), _):
                parts.map { name, values in
                    name.uppercased() + "=" + values.map { value in
                        switch value {
                        case .string(let text) where name == "until": text.filter { $0 != "-" && $0 != ":" }
                        case .string(let text): text
                        case .integer(let number): String(number)
                        default: ""
                        }
                    }.joined(separator: ",")
                }.joined(separator: ";")
            }
        }.joined(separator: ",")
    }

    static func splitUnescapedCommas(_ value: String) -> [String] { splitUnescaped(value, on: ",") }

    /// The values a property's text holds: one per comma for the list properties, else the whole.
    static func items(of value: String, property: String) -> [String] {
        ICalValueType.listProperties.contains(property) ? splitUnescapedCommas(value) : [value]
    }

    /// RFC 5545 §3.3.8 and §3.3.7: `["+" / "-"] 1*DIGIT`, and for a float `["." 1*DIGIT]` after it.
    static func isNumber(_ text: some StringProtocol, integer: Bool) -> Bool {
        var bytes = Substring(text).utf8[...]
        if let sign = bytes.first, sign == ASCII.plus || sign == ASCII.hyphen { bytes = bytes.dropFirst() }
        let whole = bytes.prefix(while: ASCII.isDigit)
        guard !whole.isEmpty else { return false }
        bytes = bytes.dropFirst(whole.count)
        if bytes.isEmpty { return true }
        guard !integer, bytes.first == ASCII.period else { return false }
        let fraction = bytes.dropFirst()
        return !fraction.isEmpty && fraction.allSatisfy(ASCII.isDigit)
    }

    /// A PERIOD as jCal writes it (RFC 7265 §3.6.9): `[start, end]` or `[start, duration]`.
    static func periodParts(_ text: String) -> [String]? {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        return parts.count == 2 ? parts.map(String.init) : nil
    }

    /// The parts of a value between separators not escaped with a backslash (escapes kept).
    static func splitUnescaped(_ value: String, on separator: Character, maxParts: Int = .max) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaping = false
        for character in value {
            if escaping {
                current.append(character)
                escaping = false
            } else if character == "\\" {
                current.append(character)
                escaping = true
            } else if character == separator, parts.count < maxParts - 1 {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts
    }

    /// `20250305` → `2025-03-05` (other text unchanged).
    static func isoDate(_ basic: String) -> String {
        let utf8 = basic.utf8
        guard utf8.count == 8 else { return basic }
        var bytes = Array(utf8)
        bytes.insert(ASCII.hyphen, at: 6)
        bytes.insert(ASCII.hyphen, at: 4)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `20250305T093000Z` → `2025-03-05T09:30:00Z` (other text unchanged).
    static func isoDateTime(_ basic: String) -> String {
        let utf8 = basic.utf8
        guard utf8.count >= 15 else { return basic }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count + 4)
        for (index, byte) in utf8.enumerated() {
            if index == 4 || index == 6 { bytes.append(ASCII.hyphen) }
            if index == 11 || index == 13 { bytes.append(ASCII.colon) }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `083000` → `08:30:00`, `083000Z` → `08:30:00Z` (RFC 7265 §3.6.7, RFC 6321 §3.6.12; other text unchanged).
    static func isoTime(_ basic: String) -> String {
        let characters = Array(basic)
        guard characters.count == 6 || (characters.count == 7 && (characters[6] == "Z" || characters[6] == "z")),
              characters.prefix(6).allSatisfy(\.isASCII), characters.prefix(6).allSatisfy(\.isNumber) else { return basic }
        return String(characters[0..<2]) + ":" + String(characters[2..<4]) + ":" + String(characters[4...])
    }

    static func colonOffset(_ offset: String) -> String {
        guard offset.count >= 5 else { return offset }
        let characters = Array(offset)
        var text = String(characters[0..<3]) + ":" + String(characters[3..<5])
        if characters.count >= 7 { text += ":" + String(characters[5..<7]) }
        return text
    }

    static func geo(_ value: String) -> StructuredValue {
        let parts = value.split(separator: ";")
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]) else { return .string(value) }
        return .geo(latitude, longitude)
    }

    /// RECUR parts: numbers become integers, UNTIL an ISO date or date-time, the rest strings.
    static func recur(_ value: String) -> StructuredValue {
        var parts: [(String, [StructuredValue])] = []
        for part in value.split(separator: ";") {
            let pieces = part.split(separator: "=", maxSplits: 1)
            guard pieces.count == 2 else { continue }
            let name = pieces[0].lowercased()
            let values = pieces[1].split(separator: ",").map { item -> StructuredValue in
                switch name {
                case "until": .string(item.count == 8 ? isoDate(String(item)) : isoDateTime(String(item)))
                case "count", "interval", "bysecond", "byminute", "byhour", "bymonthday", "byyearday", "byweekno", "bysetpos":
                    Int(item).map(StructuredValue.integer) ?? .string(String(item))
                case "bymonth": Int(item).map(StructuredValue.integer) ?? .string(String(item))  // "6L" stays a string
                default: .string(String(item))
                }
            }
            parts.append((name, values))
        }
        return .recur(parts)
    }
}
