import AlmanacCore
import AlmanacTestSupport
import Testing

/// Losses name each field once, in the order first met, with the first five different items and
/// how many there were: against that rule written plainly, for few kinds and for many (past the
/// point where a dictionary finds them), and the same when two halves are added one after the other.
@Test(arguments: [3, 16, 17, 40])
func lossesNameFieldsInTheOrderMet(kinds: Int) {
    var generator = SeededGenerator(seed: UInt64(kinds))
    var losses = Losses(), first = Losses(), second = Losses()
    var order: [String] = []
    var items: [String: [String]] = [:]
    let count = 600
    for step in 0..<count {
        let field = "field\(Int.random(in: 0..<kinds, using: &generator))"
        let approximated = Bool.random(using: &generator) && field.hasSuffix("1")
        let item = "日 \(Int.random(in: 0..<9, using: &generator))"
        let key = approximated ? field + " as the day" : field
        if approximated {
            losses.approximated(field, of: item, as: "the day")
            if step < count / 2 { first.approximated(field, of: item, as: "the day") } else { second.approximated(field, of: item, as: "the day") }
        } else {
            losses.dropped(field, of: item)
            if step < count / 2 { first.dropped(field, of: item) } else { second.dropped(field, of: item) }
        }
        if items[key] == nil { order.append(key) }
        items[key, default: []].append(item)
    }
    let rendered = losses.diagnostics(target: "x").map { $0.message.arguments }
    #expect(rendered.count == order.count)
    for (key, arguments) in zip(order, rendered) {
        var shown: [String] = []
        for item in items[key]! where shown.count < 5 && !shown.contains(item) { shown.append(item) }
        let more = items[key]!.count - shown.count
        let list = shown.map { "“\($0)”" }.joined(separator: ", ") + (more > 0 ? " (+\(more))" : "")
        let field = key.hasSuffix(" as the day") ? String(key.dropLast(11)) : key
        #expect(arguments.dropFirst().first == field)
        #expect(arguments.last == list)
    }
    // Each warning read back (a batch's summary) gives its target, field, how, items and count.
    for (key, diagnostic) in zip(order, losses.diagnostics(target: "x")) {
        let approximated = key.hasSuffix(" as the day")
        let loss = Losses.loss(in: diagnostic)
        #expect(loss?.target == "x")
        #expect(loss?.field == (approximated ? String(key.dropLast(11)) : key))
        #expect(loss?.how == (approximated ? "the day" : nil))
        #expect(loss?.items == diagnostic.message.arguments.last)
        #expect(diagnostic.items == items[key]!.count)
    }
    #expect(Losses.loss(in: .warning(Message(key: "ics.broken-line", ["x"]))) == nil)
    first.absorb(second)
    #expect(first.diagnostics(target: "x") == losses.diagnostics(target: "x"))
}

/// An ordinary status is no loss, a cancelled or tentative one is, in any case; carried
/// participants count by name in any case (ATTENDEE, comment), extension properties and
/// look-alike names never do.
@Test func statusAndParticipantsAreFoundInAnyCase() {
    func item(status: String? = nil, carried: [String] = []) -> CalendarItem {
        var item = CalendarItem(uid: "u", title: "t")
        item.status = status
        item.carried = carried.map { CarriedProperty(name: $0, value: "v") }
        return item
    }
    for status in ["CANCELLED", "cancelled", "Tentative", "tEnTaTiVe"] { #expect(item(status: status).has(.status)) }
    for status in ["CONFIRMED", "cancelle", "CANCELLEDX", "TENTATİVE", ""] { #expect(!item(status: status).has(.status)) }
    #expect(!item().has(.status))
    for name in ["ATTENDEE", "attendee", "Organizer", "comment", "ATTACH", "resources", "CONTACT"] { #expect(item(carried: [name]).has(.participants)) }
    for name in ["X-ATTENDEE", "ATTENDEES", "ATTEND", "X-MICROSOFT-CDO-BUSYSTATUS", "ÄTTENDEE"] { #expect(!item(carried: [name]).has(.participants)) }
    #expect(item(carried: ["X-FOO", "Comment"]).has(.participants))
}
