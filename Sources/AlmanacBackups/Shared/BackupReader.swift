import AlmanacCore
import AlmanacICU
import Foundation

/// Reads a backup's JSON, checking every field against the format and collecting every problem
/// with its JSON path (`/days/12/date`), instead of stopping at the first.
struct BackupReader {
    let file: String?
    var problems: [Diagnostic] = []

    init(file: String?) { self.file = file }

    func location(_ path: String) -> SourceLocation { SourceLocation(file: file, keyPath: path.isEmpty ? "/" : path) }

    /// An error at a JSON path of the backup (`/days/3/date`).
    mutating func error(_ message: Message, at path: String) {
        problems.append(Diagnostic(.error, message, at: location(path)))
    }

    mutating func warning(_ message: Message, at path: String) {
        problems.append(Diagnostic(.warning, message, at: location(path)))
    }

    static func member(_ object: [(String, JSONValue)], _ key: String) -> JSONValue? {
        // Lengths first (comparing two strings that differ took the slow path of String's ==),
        // each name looked at where it is (a `for` over the members copied each name and value).
        let count = key.utf8.count
        var index = 0
        while index < object.count {
            if object[index].0.utf8.count == count, object[index].0 == key { return object[index].1 }
            index += 1
        }
        return nil
    }

    static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "true/false"
        case .integer, .number: "a number"
        case .string: "text"
        case .array: "a list"
        case .object: "an object"
        }
    }

    /// The object at `path`, reporting unknown fields (kept, with a warning) and wrong types.
    mutating func object(_ value: JSONValue?, _ path: String, fields: BackupFields) -> [(String, JSONValue)]? {
        guard let value else { return nil }
        guard case .object(let members) = value else {
            error(.backupType(expected: "an object", found: Self.typeName(value)), at: path)
            return nil
        }
        var index = 0
        while index < members.count {
            if !fields.contains(members[index].0) { warning(.backupUnknownField(field: members[index].0), at: path + "/" + members[index].0) }
            index += 1
        }
        return members
    }

    mutating func required(_ object: [(String, JSONValue)], _ key: String, _ path: String) -> JSONValue? {
        guard let value = Self.member(object, key), !value.isNull else {
            error(.backupMissing(field: key), at: path + "/" + key)
            return nil
        }
        return value
    }

    mutating func string(_ object: [(String, JSONValue)], _ key: String, _ path: String, required: Bool = true,
                         oneOf choices: [String]? = nil, nonEmpty: Bool = false) -> String? {
        let value = required ? self.required(object, key, path) : Self.member(object, key)
        guard let value, !value.isNull else { return nil }
        guard case .string(let text) = value else {
            error(.backupType(expected: "text", found: Self.typeName(value)), at: path + "/" + key)
            return nil
        }
        if let choices, !choices.contains(text) {
            error(.backupNotOneOf(text: text, choices: choices.joined(separator: ", ")), at: path + "/" + key)
            return nil
        }
        // Blank: nothing but spaces and tabs (Foundation's `.whitespaces`), checked without it;
        // any other ASCII character answers at once, without a Unicode property lookup.
        if nonEmpty && !text.utf8.contains(where: { $0 < ASCII.firstNonASCII && $0 != ASCII.space && $0 != ASCII.tab })
            && text.unicodeScalars.allSatisfy({ $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }) {
            error(.backupEmpty(field: key), at: path + "/" + key)
            return nil
        }
        return text
    }

    mutating func integer(_ object: [(String, JSONValue)], _ key: String, _ path: String, required: Bool = true,
                          range: ClosedRange<Int>? = nil) -> Int? {
        let value = required ? self.required(object, key, path) : Self.member(object, key)
        guard let value, !value.isNull else { return nil }
        guard case .integer(let number) = value else {
            error(.backupType(expected: "a whole number", found: Self.typeName(value)), at: path + "/" + key)
            return nil
        }
        if let range, !range.contains(number) {
            error(.backupOutOfRange(value: String(number), range: "\(range.lowerBound)…\(range.upperBound)"), at: path + "/" + key)
            return nil
        }
        return number
    }

    mutating func bool(_ object: [(String, JSONValue)], _ key: String, _ path: String, default fallback: Bool) -> Bool {
        guard let value = Self.member(object, key), !value.isNull else { return fallback }
        guard case .bool(let flag) = value else {
            error(.backupType(expected: "true or false", found: Self.typeName(value)), at: path + "/" + key)
            return fallback
        }
        return flag
    }

    mutating func date(_ object: [(String, JSONValue)], _ key: String, _ path: String, required: Bool = true) -> CivilDate? {
        guard let text = string(object, key, path, required: required) else { return nil }
        // Ten bytes: a date that reads is ASCII, so bytes are characters (counting characters
        // walked grapheme boundaries).
        guard text.utf8.count == 10, let date = try? CivilDate(iso: text) else {
            error(.backupNotADate(text: text), at: path + "/" + key)
            return nil
        }
        return date
    }

    /// `YYYY-MM-DDTHH:MM:SS` with `Z` or an offset (RFC 3339).
    mutating func timestamp(_ object: [(String, JSONValue)], _ key: String, _ path: String, required: Bool = true) -> String? {
        guard let text = string(object, key, path, required: required) else { return nil }
        guard Self.parseTimestamp(text) != nil else {
            error(.backupNotATimestamp(text: text), at: path + "/" + key)
            return nil
        }
        return text
    }

    /// RFC 3339: `2024-03-02T10:15:00Z`, `…+08:00`, with or without fractional seconds. Parsed by
    /// hand: Foundation's ISO8601DateFormatter builds an ICU formatter per call, which was half
    /// the time of a batch conversion of small files.
    static func parseTimestamp(_ text: String) -> Date? {
        text.withByteView { parseTimestamp(text, bytes: $0) }
    }

    private static func parseTimestamp(_ text: String, bytes: ByteView) -> Date? {
        guard bytes.count >= 20, ASCII.uppercased(bytes[10]) == UInt8(ascii: "T"),
              bytes[13] == ASCII.colon, bytes[16] == ASCII.colon else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            range.upperBound <= bytes.count ? Digits.value(bytes, range.lowerBound, range.upperBound) : nil
        }
        guard let date = try? CivilDate(iso: text.prefix(10)),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              let time = try? CivilDateTime(date: date, hour: hour, minute: minute, second: second) else { return nil }
        var index = 19
        var fraction = 0.0
        if bytes[index] == UInt8(ascii: ".") {
            var scale = 0.1
            index += 1
            let start = index
            while index < bytes.count, ASCII.isDigit(bytes[index]) {
                fraction += Double(bytes[index] - ASCII.zero) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offset = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == bytes.count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == bytes.count, bytes[index + 3] == UInt8(ascii: ":"), let hours = number(index + 1..<index + 3),
                  let minutes = number(index + 4..<index + 6), hours < 24, minutes < 60 else { return nil }
            offset = (hours * 3600 + minutes * 60) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
        default:
            return nil
        }
        return Date(timeIntervalSince1970: Double(time.secondsSinceEpoch - offset) + fraction)
    }

    /// `HH:MM` on a 24-hour clock.
    mutating func time(_ object: [(String, JSONValue)], _ key: String, _ path: String, required: Bool = true) -> String? {
        guard let text = string(object, key, path, required: required) else { return nil }
        guard Self.isTime(text) else {
            error(.backupNotATime(text: text), at: path + "/" + key)
            return nil
        }
        return text
    }

    /// Exactly `HH:MM`, two digits each, 00–23 and 00–59 (splitting at colons let `12::30`,
    /// `:12:30` and `+1:30` pass, and cost more than the rest of a day's check).
    static func isTime(_ text: String) -> Bool {
        text.withByteView { bytes in
            guard bytes.count == 5, bytes[2] == ASCII.colon, let hour = Digits.value(bytes, 0, 2), let minute = Digits.value(bytes, 3, 5) else {
                return false
            }
            return hour <= 23 && minute <= 59
        }
    }

    /// An exact decimal written as text (`"1234567.50"`, `"-3200"`).
    mutating func amount(_ object: [(String, JSONValue)], _ key: String, _ path: String, required: Bool = true) -> Decimal? {
        let value = required ? self.required(object, key, path) : Self.member(object, key)
        guard let value, !value.isNull else { return nil }
        guard case .string(let text) = value else {
            error(.backupAmountNotText(found: Self.typeName(value)), at: path + "/" + key)
            return nil
        }
        guard Self.isDecimal(text), let number = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
            error(.backupNotAnAmount(text: text), at: path + "/" + key)
            return nil
        }
        return number
    }

    static func isDecimal(_ text: String) -> Bool {
        var body = Substring(text)
        if body.hasPrefix("-") { body = body.dropFirst() }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { return false }
        return parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    mutating func array(_ object: [(String, JSONValue)], _ key: String, _ path: String, required: Bool = false) -> [JSONValue] {
        let value = required ? self.required(object, key, path) : Self.member(object, key)
        guard let value, !value.isNull else { return [] }
        guard case .array(let items) = value else {
            error(.backupType(expected: "a list", found: Self.typeName(value)), at: path + "/" + key)
            return []
        }
        return items
    }

    /// `#RRGGBB`.
    mutating func color(_ object: [(String, JSONValue)], _ key: String, _ path: String) -> String? {
        guard let text = string(object, key, path, required: false) else { return nil }
        guard text.count == 7, text.hasPrefix("#"), text.dropFirst().allSatisfy(\.isHexDigit) else {
            error(.backupNotAColor(text: text), at: path + "/" + key)
            return nil
        }
        return text
    }

    /// Ids must be unique within a list: reports the second with the first's path.
    mutating func uniqueIDs(_ ids: [(id: String, path: String)]) {
        // A backup of a small calendar has a handful of ids: compared pairwise, which costs less
        // than hashing each; a dictionary above that.
        if ids.count <= 32 {
            for index in ids.indices {
                if let first = ids[..<index].first(where: { $0.id == ids[index].id }) {
                    error(.backupDuplicateId(id: ids[index].id, firstPath: first.path), at: ids[index].path)
                }
            }
            return
        }
        var seen: [String: String] = [:]
        for (id, path) in ids {
            if let first = seen[id] { error(.backupDuplicateId(id: id, firstPath: first), at: path) } else { seen[id] = path }
        }
    }
}
