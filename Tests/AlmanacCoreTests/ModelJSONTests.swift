import AlmanacCore
import AlmanacTestSupport
import AlmanacICU
import Foundation
import Testing

@Suite struct ModelJSONTests {
    static let sampleAgenda = Agenda(
        name: "家人生日", timeZone: "Asia/Taipei",
        items: [
            CalendarItem(
                uid: "mom-birthday@retiretime", title: "媽媽生日", notes: "記得訂蛋糕",
                start: .date(try! CivilDate(year: 1960, month: 9, day: 12)),
                recurrence: Recurrence(rules: [rule("FREQ=YEARLY;RSCALE=CHINESE;BYMONTH=8;BYMONTHDAY=15")]),
                categories: ["生日"], color: "#FF6B6B",
                alarms: [Alarm(trigger: .relative(seconds: -86_400, fromEnd: false), message: "明天是媽媽生日")],
                carried: [CarriedProperty(name: "X-APPLE-TRAVEL-ADVISORY-BEHAVIOR", parameters: [], value: "AUTOMATIC")]),
            CalendarItem(
                kind: .todo, uid: "mortgage", title: "繳房貸",
                due: .zoned(try! CivilDateTime(date: CivilDate(year: 2025, month: 4, day: 5), hour: 9), zone: "Asia/Taipei"),
                priority: .high),
            CalendarItem(uid: "call", title: "Call", start: .utc(try! CivilDateTime(date: CivilDate(year: 2025, month: 3, day: 5), hour: 1))),
        ])

    @Test func agendaRoundTripsAndIsDeterministic() throws {
        let codec = ModelJSONCodec(.agenda)
        let bytes = try codec.encode(.agenda(Self.sampleAgenda), context: CodecContext()).bytes
        let decoded = try codec.decode(CodecInput(bytes: bytes, fileName: "a.agenda.json"), context: CodecContext())
        #expect(decoded.document == .agenda(Self.sampleAgenda))
        #expect(try codec.encode(decoded.document, context: CodecContext()).bytes == bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"carried\" : ["))
        #expect(text.contains("\"model\" : \"agenda\""))
        #expect(text.contains("\"start\" : \"1960-09-12\""))
        #expect(text.contains("\"due\" : \"2025-04-05T09:00:00[Asia/Taipei]\""))
        #expect(text.contains("\"start\" : \"2025-03-05T01:00:00Z\""))
        #expect(text.hasSuffix("}\n"))
    }

    @Test func leftOutFieldsTakeTheirDefaults() throws {
        let minimal = #"{"model": "agenda", "version": 1, "items": [{"uid": "x", "title": "Dentist", "start": "2025-03-05T09:00:00"}]}"#
        let decoded = try ModelJSONCodec(.agenda).decode(CodecInput(bytes: Array(minimal.utf8)), context: CodecContext())
        guard case .agenda(let agenda) = decoded.document else { Issue.record("not an agenda"); return }
        #expect(agenda.items == [CalendarItem(uid: "x", title: "Dentist", start: .floating(try CivilDateTime(date: CivilDate(year: 2025, month: 3, day: 5), hour: 9)))])
        // Written back, every default is spelled out and empty lists are compact.
        let text = String(decoding: try ModelJSONCodec(.agenda).encode(decoded.document, context: CodecContext()).bytes, as: UTF8.self)
        #expect(text.contains("\"alarms\" : [],"))
        #expect(text.contains("\"priority\" : \"none\""))
        #expect(!text.contains("[\n\n"))  // no multi-line empty containers
    }

    @Test func moneyStaysExact() throws {
        let ledger = Ledger(accounts: [
            Account(id: "a1", name: "台新活存", kind: .cash, balance: Decimal(string: "1234567.89")!),
            Account(id: "a2", name: "Bitcoin", kind: .crypto, currency: "BTC", balance: Decimal(string: "0.00012345")!),
        ], goals: [SavingGoal(id: "g1", name: "日本旅行", target: Decimal(string: "80000")!, saved: Decimal(string: "0.1")! + Decimal(string: "0.2")!)])
        let codec = ModelJSONCodec(.ledger)
        let bytes = try codec.encode(.ledger(ledger), context: CodecContext()).bytes
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\"balance\" : 1234567.89"))
        #expect(text.contains("\"balance\" : 0.00012345"))
        #expect(text.contains("\"saved\" : 0.3"))
        let decoded = try codec.decode(CodecInput(bytes: bytes), context: CodecContext())
        #expect(decoded.document == .ledger(ledger))
    }

    @Test func catalogPluralsUseCategoryNames() throws {
        let catalog = Catalog(entries: [CatalogEntry(key: "days_left", comment: "Countdown", translations: [
            "en": Translation(plural: [.one: "%d day left", .other: "%d days left"], state: .translated),
            "zh-Hant": Translation(value: "還有 %d 天", state: .needsReview),
        ])])
        let bytes = try ModelJSONCodec(.catalog).encode(.catalog(catalog), context: CodecContext()).bytes
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\"one\" : \"%d day left\""))
        #expect(text.contains("\"state\" : \"needs_review\""))
        #expect(try ModelJSONCodec(.catalog).decode(CodecInput(bytes: bytes), context: CodecContext()).document == .catalog(catalog))
    }

    @Test func errorsNameTheJSONPath() {
        let codec = ModelJSONCodec(.agenda)
        let bad = #"{"model": "agenda", "version": 1, "carried": [], "items": [{"kind": "event", "uid": "x", "title": "t", "start": "2025-02-30", "categories": [], "priority": "none", "isCompleted": false, "alarms": [], "carried": []}]}"#
        let error = #expect(throws: Diagnostic.self) {
            try codec.decode(CodecInput(bytes: Array(bad.utf8), fileName: "bad.agenda.json"), context: CodecContext())
        }
        #expect(error?.code == "json.bad-value")
        #expect(error?.location?.keyPath == "/items/0/start")
        #expect(error?.location?.file == "bad.agenda.json")
        #expect(error?.message.rendered().contains("2025-02-30") == true)

        let missing = #"{"model": "agenda", "version": 1, "items": [{"title": "no uid"}]}"#
        let missingError = #expect(throws: Diagnostic.self) { try codec.decode(CodecInput(bytes: Array(missing.utf8)), context: CodecContext()) }
        #expect(missingError?.code == "json.missing-key")
        #expect(missingError?.location?.keyPath == "/items/0/uid")
    }

    @Test func futureVersionsAndOtherModelsAreRefused() {
        let codec = ModelJSONCodec(.agenda)
        let future = #"{"model": "agenda", "version": 7, "items": [], "carried": []}"#
        let error = #expect(throws: Diagnostic.self) { try codec.decode(CodecInput(bytes: Array(future.utf8)), context: CodecContext()) }
        #expect(error?.code == "json.newer-version")
        #expect(error?.message.rendered(in: .traditionalChinese).contains("第 7 版") == true)
        let ledger = #"{"model": "ledger", "version": 1}"#
        #expect(throws: Diagnostic.self) { try codec.decode(CodecInput(bytes: Array(ledger.utf8)), context: CodecContext()) }
        #expect(codec.identify(Probe(prefix: Array(ledger.utf8))) == .no)
        #expect(codec.identify(Probe(prefix: Array(future.utf8))) == .yes)
        #expect(codec.identify(Probe(prefix: Array("BEGIN:VCALENDAR".utf8))) == .no)
    }
}

@Suite struct DateValueTests {
    @Test(arguments: ["2025-03-05", "2025-03-05T14:30:00", "2025-03-05T14:30:00[Asia/Taipei]", "2025-03-05T06:30:00Z",
                      "2025-03-05T14:30:00[Taipei Standard Time]"])
    func canonicalFormsRoundTrip(text: String) throws {
        #expect(try DateValue(parsing: text).description == text)
    }

    /// The JSON writer writes a date value's canonical text without making a String of it.
    @Test(arguments: ["2025-03-05", "2025-03-05T14:30:00", "2025-03-05T14:30:00[Asia/Taipei]", "2025-03-05T06:30:00Z",
                      "2025-03-05T14:30:00[Taipei Standard Time]", "2025-03-05T14:30:00+08:00", "0001-01-01T00:00:00Z"])
    func writtenAsJSONStrings(text: String) throws {
        let value = try DateValue(parsing: text)
        var writer = JSONWriter(layout: .foundation)
        writer.string(value)
        #expect(String(decoding: writer.take(), as: UTF8.self) == "\"\(text)\"")
    }

    /// A zone's name is a file's text: escaped as any string; years beyond four digits as `description` writes them.
    @Test func jsonStringsEscapeZonesAndWriteAnyYear() throws {
        var writer = JSONWriter(layout: .foundation)
        let time = try CivilDateTime(date: CivilDate(year: 2025, month: 3, day: 5), hour: 9)
        writer.string(DateValue.zoned(time, zone: "A \"zone\"\n"))
        #expect(String(decoding: writer.take(), as: UTF8.self) == #""2025-03-05T09:00:00[A \"zone\"\n]""#)
        let early = CivilDateTime(secondsSinceEpoch: -70_000_000_000)
        writer.string(DateValue.utc(early))
        #expect(String(decoding: writer.take(), as: UTF8.self) == "\"\(DateValue.utc(early).description)\"")
        #expect(DateValue.utc(early).description.hasPrefix("-"))
    }

    @Test(arguments: ["2025-02-30", "2025-03-05T25:00:00", "2025-03-05T14:30", "2025-03-05T14:30:00Z[Asia/Taipei]", "tomorrow", ""])
    func invalidFormsAreRefused(text: String) {
        #expect(throws: ICUError.self) { try DateValue(parsing: text) }
    }

    @Test func instants() throws {
        let zoned = try DateValue(parsing: "2025-03-05T14:30:00[Asia/Taipei]")
        #expect(try zoned.instant() == Date(timeIntervalSince1970: 1_741_156_200))
        let windows = try DateValue(parsing: "2025-03-05T14:30:00[Taipei Standard Time]")
        #expect(try windows.instant() == Date(timeIntervalSince1970: 1_741_156_200))
        let floating = try DateValue(parsing: "2025-03-05T14:30:00")
        #expect(try floating.instant(defaultZone: .taipei) == Date(timeIntervalSince1970: 1_741_156_200))
        #expect(try DateValue(parsing: "2025-03-05").isAllDay)
    }
}
