import AlmanacCore
import AlmanacICalendar
import AlmanacTestSupport
import Foundation
import Testing
import TodoTxtCodec

let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/todo.txt").path

func agenda(_ decoded: Decoded) throws -> Agenda {
    guard case .agenda(let agenda) = decoded.document else { throw Diagnostic(.error, Message(code: "test.not-an-agenda", text: "The codec did not read an agenda.")) }
    return agenda
}

/// The checks every Almanac codec passes: description, identification, examples that round-trip,
/// deterministic output, located errors, no crash on noise.
@Test func conformsLikeEveryCodec() {
    #expect(CodecConformance.problems(of: TodoTxtCodec()) == [])
}

/// A list as a todo.txt app on Windows saves it: BOM, CRLF, a blank line, Chinese text.
@Test func readsARealList() throws {
    let decoded = try TodoTxtCodec().decode(CodecInput(contentsOf: fixture), context: CodecContext())
    let items = try agenda(decoded).items
    #expect(items.count == 5)
    #expect(items[0].title == "Call Mom +Family @phone")
    #expect(items[0].priority == .high)
    #expect(items[0].created?.description == "2025-03-01")
    #expect(items[0].due?.description == "2025-03-05")
    #expect(items[0].categories == ["Family"])
    #expect(items[1].isCompleted && items[1].completedAt?.description == "2025-03-02" && items[1].priority == .medium)
    #expect(items[3].title == "Buy 高铁 tickets for 春节 @手机")
    #expect(items[3].uid == "6F1C-2A")
    #expect(items[4].isCompleted && items[4].completedAt == nil && items[4].title == "Sort photos")
    // The impossible due date stays in the text, with a warning that points at it.
    #expect(items[2].title == "Renew passport due:2025-13-40 +Paperwork +Travel")
    #expect(items[2].priority == .low)
    let warning = try #require(decoded.diagnostics.first)
    #expect(warning.code == "todotxt.bad-date")
    #expect(warning.location == SourceLocation(file: fixture, line: 4, column: 20))
}

@Test func writesWhatItReadsAndKeepsPriorityLetters() throws {
    let codec = TodoTxtCodec()
    let decoded = try codec.decode(CodecInput(contentsOf: fixture), context: CodecContext())
    let text = String(decoding: try codec.encode(decoded.document, context: CodecContext()).bytes, as: UTF8.self)
    #expect(text == """
        (A) 2025-03-01 Call Mom +Family @phone due:2025-03-05
        x 2025-03-02 2025-02-20 Pay rent +Home pri:B
        (D) Renew passport due:2025-13-40 +Paperwork +Travel
        2025-02-11 Buy 高铁 tickets for 春节 @手机 uid:6F1C-2A
        x Sort photos

        """)
}

/// todo.txt → iCalendar → todo.txt through the agenda model: the tasks come back.
@Test func travelsThroughICalendar() throws {
    let todo = TodoTxtCodec()
    let ics = ICalendarCodec()
    let original = try todo.decode(CodecInput(contentsOf: fixture), context: CodecContext())
    let calendar = try ics.encode(original.document, context: CodecContext())
    #expect(String(decoding: calendar.bytes, as: UTF8.self).contains("BEGIN:VTODO"))
    let back = try ics.decode(CodecInput(bytes: calendar.bytes, fileName: "list.ics"), context: CodecContext())
    let again = try agenda(todo.decode(CodecInput(bytes: todo.encode(back.document, context: CodecContext()).bytes), context: CodecContext()))
    let before = try agenda(original).items
    #expect(again.items.map(\.title) == before.map(\.title))
    #expect(again.items.map(\.due) == before.map(\.due))
    #expect(again.items.map(\.priority) == before.map(\.priority))
    #expect(again.items.map(\.isCompleted) == before.map(\.isCompleted))
}

@Test func eventsAreLeftOutWithAWarning() throws {
    let agenda = Agenda(items: [CalendarItem(kind: .event, uid: "e1", title: "Dinner"), CalendarItem(kind: .todo, uid: "t1", title: "Book a table")])
    let encoded = try TodoTxtCodec().encode(.agenda(agenda), context: CodecContext())
    #expect(String(decoding: encoded.bytes, as: UTF8.self) == "Book a table uid:t1\n")
    #expect(encoded.diagnostics.map(\.code) == ["todotxt.not-a-task"])
    #expect(encoded.diagnostics.first?.location?.keyPath == "/items/0")
}

@Test func textThatIsNotUTF8IsRefusedWithItsLine() {
    let bytes: [UInt8] = Array("Buy milk\n".utf8) + [0xB6, 0x52, 0xA5, 0xA4, 0x0A]  // Big5, as an old Windows editor saves it
    #expect {
        try TodoTxtCodec().decode(CodecInput(bytes: bytes, fileName: "todo.txt"), context: CodecContext())
    } throws: { error in
        (error as? Diagnostic)?.location == SourceLocation(file: "todo.txt", line: 2) && (error as? Diagnostic)?.code == "todotxt.not-utf8"
    }
}
