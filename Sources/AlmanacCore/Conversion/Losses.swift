/// What a conversion could not carry over, field by field, naming the items: the warnings
/// `convert.dropped` (left out) and `convert.approximated` (written as something close). A field
/// is named as the model's JSON names it (`location`, `recurrence.rules`, `alarms`), the same in
/// every language; items by their titles, the first five and how many more (`(+7)`).
///
/// Nothing may change silently in a conversion: every converter and codec that leaves something
/// out reports it here, and `--strict` turns these warnings into errors.
public struct Losses: Sendable {
    /// A field left out, or written as `how` says; one warning each, listing the items.
    private struct Kind: Hashable, Sendable {
        var field: String
        var how: String?
        /// Left out by the target's design (a table for people has no column for an app's ids).
        var byDesign = false
    }
    /// The first five items named, and how many items there were in all (a large file's losses
    /// stay small and cost no more than a dictionary lookup per item).
    private struct Named: Sendable {
        var shown: [String] = []
        var count = 0

        /// Counts an item, and names it if it is one of the first five different names (once five
        /// are shown, items are only counted: a million rows cost no comparisons).
        mutating func add(_ item: String) {
            count += 1
            if shown.count < 5 && !shown.contains(item) { shown.append(item) }
        }

        /// Adds the items of `other`, which came after these: the same as adding them one by one
        /// (the first five different names of both are among the first five of each).
        mutating func add(_ other: Named) {
            for item in other.shown where shown.count < 5 && !shown.contains(item) { shown.append(item) }
            count += other.count
        }

        /// Items counted but not named.
        var more: Int { count - shown.count }
    }
    /// What was lost, kind by kind in the order met (`order`). A few kinds are found by looking
    /// through `order` (a batch of small files would make and hash a dictionary for each file's
    /// two or three kinds); `indices` finds them once there are many.
    private var named: [Named] = []
    private var order: [Kind] = []
    private var indices: [Kind: Int] = [:]
    private var last: (kind: Kind, index: Int)?
    private static let fewKinds = 16

    private func index(of kind: Kind) -> Int? {
        order.count <= Self.fewKinds ? order.firstIndex(of: kind) : indices[kind]
    }

    /// Adds a kind not met before, with what was found of it; its place.
    private mutating func append(_ kind: Kind, _ found: Named) -> Int {
        order.append(kind)
        named.append(found)
        if order.count == Self.fewKinds + 1 {
            indices = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        } else if order.count > Self.fewKinds + 1 {
            indices[kind] = order.count - 1
        }
        return order.count - 1
    }

    public init() {}

    public var isEmpty: Bool { order.isEmpty }

    /// `field` of `item` was left out.
    public mutating func dropped(_ field: String, of item: String) { add(Kind(field: field, how: nil), item) }

    /// `field` of `item` was left out because the target is not made to hold it: what only the
    /// apps use (ids, alerts, colours, time stamps) in a table for people. A note, not a warning:
    /// nothing is wrong, but `--strict` still refuses it, and `--verbose` and reports list it.
    public mutating func leftOut(_ field: String, of item: String) { add(Kind(field: field, how: nil, byDesign: true), item) }

    /// `field` of `item` was written as `how` says (`yearly (Gregorian calendar)`).
    public mutating func approximated(_ field: String, of item: String, as how: String) { add(Kind(field: field, how: how), item) }

    private mutating func add(_ kind: Kind, _ item: String) {
        // A stream of items loses the same field item after item: the last kind is compared
        // before the dictionary is hashed.
        if let last, last.kind == kind {
            named[last.index].add(item)
            return
        }
        let index = self.index(of: kind) ?? append(kind, Named())
        named[index].add(item)
        last = (kind, index)
    }

    /// Adds what `other` found, after what this found (the losses of the batches of one large
    /// file, converted on several cores, are added in the file's order).
    public mutating func absorb(_ other: Losses) {
        for (kind, found) in zip(other.order, other.named) {
            if let index = index(of: kind) {
                named[index].add(found)
            } else {
                _ = append(kind, found)
            }
        }
    }

    /// One warning per field (and per way it was approximated), in the order they were met, with
    /// how many items it is about. `target` names the format.
    public func diagnostics(target: String) -> [Diagnostic] {
        zip(order, named).map { kind, found in
            let list = Self.list(found.shown, more: found.more)
            if kind.byDesign { return Diagnostic(.note, Message.convertLeftOut(target: target, field: kind.field, list: list), items: found.count) }
            let message = kind.how.map { Message.convertApproximated(target: target, field: kind.field, how: $0, list: list) }
                ?? Message.convertDropped(target: target, field: kind.field, list: list)
            return Diagnostic(.warning, message, items: found.count)
        }
    }

    /// `“a”, “b”` or `“a”, “b”, “c”, “d”, “e” (+7)`.
    static func list(_ shown: [String], more: Int) -> String {
        // In one buffer, not quoted and joined as strings: a batch lists a few a file.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(shown.reduce(16) { $0 + $1.utf8.count + 8 })
        for (index, name) in shown.enumerated() {
            if index > 0 { bytes += ", ".utf8 }
            bytes += "“".utf8
            bytes += name.utf8
            bytes += "”".utf8
        }
        if more > 0 {
            bytes += " (+".utf8
            bytes += String(more).utf8
            bytes.append(ASCII.closeParenthesis)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The codes of these warnings (what a converter reports here), for tests.
    public static let codes: Set<DiagnosticCode> = [.convertDropped, .convertApproximated, .convertLeftOut]

    /// Whether a diagnostic says something of the input was not carried over: these warnings, and
    /// what a reader left out as it read (a title row above a table's header), as each message's
    /// catalog entry says (`Message.reportsLoss`). `--strict` refuses them all.
    public static func isLoss(_ diagnostic: Diagnostic) -> Bool { diagnostic.message.reportsLoss }

    /// What one of these warnings says, read back from its arguments (a batch's summary groups
    /// them by target and field): the argument layout `diagnostics(target:)` writes.
    public struct Loss: Hashable, Sendable {
        public var target: String
        public var field: String
        /// How the field was written, for an approximation (`the day only`); nil when dropped.
        public var how: String?
        /// The items named (`“a”, “b” (+7)`).
        public var items: String
    }

    /// The loss a `convert.dropped` or `convert.approximated` warning reports; nil for any other.
    public static func loss(in diagnostic: Diagnostic) -> Loss? {
        let arguments = diagnostic.message.arguments
        switch diagnostic.code {
        case .convertDropped where arguments.count == 3, .convertLeftOut where arguments.count == 3:
            return Loss(target: arguments[0], field: arguments[1], how: nil, items: arguments[2])
        case .convertApproximated where arguments.count == 4:
            return Loss(target: arguments[0], field: arguments[1], how: arguments[2], items: arguments[3])
        default:
            return nil
        }
    }
}

extension CalendarItem {
    /// What an item may have that a format does not hold, named as the model's JSON names it.
    public enum Field: String, CaseIterable, Hashable, Sendable {
        case notes, location, geo, url, priority, categories, color
        /// The end (DTEND or DURATION) of an item longer than its one day.
        case end
        /// The time of day of a timed start or due time.
        case timeOfDay = "start.time"
        case completion = "isCompleted"
        case alarms, status, created, lastModified
        /// ATTENDEE, ORGANIZER, CONTACT, RESOURCES, ATTACH and COMMENT, carried as written.
        case participants = "attendees"
    }

    /// The carried iCalendar properties that `participants` stands for.
    static let participantProperties = ["ATTENDEE", "ORGANIZER", "CONTACT", "RESOURCES", "ATTACH", "COMMENT"]

    /// The fields this item has a value in (an ordinary status or a one-day end does not count).
    public var presentFields: [Field] { Field.allCases.filter(has) }

    /// Whether the item has a value in `field`.
    public func has(_ field: Field) -> Bool {
        switch field {
        case .notes: return notes?.isEmpty == false
        case .location: return location?.isEmpty == false
        case .geo: return geo != nil
        case .url: return url?.isEmpty == false
        case .priority: return priority != .none
        case .categories: return !categories.isEmpty
        case .color: return color != nil
        case .end:
            if let start, let end { return !(start.isAllDay && end.isAllDay && end.day == start.day.adding(days: 1)) && end != start }
            if let duration { return !["P1D", "PT0S", "P0D"].contains(duration) }
            return false
        case .timeOfDay: return (start ?? due).map { !$0.isAllDay } ?? false
        case .completion: return isCompleted || completedAt != nil
        case .alarms: return !alarms.isEmpty
        case .status: return status.map { Self.sameIgnoringASCIICase($0, "CANCELLED") || Self.sameIgnoringASCIICase($0, "TENTATIVE") } ?? false
        case .created: return created != nil
        case .lastModified: return lastModified != nil
        case .participants:
            // Extension properties (X-…, most of what is carried) are never participants: no case folding for them.
            return carried.contains { property in
                property.name.utf8.first != UInt8(ascii: "X")
                    && Self.participantProperties.contains { Self.sameIgnoringASCIICase(property.name, $0) }
            }
        }
    }

    /// Whether `text` is `upper` (ASCII capitals) in any case, compared over the bytes: no
    /// uppercased copy (an allocation) of each status and carried name.
    static func sameIgnoringASCIICase(_ text: String, _ upper: String) -> Bool {
        guard text.utf8.count == upper.utf8.count else { return false }
        return zip(text.utf8, upper.utf8).allSatisfy { ASCII.uppercased($0) == $1 }
    }
}

extension Losses {
    /// Reports each field of `item` that a format does not hold: dropped, or for a time of day,
    /// approximated as the day.
    public mutating func unheld(_ item: CalendarItem, holds: Set<CalendarItem.Field>) {
        unheld(item, among: CalendarItem.Field.allCases.filter { !holds.contains($0) })
    }

    /// The same, given the fields a format does not hold (worked out once for a stream of items).
    public mutating func unheld(_ item: CalendarItem, among fields: [CalendarItem.Field]) {
        for field in fields where item.has(field) {
            if field == .timeOfDay {
                approximated(field.rawValue, of: item.title, as: "the day only")
            } else {
                dropped(field.rawValue, of: item.title)
            }
        }
    }
}
