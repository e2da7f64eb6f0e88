import AlmanacCore
public import AlmanacICU
public import Foundation

/// Reads the dates, times and amounts people type into spreadsheets: ISO dates, the locale's own
/// short and long forms (2025/3/5, 2025年3月5日, 民國114年3月5日, 3/5/2025 with en-US), amounts
/// with symbols and separators (NT$1,234, $1,234.50, 1,234元, (1,234)).
public struct CellReader {
    public let locale: LocaleID?

    public init(locale: LocaleID?) { self.locale = locale }

    public enum Problem: Error, Equatable {
        case notADate
        /// A form like 3/5/2025 that reads differently in different regions: a locale decides.
        case ambiguousDate
        case notATime
        case notAnAmount
    }

    // MARK: Dates

    public func date(_ text: String) -> Result<CivilDate, Problem> {
        let value = Self.normalizedDigits(text).trimmingCharacters(in: .whitespaces)
        if value.isEmpty { return .failure(.notADate) }
        // Year first: 2025-03-05, 2025/3/5, 2025.3.5, 20250305, 2025年3月5日.
        if let match = value.wholeMatch(of: /(\d{4})[-\/.年](\d{1,2})[-\/.月](\d{1,2})日?/) {
            return Self.civil(Int(match.1)!, Int(match.2)!, Int(match.3)!)
        }
        if let match = value.wholeMatch(of: /(\d{4})(\d{2})(\d{2})/) {
            return Self.civil(Int(match.1)!, Int(match.2)!, Int(match.3)!)
        }
        // 民國114年3月5日, 民國114/3/5.
        if let match = value.wholeMatch(of: /(?:民國|民国)\s*(\d{1,3})\s*[年\/\-.]\s*(\d{1,2})\s*[月\/\-.]\s*(\d{1,2})\s*日?/) {
            return Self.civil(ROCCalendar.gregorianYear(ofROCYear: Int(match.1)!), Int(match.2)!, Int(match.3)!)
        }
        // Day and month first: the locale decides which is which.
        if let match = value.wholeMatch(of: /(\d{1,2})[\/\-.](\d{1,2})[\/\-.](\d{4})/) {
            let first = Int(match.1)!, second = Int(match.2)!, year = Int(match.3)!
            guard let locale else {
                // Unambiguous only when one of them cannot be a month.
                if first > 12 { return Self.civil(year, second, first) }
                if second > 12 { return Self.civil(year, first, second) }
                return .failure(.ambiguousDate)
            }
            return Self.monthFirst(locale) ? Self.civil(year, first, second) : Self.civil(year, second, first)
        }
        // The locale's own long forms ("Mar 5, 2025", "5 March 2025").
        if let locale {
            for skeleton in ["yMMMd", "yMMMMd", "yMd"] {
                if let format = try? DateFormat(skeleton: skeleton, locale: locale), let date = try? format.parseDate(value) {
                    return .success(date)
                }
            }
        }
        return .failure(.notADate)
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
        var value = Self.normalizedDigits(text).trimmingCharacters(in: .whitespaces).uppercased()
        var afternoon: Bool?
        for (marker, pm) in [("下午", true), ("晚上", true), ("上午", false), ("早上", false), ("中午", true), ("PM", true), ("AM", false)]
        where value.contains(marker) {
            afternoon = pm
            value = value.replacingOccurrences(of: marker, with: "").trimmingCharacters(in: .whitespaces)
        }
        guard let match = value.wholeMatch(of: /(\d{1,2})[:：](\d{2})(?:[:：](\d{2}))?/) else { return .failure(.notATime) }
        var hour = Int(match.1)!
        let minute = Int(match.2)!, second = match.3.map { Int($0)! } ?? 0
        if let afternoon {
            guard (1...12).contains(hour) else { return .failure(.notATime) }
            if afternoon && hour < 12 { hour += 12 }
            if !afternoon && hour == 12 { hour = 0 }
        }
        guard hour < 24, minute < 60, second < 60 else { return .failure(.notATime) }
        return .success((hour, minute, second))
    }

    // MARK: Amounts

    /// An exact amount and the currency its symbol names, when it names one.
    public func amount(_ text: String) -> Result<(value: Decimal, currency: String?), Problem> {
        var value = Self.normalizedDigits(text).trimmingCharacters(in: .whitespaces)
        if value.isEmpty { return .failure(.notAnAmount) }
        var negative = false
        if value.hasPrefix("(") && value.hasSuffix(")") {
            negative = true
            value = String(value.dropFirst().dropLast())
        }
        var currency: String?
        for (marker, code) in Self.currencyMarkers where value.contains(marker) {
            currency = code ?? defaultCurrency
            value = value.replacingOccurrences(of: marker, with: "")
            break
        }
        value = value.trimmingCharacters(in: .whitespaces)
        if value.hasPrefix("-") || value.hasPrefix("−") {
            negative.toggle()
            value = String(value.dropFirst()).trimmingCharacters(in: .whitespaces)
        } else if value.hasPrefix("+") {
            value = String(value.dropFirst())
        }
        // Grouping: commas (or spaces) between groups of three; a comma decimal mark in locales that use one.
        let commaDecimal = locale.map { (try? NumberFormat.decimal(locale: $0).string(Decimal(string: "1.5")!)) == "1,5" } ?? false
        if commaDecimal {
            value = value.replacingOccurrences(of: ".", with: "").replacingOccurrences(of: ",", with: ".")
        } else {
            guard value.wholeMatch(of: /\d{1,3}(,\d{3})+(\.\d+)?|\d+(\.\d+)?|\.\d+/) != nil else { return .failure(.notAnAmount) }
            value = value.replacingOccurrences(of: ",", with: "")
        }
        value = value.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "\u{00A0}", with: "")
        guard !value.isEmpty, value.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              var number = Decimal(string: value) else { return .failure(.notAnAmount) }
        if negative { number = -number }
        return .success((number, currency))
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

    /// Full-width digits and punctuation (１２３，：) as ASCII.
    static func normalizedDigits(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0xFF10...0xFF19: result.unicodeScalars.append(Unicode.Scalar(scalar.value - 0xFF10 + 0x30)!)
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
