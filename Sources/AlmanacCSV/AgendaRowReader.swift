public import AlmanacCore
import AlmanacICU
import AlmanacCalendar
import Foundation

/// Turns spreadsheet rows into calendar items, one row at a time (so a large file converts in
/// constant memory). Columns are recognised once, from the header.
public struct AgendaRowReader {
    let columns: [String]
    let map: ColumnMap
    let extra: [Int]
    /// The property each extra column is carried as (`X-CSV-ROOM`), and its column parameter.
    let extraProperties: [Int: (name: String, parameters: [CarriedProperty.Parameter])]
    let isTodoList: Bool
    let reader: CellReader
    let timeZone: TimeZoneID?
    let file: String?
    public private(set) var diagnostics: [Diagnostic] = []
    // The columns of each role, looked up once (a dictionary lookup per cell adds up).
    let titleColumn: Int?, dateColumn: Int?, timeColumn: Int?, endColumn: Int?, locationColumn: Int?, notesColumn: Int?
    let categoryColumn: Int?, priorityColumn: Int?, completedColumn: Int?, typeColumn: Int?, repeatColumn: Int?
    let amountColumn: Int?, uidColumn: Int?, lunarColumn: Int?, alarmColumn: Int?, colorColumn: Int?, createdColumn: Int?, updatedColumn: Int?
    /// The most properties a row carries besides unreadable cells (its array is made that size once).
    let carriedPerRow: Int
    /// The currency of the amount column: `--option currency=TWD`, or what its header names (`amount_twd`).
    let amountCurrency: String?

    public init(columns: [String], context: CodecContext) throws(Diagnostic) {
        self.columns = columns
        self.file = context.sourceFile
        self.map = try ColumnMap(columns: columns, explicit: context.options["columns"], fileName: file)
        guard map[.title] != nil else {
            throw Diagnostic.error(.csvNoTitleColumn(columns: columns.joined(separator: ", ")), at: SourceLocation(file: file))
        }
        let used = Set(map.roles.values)
        self.extra = columns.indices.filter { !used.contains($0) }
        self.extraProperties = Dictionary(uniqueKeysWithValues: extra.map { column in
            // An X- header is a property the iso style wrote (X-ALMANAC-PINNED): it comes back as itself.
            if let property = Self.propertyHeader(columns[column]) {
                return (column, (property, [CarriedProperty.Parameter(name: CarriedName.Parameter.column, values: [columns[column]])]))
            }
            return (column, (CarriedName.tableColumnPrefix + TableImport.propertyName(columns[column]),
                             [CarriedProperty.Parameter(name: CarriedName.Parameter.column, values: [columns[column]])]))
        })
        let unknown = extra.filter { Self.propertyHeader(columns[$0]) == nil }
        if !unknown.isEmpty {
            diagnostics.append(.note(.csvExtraColumns(columns: unknown.map { columns[$0] }.joined(separator: ", ")), at: SourceLocation(file: file)))
        }
        self.isTodoList = map[.completed] != nil || map[.priority] != nil
        (titleColumn, dateColumn, timeColumn, endColumn) = (map[.title], map[.date], map[.time], map[.end])
        (locationColumn, notesColumn, categoryColumn, priorityColumn) = (map[.location], map[.notes], map[.category], map[.priority])
        (completedColumn, typeColumn, repeatColumn, amountColumn, uidColumn) = (map[.completed], map[.type], map[.repeat], map[.amount], map[.uid])
        (lunarColumn, alarmColumn, colorColumn, createdColumn, updatedColumn) = (map[.lunar], map[.alarm], map[.color], map[.created], map[.updated])
        self.reader = CellReader(locale: context.locale)
        self.timeZone = context.timeZone
        amountCurrency = try ColumnMap.currencyOption(context) ?? map[.amount].flatMap { ColumnMap.currency(ofHeader: columns[$0]) }
        carriedPerRow = (map[.type] == nil ? 0 : 1) + (map[.amount] == nil ? 0 : 2) + extra.count
    }

    /// Whether a cell is a number as programs write one: an optional minus, ASCII digits, at most
    /// one point between digits (`1097135`, `-500`, `1234567.5`): the amount exactly as written.
    static func isPlainNumber(_ text: String) -> Bool {
        // Over the bytes by index, not by enumerating the string's UTF-8 view (much slower a
        // byte, and every row's amount is asked: RESULTS.md, the export against Babel).
        text.withByteView { bytes in
            var digits = 0, points = 0, afterPoint = 0
            for offset in 0..<bytes.count {
                switch bytes[offset] {
                case ASCII.zero...ASCII.nine:
                    digits += 1
                    if points > 0 { afterPoint += 1 }
                case ASCII.period:
                    points += 1
                    if points > 1 || digits == 0 { return false }
                case ASCII.hyphen where offset == 0: continue
                default: return false
                }
            }
            return digits > 0 && (points == 0 || afterPoint > 0)
        }
    }

    /// The columns a table of these rows fills when written back (streamed, so decided from the
    /// source's columns rather than from every row).
    public var layout: AgendaRowWriter.Layout {
        var layout = AgendaRowWriter.Layout(hasTime: map[.time] != nil, hasEnd: map[.end] != nil, hasTodos: isTodoList,
                                            hasRepeat: map[.repeat] != nil || map[.type] != nil, hasLunar: map[.lunar] != nil,
                                            hasType: map[.type] != nil, hasAmount: map[.amount] != nil)
        layout.hasUID = map[.uid] != nil
        layout.hasAlarm = map[.alarm] != nil
        layout.hasColor = map[.color] != nil
        layout.hasCreated = map[.created] != nil
        layout.hasUpdated = map[.updated] != nil
        layout.amountCurrency = amountCurrency
        // Every column the source came with goes back out under its own header, whatever the style
        // (the property keeps the header as X-COLUMN, so whole documents do the same).
        for column in extra { layout.addCarried(extraProperties[column]!.name, column: columns[column]) }
        return layout
    }

    /// The warnings found since the last call (a replica converting a batch on another core
    /// hands them to the reader that reports them).
    public mutating func takeDiagnostics() -> [Diagnostic] {
        defer { diagnostics = [] }
        return diagnostics
    }

    /// Adds warnings a replica found, after these.
    public mutating func absorb(_ found: [Diagnostic]) { diagnostics += found }

    /// Spreadsheet row numbers: the header is row 1.
    func rowNumber(_ index: Int) -> String { String(index + 2) }

    func cell(_ row: some AgendaRowCells, _ column: Int?) -> String? {
        guard let column else { return nil }
        return row.value(column)
    }

    /// `X-ALMANAC-PINNED`: a header that is an iCalendar extension property's name.
    static func propertyHeader(_ header: String) -> String? {
        let name = header.uppercased()
        guard name.hasPrefix("X-"), name.count > 2,
              name.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }) else { return nil }
        return name
    }

    /// The item a row describes (`index` counts data rows from 0), or nil for a row without a name.
    public mutating func item(_ row: some AgendaRowCells, index: Int) -> CalendarItem? {
        var item = CalendarItem(uid: "", title: "")
        return read(row, index: index, into: &item) ? item : nil
    }

    /// Reads a row into `item`, field by field, and says whether it had a name (if not, `item`
    /// is left as it was). A stream reads row after row into one item: a `CalendarItem` is ~500
    /// bytes, and one built and returned per row was copied once more on the way. `item` is a
    /// new one or one this reader filled (the fields a row never sets are not reset).
    public mutating func read(_ row: some AgendaRowCells, index: Int, into item: inout CalendarItem) -> Bool {
        guard let title = cell(row, titleColumn) else { return false }
        // Unreadable cells are kept on the item as properties, so nothing typed is lost.
        var invalid: [CarriedProperty] = []
        func bad(_ role: ColumnRole, _ value: String, _ kind: String, ambiguous: Bool = false) {
            let column = columns[map[role]!]
            let location = SourceLocation(file: file, keyPath: "row \(rowNumber(index))")
            let expected = Message(key: "csv.kind.\(kind)", table: ModuleMessages.table)
            diagnostics.append(ambiguous
                ? .warning(.csvAmbiguousDate(row: rowNumber(index), column: column, value: value), at: location)
                : .warning(.csvBadValue(row: rowNumber(index), column: column, value: value, expected: expected.rendered()).localizing(expected), at: location))
            invalid.append(CarriedProperty(name: CarriedName.invalid(TableImport.propertyName(column)),
                                           parameters: [.init(name: CarriedName.Parameter.column, values: [column]),
                                                        .init(name: CarriedName.Parameter.role, values: [role.rawValue])],
                                           text: value))
        }
        var date: CivilDate?
        if let text = cell(row, dateColumn) {
            switch reader.date(text) {
            case .success(let value): date = value
            case .failure(let problem): bad(.date, text, "date", ambiguous: problem == .ambiguousDate)
            }
        }
        var time: (hour: Int, minute: Int, second: Int)?
        if let text = cell(row, timeColumn) {
            switch reader.time(text) {
            case .success(let value): time = value
            case .failure: bad(.time, text, "time")
            }
        }
        var end: DateValue?
        if let text = cell(row, endColumn) {
            switch reader.date(text) {
            case .success(let value): end = dateValue(time == nil ? value.adding(days: 1) : value, nil)
            case .failure(let problem): bad(.end, text, "date", ambiguous: problem == .ambiguousDate)
            }
        }
        var start: DateValue?, due: DateValue?
        if let date {
            let value = dateValue(date, time)
            if isTodoList { due = value } else { start = value }
        }
        // The type, the amount and the source's other columns, carried after the unreadable cells,
        // in the array the item had (a stream reads row after row into one item: its storage is
        // used again instead of an array made and freed a row).
        var carried = item.carried
        item.carried = []
        carried.removeAll(keepingCapacity: true)
        if carriedPerRow > carried.capacity { carried.reserveCapacity(carriedPerRow) }
        var recurrence: Recurrence?
        if let text = cell(row, typeColumn) {
            // The app's own type words (倒數日, Days since, 自訂) are its types; others are kept as written.
            let known = TableImport.dayType(text)
            let type = known?.rawValue ?? text
            carried.append(CarriedProperty(name: CarriedName.dayType, text: type))
            // Birthdays and anniversaries come back every year, unless a repeat column says how
            // (a type word the app knows is one of its five types: no second lookup for those).
            if repeatColumn == nil, start != nil,
               known.map(\.repeatsYearly)
                ?? (TableImport.yearlyTypes.contains(type) || TableImport.yearlyTypes.contains(type.lowercased())) {
                recurrence = Self.yearly
            }
        }
        if let text = cell(row, repeatColumn) {
            if let rule = TableImport.rule(text) { recurrence = Recurrence(rules: [rule]) } else { bad(.repeat, text, "repeat") }
        }
        if let text = cell(row, lunarColumn) {
            if let lunar = LunarMonthDay(parsing: text) {
                // A lunar repeat falls on this lunar month and day; SKIP as the apps default it
                // (a leap month or a 30th a year lacks: the day before).
                if var rules = recurrence?.rules, let first = rules.first, first.isLunar, first.byMonthDay.isEmpty {
                    if first.frequency == .yearly { rules[0].byMonth = [RecurrenceRule.Month(lunar.month, isLeap: lunar.isLeapMonth)] }
                    rules[0].byMonthDay = [lunar.day]
                    if lunar.isLeapMonth || lunar.day == 30 { rules[0].skip = .backward }
                    recurrence?.rules = rules
                }
            } else {
                bad(.lunar, text, "lunar")
            }
        }
        var alarms: [Alarm] = []
        if let text = cell(row, alarmColumn) {
            for part in text.split(whereSeparator: { ", 、;".contains($0) }) {
                guard let duration = try? CalendarDuration(parsing: String(part)) else {
                    bad(.alarm, text, "alarm")
                    alarms = []
                    break
                }
                alarms.append(Alarm(trigger: .relative(seconds: duration.totalSeconds, fromEnd: false), action: .display, message: title))
            }
        }
        var created: DateValue?, lastModified: DateValue?
        if let text = cell(row, createdColumn) {
            if let value = Self.timestamp(text) { created = value } else { bad(.created, text, "timestamp") }
        }
        if let text = cell(row, updatedColumn) {
            if let value = Self.timestamp(text) { lastModified = value } else { bad(.updated, text, "timestamp") }
        }
        if let text = cell(row, amountColumn) {
            // An amount read as one (NT$12,000 is 12000 in TWD) is kept as its exact number with its
            // currency; one in another currency than the column's, or not read, as written.
            if Self.isPlainNumber(text) {
                // Most amounts: digits as a program wrote them, in the column's currency if it has
                // one (neither holds a character TEXT escapes).
                carried.append(CarriedProperty(name: CarriedName.amount, value: text))
                if let amountCurrency { carried.append(CarriedProperty(name: CarriedName.currency, value: amountCurrency)) }
            } else if case .success(let amount) = reader.amount(text), amount.currency == nil || amountCurrency == nil || amount.currency == amountCurrency,
               let currency = amount.currency ?? amountCurrency {
                carried.append(CarriedProperty(name: CarriedName.amount, text: amount.value.exactText))
                carried.append(CarriedProperty(name: CarriedName.currency, text: currency))
            } else {
                carried.append(CarriedProperty(name: CarriedName.amount, text: text))
            }
        }
        for column in extra where !row.isEmpty(column) {
            let property = extraProperties[column]!
            carried.append(CarriedProperty(name: property.name, parameters: property.parameters, text: FormulaGuard.unguard(row.text(column))))
        }
        item.kind = isTodoList ? .todo : .event
        item.uid = cell(row, uidColumn) ?? "csv-\(rowNumber(index))-" + Self.hash(row)
        item.title = title
        item.notes = cell(row, notesColumn)
        item.location = cell(row, locationColumn)
        item.start = start
        item.end = end
        item.due = due
        item.recurrence = recurrence
        item.categories = cell(row, categoryColumn).map(Self.categories) ?? []
        item.color = cell(row, colorColumn)
        item.priority = cell(row, priorityColumn).map(TableImport.priority) ?? .none
        item.isCompleted = cell(row, completedColumn).map(TableImport.truth) ?? false
        item.alarms = alarms
        item.created = created
        item.lastModified = lastModified
        if !invalid.isEmpty { carried.insert(contentsOf: invalid, at: 0) }
        item.carried = carried
        return true
    }

    /// Every year: made once and shared by the rows it applies to (copied on write).
    static let yearly = Recurrence(rules: [RecurrenceRule(frequency: .yearly)])

    /// `2025-11-01T09:30:00+08:00`, `…Z`, a floating `2025-11-01T09:30:00`, or with a zone `…[Asia/Taipei]`.
    static func timestamp(_ text: String) -> DateValue? {
        try? DateValue(parsing: text)
    }

    /// A stable id for a row without one: the hash of its fields joined by U+001F (without joining them).
    static func hash(_ row: some AgendaRowCells) -> String {
        var hash = StableHash()
        row.hash(into: &hash)
        return String(hash.value, radix: 16)
    }

    /// "生活、旅行", "Work, Life": split at , ; 、 ， ； (most cells hold one category).
    static func categories(_ text: String) -> [String] {
        // , ; are ASCII; 、，； all start with E3 or EF in UTF-8.
        if !CellReader.containsByte(text, where: { $0 == ASCII.comma || $0 == ASCII.semicolon || $0 == 0xE3 || $0 == 0xEF }) { return [text] }
        return text.split(whereSeparator: { ",;、，；".contains($0) }).map { CellReader.trimmed(String($0)) }.filter { !$0.isEmpty }
    }

    private func dateValue(_ date: CivilDate, _ time: (hour: Int, minute: Int, second: Int)?) -> DateValue {
        guard let time else { return .date(date) }
        let wall = CivilDateTime(unchecked: date, time.hour, time.minute, time.second)
        if let zone = timeZone { return .zoned(wall, zone: zone.identifier) }
        return .floating(wall)
    }
}
