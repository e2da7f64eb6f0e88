internal import CICUShim
public import FoundationEssentials

/// Formats numbers for a locale with an ICU number skeleton; immutable and safe to share.
///
/// Numbers are passed as exact decimals (`Decimal` or decimal text), never through binary floating
/// point, so 0.1 + 0.2 money stays 0.3.
public final class NumberFormat: Sendable {
    private let handle: SendableHandle
    public let locale: LocaleID
    public let skeleton: String

    /// A formatter for an ICU number skeleton such as `group-auto .00` or `percent`.
    public init(skeleton: String, locale: LocaleID) throws(ICUError) {
        var status: Int32 = 0
        let handle = skeleton.withUTF16Unchecked { units, count in
            alm_number_open(locale.icuIdentifier, units, count, &status)
        }
        guard let handle, alm_icu_failure(status) == 0 else {
            throw ICUError.status(status, .invalidPattern, subject: skeleton)
        }
        self.handle = SendableHandle(handle)
        self.locale = locale
        self.skeleton = skeleton
    }

    deinit { alm_number_close(handle.pointer) }

    /// Grouped decimal numbers ("1,234,567.5"); `fractionDigits` fixes the digits after the point.
    public static func decimal(locale: LocaleID, fractionDigits: ClosedRange<Int>? = nil) throws(ICUError) -> NumberFormat {
        var skeleton = "group-auto"
        if let digits = fractionDigits {
            skeleton += " ." + String(repeating: "0", count: digits.lowerBound)
                + String(repeating: "#", count: digits.upperBound - digits.lowerBound)
            if digits.upperBound == 0 { skeleton = "group-auto precision-integer" }
        }
        return try NumberFormat(skeleton: skeleton, locale: locale)
    }

    /// A number exactly as it is, with the locale's decimal separator and no grouping
    /// ("1234567.5"): what a spreadsheet cell holds so that it can be summed.
    public static func exact(locale: LocaleID) throws(ICUError) -> NumberFormat {
        try NumberFormat(skeleton: "group-off precision-unlimited", locale: locale)
    }

    /// Percentages of a fraction (0.25 -> "25%").
    public static func percent(locale: LocaleID, fractionDigits: Int = 0) throws(ICUError) -> NumberFormat {
        let precision = fractionDigits == 0 ? "precision-integer" : "." + String(repeating: "0", count: fractionDigits)
        return try NumberFormat(skeleton: "percent scale/100 \(precision)", locale: locale)
    }

    /// Formats a decimal exactly.
    public func string(_ value: Decimal) -> String {
        (try? format(decimalText: value.exactText).text) ?? value.exactText
    }

    /// Formats an integer.
    public func string(_ value: Int) -> String {
        (try? format(decimalText: String(value)).text) ?? String(value)
    }

    /// Formats a double (for measurements, not money).
    public func string(_ value: Double) -> String {
        (try? utf16Output(subject: String(value)) { buffer, capacity, status in
            alm_number_format_double(handle.pointer, value, buffer, capacity, &status)
        }) ?? String(value)
    }

    /// Formats a number written as decimal text ("-1234567.50", "1E3").
    public func string(decimalText: String) throws(ICUError) -> String {
        try format(decimalText: decimalText).text
    }

    /// The formatted text and the UTF-16 range of the currency symbol within it.
    func format(decimalText: String) throws(ICUError) -> (text: String, symbol: Range<Int>?) {
        var start: Int32 = -1
        var limit: Int32 = -1
        let utf8 = Array(decimalText.utf8)
        let text = try utf8.withUnsafeBufferPointer { (bytes) throws(ICUError) in
            try bytes.withMemoryRebound(to: CChar.self) { (chars) throws(ICUError) in
                try utf16Output(capacity: 48, subject: decimalText, kind: .invalidNumber) { buffer, capacity, status in
                    alm_number_format_decimal(handle.pointer, chars.baseAddress, Int32(chars.count), buffer, capacity,
                                              &start, &limit, &status)
                }
            }
        }
        return (text, start >= 0 && limit > start ? Int(start)..<Int(limit) : nil)
    }
}

/// An ICU handle that is immutable after creation and documented thread-safe (UNumberFormatter).
struct SendableHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
}

extension Decimal {
    /// Plain decimal text with every digit ("1234567.5", "-0.01"), which ICU reads exactly.
    public var exactText: String {
        // Decimal's description is exact (mantissa and exponent), never scientific.
        description
    }
}
