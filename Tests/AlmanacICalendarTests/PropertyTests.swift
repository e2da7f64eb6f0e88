@testable import AlmanacICalendar
import AlmanacCore
import AlmanacICU
import AlmanacTestSupport
import Testing

/// Random agendas survive every calendar format (property-based, seeded so a failure repeats):
/// what the model holds comes back, and a second round trip changes nothing at all.
@Suite struct PropertyTests {
    static let alphabet: [String] = ["a", "Z", "0", " ", ",", ";", ":", "\\", "\"", "\n", "\\n", "=", "é", "繳房貸", "媽媽", "「", "」",
                                     "😀", "👨‍👩‍👧", "<", "&", "]]>", "'", "%", "^", "\t"]
    static let rules = ["FREQ=DAILY;COUNT=3", "FREQ=WEEKLY;BYDAY=MO,WE", "FREQ=MONTHLY;BYMONTHDAY=-1", "FREQ=YEARLY;INTERVAL=2",
                        "RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=8;BYMONTHDAY=15", "FREQ=MONTHLY;BYDAY=2SU;UNTIL=20271231T000000Z"]
    static let zones = ["Asia/Taipei", "America/New_York", "Asia/Shanghai"]

    static func text(_ generator: inout SeededGenerator, minimum: Int = 0) -> String {
        (0..<Int.random(in: minimum...10, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined()
    }

    static func date(_ generator: inout SeededGenerator, allDay: Bool) -> DateValue {
        let day = try! CivilDate(year: Int.random(in: 1990...2040, using: &generator), month: Int.random(in: 1...12, using: &generator),
                                 day: Int.random(in: 1...28, using: &generator))
        if allDay { return .date(day) }
        let time = try! CivilDateTime(date: day, hour: Int.random(in: 0...23, using: &generator), minute: Int.random(in: 0...59, using: &generator),
                                      second: Int.random(in: 0...59, using: &generator))
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: return .floating(time)
        case 1: return .zoned(time, zone: zones.randomElement(using: &generator)!)
        default: return .utc(time)
        }
    }

    static func later(_ value: DateValue, by days: Int) -> DateValue {
        switch value {
        case .date(let day): .date(day.adding(days: days))
        case .floating(let time): .floating(try! CivilDateTime(date: time.date.adding(days: days), hour: time.hour, minute: time.minute, second: time.second))
        case .zoned(let time, let zone):
            .zoned(try! CivilDateTime(date: time.date.adding(days: days), hour: time.hour, minute: time.minute, second: time.second), zone: zone)
        case .utc(let time): .utc(try! CivilDateTime(date: time.date.adding(days: days), hour: time.hour, minute: time.minute, second: time.second))
        case .offset(let time, let seconds):
            .offset(try! CivilDateTime(date: time.date.adding(days: days), hour: time.hour, minute: time.minute, second: time.second), seconds: seconds)
        }
    }

    static func agenda(seed: UInt64) -> Agenda {
        var generator = SeededGenerator(seed: seed)
        var items: [CalendarItem] = []
        for index in 0..<25 {
            let todo = Int.random(in: 0..<4, using: &generator) == 0
            let allDay = Bool.random(using: &generator)
            let start = date(&generator, allDay: allDay)
            var item = CalendarItem(kind: todo ? .todo : .event, uid: "item-\(seed)-\(index)@almanac.test", title: text(&generator, minimum: 1))
            if todo {
                item.due = start
                item.isCompleted = Bool.random(using: &generator)
            } else {
                item.start = start
                if Bool.random(using: &generator) { item.end = later(start, by: Int.random(in: 1...3, using: &generator)) }
            }
            if Bool.random(using: &generator) { item.notes = text(&generator, minimum: 1) }
            if Bool.random(using: &generator) { item.location = text(&generator, minimum: 1) }
            item.categories = (0..<Int.random(in: 0...2, using: &generator)).map { _ in text(&generator, minimum: 1) }
            item.priority = Priority.allCases.randomElement(using: &generator)!
            if !todo, Bool.random(using: &generator) { item.recurrence = Recurrence(rules: [rule(rules.randomElement(using: &generator)!)]) }
            if Bool.random(using: &generator) {
                item.alarms = [Alarm(trigger: .relative(seconds: -60 * Int.random(in: 0...2880, using: &generator), fromEnd: false),
                                     message: text(&generator, minimum: 1))]
            }
            items.append(item)
        }
        return Agenda(items: items)
    }

    /// The fields a person would miss if a format dropped them.
    struct Kept: Equatable {
        var kind: CalendarItem.Kind, uid: String, title: String, notes: String?, location: String?
        var start: DateValue?, end: DateValue?, due: DateValue?, categories: [String], priority: Priority
        var isCompleted: Bool, rules: [RecurrenceRule], alarms: [Alarm.Trigger], alarmMessages: [String?]

        init(_ item: CalendarItem) {
            (kind, uid, title, notes, location) = (item.kind, item.uid, item.title, item.notes, item.location)
            (start, end, due, categories, priority) = (item.start, item.end, item.due, item.categories, item.priority)
            (isCompleted, rules) = (item.isCompleted, item.recurrence?.rules ?? [])
            alarms = item.alarms.map(\.trigger)
            alarmMessages = item.alarms.map(\.message)
        }
    }

    static let codecs: [any Codec] = [ICalendarCodec(), JCalCodec(), XCalCodec(), ModelJSONCodec(.agenda)]

    /// Unfolding finds line breaks eight bytes at a time; it must remove exactly what a plain
    /// byte-by-byte reading of RFC 5545 §3.1 removes (a break, CRLF, LF or CR, then one space
    /// or tab; blank lines between the break and the space go with it, as the parser reads
    /// them), on random mixes of breaks, blanks and text around the word boundaries.
    @Test(arguments: 1...8)
    func unfoldingMatchesAPlainReading(seed: UInt64) {
        func plain(_ bytes: [UInt8]) -> [UInt8] {
            var result: [UInt8] = []
            var index = 0
            while index < bytes.count {
                if bytes[index] == 0x0D || bytes[index] == 0x0A {
                    var next = index + 1
                    if bytes[index] == 0x0D, next < bytes.count, bytes[next] == 0x0A { next += 1 }
                    while next < bytes.count, bytes[next] == 0x0D || bytes[next] == 0x0A { next += 1 }
                    if next < bytes.count, bytes[next] == 0x20 || bytes[next] == 0x09 { index = next + 1; continue }
                }
                result.append(bytes[index])
                index += 1
            }
            return result
        }
        var generator = SeededGenerator(seed: seed)
        let pieces: [[UInt8]] = [[0x0D], [0x0A], [0x0D, 0x0A], [0x20], [0x09], Array("SUMMARY:".utf8), Array("繳房貸".utf8), [0x41]]
        for _ in 0..<200 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...40, using: &generator) { bytes += pieces.randomElement(using: &generator)! }
            #expect(ICalendarReader.unfolded(bytes) == plain(bytes), "\(bytes)")
        }
    }

    @Test(arguments: 1...12)
    func agendasSurviveEveryCalendarFormat(seed: UInt64) throws {
        let original = Self.agenda(seed: seed)
        for codec in Self.codecs {
            let first = try codec.encode(.agenda(original), context: CodecContext())
            let decoded = try codec.decode(CodecInput(bytes: first.bytes, fileName: "random"), context: CodecContext())
            guard case .agenda(let back) = decoded.document else { Issue.record("\(codec.format.id): not an agenda"); continue }
            #expect(!decoded.diagnostics.hasErrors, "\(codec.format.id): \(decoded.diagnostics)")
            #expect(back.items.count == original.items.count, "\(codec.format.id)")
            for (before, after) in zip(original.items, back.items) {
                #expect(Kept(after) == Kept(before), "\(codec.format.id) seed \(seed): \(before.uid)")
            }
            // Whatever a format adds on the way (DTSTAMP, PRODID) is stable: a second trip is identical.
            let second = try codec.encode(decoded.document, context: CodecContext())
            #expect(second.bytes == first.bytes, "\(codec.format.id) seed \(seed): the second round trip changed the bytes")
        }
    }
}

/// The memo the reader keeps of RRULE and CATEGORIES texts answers what a dictionary keyed by
/// the texts' bytes answers: random texts (empty, short, long, CJK, a character composed two
/// ways, which are two texts here), repeats, replacements and a limit below the texts offered.
@Test(arguments: [3, 40, 10_000])
func textMemoAnswersAsADictionary(limit: Int) {
    var generator = SeededGenerator(seed: UInt64(limit))
    let pieces = ["", "FREQ=DAILY", ";COUNT=3", "生活", "é", "e\u{301}", "x", "BYDAY=MO,WE,FR;INTERVAL=2", "\0"]
    var memo = TextMemo<Int>(limit: limit)
    var reference: [[UInt8]: Int] = [:]
    for step in 0..<3_000 {
        let text = (0..<Int.random(in: 0...4, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
        let key = Array(text.utf8)
        #expect(memo[text] == reference[key], "before step \(step): \(text.debugDescription)")
        if Bool.random(using: &generator) {
            memo.remember(step, for: text)
            if reference[key] != nil || reference.count < limit { reference[key] = step }
        }
        #expect(memo[text] == reference[key], "after step \(step): \(text.debugDescription)")
        #expect(memo.count == reference.count)
    }
    #expect(memo["e\u{301}"] == reference[Array("e\u{301}".utf8)])
}
