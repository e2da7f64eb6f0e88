@testable import AlmanacCSV
import AlmanacCore
import AlmanacTestSupport
import AlmanacICU
import Foundation
import Testing

@Suite struct CellReaderTests {
    let taiwan = CellReader(locale: .taiwan)
    let america = CellReader(locale: .americanEnglish)
    let unknown = CellReader(locale: nil)

    @Test(arguments: ["2025-03-05", "2025/3/5", "2025.03.05", "20250305", "2025年3月5日", "民國114年3月5日", "民國114/3/5", "２０２５/３/５"])
    func datesPeopleType(text: String) throws {
        #expect(try unknown.date(text).get() == CivilDate(year: 2025, month: 3, day: 5))
    }

    @Test(arguments: ["2025/3/5/1", "12025-3-5", "2025-123-5", "2025-3-", "民國2025/3/5", "3/5/25", "2025/3/5 日", "2025年3月5日日", "1234567", "2025-03-05T10:00"])
    func notDates(text: String) {
        #expect(unknown.date(text).isFailure)
    }

    @Test func spacesAndFullWidthForms() throws {
        #expect(try unknown.date(" 民國 114 年 3 月 5 日 ").get() == CivilDate(year: 2025, month: 3, day: 5))
        #expect(try unknown.date("２０２５年３月５日").get() == CivilDate(year: 2025, month: 3, day: 5))
        #expect(try taiwan.date("\n2025/3/5\t").get() == CivilDate(year: 2025, month: 3, day: 5))
    }

    @Test func regionDecidesDayAndMonth() throws {
        #expect(try america.date("3/5/2025").get() == CivilDate(year: 2025, month: 3, day: 5))
        #expect(try CellReader(locale: LocaleID("en-GB")).date("3/5/2025").get() == CivilDate(year: 2025, month: 5, day: 3))
        #expect(unknown.date("3/5/2025") == .failure(.ambiguousDate))
        #expect(try unknown.date("13/5/2025").get() == CivilDate(year: 2025, month: 5, day: 13))
        #expect(try america.date("Mar 5, 2025").get() == CivilDate(year: 2025, month: 3, day: 5))
        #expect(unknown.date("2025/2/30") == .failure(.notADate))
    }

    @Test func times() throws {
        #expect(try unknown.time("14:30").get() == (14, 30, 0))
        #expect(try unknown.time("2:30 PM").get() == (14, 30, 0))
        #expect(try unknown.time("下午2:30").get() == (14, 30, 0))
        #expect(try unknown.time("上午 12:05").get() == (0, 5, 0))
        #expect(unknown.time("25:00").isFailure)
    }

    @Test func amounts() throws {
        #expect(try taiwan.amount("NT$1,234").get() == (Decimal(1234), "TWD"))
        #expect(try taiwan.amount("$1,234.50").get() == (Decimal(string: "1234.5")!, "TWD"))
        #expect(try america.amount("$1,234.50").get() == (Decimal(string: "1234.5")!, "USD"))
        #expect(try taiwan.amount("1,234元").get() == (Decimal(1234), "TWD"))
        #expect(try taiwan.amount("(1,234)").get().value == Decimal(-1234))
        #expect(try taiwan.amount("-NT$32,000").get().value == Decimal(-32000))
        #expect(try taiwan.amount("０.５").get().value == Decimal(string: "0.5")!)
        #expect(try CellReader(locale: LocaleID("de-DE")).amount("1.234,50").get().value == Decimal(string: "1234.5")!)
        #expect(taiwan.amount("12a").isFailure)
        #expect(taiwan.amount("1,23,4").isFailure)
        // Currencies ICU does not know, written with their code as JellySave writes them.
        #expect(try taiwan.amount("BTC 0.0123").get() == (Decimal(string: "0.0123")!, "BTC"))
        #expect(try taiwan.amount("0.5 ETH").get() == (Decimal(string: "0.5")!, "ETH"))
        #expect(try taiwan.amount("USDT 1,200").get() == (Decimal(1200), "USDT"))
        #expect(try taiwan.amount("-BTC 0.01").get() == (Decimal(string: "-0.01")!, "BTC"))
        #expect(taiwan.amount("BITCOIN 1").isFailure)
        #expect(taiwan.amount("Btc 1").isFailure)
    }
}

extension Result {
    var isFailure: Bool { if case .failure = self { true } else { false } }
}

@Suite struct TableMappingTests {
    func agenda(_ name: String, _ options: CodecOptions = [:], locale: LocaleID? = nil) throws -> (Agenda, [Diagnostic]) {
        let (table, _) = try decodeTable(name)
        let (document, diagnostics) = try TableConverter().convert(.table(table), to: .agenda,
                                                                   context: CodecContext(locale: locale, options: options))
        guard case .agenda(let agenda) = document else { fatalError() }
        return (agenda, diagnostics)
    }

    @Test func traditionalChineseHeadersAndROCDates() throws {
        let (agenda, diagnostics) = try agenda("excel-taipei-big5.csv")
        let mom = agenda.items[0]
        #expect(mom.title == "媽媽生日")
        #expect(mom.start == .date(try CivilDate(year: 1960, month: 9, day: 12)))
        #expect(mom.recurrence?.rules == [RecurrenceRule(frequency: .yearly)])  // a birthday comes back every year
        #expect(mom.notes == "記得訂蛋糕，地點：台北101")
        // NT$1,200 is the amount 1200 in TWD.
        #expect(mom.carriedText(CarriedName.amount) == "1200")
        #expect(mom.carriedText(CarriedName.currency) == "TWD")
        #expect(agenda.items[2].start == .date(try CivilDate(year: 2025, month: 4, day: 5)))
        #expect(diagnostics.isEmpty)
    }

    @Test func simplifiedChineseHeaders() throws {
        let (agenda, _) = try agenda("excel-shanghai-gbk.csv")
        #expect(agenda.items.map(\.title) == ["妈妈生日", "结婚纪念日", "还房贷", "入职纪念日", "毕业典礼"])
        #expect(agenda.items[1].recurrence?.rules == [RecurrenceRule(frequency: .yearly)])
    }

    @Test func americanDatesNeedTheLocale() throws {
        let (ambiguous, warnings) = try agenda("us-dates.csv")
        #expect(ambiguous.items[0].start == nil)
        #expect(warnings.map(\.code) == ["csv.ambiguous-date"])
        let (agenda, diagnostics) = try agenda("us-dates.csv", locale: .americanEnglish)
        #expect(diagnostics.isEmpty)
        #expect(agenda.items[0].start == .floating(try CivilDateTime(date: CivilDate(year: 2025, month: 3, day: 5), hour: 14, minute: 30)))
        #expect(agenda.items[0].location == "Main St")
    }

    @Test func explicitColumnsAndExtraColumns() throws {
        let (agenda, diagnostics) = try agenda("pipes.csv", ["columns": "title=notes"])
        #expect(agenda.items[0].title == "a, b, c")
        #expect(agenda.items[0].carried.contains { $0.name == "X-CSV-NAME" && $0.value == "Trip" })
        #expect(diagnostics.map(\.code) == ["csv.extra-columns"])
        let error = #expect(throws: Diagnostic.self) { try self.agenda("pipes.csv", ["columns": "title=nope"]) }
        #expect(error?.code == "csv.unknown-column")
    }

    @Test func jellySaveAccounts() throws {
        let (table, _) = try decodeTable("jellysave-accounts.csv")
        let (document, diagnostics) = try TableConverter().convert(.table(table), to: .ledger, context: CodecContext(locale: .taiwan))
        guard case .ledger(let ledger) = document else { fatalError() }
        #expect(diagnostics.isEmpty)
        #expect(ledger.accounts.map(\.name) == ["台新活存", "元大證券", "美金定存", "比特幣"])
        #expect(ledger.accounts.map(\.kind) == [.cash, .stock, .foreignCurrency, .crypto])
        #expect(ledger.accounts.map(\.balance) == [Decimal(1_234_567), Decimal(456_789), Decimal(string: "3200.5")!, Decimal(string: "0.0123")!])
        #expect(ledger.accounts.map(\.currency) == ["TWD", "TWD", "USD", "BTC"])
    }
}

@Suite struct RegionExportTests {
    static let agenda = Agenda(items: [
        CalendarItem(uid: "mom", title: "媽媽生日", start: .date(try! CivilDate(year: 2025, month: 10, day: 6)),
                     recurrence: Recurrence(rules: [rule("RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=8;BYMONTHDAY=15")]), categories: ["生日"]),
        CalendarItem(uid: "hack", title: "=HYPERLINK(\"http://evil\")", notes: "-2+3",
                     start: .date(try! CivilDate(year: 2025, month: 12, day: 1))),
    ])

    func export(_ locale: String?, _ options: [String: String] = [:]) throws -> [[String]] {
        let context = CodecContext(locale: try locale.map(LocaleID.init), options: CodecOptions(options.merging(["today": "2025-10-01"]) { $1 }))
        let (document, _) = try TableConverter().convert(.agenda(Self.agenda), to: .table, context: context)
        guard case .table(let table) = document else { fatalError() }
        return [table.columns] + table.rows
    }

    @Test func taipeiReadsItsOwnWords() throws {
        let rows = try export("zh-TW", ["relative": "yes"])
        #expect(rows[0] == ["名稱", "日期", "農曆", "重複", "地點", "分類", "備註", "倒數"])
        #expect(rows[1] == ["媽媽生日", "2025/10/6", "八月十五", "每年（農曆）", "", "生日", "", "還有 5 天"])
        #expect(try export("zh-TW", ["calendar": "roc"])[1][1] == "民國114/10/6")
    }

    @Test func shanghaiAndNewYork() throws {
        #expect(try export("zh-CN")[0].prefix(3) == ["名称", "日期", "农历"])
        #expect(try export("zh-CN")[1][2] == "八月十五")
        let american = try export("en-US", ["relative": "yes"])
        #expect(american[0].prefix(2) == ["Name", "Date"])
        #expect(american[1][1] == "10/6/2025")
        #expect(american[1].last == "5 days left")
        #expect(american[2].last == "61 days left")
    }

    @Test func isoStyleIsForMachines() throws {
        let rows = try export(nil, ["style": "iso", "relative": "yes"])
        #expect(rows[0] == ["uid", "title", "date", "lunar", "repeat", "location", "category", "notes", "relative"])
        #expect(rows[1] == ["mom", "媽媽生日", "2025-10-06", "八月十五", "RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=8;BYMONTHDAY=15", "", "生日", "", "5"])
    }

    @Test func textCellsCannotRunFormulas() throws {
        let rows = try export("en-US")
        #expect(rows[2][0] == "'=HYPERLINK(\"http://evil\")")
        #expect(rows[2][6] == "'-2+3")
    }

    @Test func ledgerInTaiwanDollars() throws {
        let ledger = Ledger(accounts: [Account(id: "a", name: "台新活存", kind: .cash, balance: Decimal(string: "1234567.5")!)])
        let (document, _) = try TableConverter().convert(.ledger(ledger), to: .table, context: CodecContext(locale: .taiwan))
        guard case .table(let table) = document else { fatalError() }
        #expect(table.columns == ["帳戶", "類型", "幣別", "餘額", "更新時間"])
        // A data cell keeps the exact amount, a number a spreadsheet sums (it once rounded to $1,234,568).
        #expect(table.rows[0] == ["台新活存", "現金", "TWD", "1234567.5", ""])
        let (display, _) = try TableConverter().convert(.ledger(ledger), to: .table,
                                                        context: CodecContext(locale: .taiwan, options: ["money": "display"]))
        guard case .table(let displayTable) = display else { fatalError() }
        #expect(displayTable.rows[0][3] == "$1,234,568")
        let (american, _) = try TableConverter().convert(.ledger(ledger), to: .table,
                                                         context: CodecContext(locale: .americanEnglish, options: ["money": "display", "rounding": "standard"]))
        guard case .table(let usTable) = american else { fatalError() }
        #expect(usTable.rows[0][3] == "NT$1,234,567.50")
    }

    /// A days table's amounts: numbers by default, in the currency the header names (`amount_twd`,
    /// `金額（新台幣）`) or `currency=TWD` gives; `amounts=formatted` writes them as the region reads
    /// them, saying which were rounded; the header names the currency so the table reads back whole.
    @Test func daysAmountsInTheirCurrency() throws {
        func days(_ header: String, _ amounts: [String], options: [String: String] = [:]) throws -> Agenda {
            let table = Table(columns: ["name", "date", header], rows: amounts.enumerated().map { ["day \($0.offset)", "2025-07-05", $0.element] })
            let (document, _) = try TableConverter().convert(.table(table), to: .agenda, context: CodecContext(locale: .taiwan, options: CodecOptions(options)))
            guard case .agenda(let agenda) = document else { fatalError() }
            return agenda
        }
        func written(_ agenda: Agenda, locale: LocaleID, options: [String: String] = [:]) throws -> (Table, [Diagnostic]) {
            let (document, diagnostics) = try TableConverter().convert(.agenda(agenda), to: .table, context: CodecContext(locale: locale, options: CodecOptions(options)))
            guard case .table(let table) = document else { fatalError() }
            return (table, diagnostics)
        }
        for header in ["amount_twd", "Amount (TWD)", "金額（新台幣）", "金額(TWD)"] {
            #expect(ColumnMap.currency(ofHeader: header) == "TWD", "\(header)")
            let agenda = try days(header, ["1234567.5", "NT$12,000"])
            #expect(agenda.items.map { $0.carriedText(CarriedName.amount) } == ["1234567.5", "12000"], "\(header)")
            #expect(agenda.items.map { $0.carriedText(CarriedName.currency) } == ["TWD", "TWD"], "\(header)")
        }
        #expect(ColumnMap.currency(ofHeader: "amount") == nil && ColumnMap.currency(ofHeader: "start date") == nil)
        // No currency said: amounts are kept as written, and none is invented.
        let plain = try days("amount", ["1234567.5", "12 apples"])
        #expect(plain.items.map { $0.carriedText(CarriedName.currency) } == [nil, nil])
        #expect(plain.items.map { $0.carriedText(CarriedName.amount) } == ["1234567.5", "12 apples"])
        let given = try days("amount", ["1234567.5"], options: ["currency": "twd"])
        #expect(given.items[0].carriedText(CarriedName.currency) == "TWD")
        #expect(throws: Diagnostic.self) { _ = try days("amount", ["1"], options: ["currency": "T;D"]) }

        let agenda = try days("amount_twd", ["1234567.5", "12000"])
        let (numbers, _) = try written(agenda, locale: .taiwan)
        #expect(numbers.columns.last == "金額（TWD）")
        #expect(numbers.rows.map { $0.last } == ["1234567.5", "12000"])
        let (taipei, notes) = try written(agenda, locale: .taiwan, options: ["amounts": "formatted"])
        #expect(taipei.rows.map { $0.last } == ["$1,234,568", "$12,000"])
        #expect(notes.contains { $0.code == .convertApproximated && $0.message.arguments.contains("$1,234,568") })
        let (newYork, _) = try written(agenda, locale: .americanEnglish, options: ["amounts": "formatted", "rounding": "standard"])
        #expect(newYork.columns.last == "Amount (TWD)")
        #expect(newYork.rows.map { $0.last } == ["NT$1,234,567.50", "NT$12,000.00"])
        // Read back, the header's currency comes with it.
        let again = try days(numbers.columns.last!, numbers.rows.map { $0.last! })
        #expect(again.items.map { $0.carriedText(CarriedName.currency) } == ["TWD", "TWD"])
    }

    /// Every sheet has one money style: exact numbers with the currency beside them, the same in
    /// goals, changes and snapshots; display amounts only on request, rounded half up.
    @Test func everySheetKeepsExactAmounts() throws {
        var ledger = Ledger(accounts: [Account(id: "a", name: "活存", kind: .cash, balance: Decimal(string: "2.5")!)])
        ledger.balanceChanges = [BalanceChange(id: "c", accountID: "a", amount: Decimal(string: "-1234.56")!, date: .date(try CivilDate(year: 2025, month: 1, day: 2)))]
        ledger.snapshots = [AssetSnapshot(date: try CivilDate(year: 2025, month: 1, day: 31), total: Decimal(string: "1000.25")!)]
        ledger.goals = [SavingGoal(id: "g", name: "旅行", target: Decimal(string: "120000")!, saved: Decimal(string: "4500.5")!, currency: "TWD")]
        for (sheet, amounts) in [("accounts", ["2.5"]), ("changes", ["-1234.56"]), ("snapshots", ["1000.25"]), ("goals", ["120000", "4500.5"])] {
            let (document, _) = try TableConverter().convert(.ledger(ledger), to: .table, context: CodecContext(locale: .taiwan, options: ["sheet": sheet]))
            guard case .table(let table) = document else { fatalError() }
            #expect(table.columns.contains("幣別"), "\(sheet)")
            for amount in amounts { #expect(table.rows[0].contains(amount), "\(sheet): \(table.rows[0])") }
        }
        let (display, _) = try TableConverter().convert(.ledger(ledger), to: .table,
                                                        context: CodecContext(locale: .americanEnglish, options: ["money": "display"]))
        guard case .table(let table) = display else { fatalError() }
        #expect(table.rows[0][3] == "NT$3")  // 2.5 rounds half up, as people round; it was NT$2 (half to even)
    }
}

@Suite struct PlainNumberTests {
    /// An amount is kept exactly as written when it is a number as programs write one.
    @Test func numbersAsProgramsWriteThem() {
        for text in ["1097135", "-500", "1234567.5", "0", "0.25", "-0.5"] { #expect(AgendaRowReader.isPlainNumber(text), "\(text)") }
        for text in ["", "-", "1.", ".5", "1.2.3", "12a", "--1", "1-", "-.5", "１２", "3,587", " 12", "12 ", "NT$12", "1e5", "+1"] {
            #expect(!AgendaRowReader.isPlainNumber(text), "\(text)")
        }
    }
}
