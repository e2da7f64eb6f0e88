import Foundation
import Testing
@testable import StudyKit

// The accessors are generated at build time from Resources/*.lproj; these tests fail to compile if
// a name or a parameter type changes, and fail at run time if a lookup misses its catalog.

@Test func plainStringsAndTypedParameters() {
    #expect(ZXStrings.App.name == "ZhiXi")
    #expect(ZXStrings.Home.greeting("Lin") == "Good morning, Lin")
    #expect(ZXStrings.Home.progressToday(3, 5) == "3 of 5 done today")
    // Positional placeholders: the subject (%2$@) comes first in the text but second in the call.
    #expect(ZXStrings.Feedback.summary(92, "Biology") == "Biology: scored 92")
    #expect(ZXStrings.Share.hours(2.5) == "2.5 hours this week")
}

@Test func pluralsPickTheirForm() {
    #expect(ZXStrings.Streak.days(1) == "1 day in a row")
    #expect(ZXStrings.Streak.days(12) == "12 days in a row")
    #expect(ZXStrings.Review.dueCount(1) == "1 note to review")
    // Two plural variables, each with its own form.
    #expect(ZXStrings.Review.cardsInDecks(1, 2) == "1 card in 2 decks")
    #expect(ZXStrings.Review.cardsInDecks(30, 1) == "30 cards in 1 deck")
    // A plain argument before the plural one, and a form that leaves the number out.
    #expect(ZXStrings.Deck.summary("Biology", 1) == "Biology has a single card")
    #expect(ZXStrings.Deck.summary("Biology", 40) == "Biology has 40 cards")
}

@Test func namesThatWouldCollideStayApart() {
    // memory.rate is both a string and a namespace (memory.rate.again).
    #expect(ZXStrings.Memory.rate == "Rate")
    #expect(ZXStrings.Memory.Rate.again == "Forgot")
    // Swift keywords are escaped, digits get an underscore, keys that fold to one name get suffixes.
    #expect(ZXStrings.Settings.default == "Default plan")
    #expect(ZXStrings.Settings._2fa == "Two-step sign-in")
    #expect(ZXStrings.Review.ok == "OK")
    #expect(ZXStrings.Review.ok2 == "Got it")
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

/// 知习 is developed in Simplified Chinese (`defaultLocalization: "zh-Hans"`, and
/// `almanac-strings.json` says so to the generator and the audit); the accessors are `ZXStrings`.
@Test func theDevelopmentLanguageIsSimplifiedChinese() {
    #expect(Bundle.module.developmentLocalization?.lowercased() == "zh-hans")
}

#if !canImport(Darwin)
// Outside Apple platforms the generated ZXStringsLocalization finds the strings (Foundation there
// misses the lower-case .lproj folders SwiftPM writes); each language can be asked for by name.
@Test func eachLanguageByName() {
    func text(_ key: String, _ language: String) -> String? {
        ZXStringsLocalization.string("Localizable", key, in: .module, language: language)
    }
    #expect(text("home.greeting", "zh-Hans") == "早上好，%@")
    #expect(text("home.greeting", "zh-Hant") == "早安，%@")
    #expect(text("memory.rate.again", "zh-Hans") == "忘记了")
    #expect(text("home.greeting", "en") == "Good morning, %@")
    #expect(text("no.such.key", "zh-Hans") == nil)
}

// Outside Apple platforms the generated ZXStringsPlurals reads the .stringsdict itself. Locale on Linux
// always prefers English, so the other languages are asked for by name.
@Test func chinesePluralsReorderTheirArguments() {
    func text(_ key: String, _ language: String, _ arguments: any CVarArg...) -> String {
        let localization = Bundle.module.localizations.first { $0.lowercased() == language.lowercased() } ?? language
        let format = ZXStringsPlurals.format("Localizable", key, arguments, in: .module, language: localization) ?? key
        return String(format: format, locale: Locale(identifier: language), arguments: arguments)
    }
    #expect(text("review.cards-in-decks", "zh-Hant", 3, 2) == "2 個卡組中的 3 張卡片")
    #expect(text("review.cards-in-decks", "zh-Hans", 1, 1) == "1 个卡组中的 1 张卡片")
    #expect(text("deck.summary", "zh-Hans", "生物" as NSString, 1) == "生物 有 1 张卡片")
    #expect(text("streak.days", "en", 21) == "21 days in a row")
    #expect(ZXStringsPlurals.category(of: 1, in: "en") == "one")
    #expect(ZXStringsPlurals.category(of: 1, in: "zh-hant") == "other")
}
#endif
