/// The names under which Almanac carries what the model has no field for: the apps' own fields (a
/// Retire Time day's type and icon, a reminder's flag, 知习's review spacing, a saving goal's
/// amount), the columns a table came with, and values that could not be read. Every codec spells
/// them through these names: the iCalendar codec writes them as properties, the CSV codec gives
/// each a column, the backups read them back into the apps' records.
///
/// A carried value is kept in iCalendar's TEXT form (`CarriedProperty.value`): a foreign property
/// may hold a list (`a\,b,c` is two values) or a structured value, which only that form keeps.
/// Codecs other than iCalendar read and write it as plain text through `CarriedProperty.text`,
/// `CarriedProperty(name:parameters:text:)` and `CalendarItem.carriedText(_:)`.
public enum CarriedName {
    // On items: Retire Time's days.
    /// A day's type (`DayType`): birthday, anniversary, countdown, countup, custom.
    public static let dayType = "X-ALMANAC-TYPE"
    public static let icon = "X-ALMANAC-ICON"
    /// `TRUE` for a day pinned to the top of the list.
    public static let pinned = "X-ALMANAC-PINNED"
    /// `lunar` for a day counted in the Chinese calendar that does not repeat (a repeating one
    /// says so in its rule's RSCALE).
    public static let calendar = "X-ALMANAC-CALENDAR"
    /// The id of the day's category (its name is the item's category).
    public static let categoryID = "X-ALMANAC-CATEGORY-ID"

    // On items: Reminders.
    /// `TRUE` for a flagged reminder.
    public static let flagged = "X-ALMANAC-FLAGGED"
    /// `arriving` or `leaving`: when a reminder with a place alerts.
    public static let proximity = "X-ALMANAC-PROXIMITY"
    /// The id of the reminder's list (its name is the item's category).
    public static let remindersListID = "X-REMINDERS-LIST-ID"

    // On items: 知习's reviews.
    /// The knowledge item a review task reviews, with its library (`libraryID`, `library`).
    public static let zhiXiItemID = "X-ZHIXI-ITEM-ID"
    /// Days until the next review.
    public static let zhiXiInterval = "X-ZHIXI-INTERVAL"
    /// Reviews so far.
    public static let zhiXiRepetitions = "X-ZHIXI-REPETITIONS"

    // On items: money (JellySave's goals, a table's amount column).
    /// An amount as exact decimal text (`120000`, `1234567.50`).
    public static let amount = "X-ALMANAC-AMOUNT"
    /// What a saving goal has saved so far.
    public static let saved = "X-ALMANAC-SAVED"
    /// ISO 4217 (`TWD`).
    public static let currency = "X-ALMANAC-CURRENCY"

    // On items: iCalendar.
    /// How long a to-do with a due date takes (RFC 5545 allows no DURATION beside DUE); the name
    /// follows the IETF calendar-tasks draft's ESTIMATED-DURATION, as an extension.
    public static let estimatedDuration = "X-ALMANAC-ESTIMATED-DURATION"
    /// iCalendar's revision number (SEQUENCE), carried as written; `Revisions` reads it.
    public static let sequence = "SEQUENCE"

    // On calendars.
    /// One of Retire Time's categories: its name, with `id`, `color` and `icon` parameters.
    public static let retireTimeCategory = "X-RETIRETIME-CATEGORY"
    /// Retire Time's settings, as the JSON object its backup holds.
    public static let retireTimeSettings = "X-RETIRETIME-SETTINGS"
    /// One of the Reminders lists: its name, with `id`, `color` and `order` parameters.
    public static let remindersList = "X-REMINDERS-LIST"

    // Families.
    /// A value that could not be read as its field (`X-ALMANAC-INVALID-DTSTART`), kept as written;
    /// a table's unreadable cell says which column it came from (`column`, `role`).
    public static let invalidPrefix = "X-ALMANAC-INVALID-"
    /// A table's own column (`X-CSV-ROOM`), with its header as the `column` parameter.
    public static let tableColumnPrefix = "X-CSV-"

    public static func invalid(_ property: String) -> String { invalidPrefix + property }

    /// The names of the apps' item fields, and the field each is in the apps' backups.
    public static let appFields: [(name: String, field: String)] = [
        (icon, "icon"), (pinned, "pinned"), (flagged, "flagged"), (zhiXiItemID, "itemId"),
        (zhiXiInterval, "intervalDays"), (zhiXiRepetitions, "repetitions"),
    ]

    /// The parameters carried properties have.
    public enum Parameter {
        public static let id = "X-ID"
        public static let color = "X-COLOR"
        public static let icon = "X-ICON"
        public static let order = "X-ORDER"
        public static let libraryID = "X-LIBRARY-ID"
        public static let library = "X-LIBRARY"
        /// The header of the table column a value came from.
        public static let column = "X-COLUMN"
        /// The column's role (`date`, `repeat`) for an unreadable cell.
        public static let role = "X-ROLE"
    }
}

extension CarriedProperty {
    /// A property carrying `text` as it reads (escaped into the carried form).
    public init(name: String, parameters: [Parameter] = [], text: String) {
        self.init(name: name, parameters: parameters, value: PropertyText.escape(text))
    }

    /// The value as it reads (`a, b` for `a\, b`).
    public var text: String { PropertyText.unescape(value) }

    /// The first value of a parameter.
    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.values.first
    }
}

extension CalendarItem {
    /// The text of the first property carried under `name`, or nil.
    public func carriedText(_ name: String) -> String? {
        // By index: `first(where:)` copies each property it looks at.
        for index in carried.indices where carried[index].name == name { return carried[index].text }
        return nil
    }

    /// Whether a property is carried under `name`.
    public func carries(_ name: String) -> Bool {
        carried.contains { $0.name == name }
    }
}

extension Agenda {
    /// The calendar's properties carried under `name`, in order.
    public func carried(named name: String) -> [CarriedProperty] { carried.filter { $0.name == name } }
}
