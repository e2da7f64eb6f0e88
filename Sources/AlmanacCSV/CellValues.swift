import AlmanacCore
public import AlmanacICU
public import Foundation

/// Reads the dates, times and amounts people type into spreadsheets: ISO dates, the locale's own
/// short and long forms (2025/3/5, 2025年3月5日, 民國114年3月5日, 3/5/2025 with en-US), amounts
/// with symbols and separators (NT$1,234, $1,234.50, 1,234元, (1,234)).
public struct CellReader {
    public let locale: LocaleID?
    /// Whether the region writes the month before the day (3/5/2025 is March 5 in en-US).
    let monthFirst: Bool
    let formats: Formats

    /// Formatters are made once per reader, on first use: most files never need them.
    final class Formats: @unchecked Sendable {
        let locale: LocaleID?
        init(locale: LocaleID?) { self.locale = locale }
        lazy var longForms: [DateFormat] = locale.map { locale in
            ["yMMMd", "yMMMMd", "yMd"].compactMap { try? DateFormat(skeleton: $0, locale: locale) }
        } ?? []
        lazy var commaDecimal: Bool = locale.map { (try? NumberFormat.decimal(locale: $0).string(Decimal(string: "1.5")!)) == "1,5" } ?? false
    }

    public init(locale: LocaleID?) {
        self.locale = locale
        self.monthFirst = locale.map(Self.monthFirst) ?? true
        self.formats = Formats(locale: locale)
    }

    public enum Problem: Error, Equatable {
        case notADate
        /// A form like 3/5/2025 that reads differently in different regions: a locale decides.
        case ambiguousDate
        case notATime
        case notAnAmount
    }

    // MARK: Dates

    public func date(_ text: String) -> Result<CivilDate, Problem> {
        let value = Self.trimmed(Self.normalizedDigits(text))
        if value.isEmpty { return .failure(.notADate) }
        if let shape = DateShape(value) {
            switch shape {
            case .yearFirst(let year, let month, let day): return Self.civil(year, month, day)
            case .roc(let year, let month, let day): return Self.civil(ROCCalendar.gregorianYear(ofROCYear: year), month, day)
            case .yearLast(let first, let second, let year):
                // Day and month first: the locale decides which is which.
                guard locale != nil else {
                    // Unambiguous only when one of them cannot be a month.
                    if first > 12 { return Self.civil(year, second, first) }
                    if second > 12 { return Self.civil(year, first, second) }
                    return .failure(.ambiguousDate)
                }
                return monthFirst ? Self.civil(year, first, second) : Self.civil(year, second, first)
            }
        }
        // The locale's own long forms ("Mar 5, 2025", "5 March 2025").
        for format in formats.longForms {
            if let date = try? format.parseDate(value) { return .success(date) }
        }
        return .failure(.notADate)
    }

    /// The numeric date forms, read by hand (this runs once per cell of a million-row file).
    enum DateShape: Equatable {
        /// 2025-03-05, 2025/3/5, 2025.3.5, 20250305, 2025年3月5日.
        case yearFirst(Int, Int, Int)
        /// 民國114年3月5日, 民國114/3/5.
        case roc(Int, Int, Int)
        /// 3/5/2025, 5.3.2025: which is the month depends on the region.
        case yearLast(Int, Int, Int)

        init?(_ text: String) {
            guard let shape = text.withByteView({ DateShape(utf8: $0) }) else { return nil }
            self = shape
        }

        private init?(utf8 bytes: ByteView) {
            var index = 0
            var roc = false
            // 民國 or 民国: the era's name first.
            if bytes.count > 6, bytes.matches(0, 6, "民國") || bytes.matches(0, 6, "民国") {
                roc = true
                index = 6
            }
            func skipSpaces() { if roc { while index < bytes.count, bytes[index] == ASCII.space { index += 1 } } }
            func number() -> (value: Int, digits: Int)? {
                skipSpaces()
                var value = 0
                var digits = 0
                while index < bytes.count, ASCII.isDigit(bytes[index]), digits < 9 {
                    value = value * 10 + Int(bytes[index] - ASCII.zero)
                    digits += 1
                    index += 1
                }
                return digits > 0 ? (value, digits) : nil
            }
            // One of - / . or, where CJK marks are allowed, the mark given (年, 月).
            func separator(cjk mark: StaticString?) -> Bool {
                skipSpaces()
                guard index < bytes.count else { return false }
                let byte = bytes[index]
                if byte == ASCII.hyphen || byte == ASCII.slash || byte == ASCII.period {
                    index += 1
                    return true
                }
                if let mark, bytes.matches(index, min(index + mark.utf8CodeUnitCount, bytes.count), mark) {
                    index += mark.utf8CodeUnitCount
                    return true
                }
                return false
            }
            guard let first = number() else { return nil }
            if !roc, first.digits == 8, index == bytes.count {
                self = .yearFirst(first.value / 10000, first.value / 100 % 100, first.value % 100)
                return
            }
            let cjk = roc || first.digits == 4
            guard separator(cjk: cjk ? "年" : nil), let second = number(), second.digits <= 2,
                  separator(cjk: cjk ? "月" : nil), let third = number()
            else { return nil }
            skipSpaces()
            if cjk, bytes.matches(index, min(index + 3, bytes.count), "日") { index += 3 }
            skipSpaces()
            guard index == bytes.count else { return nil }
            if roc {
                guard first.digits <= 3, third.digits <= 2 else { return nil }
                self = .roc(first.value, second.value, third.value)
            } else if first.digits == 4 {
                guard third.digits <= 2 else { return nil }
                self = .yearFirst(first.value, second.value, third.value)
            } else {
                guard first.digits <= 2, third.digits == 4 else { return nil }
                self = .yearLast(first.value, second.value, third.value)
            }
        }
    }

    static func monthFirst(_ locale: LocaleID) -> Bool {
        let pattern = (try? DateFormat.bestPattern(skeleton: "yMd", locale: locale)) ?? "M/d/y"
        guard let month = pattern.firstIndex(of: "M"), let day = pattern.firstIndex(of: "d") else { return true }
        return month < day
    }

    static func civil(_ year: Int, _ month: Int, _ day: Int) -> Result<CivilDate, Problem> {
        (try? CivilDate(year: year, month: month, day: day)).map { .success($0) } ?? .failure(.notADate)
    }

    /// 14:30, 14:30:15, 2:30 PM, 下午2:30, 上午 9:05.
    public func time(_ text: String) -> Result<(hour: Int, minute: Int, second: Int), Problem> {
        var value = Self.trimmed(Self.normalizedDigits(text)).uppercased()
        var afternoon: Bool?
        for (marker, pm) in Self.dayHalves where value.contains(marker) {
            afternoon = pm
            value = Self.trimmed(value.replacingOccurrences(of: marker, with: ""))
        }
        // h:mm or h:mm:ss (colons half- or full-width).
        let parts = value.split(separator: ":", omittingEmptySubsequences: false).flatMap { $0.split(separator: "：", omittingEmptySubsequences: false) }
        guard parts.count == 2 || parts.count == 3, (1...2).contains(parts[0].count), parts.dropFirst().allSatisfy({ $0.count == 2 }),
              parts.allSatisfy({ $0.utf8.allSatisfy(ASCII.isDigit) })
        else { return .failure(.notATime) }
        var hour = Int(parts[0])!
        let minute = Int(parts[1])!, second = parts.count == 3 ? Int(parts[2])! : 0
        if let afternoon {
            guard (1...12).contains(hour) else { return .failure(.notATime) }
            if afternoon && hour < 12 { hour += 12 }
            if !afternoon && hour == 12 { hour = 0 }
        }
        guard hour < 24, minute < 60, second < 60 else { return .failure(.notATime) }
        return .success((hour, minute, second))
    }

    static let dayHalves: [(String, Bool)] = [("下午", true), ("晚上", true), ("上午", false), ("早上", false), ("中午", true), ("PM", true), ("AM", false)]

    // MARK: Amounts

    /// An exact amount and the currency its symbol names, when it names one.
    public func amount(_ text: String) -> Result<(value: Decimal, currency: String?), Problem> {
        var value = Self.trimmed(Self.normalizedDigits(text))
        if value.isEmpty { return .failure(.notAnAmount) }
        var negative = false
        if value.hasPrefix("(") && value.hasSuffix(")") {
            negative = true
            value = String(value.dropFirst().dropLast())
        }
        var currency: String?
        for (marker, code) in Self.currencyMarkers where value.contains(marker) {
            // A code is a word of its own: USD is not the start of USDT.
            if marker.allSatisfy({ $0.isASCII && $0.isLetter }), let range = value.range(of: marker),
               value[..<range.lowerBound].last?.isLetter == true || value[range.upperBound...].first?.isLetter == true { continue }
            currency = code ?? defaultCurrency
            value = value.replacingOccurrences(of: marker, with: "")
            break
        }
        // A code no symbol stands for, before or after the digits, as amounts in currencies ICU
        // does not know are written (`BTC 0.0123`, `0.5 ETH`, `USDT 120`).
        if currency == nil, let (code, rest) = Self.currencyCode(in: value) {
            currency = code
            value = rest
        }
        value = value.trimmingCharacters(in: .whitespaces)
        if value.hasPrefix("-") || value.hasPrefix("−") {
            negative.toggle()
            value = String(value.dropFirst()).trimmingCharacters(in: .whitespaces)
        } else if value.hasPrefix("+") {
            value = String(value.dropFirst())
        }
        // Grouping: commas (or spaces) between groups of three; a comma decimal mark in locales that use one.
        if formats.commaDecimal {
            value = value.replacingOccurrences(of: ".", with: "").replacingOccurrences(of: ",", with: ".")
        } else {
            guard Self.isGroupedNumber(value) else { return .failure(.notAnAmount) }
            value = value.replacingOccurrences(of: ",", with: "")
        }
        value = value.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "\u{00A0}", with: "")
        guard !value.isEmpty, value.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              var number = Decimal(string: value) else { return .failure(.notAnAmount) }
        if negative { number = -number }
        return .success((number, currency))
    }

    /// A currency code of three to five capital letters at either end of `text` (`BTC 0.0123`,
    /// `0.5ETH`), and the rest.
    static func currencyCode(in text: String) -> (code: String, rest: String)? {
        var trimmed = Substring(text.trimmingCharacters(in: .whitespaces))
        // A sign before the code (`-BTC 0.01`) stays with the digits.
        let sign = trimmed.first == "-" || trimmed.first == "−" ? String(trimmed.removeFirst()) : ""
        func isCode(_ part: Substring) -> Bool { (3...5).contains(part.count) && part.allSatisfy { $0.isASCII && $0.isUppercase } }
        let leading = trimmed.prefix { $0.isASCII && $0.isUppercase }
        if isCode(leading), trimmed.dropFirst(leading.count).first.map({ $0 == " " || $0.isNumber || $0 == "-" || $0 == "." }) == true {
            return (String(leading), sign + trimmed.dropFirst(leading.count))
        }
        let trailing = trimmed.reversed().prefix { $0.isASCII && $0.isUppercase }
        if isCode(Substring(trailing)), trimmed.dropLast(trailing.count).last.map({ $0 == " " || $0.isNumber }) == true {
            return (String(trailing.reversed()), sign + trimmed.dropLast(trailing.count))
        }
        return nil
    }

    /// Markers in the order they are tried (NT$ before $); nil means the locale's own currency.
    static let currencyMarkers: [(String, String?)] = [
        ("NT$", "TWD"), ("NTD", "TWD"), ("TWD", "TWD"), ("新台幣", "TWD"), ("新臺幣", "TWD"), ("US$", "USD"), ("USD", "USD"),
        ("HK$", "HKD"), ("HKD", "HKD"), ("RMB", "CNY"), ("CNY", "CNY"), ("人民幣", "CNY"), ("人民币", "CNY"), ("JPY", "JPY"),
        ("EUR", "EUR"), ("€", "EUR"), ("£", "GBP"), ("¥", nil), ("￥", nil), ("$", nil), ("元", nil), ("圓", nil), ("块", "CNY"), ("塊", nil),
    ]

    var defaultCurrency: String {
        switch locale?.region {
        case "CN": "CNY"
        case "US": "USD"
        case "HK": "HKD"
        case "JP": "JPY"
        default: "TWD"
        }
    }

    /// 1234, 1,234, 1,234.50, .5: commas only between groups of three.
    static func isGroupedNumber(_ text: String) -> Bool {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let digits: (Substring) -> Bool = { !$0.isEmpty && $0.utf8.allSatisfy(ASCII.isDigit) }
        if parts.count == 2, !digits(parts[1]) { return false }
        let whole = parts[0]
        if whole.isEmpty { return parts.count == 2 }
        let groups = whole.split(separator: ",", omittingEmptySubsequences: false)
        guard groups.allSatisfy(digits) else { return false }
        return groups.count == 1 || (groups[0].count <= 3 && groups.dropFirst().allSatisfy { $0.count == 3 })
    }

    /// Spaces (and other blanks) off both ends, without a copy when there are none.
    static func trimmed(_ text: String) -> String {
        let clean = text.withByteView { !hasEdgeWhitespace($0) }
        return clean ? text : text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether UTF-8 text starts or ends with white space or a control character (then
    /// `trimmed` has something to do): ASCII from the bytes, anything else by its Unicode
    /// White_Space property (U+00A0, U+3000…).
    static func hasEdgeWhitespace(_ bytes: ByteView) -> Bool {
        guard let first = bytes.first else { return false }
        let last = bytes[bytes.count - 1]
        if first < ASCII.firstNonASCII, last < ASCII.firstNonASCII { return isBlank(first) || isBlank(last) }
        var lastStart = bytes.count - 1
        while lastStart > 0, UTF8Validation.isContinuation(bytes[lastStart]) { lastStart -= 1 }
        // Decoded only when the first byte says the character may be a blank (CJK text is not).
        func blank(at start: Int) -> Bool {
            let lead = bytes[start]
            if lead < ASCII.firstNonASCII { return isBlank(lead) }
            return Self.blankLeads.contains(lead) && isBlank(bytes.scalar(startingAt: start))
        }
        return blank(at: 0) || blank(at: lastStart)
    }

    /// The first UTF-8 bytes of the non-ASCII White_Space characters: C2 (U+0085, U+00A0), E1
    /// (U+1680), E2 (U+2000–U+205F), E3 (U+3000).
    private static var blankLeads: ClosedRange<UInt8> { 0xC2...0xE3 }

    /// A space, or an ASCII control character.
    @inline(__always) private static func isBlank(_ byte: UInt8) -> Bool { byte <= ASCII.space || byte == ASCII.delete }

    /// An ASCII blank, or one of Unicode's other White_Space characters (checked by value: the
    /// property lookup cost more than the rest of reading a Chinese cell).
    private static func isBlank(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return false }
        if scalar.isASCII { return isBlank(UInt8(scalar.value)) }
        switch scalar.value {
        case 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    /// Whether some UTF-8 byte of `text` matches, looked at in its buffer (walking `utf8` of a
    /// short string goes through its index type byte by byte).
    @inline(__always)
    static func containsByte(_ text: String, where predicate: (UInt8) -> Bool) -> Bool {
        text.withByteView { $0.firstIndex(where: predicate) < $0.count }
    }

    /// The first UTF-8 byte of U+FF00–U+FFEF (full-width forms) and of U+3000–U+303F.
    private static var fullWidthLead: UInt8 { 0xEF }
    private static var ideographicSpaceLead: UInt8 { 0xE3 }

    static func normalizedDigits(_ text: String) -> String {
        // Full-width forms are all in U+FF00–U+FFEF or U+3000, whose UTF-8 starts with EF or E3.
        if !containsByte(text, where: { $0 == Self.fullWidthLead || $0 == Self.ideographicSpaceLead }) { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0xFF10...0xFF19: result.unicodeScalars.append(Unicode.Scalar(scalar.value - 0xFF10 + UInt32(ASCII.zero))!)
            case 0xFF0C: result.unicodeScalars.append(",")
            case 0xFF0E: result.unicodeScalars.append(".")
            case 0xFF0F: result.unicodeScalars.append("/")
            case 0xFF0D: result.unicodeScalars.append("-")
            case 0x3000: result.unicodeScalars.append(" ")
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
