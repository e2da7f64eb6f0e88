import AlmanacCore

/// Keeps spreadsheets from running cell text as a formula (OWASP "CSV Injection"): text that
/// starts with `=`, `+`, `-`, `@`, a tab or a carriage return (or their full-width forms) gets a
/// leading apostrophe. Numbers (`-1234.5`, `+3`) stay numbers.
public enum FormulaGuard {
    static let triggers: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r", "＝", "＋", "－", "＠"]

    /// A cell of unknown type: left alone when it is a plain number.
    public static func cell(_ value: String) -> String {
        guardsCell(value) ? "'" + value : value
    }

    /// Whether `cell` puts an apostrophe before `value`.
    static func guardsCell(_ value: String) -> Bool {
        guard mayTrigger(value), !isNumber(value), let first = value.unicodeScalars.first else { return false }
        return triggers.contains(first)
    }

    /// A cell known to be text.
    public static func text(_ value: String) -> String {
        guard mayTrigger(value), let first = value.unicodeScalars.first, triggers.contains(first) else { return value }
        return "'" + value
    }

    /// A cell read back: the apostrophe `text` put before a formula trigger is taken off again
    /// (`'-PT15H` → `-PT15H`), so an export imports as it was.
    public static func unguard(_ value: String) -> String {
        guard value.utf8.first == ASCII.apostrophe else { return value }
        let rest = value.unicodeScalars.dropFirst()
        guard let first = rest.first, triggers.contains(first) else { return value }
        return String(rest)
    }

    /// A look at the first byte rules out most cells: the triggers are ASCII or start with EF.
    @inline(__always) static func mayTrigger(_ value: String) -> Bool {
        value.utf8.first.map { mayTrigger(first: $0) } ?? false
    }

    @inline(__always) static func mayTrigger(first byte: UInt8) -> Bool {
        switch byte {
        case ASCII.equals, ASCII.plus, ASCII.hyphen, ASCII.at, ASCII.tab, ASCII.carriageReturn, 0xEF: true
        default: false
        }
    }

    /// A plain number (`-1234.5`, `+3`) or an amount formatted as money (`-$32,000`,
    /// `-NT$1,234.50`): a spreadsheet reads these as numbers, not formulas.
    static func isNumber(_ value: String) -> Bool {
        var rest = Substring(value)
        if let first = rest.first, first == "-" || first == "+" || first == "−" { rest = rest.dropFirst() }
        // A currency symbol or code before the digits: letters and symbols, no operators.
        let symbol = rest.prefix { !$0.isNumber && !"=+-@(),.%\t\r\n ".contains($0) }
        // It must hold a currency sign ($, ¥, €): `-A1` is a formula, `-$32,000` an amount.
        guard symbol.count <= 4, symbol.isEmpty || symbol.unicodeScalars.contains(where: { $0.properties.generalCategory == .currencySymbol })
        else { return false }
        rest = rest.dropFirst(symbol.count).drop { $0 == " " || $0 == "\u{00A0}" }
        var digits = 0
        for character in rest {
            if character.isASCII && character.isNumber { digits += 1 } else if character != "," && character != "." { return false }
        }
        return digits > 0
    }
}
