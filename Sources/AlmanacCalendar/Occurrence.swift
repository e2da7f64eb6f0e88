public import AlmanacCore
public import Foundation

/// One occurrence of an item: when it starts and ends, in the item's own form and as instants.
public struct Occurrence: Hashable, Sendable {
    public var uid: String
    /// The index in `Agenda.items` of the item whose details this occurrence has (the master,
    /// or the override that replaced this occurrence).
    public var itemIndex: Int
    public var start: DateValue
    public var end: DateValue?
    /// The start as an instant (floating and all-day values read in the default zone).
    public var startInstant: Date
    public var endInstant: Date
    /// The occurrence's original start, as a RECURRENCE-ID names it.
    public var recurrenceID: DateValue
    /// Whether an override (RECURRENCE-ID) changed this occurrence.
    public var isOverridden: Bool

    public var isAllDay: Bool { start.isAllDay }
}
