public import AlmanacCore

/// A recurrence rule from its RRULE text, for building agendas in tests (a typo traps at once).
public func rule(_ text: String) -> RecurrenceRule {
    do { return try RecurrenceRule(parsing: text) } catch { fatalError("\(text): \(error)") }
}
