import Foundation
import Testing
@testable import StudyKit

// The accessors are generated at build time from Resources/*.lproj; these tests fail to compile if
// a name or a parameter type changes, and fail at run time if a lookup misses its catalog.

@Test func plainStringsAndTypedParameters() {
    #expect(L10n.App.name == "ZhiXi")
    #expect(L10n.Home.greeting("Lin") == "Good morning, Lin")
    #expect(L10n.Home.progressToday(3, 5) == "3 of 5 done today")
    // Positional placeholders: the subject (%2$@) comes first in the text but second in the call.
    #expect(L10n.Feedback.summary(92, "Biology") == "Biology: scored 92")
    #expect(L10n.Share.hours(2.5) == "2.5 hours this week")
}

@Test func pluralsPickTheirForm() {
    #expect(L10n.Streak.days(1) == "1 day in a row")
    #expect(L10n.Streak.days(12) == "12 days in a row")
    #expect(L10n.Review.dueCount(1) == "1 note to review")
}

@Test func namesThatWouldCollideStayApart() {
    // memory.rate is both a string and a namespace (memory.rate.again).
    #expect(L10n.Memory.rate == "Rate")
    #expect(L10n.Memory.Rate.again == "Forgot")
    // Swift keywords are escaped, digits get an underscore, keys that fold to one name get suffixes.
    #expect(L10n.Settings.default == "Default plan")
    #expect(L10n.Settings._2fa == "Two-step sign-in")
    #expect(L10n.Review.ok == "OK")
    #expect(L10n.Review.ok2 == "Got it")
}

@Test func theHomeScreenReadsLikeTheApp() {
    let day = StudyDay(learner: "Lin", done: 2, planned: 4, streak: 1, dueNotes: 7)
    #expect(day.homeScreen == ["Good morning, Lin", "2 of 4 done today", "1 day in a row", "7 notes to review"])
    #expect(StudyDay.ratings == ["Forgot", "Hard"])
}

@Test func everyLanguageShips() {
    // SwiftPM writes the .lproj folders in lower case on Linux.
    let localizations = Set(Bundle.module.localizations.map { $0.lowercased() })
    #expect(localizations.isSuperset(of: ["en", "zh-hans", "zh-hant"]))
}
