public import AlmanacICU

/// Localized strings: keys with a value per locale (`.strings`, `.stringsdict`, `.xcstrings`, XLIFF).
public struct Catalog: Hashable, Sendable, Codable {
    /// The locale the keys are written in (`en`).
    public var sourceLanguage: String
    /// Entries in the source's order.
    public var entries: [CatalogEntry]

    public init(sourceLanguage: String = "en", entries: [CatalogEntry] = []) {
        self.sourceLanguage = sourceLanguage
        self.entries = entries
    }

    /// Every locale with at least one value, sorted.
    public var locales: [String] {
        Array(Set(entries.flatMap(\.translations.keys))).sorted()
    }
}

public struct CatalogEntry: Hashable, Sendable, Codable {
    public var key: String
    /// The developer's note to translators.
    public var comment: String?
    /// Values by locale (`en`, `zh-Hans`, `zh-Hant`).
    public var translations: [String: Translation]

    public init(key: String, comment: String? = nil, translations: [String: Translation] = [:]) {
        self.key = key
        self.comment = comment
        self.translations = translations
    }
}

/// One locale's value for a key: a string, or plural forms by CLDR category.
public struct Translation: Hashable, Sendable, Codable {
    /// Where a translation stands in review (Xcode's string catalog states).
    public enum State: String, Hashable, Sendable, Codable, CaseIterable {
        case new, translated, needsReview = "needs_review", stale
    }

    public var value: String?
    /// Plural forms by category (`one`: "%d day left", `other`: "%d days left").
    public var plural: [PluralCategory: String]?
    public var state: State?

    public init(value: String? = nil, plural: [PluralCategory: String]? = nil, state: State? = nil) {
        self.value = value
        self.plural = plural
        self.state = state
    }
}



extension Catalog {
    enum CodingKeys: String, CodingKey { case sourceLanguage, entries }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(sourceLanguage: try c.decodeIfPresent(String.self, forKey: .sourceLanguage) ?? "en",
                  entries: try c.decodeIfPresent([CatalogEntry].self, forKey: .entries) ?? [])
    }
}

extension CatalogEntry {
    enum CodingKeys: String, CodingKey { case key, comment, translations }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(key: try c.decode(String.self, forKey: .key),
                  comment: try c.decodeIfPresent(String.self, forKey: .comment),
                  translations: try c.decodeIfPresent([String: Translation].self, forKey: .translations) ?? [:])
    }
}
