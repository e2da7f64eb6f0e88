public import AlmanacCore
import AlmanacICU
import AlmanacCalendar
import Foundation

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
        /// Written by the iso style only, so that an export imports back whole.
        public var hasUID = false
        public var hasAlarm = false
        public var hasColor = false
        public var hasCreated = false
        public var hasUpdated = false
        /// Extension properties with a column each: a source table's own columns (`X-CSV-ROOM`
        /// with its header) in every style, the apps' fields (`X-ALMANAC-PINNED`) in the iso style.
        public var carried: [CarriedColumn] = []
        private var carriedNames: Set<String> = []
        /// The currency of every amount, when they share one (a typed cell then gets its money format).
        public var amountCurrency: String?
        private var mixedCurrencies = false

        public struct CarriedColumn: Sendable, Equatable {
            public var property: String
            /// The source's header, for a column a table came with.
            public var header: String?
        }

        /// Properties that other columns stand for.
        static let notColumns: Set<String> = [CarriedName.dayType, CarriedName.amount, CarriedName.currency]

        public mutating func addCarried(_ property: String, column: String?) {
            guard !carriedNames.contains(property), !Self.notColumns.contains(property), !property.hasPrefix(CarriedName.invalidPrefix) else { return }
            carriedNames.insert(property)
            carried.append(CarriedColumn(property: property, header: column))
        }

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
            hasUID = true
            if !item.alarms.isEmpty { hasAlarm = true }
            if item.color != nil { hasColor = true }
            if item.created != nil { hasCreated = true }
            if item.lastModified != nil { hasUpdated = true }
            for property in item.carried {
                if property.name == CarriedName.dayType { hasType = true }
                if property.name == CarriedName.amount { hasAmount = true }
                if property.name == CarriedName.currency, !mixedCurrencies {
                    if amountCurrency == nil { amountCurrency = property.value } else if amountCurrency != property.value { (amountCurrency, mixedCurrencies) = (nil, true) }
                }
                if property.name.hasPrefix("X-"), !carriedNames.contains(property.name) {
                    addCarried(property.name, column: property.parameter(CarriedName.Parameter.column))
                }
            }
        }
    }

    public let columns: [String]
    /// What each column's cells hold, for a format with typed cells (nil otherwise).
    public let cellTypes: [Table.CellType]?
    /// What each column holds: a role, or an extension property carried as it was.
    enum Column: Equatable {
        case role(ColumnRole)
        case carried(String)
    }
    let roles: [Column]
    let layout: Layout
    /// What the rows could not hold, item by item (reported by `finish`).
    public private(set) var losses = Losses()
    let relative: Bool
    let export: TableExport
    let dateFormat: DateFormat
    let timeFormat: DateFormat
    let plurals: PluralRules?
    /// The currency of the amounts (see `init`), whether they are written as people read them,
    /// and how.
    let amountCurrency: String?
    let formatsAmounts: Bool
    private var amounts: AmountText
    /// Day counts with the region's grouping (7,608 days left).
    let counts: NumberFormat?
    let script: ChineseScript
    private(set) var today: CivilDate
    let expander: OccurrenceExpander?
    /// Text cells get the formula guard unless `formula-guard=no`.
    let guardsFormulas: Bool
    /// Dates and repeats recur across rows: each is formatted once.
    let memo = Memo()

    final class Memo: @unchecked Sendable {
        /// A day's text in the slot its day number falls in (4,096 slots, most recent day wins):
        /// a look-up is an index, not a hash.
        var dayNumbers = [Int](repeating: .min, count: 4096)
        var dayTexts = [String](repeating: "", count: 4096)
        /// The few rules a file repeats, most recent first: compared, not hashed (hashing every
        /// part of a rule cost more than the comparison of the usually empty parts).
        var repeatRules: [RecurrenceRule] = []
        var repeatTexts: [String] = []
        /// The rules of the last row that had some, kept (so their storage stays theirs) with
        /// their text and whether the words keep them: rows whose rules share that storage (the
        /// yearly repeat every birthday row gets) are answered without looking at the rule.
        var lastRules: [RecurrenceRule] = []
        var lastRulesText = ""
        var lastRulesKept = false
        /// Retire Time's five type words in the reader's language, by the value the app stores.
        var types: [(value: String, text: String)] = []
        /// Words in the reader's language, by message key (types, priorities, yes and no).
        var words: [String: String] = [:]
    }

    /// A message without arguments in the reader's language, rendered once per conversion.
    private func word(_ message: Message) -> String {
        if let text = memo.words[message.key] { return text }
        let text = message.rendered(in: export.language)
        memo.words[message.key] = text
        return text
    }

    /// A writer for the items of `agenda`, with the columns they fill (`lunar=yes|no` overrides
    /// the lunar-date column).
    public convenience init(agenda: Agenda, context: CodecContext) throws(Diagnostic) {
        try self.init(layout: Layout(agenda.items), context: context, agenda: agenda)
    }

    /// What the writer was made with, for replicas.
    private let made: (layout: Layout, context: CodecContext, agenda: Agenda)

    /// A writer with fixed columns, for items streamed one at a time; `agenda` gives the calendar
    /// zone and time-zone definitions that countdowns are read with.
    public init(layout: Layout, context: CodecContext, agenda: Agenda = Agenda()) throws(Diagnostic) {
        made = (layout, context, agenda)
        var layout = layout
        if let lunar = context.options["lunar"] { layout.hasLunar = lunar == "yes" }
        let export = TableExport(context: context)
        self.export = export
        self.dateFormat = try export.dateFormatter()
        // Times as people in the region read them (6:00 PM in New York, 下午6:00 in Taipei, 18:00 in
        // Shanghai: ICU's `j` is the locale's hour cycle); 24-hour for machines.
        do { timeFormat = try DateFormat(skeleton: export.iso ? "Hm" : "jm", locale: export.locale) } catch {
            throw Diagnostic.error(.localeUnknown(tag: export.locale.bcp47))
        }
        relative = context.options["relative"] == "yes"
        // The iso style is for machines and for coming back: it keeps ids, alerts, colours, time
        // stamps and the apps' own fields, each in a column of its own.
        let iso = export.iso
        var roles: [ColumnRole] = []
        if iso && layout.hasUID { roles.append(.uid) }
        roles += [.title, .date]
        if layout.hasLunar { roles.append(.lunar) }
        if layout.hasTime { roles.append(.time) }
        if layout.hasEnd { roles.append(.end) }
        if layout.hasRepeat { roles.append(.repeat) }
        if layout.hasType { roles.append(.type) }
        roles += [.location, .category, .notes]
        if layout.hasAmount { roles.append(.amount) }
        if layout.hasTodos { roles += [.priority, .completed] }
        if iso {
            if layout.hasAlarm { roles.append(.alarm) }
            if layout.hasColor { roles.append(.color) }
            if layout.hasCreated { roles.append(.created) }
            if layout.hasUpdated { roles.append(.updated) }
        }
        if relative { roles.append(.relative) }
        let carried = layout.carried.filter { iso || $0.header != nil }
        self.roles = roles.map(Column.role) + carried.map { .carried($0.property) }
        self.layout = layout
        unheldFields = Self.unheldFields(layout, iso: iso)
        leftOutFields = iso ? [] : Self.unheldFields(layout, iso: false).filter { !Self.unheldFields(layout, iso: true).contains($0) }
        // The amounts' currency: asked for, or the one every amount has; the header says it, so
        // that the table says it when it is read again (`金額（TWD）`, `Amount (TWD)`).
        let currency = try ColumnMap.currencyOption(context) ?? layout.amountCurrency
        columns = roles.map { role in
            let header = export.header(role)
            guard role == .amount, let currency else { return header }
            return export.language == .english ? "\(header) (\(currency))" : "\(header)（\(currency)）"
        } + carried.map { $0.header ?? $0.property }
        amountCurrency = currency
        cellTypes = export.typed ? roles.map { Self.cellType($0, currency: currency) } + carried.map { _ in .text } : nil
        formatsAmounts = (context.options["amounts"] == "formatted" || context.options["money"] == "display") && !export.typed && !iso
        amounts = AmountText(locale: export.locale, rounding: context.options["rounding"] == "standard" ? .standard : .cash)
        // What the calendar itself has that rows of days cannot hold: the apps' categories and
        // lists with their colours and icons, and their settings (AlmanacBackups writes these).
        // Left out by design from a table for people; lost from the iso style, which is for coming back.
        var unheld: [(field: String, item: String)] = []
        for property in agenda.carried {
            switch property.name {
            case CarriedName.retireTimeCategory, CarriedName.remindersList:
                let kind = property.name == CarriedName.remindersList ? "lists" : "categories"
                for parameter in property.parameters where parameter.name == CarriedName.Parameter.color || parameter.name == CarriedName.Parameter.icon {
                    unheld.append((kind + "." + (parameter.name == CarriedName.Parameter.color ? "color" : "icon"), property.text))
                }
            case CarriedName.retireTimeSettings:
                unheld.append(("settings", agenda.name ?? "Retire Time"))
            default:
                break
            }
        }
        for (field, item) in unheld {
            if iso { losses.dropped(field, of: item) } else { losses.leftOut(field, of: item) }
        }
        today = context.options["today"].flatMap { try? CivilDate(iso: $0) } ?? export.zone.wallTime(at: Date()).date
        expander = relative ? OccurrenceExpander(agenda: agenda, defaultZone: export.zone, definitions: context.timeZoneDefinitions) : nil
        plurals = try? PluralRules(locale: export.locale)
        counts = try? NumberFormat.decimal(locale: export.locale)
        script = ChineseScript(locale: export.locale)
        // A typed cell is stored as text and never read as a formula: no guard needed.
        guardsFormulas = context.options["formula-guard"] != "no" && !context.typedCells
    }

    /// A writer like this one with formatters of its own and nothing found yet, for a batch
    /// converted on another core (ICU's formatters are not shared between threads).
    public func replica() throws(Diagnostic) -> AgendaRowWriter {
        let copy = try AgendaRowWriter(layout: made.layout, context: made.context, agenda: made.agenda)
        copy.losses = Losses()
        copy.today = today
        return copy
    }

    /// What the rows left out since the last call, for the writer that reports it.
    public func takeFindings() -> Findings {
        defer { (losses, isoWouldKeep) = (Losses(), false) }
        return Findings(losses: losses, isoWouldKeep: isoWouldKeep)
    }

    /// Adds what a replica found, after what this writer found.
    public func absorb(_ findings: Findings) {
        losses.absorb(findings.losses)
        isoWouldKeep = isoWouldKeep || findings.isoWouldKeep
    }

    /// What a replica's rows left out.
    public struct Findings: Sendable {
        var losses: Losses
        var isoWouldKeep: Bool
    }

    private func text(_ value: String) -> String { guardsFormulas ? FormulaGuard.text(value) : value }

    /// What a role's cells hold in a typed table (the end is a day or a day and time).
    static func cellType(_ role: ColumnRole, currency: String?) -> Table.CellType {
        switch role {
        case .date: .date
        case .end: .dateTime
        case .time: .time
        case .relative: .integer
        case .completed: .boolean
        // A day's amount (a goal's target, a bill): a number to sum, in the money format of its
        // currency when the table has one.
        case .amount: .amount(currency: currency, currencyColumn: nil)
        default: .text
        }
    }

    /// A day's amount as people in the region read it (`amounts=formatted`, see `AmountText`), in
    /// its own currency or the table's; written as it is when it is not a number. A rounded amount
    /// is said, item by item.
    private func formattedAmount(_ amount: String, of item: CalendarItem) -> String {
        guard let value = Decimal(string: amount, locale: Locale(identifier: "en_US_POSIX")), value.exactText == amount else { return amount }
        let (text, kept) = amounts.text(value, currency: item.carriedText(CarriedName.currency) ?? amountCurrency)
        if !kept { losses.approximated("amount", of: item.title, as: text) }
        return text
    }

    /// A wall time's time of day as a typed cell holds it (`18:30:00`).
    private static func isoTime(_ wall: CivilDateTime) -> String {
        String(wall.description.suffix(8))
    }

    static func isLunar(_ item: CalendarItem) -> Bool {
        item.recurrence?.rules.contains(where: \.isLunar) == true
    }

    /// The row for `item`; what the row cannot hold is added to `losses`.
    public func row(_ item: CalendarItem) -> [String] {
        var cells: [String] = []
        cells.reserveCapacity(roles.count)
        forEachCell(of: item) { cells.append($0) }
        return cells
    }

    /// The row for `item` added to `rows` (a streamed batch: no array of cells on the way).
    public func row(_ item: CalendarItem, into rows: inout TableRows) {
        forEachCell(of: item) { cell in rows.appendField(cell) }
        rows.endRow()
    }

    private func forEachCell(of item: CalendarItem, _ body: (String) -> Void) {
        let when = item.start ?? item.due
        for column in roles {
            switch column {
            case .role(let role): body(cell(role, item, when: when))
            case .carried(let name): body(item.carriedText(name).map(text) ?? "")
            }
        }
        account(item)
    }

    /// A time as the region writes it, with ICU's narrow no-break space before AM/PM (CLDR 42)
    /// made a plain space: Excel and Numbers read "6:00 PM" as a time, not "6:00\u{202F}PM".
    func timeText(_ wall: CivilDateTime) -> String {
        let text = timeFormat.string(from: wall)
        return text.unicodeScalars.contains("\u{202F}") ? text.replacingOccurrences(of: "\u{202F}", with: " ") : text
    }

    /// An override of one occurrence (RECURRENCE-ID) has no row of its own.
    public func skip(_ item: CalendarItem) {
        losses.dropped("recurrenceID", of: item.title)
    }

    /// The fields a row does not hold in this style and these columns (worked out once), and of
    /// them, those a region-style table leaves out by design (the iso style's own columns).
    private let unheldFields: [CalendarItem.Field]
    private let leftOutFields: [CalendarItem.Field]

    static func unheldFields(_ layout: Layout, iso: Bool) -> [CalendarItem.Field] {
        var holds: Set<CalendarItem.Field> = [.notes, .location, .categories, .end, .timeOfDay]
        if layout.hasTodos { holds.formUnion([.priority, .completion]) }
        if iso { holds.formUnion([.alarms, .color, .created, .lastModified]) }
        return CalendarItem.Field.allCases.filter { !holds.contains($0) }
    }

    /// The apps' fields (`CarriedName.appFields`) with each name's length and last byte.
    private static let appFields = CarriedName.appFields.map { (length: $0.name.utf8.count, last: $0.name.utf8.last, $0.name, $0.field) }

    /// The apps' fields a region-style row leaves out, by the name their backups give them.
    /// Told apart by length and last byte before any comparison: this runs for every property
    /// of every row, and X-ALMANAC-TYPE and X-ALMANAC-AMOUNT, which most rows carry, are then
    /// compared once or not at all.
    static func appField(_ property: String) -> String? {
        let (length, last) = property.withByteView { name in (name.count, name.count > 0 ? name[name.count - 1] : nil) }
        for entry in appFields where entry.length == length && entry.last == last && entry.2 == property { return entry.3 }
        return nil
    }

    /// Whether the iso style would have kept something this region-style table left out.
    private var isoWouldKeep = false

    /// The warnings for what the rows left out, and, for a region-style table, how to keep it.
    public func report(target: String) -> [Diagnostic] {
        var diagnostics = losses.diagnostics(target: target)
        if isoWouldKeep { diagnostics.append(.note(.csvIsoKeeps)) }
        return diagnostics
    }

    private func account(_ item: CalendarItem) {
        if leftOutFields.isEmpty {
            losses.unheld(item, among: unheldFields)
        } else {
            // What only the apps use (alerts, colours, time stamps) is left out by design; the rest
            // a row cannot hold (a place's coordinates, a link) is a loss.
            for field in unheldFields where item.has(field) {
                if leftOutFields.contains(field) { losses.leftOut(field.rawValue, of: item.title) } else { losses.unheld(item, among: [field]) }
            }
        }
        if !export.iso, !isoWouldKeep {
            isoWouldKeep = !item.alarms.isEmpty || item.color != nil || item.created != nil || item.lastModified != nil
                || item.carried.contains { Self.appField($0.name) != nil }
        }
        if export.iso, item.alarms.contains(where: { alarm in
            guard case .relative(_, false) = alarm.trigger else { return true }
            return alarm.action != .display && alarm.action != .audio
        }) {
            losses.dropped("alarms", of: item.title)
        }
        if let recurrence = item.recurrence {
            if !export.iso, !recurrence.rules.isEmpty, !remembered(recurrence.rules).kept {
                losses.approximated("recurrence.rules", of: item.title, as: remembered(recurrence.rules).text)
            }
            if recurrence.rules.count > 1 { losses.dropped("recurrence.rules", of: item.title) }
            if recurrence.hasExtraDates { losses.dropped("recurrence.dates", of: item.title) }
            if !recurrence.exceptions.isEmpty { losses.dropped("recurrence.exceptions", of: item.title) }
        }
        if !export.iso {
            for property in item.carried {
                if let field = Self.appField(property.name) { losses.leftOut(field, of: item.title) }
            }
            // An id a table made up for a row (csv-…) is made again from the row; others are left out.
            if !item.uid.isEmpty, !item.uid.hasPrefix("csv-") {
                losses.leftOut("uid", of: item.title)
                isoWouldKeep = true
            }
        }
    }

    /// Whether the words of a region-style repeat (每年, 每年（農曆）) and the lunar column keep
    /// all of a rule: its frequency, and for a lunar rule the month and day, with the SKIP the
    /// reader gives them back (backward for a leap month or a 30th). Checked field by field: this
    /// runs for every row.
    static func wordsKeep(_ rule: RecurrenceRule) -> Bool {
        guard rule.interval == 1, rule.count == nil, rule.until == nil, rule.bySecond.isEmpty, rule.byMinute.isEmpty,
              rule.byHour.isEmpty, rule.byDay.isEmpty, rule.byYearDay.isEmpty, rule.byWeekNumber.isEmpty,
              rule.bySetPosition.isEmpty, rule.weekStart == .monday, rule.extensions.isEmpty else { return false }
        guard rule.isLunar else { return rule.scale == nil && rule.byMonth.isEmpty && rule.byMonthDay.isEmpty && rule.skip == .omit }
        let leapOr30 = rule.byMonth.contains(where: \.isLeap) || rule.byMonthDay == [30]
        return rule.skip == (leapOr30 ? .backward : .omit)
    }

    /// A lunar day's month and day: what its rule says (臘月最後一天 for -1), else its date's.
    private func lunarText(_ item: CalendarItem, when: DateValue) -> String {
        let written = ChineseCalendar.lunarDate(for: when.day)
        var lunar = LunarMonthDay(month: written.month, isLeapMonth: written.isLeapMonth, day: written.day)
        if let rule = item.recurrence?.rules.first(where: \.isLunar) {
            if rule.frequency == .yearly, rule.byMonth.count == 1 {
                lunar.month = rule.byMonth[0].number
                lunar.isLeapMonth = rule.byMonth[0].isLeap
            }
            if rule.byMonthDay.count == 1, let day = rule.byMonthDay.first, day == -1 || (1...30).contains(day) { lunar.day = day }
        }
        return lunar.written(script)
    }

    private func cell(_ role: ColumnRole, _ item: CalendarItem, when: DateValue?) -> String {
        let language = export.language
        switch role {
        case .lunar:
            // What was typed and could not be read wins over the lunar date of the day.
            let typed = unreadable(.lunar, of: item)
            return typed.isEmpty && Self.isLunar(item) && when != nil ? lunarText(item, when: when!) : typed
        case .uid: return text(item.uid)
        case .alarm:
            guard !item.alarms.isEmpty else { return unreadable(.alarm, of: item) }
            return item.alarms.compactMap { alarm -> String? in
                guard case .relative(let seconds, false) = alarm.trigger, alarm.action == .display || alarm.action == .audio else { return nil }
                return CalendarDuration(totalSeconds: seconds).description
            }.joined(separator: " ")
        case .color: return text(item.color ?? "")
        case .created: return item.created?.description ?? unreadable(.created, of: item)
        case .updated: return item.lastModified?.description ?? unreadable(.updated, of: item)
        case .title: return text(item.title)
        case .date: return when.map(dateText) ?? unreadable(.date, of: item)
        case .time:
            guard let when, !when.isAllDay else { return unreadable(.time, of: item) }
            return export.typed ? Self.isoTime(export.wall(when)) : timeText(export.wall(when))
        case .end: return item.end.map(endText) ?? unreadable(.end, of: item)
        case .repeat:
            guard let rules = item.recurrence?.rules, !rules.isEmpty else { return unreadable(.repeat, of: item) }
            return remembered(rules).text
        case .location: return text(item.location ?? "")
        case .category: return text(item.categories.joined(separator: language == .english ? ", " : "、"))
        case .notes: return text(item.notes ?? "")
        case .type: return text(typeText(item.carriedText(CarriedName.dayType)))
        case .amount:
            var amount = item.carriedText(CarriedName.amount) ?? ""
            if formatsAmounts, !amount.isEmpty { amount = formattedAmount(amount, of: item) }
            return guardsFormulas ? FormulaGuard.cell(amount) : amount
        case .priority: return priorityText(item.priority)
        case .completed:
            guard item.kind == .todo else { return "" }
            return export.machine ? String(item.isCompleted) : word(item.isCompleted ? .wordYes : .wordNo)
        case .relative:
            guard let expander, let when else { return "" }
            // Repeating days count to their next occurrence; one-off days to or from themselves.
            let target = item.recurrence == nil ? when.day : expander.nextOccurrence(of: item, onOrAfter: today)?.start.day
            return target.map { relativeText(today.days(until: $0)) } ?? ""
        default: return ""
        }
    }

    /// Retire Time's day types in the reader's words (生日, 倒數日); other values as written.
    /// (The five words are looked up once; a row's value is then compared, not hashed.)
    private func typeText(_ value: String?) -> String {
        guard let value, !export.iso else { return value ?? "" }
        if memo.types.isEmpty {
            memo.types = DayType.allCases.map { ($0.rawValue, word(Message(key: "csv.type." + $0.rawValue, table: ModuleMessages.table))) }
        }
        return memo.types.first { $0.value == value }?.text ?? value
    }

    /// A value that could not be read goes back out as it came in, not as a blank.
    private func unreadable(_ role: ColumnRole, of item: CalendarItem) -> String {
        for property in item.carried where property.name.hasPrefix(CarriedName.invalidPrefix) {
            if property.parameters.contains(where: { $0.name == CarriedName.Parameter.role && $0.values == [role.rawValue] }) {
                return text(property.text)
            }
        }
        return ""
    }

    /// An all-day end is exclusive in iCalendar (DTEND 3/6 for a day on 3/5); people write the last day.
    private func endText(_ end: DateValue) -> String {
        if case .date(let date) = end { return dateText(.date(date.adding(days: -1))) }
        if export.typed { return export.wall(end).description }
        return dateText(end) + " " + timeText(export.wall(end))
    }

    private func dateText(_ value: DateValue) -> String {
        if export.machine { return export.format(value, dateFormat: dateFormat) }
        let day = export.wall(value).date
        let number = day.daysSinceEpoch
        let slot = number & (memo.dayNumbers.count - 1)
        if memo.dayNumbers[slot] == number { return memo.dayTexts[slot] }
        let text = dateFormat.string(from: day)
        memo.dayNumbers[slot] = number
        memo.dayTexts[slot] = text
        return text
    }

    /// The text of a row's first rule and whether the words keep it (`rules` is not empty).
    private func remembered(_ rules: [RecurrenceRule]) -> (text: String, kept: Bool) {
        if memo.lastRules != rules {
            memo.lastRulesText = repeatText(rules[0])
            memo.lastRulesKept = Self.wordsKeep(rules[0])
            memo.lastRules = rules
        }
        return (memo.lastRulesText, memo.lastRulesKept)
    }

    private func repeatText(_ rule: RecurrenceRule) -> String {
        if let index = memo.repeatRules.firstIndex(of: rule) {
            guard index > 0 else { return memo.repeatTexts[0] }
            memo.repeatRules.swapAt(index, index - 1)
            memo.repeatTexts.swapAt(index, index - 1)
            return memo.repeatTexts[index - 1]
        }
        let text = describe(rule)
        if memo.repeatRules.count >= 16 {
            memo.repeatRules.removeLast()
            memo.repeatTexts.removeLast()
        }
        memo.repeatRules.insert(rule, at: 0)
        memo.repeatTexts.insert(text, at: 0)
        return text
    }

    private func describe(_ rule: RecurrenceRule) -> String {
        if export.iso { return rule.description }
        let message: Message = switch rule.frequency {
        case .yearly: rule.isLunar ? .csvRepeatYearlyLunar : .csvRepeatYearly
        case .monthly: .csvRepeatMonthly
        case .weekly: .csvRepeatWeekly
        case .daily: .csvRepeatDaily
        default: .csvRepeatOther
        }
        return message.rendered(in: export.language)
    }

    private func priorityText(_ priority: Priority) -> String {
        guard priority != .none else { return "" }
        return export.iso ? priority.rawValue : word(Message(key: "csv.priority.\(priority.rawValue)", table: ModuleMessages.table))
    }

    private func relativeText(_ days: Int) -> String {
        if export.machine { return String(days) }
        if days == 0 { return Message.csvRelativeToday.rendered(in: export.language) }
        let one = plurals?.category(for: abs(days)) == .one
        let count = counts?.string(abs(days)) ?? String(abs(days))
        let message: Message = days > 0 ? (one ? .csvRelativeFutureOne(days: count) : .csvRelativeFutureOther(days: count))
            : (one ? .csvRelativePastOne(days: count) : .csvRelativePastOther(days: count))
        return message.rendered(in: export.language)
    }
}
