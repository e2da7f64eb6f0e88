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
    let amountColumn: Int?, uidColumn: Int?

    public init(columns: [String], context: CodecContext) throws(Diagnostic) {
        self.columns = columns
        self.file = context.sourceFile
        self.map = try ColumnMap(columns: columns, explicit: context.options["columns"], fileName: file)
        guard map[.title] != nil else {
            throw Diagnostic.error("csv.no-title-column", columns.joined(separator: ", "), at: SourceLocation(file: file))
        }
        let used = Set(map.roles.values)
        self.extra = columns.indices.filter { !used.contains($0) }
        self.extraProperties = Dictionary(uniqueKeysWithValues: extra.map { column in
            (column, ("X-CSV-" + TableImport.propertyName(columns[column]), [CarriedProperty.Parameter(name: "X-COLUMN", values: [columns[column]])]))
        })
        if !extra.isEmpty {
            diagnostics.append(.note("csv.extra-columns", extra.map { columns[$0] }.joined(separator: ", "), at: SourceLocation(file: file)))
        }
        self.isTodoList = map[.completed] != nil || map[.priority] != nil
        (titleColumn, dateColumn, timeColumn, endColumn) = (map[.title], map[.date], map[.time], map[.end])
        (locationColumn, notesColumn, categoryColumn, priorityColumn) = (map[.location], map[.notes], map[.category], map[.priority])
        (completedColumn, typeColumn, repeatColumn, amountColumn, uidColumn) = (map[.completed], map[.type], map[.repeat], map[.amount], map[.uid])
        self.reader = CellReader(locale: context.locale)
        self.timeZone = context.timeZone
    }

    /// The columns a table of these rows fills when written back (streamed, so decided from the
    /// source's columns rather than from every row).
    public var layout: AgendaRowWriter.Layout {
        AgendaRowWriter.Layout(hasTime: map[.time] != nil, hasEnd: map[.end] != nil, hasTodos: isTodoList,
                               hasRepeat: map[.repeat] != nil || map[.type] != nil, hasLunar: false,
                               hasType: map[.type] != nil, hasAmount: map[.amount] != nil)
    }

    /// Spreadsheet row numbers: the header is row 1.
    func rowNumber(_ index: Int) -> String { String(index + 2) }

    func cell(_ row: [String], _ column: Int?) -> String? {
        guard let column, column < row.count else { return nil }
        let value = CellReader.trimmed(row[column])
        return value.isEmpty ? nil : value
    }

    /// The item a row describes (`index` counts data rows from 0), or nil for a row without a name.
    public mutating func item(_ row: [String], index: Int) -> CalendarItem? {
        guard let title = cell(row, titleColumn) else { return nil }
        // Unreadable cells are kept on the item as properties, so nothing typed is lost.
        var invalid: [CarriedProperty] = []
        func bad(_ role: ColumnRole, _ value: String, _ kind: String, ambiguous: Bool = false) {
            let column = columns[map[role]!]
            let location = SourceLocation(file: file, keyPath: "row \(rowNumber(index))")
            diagnostics.append(ambiguous
                ? .warning("csv.ambiguous-date", rowNumber(index), column, value, at: location)
                : .warning("csv.bad-value", rowNumber(index), column, value, Message("csv.kind.\(kind)").rendered(), at: location))
            invalid.append(CarriedProperty(name: "X-ALMANAC-INVALID-" + TableImport.propertyName(column),
                                           parameters: [.init(name: "X-COLUMN", values: [column]), .init(name: "X-ROLE", values: [role.rawValue])],
                                           value: PropertyText.escape(value)))
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
        var item = CalendarItem(kind: isTodoList ? .todo : .event, uid: "", title: title)
        item.carried = invalid
        if let date {
            let value = dateValue(date, time)
            if isTodoList { item.due = value } else { item.start = value }
        }
        item.end = end
        item.location = cell(row, locationColumn)
        item.notes = cell(row, notesColumn)
        if let text = cell(row, categoryColumn) {
            item.categories = Self.categories(text)
        }
        if let text = cell(row, priorityColumn) { item.priority = TableImport.priority(text) }
        if let text = cell(row, completedColumn) { item.isCompleted = TableImport.truth(text) }
        if let text = cell(row, typeColumn) {
            item.carried.append(CarriedProperty(name: "X-ALMANAC-TYPE", value: PropertyText.escape(text)))
            // Birthdays and anniversaries come back every year.
            if TableImport.yearlyTypes.contains(text.lowercased()), item.start != nil {
                item.recurrence = Recurrence(rules: [RecurrenceRule(frequency: .yearly)])
            }
        }
        if let text = cell(row, repeatColumn), let rule = TableImport.rule(text) { item.recurrence = Recurrence(rules: [rule]) }
        if let text = cell(row, amountColumn) {
            item.carried.append(CarriedProperty(name: "X-ALMANAC-AMOUNT", value: PropertyText.escape(text)))
        }
        for column in extra where column < row.count && !row[column].isEmpty {
            let property = extraProperties[column]!
            item.carried.append(CarriedProperty(name: property.name, parameters: property.parameters, value: PropertyText.escape(row[column])))
        }
        item.uid = cell(row, uidColumn) ?? "csv-\(rowNumber(index))-" + Self.hash(row)
        return item
    }

    /// A stable id for a row without one: the hash of its fields joined by U+001F (without joining them).
    static func hash(_ row: [String]) -> String {
        var hash = StableHash()
        for (index, field) in row.enumerated() {
            if index > 0 { hash.combine(0x1F) }
            hash.combine(field.utf8)
        }
        return String(hash.value, radix: 16)
    }

    /// "生活、旅行", "Work, Life": split at , ; 、 ， ； (most cells hold one category).
    static func categories(_ text: String) -> [String] {
        // , ; are ASCII; 、，； all start with E3 or EF in UTF-8.
        if !text.utf8.contains(where: { $0 == 0x2C || $0 == 0x3B || $0 == 0xE3 || $0 == 0xEF }) { return [text] }
        return text.split(whereSeparator: { ",;、，；".contains($0) }).map { CellReader.trimmed(String($0)) }.filter { !$0.isEmpty }
    }

    private func dateValue(_ date: CivilDate, _ time: (hour: Int, minute: Int, second: Int)?) -> DateValue {
        guard let time else { return .date(date) }
        let wall = CivilDateTime(unchecked: date, time.hour, time.minute, time.second)
        if let zone = timeZone { return .zoned(wall, zone: zone.identifier) }
        return .floating(wall)
    }
}

/// Turns calendar items into spreadsheet rows for a reader in one region: localized headers,
/// dates as that region writes them, repeats in words, lunar dates and countdowns when asked.
/// Formatters are built once, so each row costs only its own formatting.
public final class AgendaRowWriter {
    /// Which optional columns the table has; decided once from all the items.
    public struct Layout: Sendable, Equatable {
        public var hasTime = false
        public var hasEnd = false
        public var hasTodos = false
        public var hasRepeat = false
        public var hasLunar = false
        public var hasType = false
        public var hasAmount = false

        public init(hasTime: Bool = false, hasEnd: Bool = false, hasTodos: Bool = false, hasRepeat: Bool = false,
                    hasLunar: Bool = false, hasType: Bool = false, hasAmount: Bool = false) {
            self.hasTime = hasTime
            self.hasEnd = hasEnd
            self.hasTodos = hasTodos
            self.hasRepeat = hasRepeat
            self.hasLunar = hasLunar
            self.hasType = hasType
            self.hasAmount = hasAmount
        }

        /// The columns some of `items` fill.
        public init(_ items: some Sequence<CalendarItem>) {
            for item in items { add(item) }
        }

        /// Widens the layout to the columns `item` fills.
        public mutating func add(_ item: CalendarItem) {
            guard item.recurrenceID == nil else { return }
            if let when = item.start ?? item.due, !when.isAllDay { hasTime = true }
            if item.end != nil { hasEnd = true }
            if item.kind == .todo { hasTodos = true }
            if item.recurrence?.rules.isEmpty == false { hasRepeat = true }
            if AgendaRowWriter.isLunar(item) { hasLunar = true }
            if !hasType || !hasAmount {
                for property in item.carried {
                    if property.name == "X-ALMANAC-TYPE" { hasType = true }
                    if property.name == "X-ALMANAC-AMOUNT" { hasAmount = true }
                }
            }
        }
    }

    public let columns: [String]
    let roles: [ColumnRole?]  // nil marks the lunar-date column
    let relative: Bool
    let export: TableExport
    let dateFormat: DateFormat
    let timeFormat: DateFormat
    let plurals: PluralRules?
    /// Day counts with the region's grouping (7,608 days left).
    let counts: NumberFormat?
    let script: ChineseScript
    let today: CivilDate
    let expander: OccurrenceExpander?
    /// Text cells get the formula guard unless `formula-guard=no`.
    let guardsFormulas: Bool
    /// Dates and repeats recur across rows: each is formatted once.
    let memo = Memo()

    final class Memo: @unchecked Sendable {
        var dates: [CivilDate: String] = [:]
        var repeats: [RecurrenceRule: String] = [:]
        /// Words in the reader's language, by message key (types, priorities, yes and no).
        var words: [String: String] = [:]
    }

    /// A message without arguments in the reader's language, rendered once per conversion.
    private func word(_ key: String) -> String {
        if let text = memo.words[key] { return text }
        let text = Message(key).rendered(in: export.language)
        memo.words[key] = text
        return text
    }

    /// A writer for the items of `agenda`, with the columns they fill (`lunar=yes|no` overrides
    /// the lunar-date column).
    public convenience init(agenda: Agenda, context: CodecContext) throws(Diagnostic) {
        try self.init(layout: Layout(agenda.items), context: context, agenda: agenda)
    }

    /// A writer with fixed columns, for items streamed one at a time; `agenda` gives the calendar
    /// zone and time-zone definitions that countdowns are read with.
    public init(layout: Layout, context: CodecContext, agenda: Agenda = Agenda()) throws(Diagnostic) {
        var layout = layout
        if let lunar = context.options["lunar"] { layout.hasLunar = lunar == "yes" }
        let export = TableExport(context: context)
        self.export = export
        self.dateFormat = try export.dateFormatter()
        do { timeFormat = try DateFormat(skeleton: "Hm", locale: export.locale) } catch {
            throw Diagnostic.error("locale.unknown", export.locale.bcp47)
        }
        relative = context.options["relative"] == "yes"
        var roles: [ColumnRole?] = [.title, .date]
        if layout.hasLunar { roles.append(nil) }
        if layout.hasTime { roles.append(.time) }
        if layout.hasEnd { roles.append(.end) }
        if layout.hasRepeat { roles.append(.repeat) }
        if layout.hasType { roles.append(.type) }
        roles += [.location, .category, .notes]
        if layout.hasAmount { roles.append(.amount) }
        if layout.hasTodos { roles += [.priority, .completed] }
        if relative { roles.append(.relative) }
        self.roles = roles
        columns = roles.map { role in
            guard let role else { return export.iso ? "lunar" : Message("csv.column.lunar").rendered(in: export.language) }
            return export.header(role)
        }
        today = context.options["today"].flatMap { try? CivilDate(iso: $0) } ?? export.zone.wallTime(at: Date()).date
        expander = relative ? OccurrenceExpander(agenda: agenda, defaultZone: export.zone, definitions: context.timeZoneDefinitions) : nil
        plurals = try? PluralRules(locale: export.locale)
        counts = try? NumberFormat.decimal(locale: export.locale)
        script = ChineseScript(locale: export.locale)
        guardsFormulas = context.options["formula-guard"] != "no"
    }

    private func text(_ value: String) -> String { guardsFormulas ? FormulaGuard.text(value) : value }

    static func isLunar(_ item: CalendarItem) -> Bool {
        item.recurrence?.rules.contains(where: \.isLunar) == true
    }

    /// The row for `item`.
    public func row(_ item: CalendarItem) -> [String] {
        let when = item.start ?? item.due
        var cells: [String] = []
        cells.reserveCapacity(roles.count)
        for role in roles { cells.append(cell(role, item, when: when)) }
        return cells
    }

    private func cell(_ role: ColumnRole?, _ item: CalendarItem, when: DateValue?) -> String {
        let language = export.language
        guard let role else {
            return Self.isLunar(item) && when != nil ? ChineseCalendar.lunarDate(for: when!.day).written(script) : ""
        }
        switch role {
        case .title: return text(item.title)
        case .date: return when.map(dateText) ?? unreadable(.date, of: item)
        case .time: return when.flatMap { $0.isAllDay ? nil : timeFormat.string(from: export.wall($0)) } ?? unreadable(.time, of: item)
        case .end: return item.end.map(endText) ?? unreadable(.end, of: item)
        case .repeat: return repeatText(item.recurrence?.rules.first)
        case .location: return text(item.location ?? "")
        case .category: return text(item.categories.joined(separator: language == .english ? ", " : "、"))
        case .notes: return text(item.notes ?? "")
        case .type: return text(typeText(carried("X-ALMANAC-TYPE", of: item)))
        case .amount: return guardsFormulas ? FormulaGuard.cell(carried("X-ALMANAC-AMOUNT", of: item) ?? "") : carried("X-ALMANAC-AMOUNT", of: item) ?? ""
        case .priority: return priorityText(item.priority)
        case .completed:
            guard item.kind == .todo else { return "" }
            return export.iso ? String(item.isCompleted) : word(item.isCompleted ? "word.yes" : "word.no")
        case .relative:
            guard let expander, let when else { return "" }
            // Repeating days count to their next occurrence; one-off days to or from themselves.
            let target = item.recurrence == nil ? when.day : expander.nextOccurrence(of: item, onOrAfter: today)?.start.day
            return target.map { relativeText(today.days(until: $0)) } ?? ""
        default: return ""
        }
    }

    /// Retire Time's day types in the reader's words (生日, 倒數日); other values as written.
    private func typeText(_ value: String?) -> String {
        guard let value else { return "" }
        guard !export.iso, ["birthday", "anniversary", "countdown", "countup", "custom"].contains(value) else { return value }
        return word("csv.type.\(value)")
    }

    /// A value that could not be read goes back out as it came in, not as a blank.
    private func unreadable(_ role: ColumnRole, of item: CalendarItem) -> String {
        for property in item.carried where property.name.hasPrefix("X-ALMANAC-INVALID-") {
            if property.parameters.contains(where: { $0.name == "X-ROLE" && $0.values == [role.rawValue] }) {
                return text(PropertyText.unescape(property.value))
            }
        }
        return ""
    }

    private func carried(_ name: String, of item: CalendarItem) -> String? {
        item.carried.first { $0.name == name }.map { PropertyText.unescape($0.value) }
    }

    /// An all-day end is exclusive in iCalendar (DTEND 3/6 for a day on 3/5); people write the last day.
    private func endText(_ end: DateValue) -> String {
        if case .date(let date) = end { return dateText(.date(date.adding(days: -1))) }
        return dateText(end) + " " + timeFormat.string(from: export.wall(end))
    }

    private func dateText(_ value: DateValue) -> String {
        if export.iso { return export.format(value, dateFormat: dateFormat) }
        let day = export.wall(value).date
        if let text = memo.dates[day] { return text }
        let text = dateFormat.string(from: day)
        if memo.dates.count >= 50_000 { memo.dates.removeAll(keepingCapacity: true) }
        memo.dates[day] = text
        return text
    }

    private func repeatText(_ rule: RecurrenceRule?) -> String {
        guard let rule else { return "" }
        if let text = memo.repeats[rule] { return text }
        let text = describe(rule)
        if memo.repeats.count >= 10_000 { memo.repeats.removeAll(keepingCapacity: true) }
        memo.repeats[rule] = text
        return text
    }

    private func describe(_ rule: RecurrenceRule) -> String {
        if export.iso { return rule.description }
        let key = switch rule.frequency {
        case .yearly: rule.isLunar ? "csv.repeat.yearly-lunar" : "csv.repeat.yearly"
        case .monthly: "csv.repeat.monthly"
        case .weekly: "csv.repeat.weekly"
        case .daily: "csv.repeat.daily"
        default: "csv.repeat.other"
        }
        return Message(key).rendered(in: export.language)
    }

    private func priorityText(_ priority: Priority) -> String {
        guard priority != .none else { return "" }
        return export.iso ? priority.rawValue : word("csv.priority.\(priority.rawValue)")
    }

    private func relativeText(_ days: Int) -> String {
        if export.iso { return String(days) }
        if days == 0 { return Message("csv.relative.today").rendered(in: export.language) }
        let category = plurals?.category(for: abs(days)) == .one ? "one" : "other"
        return Message(days > 0 ? "csv.relative.future.\(category)" : "csv.relative.past.\(category)", [counts?.string(abs(days)) ?? String(abs(days))])
            .rendered(in: export.language)
    }
}
