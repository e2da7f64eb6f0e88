import Foundation

/// What the home screen of 知习 shows for a learner's day. Every string comes from the
/// accessors the StringAccessors plugin generates (`ZXStrings`), never from string literals.
public struct StudyDay: Sendable {
    public var learner: String
    public var done: Int
    public var planned: Int
    public var streak: Int
    public var dueNotes: Int

    public init(learner: String, done: Int, planned: Int, streak: Int, dueNotes: Int) {
        self.learner = learner
        self.done = done
        self.planned = planned
        self.streak = streak
        self.dueNotes = dueNotes
    }

    /// The lines of the home screen, top to bottom.
    public var homeScreen: [String] {
        var lines = [ZXStrings.Home.greeting(learner), ZXStrings.Home.progressToday(done, planned)]
        if streak > 0 { lines.append(ZXStrings.Streak.days(streak)) }
        if dueNotes > 0 { lines.append(ZXStrings.Review.dueCount(dueNotes)) }
        return lines
    }

    /// The buttons under a recalled card.
    public static var ratings: [String] { [ZXStrings.Memory.Rate.again, ZXStrings.Memory.Rate.hard] }
}
