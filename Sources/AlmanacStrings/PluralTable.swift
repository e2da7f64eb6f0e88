/// How whole numbers fall into CLDR's plural categories in each language, as a table small enough
/// to generate into code: the category of 0…199 (one letter each: z zero, o one, t two, f few,
/// m many, x other; trailing `other`s left off), and of whole millions. A larger number takes the
/// category of its last two digits plus 100 — CLDR's integer rules test `n % 10`, `n % 100`, small
/// ranges and (French, Spanish…) millions.
///
/// The rules come from ICU's plural data (`PluralTableData.swift`, written by a test that checks
/// every locale ICU knows against ICU and rewrites the file with `ALMANAC_UPDATE_GOLDEN=1`), so the
/// accessor generator needs no ICU where it runs.
public enum PluralTable {
    /// The rules of a catalog's language (`en`, `zh-Hans`, `pt_PT`, `sr-Latn`): the most specific
    /// entry its subtags name, else its language's; nil for a language with `other` only or unknown.
    public static func rules(for language: String) -> (small: String, million: Character)? {
        var tag = language.lowercased().replacingUnderscores()
        while true {
            if let rules = PluralTableData.table[tag] {
                return rules.small.isEmpty && rules.million == "x" ? nil : rules
            }
            guard let cut = tag.lastIndex(of: "-") else { return nil }
            tag = String(tag[..<cut])
        }
    }

    /// The category the table gives a whole number.
    public static func category(of number: Int, small: String, million: Character) -> PluralCategory {
        let magnitude = number.magnitude
        let letter: Character
        if magnitude != 0 && magnitude % 1_000_000 == 0 {
            letter = million
        } else {
            let index = magnitude < 200 ? Int(magnitude) : Int(magnitude % 100) + 100
            letter = index < small.count ? small[small.index(small.startIndex, offsetBy: index)] : "x"
        }
        return switch letter {
        case "z": .zero
        case "o": .one
        case "t": .two
        case "f": .few
        case "m": .many
        default: .other
        }
    }

    /// The letter a category has in the table.
    public static func letter(_ category: PluralCategory) -> Character {
        switch category {
        case .zero: "z"
        case .one: "o"
        case .two: "t"
        case .few: "f"
        case .many: "m"
        case .other: "x"
        }
    }
}

extension PluralTableData {
    /// The table, read once from its text: a line per tag, `tag small million` (`-` for an empty
    /// `small`).
    static let table: [String: (small: String, million: Character)] = {
        var table: [String: (small: String, million: Character)] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 3, let million = fields[2].first else { continue }
            table[String(fields[0])] = (fields[1] == "-" ? "" : String(fields[1]), million)
        }
        return table
    }()
}

extension String {
    fileprivate func replacingUnderscores() -> String { String(map { $0 == "_" ? "-" : $0 }) }
}
