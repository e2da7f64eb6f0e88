/// A CLDR plural category: which form of a word a number takes in a language.
public enum PluralCategory: String, Hashable, Sendable, CaseIterable, Codable, CodingKeyRepresentable, Comparable {
    case zero, one, two, few, many, other

    public static func < (lhs: PluralCategory, rhs: PluralCategory) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
