/// Retire Time's five kinds of day, as its backups write them and as an item carries them
/// (`CarriedName.dayType`). The words for them in each language are the codecs' messages.
public enum DayType: String, CaseIterable, Hashable, Sendable {
    case birthday, anniversary, countdown, countup, custom

    /// Birthdays and anniversaries come back every year.
    public var repeatsYearly: Bool { self == .birthday || self == .anniversary }
}
