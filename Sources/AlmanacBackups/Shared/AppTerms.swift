import AlmanacCore

/// The words for what the apps' records are — 知习's study and review tasks and its four review
/// methods, JellySave's saving goals — written as calendar categories in the reader's language
/// (`复习、间隔重复`, not `review、spacedRepetition`), and read back from any of the three
/// languages or the app's own identifiers.
enum AppTerms {
    static let ids = ["study", "review", "spacedRepetition", "feynman", "recall", "weakPoint", "goal"]

    /// Every way a term is written, lowercased, to its identifier.
    static let byWord: [String: String] = {
        var result: [String: String] = [:]
        for id in ids {
            result[id.lowercased()] = id
            for language in Language.allCases { result[word(id, language).lowercased()] = id }
        }
        return result
    }()

    /// The term's word in a language (`spacedRepetition` → 间隔重复).
    static func word(_ id: String, _ language: Language) -> String {
        Message(key: "backup.term." + id, table: ModuleMessages.table).rendered(in: language)
    }

    /// The term a category names, in any language, or nil for a category of the user's own.
    static func id(of category: String) -> String? {
        byWord[category.trimmingCharacters(in: .whitespaces).lowercased()]
    }

    /// The language to write the words in: the locale's (`--locale zh-TW`), English without one.
    static func language(_ context: CodecContext) -> Language {
        context.locale.map { Language(tag: $0.bcp47) } ?? .english
    }
}
