import AlmanacICU

/// The number formats a region reads its dates, times and money in, as SpreadsheetML format
/// codes made from ICU's patterns for the locale: `yyyy/m/d` in Taipei and Shanghai, `m/d/yyyy`
/// in New York; `上午/下午` or AM/PM as the locale's hour cycle says; TWD as `"$"#,##0` in
/// Taipei (cash digits) and `"NT$"#,##0` in New York; a currency ICU does not know (BTC) with
/// eight decimals and its code. Each code carries the locale's LCID (`[$-404]`), which is what
/// makes Excel write AM/PM as 上午/下午.
struct RegionFormats {
    let locale: LocaleID
    let date: String
    let time: String
    let dateTime: String
    let rounding: CurrencyFormat.Rounding
    static let percent = "0.0%"
    static let integer = "#,##0"

    init(locale: LocaleID, rocDates: Bool, rounding: CurrencyFormat.Rounding) {
        self.locale = locale
        self.rounding = rounding
        let prefix = Self.lcid(locale).map { "[$-\($0)]" } ?? ""
        let datePattern = (try? DateFormat.bestPattern(skeleton: "yMd", locale: locale)) ?? "y-MM-dd"
        let timePattern = (try? DateFormat.bestPattern(skeleton: "jm", locale: locale)) ?? "HH:mm"
        // The ROC calendar: Excel writes the era year of a Taiwan date with `e` (民國114/3/5).
        date = rocDates ? "[$-404]\"民國\"e/m/d" : prefix + Self.code(datePattern)
        time = prefix + Self.code(timePattern)
        dateTime = date + " " + Self.code(timePattern)
    }

    /// Windows locale ids (MS-LCID) of the regions Almanac's users are in.
    static func lcid(_ locale: LocaleID) -> String? {
        switch (locale.language, locale.maximized.script, locale.maximized.region) {
        case ("zh", _, "TW"?): "404"
        case ("zh", _, "HK"?): "C04"
        case ("zh", _, "MO"?): "1404"
        case ("zh", _, "SG"?): "1004"
        case ("zh", "Hant"?, _): "404"
        case ("zh", _, _): "804"
        case ("en", _, "GB"?): "809"
        case ("en", _, "US"?): "409"
        case ("ja", _, _): "411"
        default: nil
        }
    }

    /// An ICU date or time pattern as a SpreadsheetML format code: fields mapped (`y` → `yyyy`,
    /// `M` → `m`, `a` → `AM/PM`), separators kept, other text quoted.
    static func code(_ pattern: String) -> String {
        var result = ""
        let characters = Array(pattern)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            var run = 1
            while index + run < characters.count, characters[index + run] == character { run += 1 }
            defer { index += run }
            switch character {
            case "y", "u", "Y": result += run == 2 ? "yy" : "yyyy"
            case "M", "L": result += String(repeating: "m", count: min(run, 4))
            case "d": result += run >= 2 ? "dd" : "d"
            case "E", "c": result += run >= 4 ? "dddd" : "ddd"
            case "H", "k": result += run >= 2 ? "hh" : "h"
            case "h", "K": result += run >= 2 ? "hh" : "h"
            case "m": result += "mm"
            case "s": result += "ss"
            case "a", "b", "B": result += "AM/PM"
            case "G": break
            case "'":
                // Quoted text: up to the closing quote ('' is a quote).
                var text = ""
                var cursor = index + 1
                while cursor < characters.count, characters[cursor] != "'" { text.append(characters[cursor]); cursor += 1 }
                if !text.isEmpty { result += "\"" + text + "\"" }
                run = cursor - index + 1
            case "/", ":", "-", ".", ",", " ": result.append(character)
            case "\u{202F}", "\u{00A0}": result += " "
            default: result += "\"" + String(character) + "\""
            }
        }
        return result
    }

    /// A currency's format: its symbol where ICU's pattern for the locale puts it, grouping, and
    /// the digits the rounding gives (TWD's cash digits: none).
    func amount(_ currency: String) -> String {
        guard CurrencyFormat.isKnown(currency), let format = try? CurrencyFormat(currency: currency, locale: locale, rounding: rounding)
        else { return "\"\(Self.quoted(currency)) \"#,##0.00000000" }
        // ICU's text of a sample amount shows where the symbol goes and how many digits follow.
        let sample = format.string(1234)
        let digits = CurrencyFormat.fractionDigits(of: currency, rounding: rounding) ?? 2
        let number = "#,##0" + (digits > 0 ? "." + String(repeating: "0", count: digits) : "")
        let scalars = Array(sample)
        guard let first = scalars.firstIndex(where: \.isNumber), let last = scalars.lastIndex(where: \.isNumber) else {
            return number
        }
        let before = String(scalars[..<first]).replacingOccurrences(of: "\u{00A0}", with: " ")
        let after = String(scalars[(last + 1)...]).replacingOccurrences(of: "\u{00A0}", with: " ")
        return (before.isEmpty ? "" : "\"\(Self.quoted(before))\"") + number + (after.isEmpty ? "" : "\"\(Self.quoted(after))\"")
    }

    private static func quoted(_ text: String) -> String { text.replacingOccurrences(of: "\"", with: "") }
}
