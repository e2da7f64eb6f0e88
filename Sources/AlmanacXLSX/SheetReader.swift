import AlmanacBytes
import AlmanacCore
import AlmanacICU
import AlmanacXML
import FoundationEssentials

/// Reads a worksheet's rows as they stream out of the zip: cells by their reference (a gap is an
/// empty field), shared and inline strings (phonetic runs left out), numbers as written, numbers
/// in a date or time format as ISO dates and times, booleans as TRUE/FALSE, formulas' cached
/// values (a formula is never evaluated). Rows with no value are skipped, as CSV skips blank lines.
/// Rows wait to be taken (`takePending`, `takeReady`) after each piece of XML.
///
/// The scanner hands events to a class; what they change is one struct (`SheetState`) whose
/// exclusivity is not checked at run time (the checks were a tenth of reading a sheet). That is
/// sound because every access is one of these methods, called by the scanner one at a time on
/// the reading thread, and none of them calls out to code that could reach the reader again.
final class SheetReader: XMLStreamHandler {
    @exclusivity(unchecked) private var state: SheetState

    init(shared: SharedTexts, styles: CellStyles) {
        state = SheetState(shared: shared, styles: styles)
    }

    func start(_ name: ByteView, _ attributes: XMLStreamAttributes) { state.start(name, attributes) }
    func end(_ name: ByteView) { state.end(name) }
    func text(_ bytes: ByteView) { state.text(bytes) }

    /// False while only the merged cells are wanted (a first pass).
    var wantsRows: Bool {
        get { state.wantsRows }
        set { state.wantsRows = newValue }
    }
    /// False when only rows are counted (`inspect`).
    var wantsContent: Bool {
        get { state.wantsContent }
        set { state.wantsContent = newValue }
    }
    var merges: [(firstRow: Int, firstColumn: Int, lastRow: Int, lastColumn: Int)] { state.merges }
    /// The runs of empty rows between rows with values (first and last row number of each).
    var emptyRuns: [ClosedRange<Int>] { state.emptyRuns }
    /// The first cell or row reference that names no cell (`1A`, `R1C1`): reading stops there.
    var badReference: (reference: String, row: Int)? { state.badReference }
    /// The first row whose number is not past the row before it (a row written twice, or out of order).
    var rowsOutOfOrder: (row: Int, after: Int)? { state.rowsOutOfOrder }
    /// Cells that refer to a shared text the workbook lacks: how many, and the first.
    var missingShared: (count: Int, first: String)? { state.missingShared }
    /// Cells in a date format whose number is no date (negative, past 9999): how many, the first and its value.
    var untypedDates: (count: Int, first: String, value: String)? { state.untypedDates }

    /// The rows read as fields since the last call, with their row numbers (before `beginDirect`).
    func takePending() -> [(fields: [String], row: Int)] {
        defer { state.pending.removeAll(keepingCapacity: true) }
        return state.pending
    }

    /// The batches of whole rows read since the last call (after `beginDirect`).
    func takeReady() -> [TableRows] {
        defer { state.ready.removeAll(keepingCapacity: true) }
        return state.ready
    }

    /// Switches to writing rows as batches of bytes; a row half read so far (a piece of XML can
    /// end inside one) keeps the cells it has.
    func beginDirect() { state.beginDirect() }

    /// The rows gathered since the last call, at the end of the sheet (a batch is handed on
    /// only when its rows are whole: a piece of XML can end inside a row).
    func takeRest() -> TableRows {
        defer { state.batch = TableRows() }
        return state.batch
    }
}

/// What `SheetReader` keeps between events, and what it does with each.
struct SheetState: ~Copyable {
    let shared: SharedTexts
    let styles: CellStyles
    /// Rows read and not yet taken, with their row numbers.
    var pending: [(fields: [String], row: Int)] = []
    var wantsRows = true
    /// Once the header is known, rows go straight into `batch` as bytes, without strings on the way.
    var direct = false
    var wantsContent = true
    var batch = TableRows()
    /// Batches of whole rows (about 64 KB or 1,024 rows each) ready to hand on.
    var ready: [TableRows] = []
    /// Fields of the current row in `batch`, and whether it has a value.
    private var rowFields = 0
    private var rowHasValue = false

    private var rowNumber = 0
    /// The last row that had a value, and the empty rows met between two such rows.
    private var lastRowWithValue = 0
    private(set) var emptyRuns: [ClosedRange<Int>] = []
    private var fields: [String] = []
    private var column = 0
    private var type: CellType = .number
    private var style = 0
    private var value = ByteWriter(capacity: 256)
    private var capturing = false
    private var inPhonetic = false
    private var inInline = false
    private(set) var merges: [(firstRow: Int, firstColumn: Int, lastRow: Int, lastColumn: Int)] = []
    private(set) var badReference: (reference: String, row: Int)?
    private(set) var missingShared: (count: Int, first: String)?
    private(set) var rowsOutOfOrder: (row: Int, after: Int)?
    /// The last row element's number.
    private var lastRowNumber = 0
    private(set) var untypedDates: (count: Int, first: String, value: String)?

    enum CellType { case number, shared, inline, boolean, error, formulaText, date }

    init(shared: SharedTexts, styles: CellStyles) {
        self.shared = shared
        self.styles = styles
    }

    mutating func start(_ name: ByteView, _ attributes: XMLStreamAttributes) {
        if name.matches(0, name.count, "c") {
            // r, s and t in one pass over the attributes (a sheet has millions of cells).
            var reference: Int?
            var unreadable: String?
            var style = 0
            var type = CellType.number
            attributes.forEach { name, value in
                guard name.count == 1 else { return }
                switch name[0] {
                case UInt8(ascii: "r"):
                    // A reference is read whole, in either case (`c7` is C7), or refused: a cell is never
                    // placed by guess.
                    reference = CellReference.column(of: value, reading: true)
                    if reference == nil { unreadable = value.string }
                case UInt8(ascii: "s"): style = Digits.value(value, 0, value.count) ?? 0
                case UInt8(ascii: "t"): type = Self.cellType(value)
                default: break
                }
            }
            if let unreadable, badReference == nil { badReference = (unreadable, rowNumber) }
            // Without `r`, a cell follows the one before it (ECMA-376 §18.3.1.4).
            column = reference ?? column + 1
            self.style = style
            self.type = type
            value.removeAll()
        } else if name.matches(0, name.count, "v") {
            // An inline string's text is its `<is>`; a `<v>` beside it is not read as well.
            capturing = !inInline && type != .inline
        } else if name.matches(0, name.count, "t") {
            capturing = inInline && !inPhonetic
        } else if name.matches(0, name.count, "is") {
            inInline = true
        } else if name.matches(0, name.count, "rPh") {
            inPhonetic = true
        } else if name.matches(0, name.count, "row") {
            if let reference = attributes.value("r") {
                if let number = Digits.value(reference, 0, reference.count), number >= 1 {
                    rowNumber = number
                } else {
                    if badReference == nil { badReference = (reference.string, rowNumber + 1) }
                    rowNumber += 1
                }
            } else {
                rowNumber += 1
            }
            if rowNumber <= lastRowNumber, rowsOutOfOrder == nil { rowsOutOfOrder = (rowNumber, lastRowNumber) }
            lastRowNumber = max(lastRowNumber, rowNumber)
            fields.removeAll(keepingCapacity: true)
            column = 0
            rowFields = 0
            rowHasValue = false
        } else if name.matches(0, name.count, "mergeCell"), let reference = attributes.value("ref") {
            if let range = CellReference.range(reference) { merges.append(range) }
        }
    }

    /// A cell's `t`: a number when it says nothing Almanac knows.
    private static func cellType(_ kind: ByteView) -> CellType {
        if kind.matches(0, kind.count, "s") { return .shared }
        if kind.matches(0, kind.count, "inlineStr") { return .inline }
        if kind.matches(0, kind.count, "b") { return .boolean }
        if kind.matches(0, kind.count, "e") { return .error }
        if kind.matches(0, kind.count, "str") { return .formulaText }
        if kind.matches(0, kind.count, "d") { return .date }
        return .number
    }

    mutating func end(_ name: ByteView) {
        if name.matches(0, name.count, "v") || name.matches(0, name.count, "t") {
            capturing = false
        } else if name.matches(0, name.count, "is") {
            inInline = false
        } else if name.matches(0, name.count, "rPh") {
            inPhonetic = false
        } else if name.matches(0, name.count, "c") {
            guard wantsRows else { return }
            if direct { return appendCell() }
            let text = cellText()
            guard !text.isEmpty, column >= 1, column <= CellReference.maxColumns else { return }
            if fields.count < column { fields.append(contentsOf: repeatElement("", count: column - fields.count)) }
            fields[column - 1] = text
        } else if name.matches(0, name.count, "row") {
            if direct {
                guard rowHasValue else { return }
                noteRowWithValue()
                batch.endRow()
                if batch.byteCount >= 64 * 1024 || batch.count >= 1024 {
                    ready.append(batch)
                    batch = TableRows()
                }
                return
            }
            guard wantsRows, !fields.isEmpty else { return }
            noteRowWithValue()
            pending.append((fields, rowNumber))
            // No row is open until the next starts (`beginDirect` carries over an open row only).
            fields = []
        }
    }

    /// A row with a value ended: the rows between it and the last one were empty.
    private mutating func noteRowWithValue() {
        if lastRowWithValue > 0, rowNumber > lastRowWithValue + 1 { emptyRuns.append((lastRowWithValue + 1)...(rowNumber - 1)) }
        lastRowWithValue = max(lastRowWithValue, rowNumber)
    }

    mutating func text(_ bytes: ByteView) {
        if capturing { value.append(bytes) }
    }

    mutating func beginDirect() {
        direct = true
        guard !fields.isEmpty else { return }
        rowHasValue = true
        if wantsContent { for field in fields { batch.appendField(field) } }
        rowFields = fields.count
        fields.removeAll(keepingCapacity: true)
    }

    /// The current cell into `batch`: text, plain numbers and shared strings as their bytes, the
    /// rest (dates, booleans, escapes, exponents) through `cellText`.
    private mutating func appendCell() {
        guard column >= 1, column <= CellReference.maxColumns, column > rowFields else { return }
        var sharedIndex: Int?
        let asBytes: Bool = value.withByteView { value in
            switch type {
            case .inline: return value.firstIndex(of: ASCII.underscore) == value.count
            case .formulaText, .error, .date: return true
            case .number:
                return styles.dateKind(style) == nil && value.firstIndex(of: UInt8(ascii: "E")) == value.count
                    && value.firstIndex(of: UInt8(ascii: "e")) == value.count && !NumberText.mayBeLong(value)
            case .shared:
                sharedIndex = Digits.value(value, 0, value.count).flatMap { $0 < shared.count ? $0 : nil }
                return false
            case .boolean: return false
            }
        }
        if let sharedIndex {
            guard !shared.isEmpty(sharedIndex) else { return }
            rowHasValue = true
            guard wantsContent else { return }
            padRow()
            shared.withText(sharedIndex) { batch.appendField($0) }
            rowFields += 1
            return
        }
        let text = asBytes ? nil : cellText()
        guard asBytes ? value.count > 0 : text?.isEmpty == false else { return }
        rowHasValue = true
        guard wantsContent else { return }
        padRow()
        if let text { batch.appendField(text) } else { value.withByteView { batch.appendField($0) } }
        rowFields += 1
    }

    /// Empty fields up to the current cell's column.
    private mutating func padRow() {
        while rowFields < column - 1 {
            batch.appendField(ByteView.empty)
            rowFields += 1
        }
    }

    /// The current cell's reference, `C7`, for a message.
    private var reference: String {
        String(decoding: SheetEncoder.letters(column - 1), as: UTF8.self) + String(rowNumber)
    }

    private mutating func cellText() -> String {
        let (text, problem) = value.withByteView { value -> (String, Problem?) in
            switch type {
            case .shared:
                guard let index = Digits.value(value, 0, value.count), index < shared.count else {
                    return ("", value.isEmpty ? nil : .missingShared)
                }
                return (shared.string(index), nil)
            case .inline:
                return (OOXMLText.text(value), nil)
            case .formulaText, .error, .date:
                return (value.string, nil)
            case .boolean:
                return (value.count == 1 && value[0] == ASCII.zero ? "FALSE" : value.isEmpty ? "" : "TRUE", nil)
            case .number:
                let text = value.string
                guard !text.isEmpty else { return ("", nil) }
                if let kind = styles.dateKind(style), let serial = Double(text) {
                    if let date = styles.text(serial: serial, kind: kind) { return (date, nil) }
                    return (NumberText.shortest(text), .untypedDate)
                }
                return (NumberText.shortest(text), nil)
            }
        }
        switch problem {
        case .missingShared?:
            missingShared = ((missingShared?.count ?? 0) + 1, missingShared?.first ?? reference)
        case .untypedDate?:
            untypedDates = ((untypedDates?.count ?? 0) + 1, untypedDates?.first ?? reference, untypedDates?.value ?? text)
        case nil: break
        }
        return text
    }

    private enum Problem { case missingShared, untypedDate }
}

/// A workbook's shared strings (`<sst>`), their bytes one after another: a cell that refers to
/// one copies its bytes, with no string made on the way.
struct SharedTexts {
    private var bytes: [UInt8] = []
    private var ends: [Int] = []

    var count: Int { ends.count }
    var byteCount: Int { bytes.count }

    mutating func append(_ text: ByteView) {
        text.append(0, text.count, to: &bytes)
        ends.append(bytes.count)
    }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        ends.append(bytes.count)
    }

    private func range(_ index: Int) -> Range<Int> { (index == 0 ? 0 : ends[index - 1])..<ends[index] }

    func isEmpty(_ index: Int) -> Bool { range(index).isEmpty }

    func withText<Result>(_ index: Int, _ body: (ByteView) -> Result) -> Result {
        let range = range(index)
        return bytes.withByteView { body($0[range]) }
    }

    func string(_ index: Int) -> String { withText(index) { $0.string } }
}

/// A1-style references: `C5` is column 3, row 5.
enum CellReference {
    /// Excel's last column, XFD.
    static let maxColumns = 16_384

    /// The 1-based column of `B7`, `AA12` (letters in either case: some writers write `c7`).
    /// `reading`: the whole reference must be letters then a row number (a cell's `r`); otherwise
    /// only its letters are read (a range's ends).
    static func column(of reference: ByteView, reading whole: Bool = false) -> Int? {
        var column = 0
        var index = 0
        while index < reference.count, ASCII.isLetter(reference[index]) {
            column = column * 26 + Int(ASCII.uppercased(reference[index]) - UInt8(ascii: "A")) + 1
            index += 1
            if column > maxColumns { return nil }
        }
        guard index > 0 else { return nil }
        if whole {
            guard let row = Digits.value(reference, index, reference.count), row >= 1 else { return nil }
        }
        return column
    }

    static func row(of reference: ByteView) -> Int? {
        var index = 0
        while index < reference.count, ASCII.isLetter(reference[index]) { index += 1 }
        return Digits.value(reference, index, reference.count)
    }

    /// `A1:C1` as rows and columns.
    static func range(_ reference: ByteView) -> (firstRow: Int, firstColumn: Int, lastRow: Int, lastColumn: Int)? {
        let colon = reference.firstIndex(of: ASCII.colon)
        guard colon < reference.count else { return nil }
        let first = reference[0..<colon], last = reference[(colon + 1)..<reference.count]
        guard let firstColumn = column(of: first), let firstRow = row(of: first), let lastColumn = column(of: last), let lastRow = row(of: last)
        else { return nil }
        return (firstRow, firstColumn, lastRow, lastColumn)
    }
}

/// Which cell styles show a date, a time or both (ECMA-376 §18.8.30's built-in formats and any
/// custom format whose codes outside quotes and brackets name days, months, years, hours or
/// seconds), or a length of time (elapsed-time codes: `[h]:mm:ss`, `[mm]:ss`, `[s]`), and the
/// workbook's date system (1900, or 1904 for old Mac workbooks).
struct CellStyles {
    enum DateKind { case date, time, dateTime, duration }
    var kinds: [DateKind?] = []
    var date1904 = false

    func dateKind(_ style: Int) -> DateKind? { style < kinds.count ? kinds[style] : nil }

    /// Built-in number formats that are dates or times (the CJK ones included: 27–36, 50–58).
    static func builtIn(_ id: Int) -> DateKind? {
        switch id {
        case 14...17, 27...31, 34...36, 50...58: .date
        case 18...21, 32, 33, 45, 47: .time
        case 46: .duration  // [h]:mm:ss
        case 22: .dateTime
        default: nil
        }
    }

    /// A format code's kind: `yyyy/m/d` a date, `h:mm AM/PM` a time, `[h]:mm` elapsed time (a
    /// duration). Other brackets are no letters of a date: a colour (`[White]`, `[Color12]`), a
    /// condition (`[<=100]`), a locale (`[$-404]`), a numeral system (`[DBNum1]`).
    static func kind(of code: String) -> DateKind? {
        // The letters of the first section (positive numbers), outside quotes, escapes and brackets.
        var letters = ""
        var quoted = false
        var escaped = false
        var bracket: String?
        var elapsed = false
        scan: for character in code.lowercased() {
            if escaped { escaped = false; continue }
            if quoted { quoted = character != "\""; continue }
            if let inside = bracket {
                if character == "]" {
                    // [h], [hh], [m], [mm], [s], [ss]: hours, minutes or seconds that run past a day.
                    if let first = inside.first, "hms".contains(first), inside.allSatisfy({ $0 == first }) { elapsed = true }
                    bracket = nil
                } else {
                    bracket = inside + String(character)
                }
                continue
            }
            switch character {
            case "\"": quoted = true
            case "\\", "_", "*": escaped = true
            case "[": bracket = ""
            case ";": break scan
            default: letters.append(character)
            }
        }
        // "General" and number codes have none of these letters; "e" is an era year (Taiwan's),
        // but "E+" and "E-" are a scientific number's exponent.
        let era = letters.replacing("e+", with: "").replacing("e-", with: "").contains("e")
        let date = letters.contains("y") || letters.contains("d") || era || letters.contains("g")
        let time = letters.contains("h") || letters.contains("s")
        if letters.contains("general") { return nil }
        if elapsed && !date { return .duration }
        if date && time { return .dateTime }
        if date { return .date }
        if time { return .time }
        // m alone (months): a date.
        return letters.contains("m") && !letters.contains("0") && !letters.contains("#") ? .date : nil
    }

    /// A serial as ISO text of its kind; nil when it is no date Excel shows (negative, too large).
    func text(serial: Double, kind: DateKind) -> String? {
        // A length of time is the same in either date system: hours (past 24), minutes, seconds.
        if kind == .duration { return Self.durationText(serial) }
        guard serial >= 0, serial < 2_958_466 else { return nil }  // 9999-12-31
        var days = Int(serial.rounded(.down))
        var seconds = Int(((serial - Double(days)) * 86_400).rounded())
        if seconds >= 86_400 { days += 1; seconds -= 86_400 }
        let clock = (hour: seconds / 3600, minute: seconds % 3600 / 60, second: seconds % 60)
        // Made only for the cells that show one (most date cells are whole days).
        var time: String { format2(clock.hour) + ":" + format2(clock.minute) + ":" + format2(clock.second) }
        if kind == .time && days == 0 { return time }
        let sinceEpoch: Int
        if date1904 {
            sinceEpoch = days - 24_107  // 1904-01-01 is serial 0
        } else {
            // Serial 60 is the 29 February 1900 that never was: read as 1900-02-28, and serials
            // before it count from 1899-12-31.
            // Day 0 (1900-01-00) is no calendar day: a serial below 1 is a time of day, in a date
            // format too (as openpyxl and calamine read it).
            guard days >= 1 else { return time }
            sinceEpoch = days < 60 ? days - Serial.unixEpoch + 1 : days - Serial.unixEpoch
        }
        let date = CivilDate(daysSinceEpoch: sinceEpoch)
        if kind == .date && seconds == 0 { return date.description }
        return Digits.isoText(date.year, date.month, date.day, time: clock)
    }

    private func format2(_ number: Int) -> String { number < 10 ? "0\(number)" : String(number) }

    /// Days as elapsed time, `H:MM:SS` with the hours running on (1.5 is `36:00:00`), to the
    /// nearest second; a negative length with a sign. Nil past what any workbook holds.
    static func durationText(_ days: Double) -> String? {
        guard days.isFinite, abs(days) < 2_958_466 else { return nil }
        let total = Int((abs(days) * 86_400).rounded())
        let minutes = total % 3600 / 60, seconds = total % 60
        return (days < 0 && total > 0 ? "-" : "") + String(total / 3600) + ":" + (minutes < 10 ? "0" : "") + String(minutes)
            + ":" + (seconds < 10 ? "0" : "") + String(seconds)
    }
}
