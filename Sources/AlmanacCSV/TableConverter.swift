public import AlmanacCore
import AlmanacICU
import AlmanacCalendar
import Foundation

/// Between spreadsheets and the models: rows of a table become calendar items or ledger records
/// (columns recognised by their headers in en, zh-Hans or zh-Hant, values read the way people type
/// them), and calendars and ledgers become tables a person in Taipei, Shanghai or New York reads
/// as their own (headers in their language, dates and TWD amounts formatted for their region).
///
/// Options (`--option name=value`): `columns` (an explicit mapping, also `--columns`), `style`
/// (`region`, the default, or `iso` for machine-readable output), `relative` (`yes` adds a
/// countdown column), `today` (the day countdowns count from), `calendar` (`roc` writes 民國
/// dates), `rounding` (`cash`, the default, or `standard`).
public struct TableConverter: DocumentConverter {
    public init() {}

    public var conversions: [(from: ModelKind, to: ModelKind)] {
        [(.table, .agenda), (.table, .ledger), (.agenda, .table), (.ledger, .table)]
    }

    public var options: [FormatDescription.Option] {
        [
            .init(name: "columns", summary: "Which column holds what, where the headers do not say (also --columns): title=名稱,date=日期."),
            .init(name: "style", summary: "Write for people in the reader's region, or for machines (ISO dates, codes, plain numbers).",
                  values: ["region", "iso"], defaultValue: "region"),
            .init(name: "relative", summary: "Add a column counting the days to (or since) each day.", values: ["yes", "no"], defaultValue: "no"),
            .init(name: "today", summary: "The day countdowns and monthly savings count from (YYYY-MM-DD; default: today)."),
            .init(name: "calendar", summary: "Write dates in the Republic of China calendar (民國114/3/5).", values: ["gregorian", "roc"],
                  defaultValue: "gregorian"),
            .init(name: "lunar", summary: "Add the lunar date of each day (default: when some day repeats in the lunar calendar).",
                  values: ["yes", "no"]),
            .init(name: "amounts", summary: "Amounts as exact numbers a spreadsheet sums (a ledger's currency in its own column); or as people in the region read them ($1,234,568 in Taipei, NT$1,234,568 in New York).",
                  values: ["number", "formatted"], defaultValue: "number"),
            .init(name: "money", summary: "The older name of amounts: number, or display (= amounts=formatted).", values: ["number", "display"], defaultValue: "number"),
            .init(name: "rounding", summary: "With amounts=formatted: the currency's cash digits (TWD: whole dollars) or its standard digits, rounded half up.",
                  values: ["cash", "standard"], defaultValue: "cash"),
            .init(name: "currency", summary: "The currency of a days table's amounts (ISO 4217: TWD), where its header does not say (amount_twd, 金額（新台幣）)."),
            .init(name: "sheet", summary: "Which part of a ledger a table holds; all: every part, each a sheet of a workbook (xlsx).",
                  values: ["accounts", "changes", "goals", "snapshots", "all"]),
        ]
    }

    public func convert(_ document: Document, to model: ModelKind, context: CodecContext) throws(Diagnostic) -> (Document, [Diagnostic]) {
        switch (document, model) {
        case (.table(let table), .agenda):
            let (agenda, diagnostics) = try TableImport(table: table, context: context).agenda()
            return (.agenda(agenda), diagnostics)
        case (.table(let table), .ledger):
            let (ledger, diagnostics) = try TableImport(table: table, context: context).ledger()
            return (.ledger(ledger), diagnostics)
        case (.agenda(let agenda), .table):
            return try TableExport(context: context).table(agenda)
        case (.ledger(let ledger), .table):
            return try TableExport(context: context).table(ledger)
        default:
            throw Diagnostic.error(.convertModelMismatch(model: document.kind.rawValue, format: model.rawValue, expected: model.rawValue))
        }
    }
}

// MARK: Import

struct TableImport {
    let table: Table
    let context: CodecContext
    let reader: CellReader
    let file: String?

    init(table: Table, context: CodecContext) {
        self.table = table
        self.context = context
        self.reader = CellReader(locale: context.locale)
        self.file = context.sourceFile
    }

    /// Spreadsheet row numbers: the header is row 1.
    func rowNumber(_ index: Int) -> String { String(index + 2) }

    func cell(_ row: [String], _ column: Int?) -> String? {
        guard let column, column < row.count else { return nil }
        let value = FormulaGuard.unguard(row[column].trimmingCharacters(in: .whitespacesAndNewlines))
        return value.isEmpty ? nil : value
    }

    func agenda() throws(Diagnostic) -> (Agenda, [Diagnostic]) {
        var rows = try AgendaRowReader(columns: table.columns, context: context)
        var items: [CalendarItem] = []
        items.reserveCapacity(table.rows.count)
        for (index, row) in table.rows.enumerated() {
            if let item = rows.item(row, index: index) { items.append(item) }
        }
        return (Agenda(timeZone: context.timeZone?.identifier, items: items), rows.diagnostics)
    }

    func ledger() throws(Diagnostic) -> (Ledger, [Diagnostic]) {
        let map = try ColumnMap(columns: table.columns, explicit: context.options["columns"], fileName: file)
        var diagnostics: [Diagnostic] = []
        var ledger = Ledger()
        func amount(_ row: [String], _ index: Int, _ role: ColumnRole) -> (Decimal, String?)? {
            guard let text = cell(row, map[role]) else { return nil }
            switch reader.amount(text) {
            case .success(let value): return (value.value, value.currency)
            case .failure:
                diagnostics.append(.warning(.csvBadValue(row: rowNumber(index), column: table.columns[map[role]!], value: text, expected: Message.csvKindAmount.rendered()).localizing(.csvKindAmount), at: SourceLocation(file: file, keyPath: "row \(rowNumber(index))")))
                return nil
            }
        }
        func day(_ row: [String], _ index: Int, _ role: ColumnRole) -> CivilDate? {
            guard let text = cell(row, map[role]) else { return nil }
            if case .success(let value) = reader.date(text) { return value }
            diagnostics.append(.warning(.csvBadValue(row: rowNumber(index), column: table.columns[map[role]!], value: text, expected: Message.csvKindDate.rendered()).localizing(.csvKindDate), at: SourceLocation(file: file, keyPath: "row \(rowNumber(index))")))
            return nil
        }
        if map[.total] != nil, map[.date] != nil {
            // Asset snapshots, as the snapshots sheet writes them: a date, the total, and the total
            // of each kind of account under the kind's name (現金, 股票, Cash, …) when there.
            var kindColumns: [(Int, Account.Kind)] = []
            for (column, name) in table.columns.enumerated() {
                let name = name.trimmingCharacters(in: .whitespaces).lowercased()
                if let kind = Account.Kind.allCases.first(where: { kind in
                    name == kind.rawValue.lowercased() || Language.allCases.contains { Message(key: "ledger.kind.\(kind.rawValue)", table: ModuleMessages.table).rendered(in: $0).lowercased() == name }
                }) { kindColumns.append((column, kind)) }
            }
            for (index, row) in table.rows.enumerated() {
                guard let date = day(row, index, .date), let (total, _) = amount(row, index, .total) else { continue }
                var byKind: [Account.Kind: Decimal] = [:]
                for (column, kind) in kindColumns {
                    guard let text = cell(row, column) else { continue }
                    if case .success(let value) = reader.amount(text) { byKind[kind] = value.value } else {
                        diagnostics.append(.warning(.csvBadValue(row: rowNumber(index), column: table.columns[column], value: text, expected: Message.csvKindAmount.rendered()).localizing(.csvKindAmount), at: SourceLocation(file: file, keyPath: "row \(rowNumber(index))")))
                    }
                }
                ledger.snapshots.append(AssetSnapshot(id: cell(row, map[.uid]), date: date, total: total, byKind: byKind.isEmpty ? nil : byKind))
            }
        } else if map[.balance] != nil || (map[.amount] != nil && map[.date] == nil && map[.target] == nil) {
            let role: ColumnRole = map[.balance] != nil ? .balance : .amount
            for (index, row) in table.rows.enumerated() {
                guard let name = cell(row, map[.account]) ?? cell(row, map[.title]), let (balance, symbolCurrency) = amount(row, index, role) else { continue }
                let currency = cell(row, map[.currency])?.uppercased() ?? symbolCurrency ?? ledger.baseCurrency
                ledger.accounts.append(Account(
                    id: cell(row, map[.uid]) ?? "csv-\(rowNumber(index))", name: name,
                    kind: cell(row, map[.type]).flatMap(Self.accountKind) ?? (currency == ledger.baseCurrency ? .cash : .foreignCurrency),
                    currency: currency, balance: balance, updatedAt: day(row, index, .updated).map(DateValue.date),
                    openingBalance: map[.opening] != nil ? amount(row, index, .opening)?.0 : nil))
            }
        } else if map[.target] != nil {
            for (index, row) in table.rows.enumerated() {
                guard let name = cell(row, map[.title]), let (target, _) = amount(row, index, .target) else { continue }
                ledger.goals.append(SavingGoal(id: cell(row, map[.uid]) ?? "csv-\(rowNumber(index))", name: name, target: target,
                                               saved: amount(row, index, .saved)?.0 ?? 0, deadline: day(row, index, .deadline)))
            }
        } else if map[.amount] != nil {
            for (index, row) in table.rows.enumerated() {
                guard let (value, _) = amount(row, index, .amount), let date = day(row, index, .date) else { continue }
                ledger.balanceChanges.append(BalanceChange(
                    id: cell(row, map[.uid]) ?? "csv-\(rowNumber(index))", accountID: cell(row, map[.account]) ?? "",
                    amount: value, date: .date(date), note: cell(row, map[.notes]) ?? cell(row, map[.title])))
            }
        } else {
            throw Diagnostic.error(.csvNoAmountColumn(columns: table.columns.joined(separator: ", ")), at: SourceLocation(file: file))
        }
        return (ledger, diagnostics)
    }

    /// Words for a yearly day that are not the name of one of the types.
    static let yearlyTypes: Set<String> = ["birthday", "anniversary", "生日", "紀念日", "纪念日", "週年", "周年"]

    /// Retire Time's day types from the words any of the three languages writes for them
    /// (倒數日, 倒数日, Countdown, 自訂, custom), or nil for other words.
    static func dayType(_ text: String) -> DayType? {
        // Most cells are written as the app writes them: compared with its five words first (a
        // short string's comparison costs less than its hash), then looked up before folding case.
        if let type = DayType.allCases.first(where: { $0.rawValue == text }) { return type }
        return dayTypes[text] ?? dayTypes[text.lowercased()]
    }

    static let dayTypes: [String: DayType] = {
        var words: [String: DayType] = [:]
        for type in DayType.allCases {
            words[type.rawValue] = type
            for language in Language.allCases { words[Message(key: "csv.type.\(type.rawValue)", table: ModuleMessages.table).rendered(in: language).lowercased()] = type }
        }
        for (word, type) in [("正數", .countup), ("正数", .countup), ("倒數", .countdown), ("倒数", .countdown), ("自定義", .custom),
                             ("自定义", .custom), ("自訂", .custom), ("自定", .custom), ("紀念", .anniversary), ("纪念", .anniversary),
                             ("週年", .anniversary), ("周年", .anniversary), ("count up", .countup), ("count down", .countdown)] as [(String, DayType)] {
            words[word] = type
        }
        return words
    }()

    /// A repeat in words (每年（農曆）, every month) or as an RRULE (the iso style writes those).
    static func rule(_ text: String) -> RecurrenceRule? {
        if text.uppercased().contains("FREQ=") {
            let body = text.uppercased().hasPrefix("RRULE:") ? String(text.dropFirst(6)) : text
            return try? RecurrenceRule(parsing: body)
        }
        let value = text.lowercased()
        if value.contains("農曆") || value.contains("农历") || value.contains("lunar") { return RecurrenceRule(frequency: .yearly, scale: "CHINESE") }
        if ["yearly", "annually", "every year", "每年", "年"].contains(where: value.contains) { return RecurrenceRule(frequency: .yearly) }
        if ["monthly", "every month", "每月", "月"].contains(where: value.contains) { return RecurrenceRule(frequency: .monthly) }
        if ["weekly", "every week", "每週", "每周", "週", "周"].contains(where: value.contains) { return RecurrenceRule(frequency: .weekly) }
        if ["daily", "every day", "每天", "每日", "天"].contains(where: value.contains) { return RecurrenceRule(frequency: .daily) }
        return nil
    }

    static func priority(_ text: String) -> Priority {
        switch text.lowercased() {
        case "high", "高", "!!!", "1", "2", "3", "4", "urgent", "緊急", "紧急": .high
        case "medium", "中", "!!", "5", "normal", "普通": .medium
        case "low", "低", "!", "6", "7", "8", "9": .low
        default: .none
        }
    }

    static func truth(_ text: String) -> Bool {
        ["yes", "y", "true", "1", "x", "✓", "✔", "是", "已完成", "完成", "done", "completed"].contains(text.lowercased())
    }

    static func accountKind(_ text: String) -> Account.Kind? {
        let value = text.lowercased()
        if let kind = Account.Kind(rawValue: text) { return kind }
        if ["現金", "现金", "cash", "存款", "活存", "bank"].contains(where: value.contains) { return .cash }
        if ["股票", "stock", "證券", "证券", "基金"].contains(where: value.contains) { return .stock }
        if ["外幣", "外币", "foreign"].contains(where: value.contains) { return .foreignCurrency }
        if ["保險", "保险", "insurance"].contains(where: value.contains) { return .insurance }
        if ["加密", "crypto", "bitcoin", "比特幣"].contains(where: value.contains) { return .crypto }
        return nil
    }

    /// A column name as an iCalendar property name part (letters, digits and dashes).
    static func propertyName(_ column: String) -> String {
        let name = String(column.uppercased().unicodeScalars.map { scalar -> Character in
            ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) ? Character(scalar) : "-"
        })
        let trimmed = name.split(separator: "-").joined(separator: "-")
        return trimmed.isEmpty ? "COLUMN-" + hash(column).prefix(8) : trimmed
    }

    static func hash(_ text: String) -> String { StableHash.hex(text) }
}

// MARK: Export

struct TableExport {
    let context: CodecContext
    let locale: LocaleID
    let language: Language
    let iso: Bool
    /// For a spreadsheet with typed cells: numbers and dates in machine form, typed by column
    /// (`Table.cellTypes`); headers and words as the style says.
    let typed: Bool
    let zone: TimeZoneID

    init(context: CodecContext) {
        self.context = context
        self.locale = context.locale ?? .americanEnglish
        self.language = Language(tag: locale.bcp47)
        self.iso = context.options["style"] == "iso"
        self.typed = context.typedCells
        self.zone = context.readingZone
    }

    /// Whether values are written in machine form (ISO dates, plain numbers).
    var machine: Bool { iso || typed }

    /// A text cell with the formula guard, which a typed cell does not need: it is stored as
    /// text and never read as a formula.
    func guarded(_ text: String) -> String { typed ? text : FormulaGuard.text(text) }

    func header(_ role: ColumnRole) -> String { iso ? role.rawValue : role.header(in: language) }

    func table(_ agenda: Agenda) throws(Diagnostic) -> (Document, [Diagnostic]) {
        let writer = try AgendaRowWriter(agenda: agenda, context: context)
        var rows: [[String]] = []
        rows.reserveCapacity(agenda.items.count)
        for item in agenda.items {
            if item.recurrenceID == nil { rows.append(writer.row(item)) } else { writer.skip(item) }
        }
        return (.table(Table(columns: writer.columns, rows: rows, cellTypes: writer.cellTypes)), writer.report(target: context.targetFormat ?? "table"))
    }

    /// A ledger as one sheet: accounts (the default), changes, goals (with progress and the
    /// monthly amount still needed) or snapshots (with the change from the month before);
    /// `--option sheet=…` picks one, the others are named in a warning.
    func table(_ ledger: Ledger) throws(Diagnostic) -> (Document, [Diagnostic]) {
        let parts: [(name: String, present: Bool)] = [("accounts", !ledger.accounts.isEmpty), ("changes", !ledger.balanceChanges.isEmpty),
                                                      ("goals", !ledger.goals.isEmpty), ("snapshots", !ledger.snapshots.isEmpty)]
        let asked = context.options["sheet"]
        guard asked == "all" else { return try table(ledger, sheet: asked ?? parts.first { $0.present }?.name ?? "accounts", parts: parts) }
        // Every sheet the ledger fills, in a workbook (one-sheet formats write the first and say so).
        let present = parts.filter(\.present).map(\.name)
        var sheets: [Table] = []
        var diagnostics: [Diagnostic] = []
        for name in present.isEmpty ? ["accounts"] : present {
            let (document, found) = try table(ledger, sheet: name, parts: [])
            guard case .table(var sheet) = document else { continue }
            sheet.name = Message(key: "ledger.sheet.\(name)", table: ModuleMessages.table).rendered(in: language)
            sheets.append(sheet)
            diagnostics += found
        }
        var first = sheets.removeFirst()
        if !sheets.isEmpty {
            first.otherSheets = sheets
            if !typed { diagnostics.append(.note(.csvOtherSheets(sheets: present.dropFirst().joined(separator: ", ")))) }
        }
        return (.table(first), diagnostics)
    }

    /// One sheet of a ledger; `parts` are the ones a note names when they are left out.
    private func table(_ ledger: Ledger, sheet: String, parts: [(name: String, present: Bool)]) throws(Diagnostic) -> (Document, [Diagnostic]) {
        let dateFormat = try dateFormatter()
        // One money style for every sheet: by default the exact amount, a number a spreadsheet
        // sums, with the currency in its own column; `amounts=formatted` writes amounts as people read
        // them (TWD in Taipei: $1,234,568, cash digits unless `rounding=standard`, half up).
        let display = (context.options["amounts"] == "formatted" || context.options["money"] == "display") && !machine
        let rounding: CurrencyFormat.Rounding = context.options["rounding"] == "standard" ? .standard : .cash
        let exact = machine ? nil : try? NumberFormat.exact(locale: locale)
        var amounts = AmountText(locale: locale, rounding: rounding)
        var losses = Losses()
        func money(_ value: Decimal, _ currency: String, of name: String, _ field: String) -> String {
            guard display else { return exact?.string(value) ?? value.exactText }
            let (text, kept) = amounts.text(value, currency: currency)
            // Rounded for display (1234567.50 → $1,234,568): said, so that nobody sums it unaware.
            if !kept { losses.approximated(field, of: name, as: text) }
            return text
        }
        guard Self.sheets.contains(sheet) else {
            throw Diagnostic.error(.cliValueChoices(value: sheet, choices: (Self.sheets + ["all"]).joined(separator: ", ")))
        }
        let today: CivilDate = context.options["today"].flatMap { try? CivilDate(iso: $0) } ?? zone.wallTime(at: Date()).date
        var table: Table
        switch sheet {
        case "accounts":
            // The opening balance (初始餘額) when the app kept it.
            let opening = ledger.accounts.contains { $0.openingBalance != nil }
            table = Table(columns: ([.account, .type, .currency, .balance] + (opening ? [.opening] : []) + [.updated]).map(header))
            let amount = Table.CellType.amount(currency: nil, currencyColumn: 2)
            table.cellTypes = [.text, .text, .text, amount] + (opening ? [amount] : []) + [.date]
            for account in ledger.accounts {
                var row = [guarded(account.name),
                           iso ? account.kind.rawValue : Message(key: "ledger.kind.\(account.kind.rawValue)", table: ModuleMessages.table).rendered(in: language),
                           account.currency, money(account.balance, account.currency, of: account.name, "balance")]
                if opening { row.append(account.openingBalance.map { money($0, account.currency, of: account.name, "openingBalance") } ?? "") }
                row.append(account.updatedAt.map { format($0, dateFormat: dateFormat) } ?? "")
                table.rows.append(row)
            }
        case "changes":
            let names = Dictionary(ledger.accounts.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            table = Table(columns: [.date, .account, .currency, .amount, .notes].map(header))
            table.cellTypes = [.date, .text, .text, .amount(currency: nil, currencyColumn: 2), .text]
            for change in ledger.balanceChanges {
                let currency = ledger.accounts.first { $0.id == change.accountID }?.currency ?? ledger.baseCurrency
                table.rows.append([format(change.date, dateFormat: dateFormat), guarded(names[change.accountID] ?? change.accountID),
                                   currency, money(change.amount, currency, of: names[change.accountID] ?? change.accountID, "amount"), guarded(change.note ?? "")])
            }
        case "goals":
            table = Table(columns: [.title, .currency, .target, .saved, .deadline, .progress, .monthly].map(header))
            let amount = Table.CellType.amount(currency: nil, currencyColumn: 1)
            table.cellTypes = [.text, .text, amount, amount, .date, .percent, amount]
            let percent = try? NumberFormat.percent(locale: locale)
            for goal in ledger.goals {
                let progress = goal.target > 0 ? goal.saved / goal.target : 0
                var monthly = ""
                if let deadline = goal.deadline, goal.saved < goal.target {
                    // Whole months left, counting the current one; at least one.
                    let months = max(1, (deadline.year - today.year) * 12 + deadline.month - today.month + (deadline.day >= today.day ? 0 : -1) + 1)
                    // Rounded up to a whole unit: saving that much each month reaches the goal.
                    var exact = (goal.target - goal.saved) / Decimal(months)
                    var whole = Decimal()
                    NSDecimalRound(&whole, &exact, 0, .up)
                    monthly = money(whole, goal.currency, of: goal.name, "monthly")
                }
                table.rows.append([guarded(goal.name), goal.currency, money(goal.target, goal.currency, of: goal.name, "target"), money(goal.saved, goal.currency, of: goal.name, "saved"),
                                   goal.deadline.map { machine ? $0.description : dateFormat.string(from: $0) } ?? "",
                                   machine ? progress.description : (percent?.string(progress) ?? progress.description), monthly])
            }
        default:
            // Month to month: the change and its percentage (需求1.3–1.4), then the total of each kind
            // of account when the snapshots kept it.
            let kinds = Account.Kind.allCases.filter { kind in ledger.snapshots.contains { $0.byKind?[kind] != nil } }
            table = Table(columns: [.date, .currency, .total, .change, .changePercent].map(header)
                + kinds.map { iso ? $0.rawValue : Message(key: "ledger.kind.\($0.rawValue)", table: ModuleMessages.table).rendered(in: language) })
            let amount = Table.CellType.amount(currency: ledger.baseCurrency, currencyColumn: 1)
            table.cellTypes = [.date, .text, amount, amount, .percent] + kinds.map { _ in amount }
            let percent = try? NumberFormat.percent(locale: locale, fractionDigits: 1)
            var previous: Decimal?
            for snapshot in ledger.snapshots.sorted(by: { $0.date < $1.date }) {
                let change = previous.map { snapshot.total - $0 }
                var share = ""
                if let change, let previous, previous != 0 {
                    let ratio = change / previous
                    share = machine ? ratio.description : (percent?.string(ratio) ?? ratio.description)
                }
                table.rows.append([machine ? snapshot.date.description : dateFormat.string(from: snapshot.date), ledger.baseCurrency,
                                   money(snapshot.total, ledger.baseCurrency, of: snapshot.date.description, "total"),
                                   change.map { money($0, ledger.baseCurrency, of: snapshot.date.description, "change") } ?? "", share]
                                  + kinds.map { kind in snapshot.byKind?[kind].map { money($0, ledger.baseCurrency, of: snapshot.date.description, kind.rawValue) } ?? "" })
                previous = snapshot.total
            }
        }
        if !typed { table.cellTypes = nil }
        let dropped = parts.filter { $0.present && $0.name != sheet }.map(\.name)
        var diagnostics: [Diagnostic] = dropped.isEmpty ? [] : [.note(.csvOtherSheets(sheets: dropped.joined(separator: ", ")))]
        diagnostics += losses.diagnostics(target: context.targetFormat ?? "table")
        return (.table(table), diagnostics)
    }

    /// A ledger's sheets, in the order a workbook has them.
    static let sheets = ["accounts", "changes", "goals", "snapshots"]

    func dateFormatter() throws(Diagnostic) -> DateFormat {
        do {
            if context.options["calendar"] == "roc" { return try DateFormat(pattern: "Gy/M/d", locale: ROCCalendar.locale(locale)) }
            return try DateFormat(skeleton: "yMd", locale: locale)
        } catch {
            throw Diagnostic.error(.localeUnknown(tag: locale.bcp47))
        }
    }


    /// The wall time a value shows: in the reader's zone when one is given.
    func wall(_ value: DateValue) -> CivilDateTime {
        switch value {
        case .date(let date): CivilDateTime(unchecked: date, 0, 0, 0)
        case .floating(let time): time
        case .zoned(let time, let name):
            context.timeZone.flatMap { target in
                TimeZoneID.resolve(name).map { source in
                    target.wallTime(at: (try? source.zone.instant(for: time)) ?? Date())
                }
            } ?? time
        case .utc(let time): zone.wallTime(at: Date(timeIntervalSince1970: Double(time.secondsSinceEpoch)))
        // A time written with its offset shows as written unless a zone to read it in is given.
        case .offset(let time, let seconds):
            context.timeZone.map { $0.wallTime(at: Date(timeIntervalSince1970: Double(time.secondsSinceEpoch - seconds))) } ?? time
        }
    }

    func format(_ value: DateValue, dateFormat: DateFormat) -> String {
        if machine {
            switch value {
            case .date(let date): return date.description
            default: return wall(value).date.description
            }
        }
        return dateFormat.string(from: wall(value).date)
    }
}
