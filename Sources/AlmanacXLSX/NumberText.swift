import AlmanacBytes

/// A cell's number as text a person reads: the shortest decimal that reads back to the same
/// double, in plain digits. Excel stores up to 17 significant digits (`0.044999999999999998`
/// for the 0.045 it shows) and writes small and large numbers with an exponent (`1.2E-3`); both
/// become what Excel shows and every reader parses (`0.045`, `0.0012`), the double unchanged.
/// Only numbers past what plain digits sensibly hold keep an exponent (`1E-307`).
enum NumberText {
    /// Fifteen significant digits always read back as written: a text with no more is kept as it is.
    static let exactDigits = 15

    /// Whether `text` may have more digits than the shortest text of its double (more than 15).
    static func mayBeLong(_ text: ByteView) -> Bool {
        Digits.count(in: text, upTo: exactDigits) > exactDigits
    }

    /// The shortest plain-digit text of `text`'s double; `text` itself when it is no number, is
    /// already that short, or is past what a double holds.
    static func shortest(_ text: String) -> String {
        let hasExponent = text.utf8.contains { $0 == UInt8(ascii: "E") || $0 == UInt8(ascii: "e") }
        guard hasExponent || text.utf8.lazy.filter(ASCII.isDigit).count > exactDigits,
              let number = Double(text), number.isFinite else { return text }
        return plain(number)
    }

    /// Plain digits from 1E-7 up to 1E+21 (as JavaScript and most readers print numbers); past that,
    /// the digits with an exponent as Excel writes it (`1E-307`, `9.99999E+307`), not hundreds of zeros.
    static let plainExponents = -7..<21

    /// A double's shortest round-trip digits (Swift's `description`: `0.045`, `1.2e-05`) in that form.
    static func plain(_ number: Double) -> String {
        var text = number.description
        guard let e = text.firstIndex(of: "e") else {
            if text.hasSuffix(".0") { text.removeLast(2) }
            return text
        }
        guard let exponent = Int(text[text.index(after: e)...]) else { return text }
        var mantissa = String(text[..<e])
        if mantissa.hasSuffix(".0") { mantissa.removeLast(2) }
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa.removeFirst() }
        guard plainExponents.contains(exponent) else {
            return (negative ? "-" : "") + mantissa + "E" + (exponent < 0 ? "-" : "+") + (abs(exponent) < 10 ? "0" : "") + String(abs(exponent))
        }
        // One digit before the point in Swift's form: the point moves `exponent` places.
        let digits = mantissa.filter { $0 != "." }
        let point = exponent + 1
        let body: String
        if point <= 0 {
            body = "0." + String(repeating: "0", count: -point) + digits
        } else if point >= digits.count {
            body = digits + String(repeating: "0", count: point - digits.count)
        } else {
            body = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
        }
        return (negative ? "-" : "") + body
    }
}
