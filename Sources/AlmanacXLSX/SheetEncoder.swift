import AlmanacBytes
import AlmanacCore
import AlmanacICU

/// Writes rows as SpreadsheetML `<row>` elements: each cell typed as its column says (a date as
/// the day's serial number in the region's date format, an amount as a number in its currency's
/// format, text as an inline string or, when it repeats, a shared one, never a formula), and an
/// empty field as no cell at all.
/// Every row and cell carries its reference (`r="B7"`): Excel and openpyxl place cells without
/// one, gnumeric refuses them.
struct SheetEncoder: ~Copyable {
    private var output = ByteWriter(capacity: 256 * 1024)
    /// The workbook's texts that repeat, passed from sheet to sheet (`takeStrings`).
    private var strings: SharedStrings
    private let types: [Table.CellType]
    private let styles: StyleBook
    /// The widest text seen in each column (in character cells: a CJK character is two), for the
    /// column widths; measured while `measuring`.
    private(set) var widths: [Int]
    var measuring = true
    /// Cells whose text did not fit their column's type and were written as text (an unreadable
    /// date kept as typed): how many, with the first few.
    private(set) var untypedExample: (column: Int, text: String)?
    private(set) var untypedCount = 0
    /// The currency of the last amount styled, and its style.
    private var lastCurrency: [UInt8] = []
    private var lastCurrencyStyle = StyleBook.plain
    /// The next row's number (the header is row 1), and the current row's as text.
    private var rowNumber = 1
    private var rowDigits = ByteWriter(capacity: 24)
    /// Rows a sheet holds (Excel's 1,048,576; tests lower it); rows past it are not written and
    /// `overflowed` says so (the writer then fails: a spreadsheet would drop them).
    private let rowLimit: Int
    private(set) var overflowed = false
    /// Cells whose text passed what a cell holds and was cut there, with the first one's place.
    private(set) var cutCount = 0
    private(set) var cutExample: (column: Int, row: Int)?

    /// Excel's sheet: 1,048,576 rows, 16,384 columns (XFD), 32,767 characters a cell.
    static let maxRows = 1_048_576
    static let maxColumns = 16_384
    static let maxTextLength = 32_767
    /// Each column's letters (`A`, `AB`), as bytes.
    private let letters: [[UInt8]]

    init(types: [Table.CellType], columns: Int, styles: StyleBook, strings: SharedStrings = SharedStrings(),
         rowLimit: Int = SheetEncoder.maxRows) {
        self.rowLimit = rowLimit
        self.strings = strings
        self.types = types.count >= columns ? types : types + Array(repeating: .text, count: columns - types.count)
        self.styles = styles
        // A typed column is as wide as its formatted values (a date, an amount), whatever its text.
        widths = self.types.prefix(columns).map(Self.width)
        letters = (0..<max(columns, 1)).map(Self.letters)
    }

    /// A column's letters: 0 is `A`, 25 `Z`, 26 `AA`.
    static func letters(_ column: Int) -> [UInt8] {
        var result: [UInt8] = []
        var number = column + 1
        while number > 0 {
            let remainder = (number - 1) % 26
            result.insert(UInt8(ascii: "A") + UInt8(remainder), at: 0)
            number = (number - 1) / 26
        }
        return result
    }

    /// `<row r="7">`; the row's number is kept as text for its cells' references.
    private mutating func beginRow() {
        rowDigits.removeAll()
        rowDigits.append(decimal: rowNumber)
        output.append(#"<row r=""#)
        output.append(rowDigits)
        output.append(#"">"#)
    }

    /// `<c r="B7"` (the cell's other attributes and content follow).
    private mutating func beginCell(_ column: Int) {
        output.append(#"<c r=""#)
        output.append(column < letters.count ? letters[column] : Self.letters(column))
        output.append(rowDigits)
        output.append(ASCII.quote)
    }

    /// How wide a typed column's values are when formatted (text: measured from the cells).
    static func width(_ type: Table.CellType) -> Int {
        switch type {
        case .text: 0
        case .date: 10
        case .dateTime: 18
        case .time: 9
        case .amount: 13
        case .integer, .percent, .boolean: 7
        }
    }

    var byteCount: Int { output.count }

    /// The shared strings so far, for the next sheet (this one keeps none).
    mutating func takeStrings() -> SharedStrings {
        defer { strings = SharedStrings() }
        return strings
    }

    mutating func take() -> [UInt8] { output.take() }

    /// The header row, in bold.
    mutating func header(_ columns: [String]) {
        beginRow()
        for (index, name) in columns.enumerated() {
            name.withByteView { header in
                text(StyleBook.header, header, column: index)
                note(index, header)
            }
        }
        output.append("</row>")
        rowNumber += 1
    }

    mutating func rows(_ rows: TableRows) {
        rows.forEachRow { fields in
            guard rowNumber <= rowLimit, fields.count <= Self.maxColumns else {
                overflowed = true
                return
            }
            beginRow()
            for index in 0..<fields.count {
                let field = fields[index]
                guard !field.isEmpty else { continue }
                if measuring, index < widths.count, index >= types.count || types[index] == .text { note(index, field) }
                cell(index < types.count ? types[index] : .text, field, column: index, row: fields)
            }
            output.append("</row>")
            rowNumber += 1
        }
    }

    private mutating func cell(_ type: Table.CellType, _ field: ByteView, column: Int, row: TableRows.Fields) {
        func fallback(_ field: ByteView) { self.fallback(field, column: column) }
        func number(_ style: Int, _ value: String) { value.withByteView { self.number(style, $0, column: column) } }
        func number(_ style: Int, _ value: ByteView) { self.number(style, value, column: column) }
        switch type {
        case .text:
            text(StyleBook.plain, field, column: column)
        case .date, .dateTime:
            guard let serial = Serial.dateTime(field) else { return fallback(field) }
            number(serial.isWhole ? StyleBook.date : StyleBook.dateTime, serial.text)
        case .time:
            guard let fraction = Serial.time(field) else { return fallback(field) }
            number(StyleBook.time, fraction)
        case .amount(let currency, let column):
            guard Serial.isDecimal(field) else { return fallback(field) }
            if let column, column < row.count, !row[column].isEmpty {
                number(currencyStyle(row[column]), field)
            } else {
                number(currency.map(styles.amount) ?? StyleBook.plain, field)
            }
        case .integer:
            guard Serial.isDecimal(field) else { return fallback(field) }
            number(StyleBook.integer, field)
        case .percent:
            guard Serial.isDecimal(field) else { return fallback(field) }
            number(StyleBook.percent, field)
        case .boolean:
            guard field.elementsEqual("true") || field.elementsEqual("false") else { return fallback(field) }
            beginCell(column)
            output.append(field.elementsEqual("true") ? #" t="b"><v>1</v></c>"# : #" t="b"><v>0</v></c>"#)
        }
    }

    /// The style of amounts in the currency a row's cell names; rows mostly repeat the one before's.
    private mutating func currencyStyle(_ code: ByteView) -> Int {
        if lastCurrency.withByteView({ $0.elementsEqual(code) }) { return lastCurrencyStyle }
        lastCurrency = code.array
        lastCurrencyStyle = styles.amount(code.string)
        return lastCurrencyStyle
    }

    /// A cell whose text is not of its column's type stays text, as it came.
    private mutating func fallback(_ field: ByteView, column: Int) {
        untypedCount += 1
        if untypedExample == nil { untypedExample = (column, field.string) }
        text(StyleBook.plain, field, column: column)
    }

    private mutating func number(_ style: Int, _ value: ByteView, column: Int) {
        beginCell(column)
        if style == StyleBook.plain {
            output.append("><v>")
        } else {
            output.append(" s=\"")
            output.append(decimal: style)
            output.append("\"><v>")
        }
        output.append(value)
        output.append("</v></c>")
    }

    private mutating func text(_ style: Int, _ field: ByteView, column: Int) {
        // UTF-8 has at least as many bytes as UTF-16 has units: most cells need no counting.
        if field.count > Self.maxTextLength {
            let text = field.string
            if text.utf16.count > Self.maxTextLength {
                cutCount += 1
                if cutExample == nil { cutExample = (column, rowNumber) }
                // Whole characters up to the limit (one outside the BMP counts two).
                var cut = ""
                var units = 0
                for character in text {
                    units += character.utf16.count
                    if units > Self.maxTextLength { break }
                    cut.append(character)
                }
                return cut.withByteView { writeText(style, $0, column: column) }
            }
        }
        writeText(style, field, column: column)
    }

    /// A text cell: the number of a text met before (`SharedStrings`), else the text inline.
    private mutating func writeText(_ style: Int, _ field: ByteView, column: Int) {
        beginCell(column)
        if let number = strings.number(field) {
            output.append(style == StyleBook.plain ? #" t="s"><v>"# : #" s="1" t="s"><v>"#)
            output.append(decimal: number)
            output.append("</v></c>")
            return
        }
        output.append(style == StyleBook.plain ? #" t="inlineStr"><is>"# : #" s="1" t="inlineStr"><is>"#)
        Self.appendText(field, to: &output)
        output.append("</is></c>")
    }

    /// `<t>` with the text (an inline string's or a shared one's); leading or trailing spaces
    /// are kept only when asked to be.
    static func appendText(_ text: ByteView, to output: inout ByteWriter) {
        output.append("<t")
        if let first = text.first, let last = text.last, isSpace(first) || isSpace(last) {
            output.append(#" xml:space="preserve""#)
        }
        output.append(ASCII.greaterThan)
        output.appendXMLText(text)
        output.append("</t>")
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == ASCII.space || byte == ASCII.tab || byte == ASCII.lineFeed || byte == ASCII.carriageReturn
    }

    /// Counts a field's width: ASCII one cell, a CJK character (three UTF-8 bytes) two.
    private mutating func note(_ column: Int, _ field: ByteView) {
        var width = 0
        var index = 0
        while index < field.count {
            let byte = field[index]
            if byte < ASCII.firstNonASCII { width += 1; index += 1 }
            else if byte >= 0xE0 { width += 2; index += byte >= 0xF0 ? 4 : 3 }
            else { width += 1; index += 2 }
        }
        if width > widths[column] { widths[column] = width }
    }
}

/// Spreadsheet serial numbers: days since 1899-12-30 (Excel's 1900 system, in which 1900-03-01
/// is 61), the time of day as a fraction.
enum Serial {
    /// The serial of 1970-01-01.
    static let unixEpoch = 25_569
    /// Dates before 1900-03-01 count from 1899-12-31 (Excel counts a 29 February 1900 that never
    /// was); before 1900-01-01 there are none.
    static let firstDayAfterFalseLeapDay = CivilDate(unchecked: 1900, 3, 1).daysSinceEpoch
    static let firstDay = CivilDate(unchecked: 1900, 1, 1).daysSinceEpoch

    /// `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM[:SS]`: the serial as written in `<v>`, whole for a day.
    static func dateTime(_ field: ByteView) -> (text: String, isWhole: Bool)? {
        guard field.count >= 10, field[4] == ASCII.hyphen, field[7] == ASCII.hyphen,
              let year = Digits.value(field, 0, 4), let month = Digits.value(field, 5, 7), let day = Digits.value(field, 8, 10),
              let date = try? CivilDate(year: year, month: month, day: day) else { return nil }
        let days = date.daysSinceEpoch
        guard days >= firstDay else { return nil }
        let serial = days + unixEpoch - (days < firstDayAfterFalseLeapDay ? 1 : 0)
        if field.count == 10 { return (String(serial), true) }
        guard field[10] == UInt8(ascii: "T") || field[10] == ASCII.space, let fraction = seconds(field, from: 11) else { return nil }
        return fraction == 0 ? (String(serial), true) : (decimal(Double(serial) + Double(fraction) / 86_400), false)
    }

    /// `HH:MM[:SS]` as a fraction of a day.
    static func time(_ field: ByteView) -> String? {
        seconds(field, from: 0).map { decimal(Double($0) / 86_400) }
    }

    private static func seconds(_ field: ByteView, from start: Int) -> Int? {
        guard field.count == start + 5 || field.count == start + 8, field[start + 2] == ASCII.colon,
              let hour = Digits.value(field, start, start + 2), let minute = Digits.value(field, start + 3, start + 5),
              hour < 24, minute < 60 else { return nil }
        var second = 0
        if field.count == start + 8 {
            guard field[start + 5] == ASCII.colon, let value = Digits.value(field, start + 6, start + 8), value < 61 else { return nil }
            second = min(value, 59)
        }
        return hour * 3600 + minute * 60 + second
    }

    /// A fraction to ten decimals (a second is 0.0000115…), trailing zeros dropped.
    private static func decimal(_ value: Double) -> String {
        let scaled = (value * 1e10).rounded()
        let whole = Int(scaled / 1e10)
        var fraction = String(Int(scaled) - whole * 10_000_000_000)
        fraction = String(repeating: "0", count: 10 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return fraction.isEmpty ? String(whole) : "\(whole).\(fraction)"
    }

    /// A plain decimal number (`-1234.5`), which `<v>` holds as written.
    static func isDecimal(_ field: ByteView) -> Bool {
        var index = field.first == ASCII.hyphen ? 1 : 0
        var digits = 0
        var point = false
        while index < field.count {
            let byte = field[index]
            if ASCII.isDigit(byte) { digits += 1 } else if byte == ASCII.period, !point { point = true } else { return false }
            index += 1
        }
        return digits > 0
    }
}
