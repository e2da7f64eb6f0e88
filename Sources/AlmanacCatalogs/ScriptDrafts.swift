public import AlmanacCore
import AlmanacICU

/// Converts Chinese text between scripts the way a translator's first draft would: ICU's
/// character transform, then Taiwan's vocabulary (OpenCC's phrase lists: 軟件→軟體, 信息→資訊,
/// 默認→預設, and back), then Taiwan's character variants (爲→為, 裏→裡). Placeholders and
/// format specifiers pass through untouched.
public final class ChineseConverter: @unchecked Sendable {
    public enum Direction: Sendable {
        /// zh-Hans → zh-Hant as written in Taiwan.
        case toTaiwan
        /// zh-Hant (Taiwan) → zh-Hans.
        case toSimplified
    }

    public let direction: Direction
    let transliterator: Transliterator
    let phrases: PhraseTable
    let variants: [Character: Character]

    public init(_ direction: Direction) throws(Diagnostic) {
        self.direction = direction
        do {
            transliterator = direction == .toTaiwan ? try .simplifiedToTraditional() : try .traditionalToSimplified()
        } catch {
            throw Diagnostic.error("catalog.no-transliterator", error.description)
        }
        phrases = PhraseTable(direction == .toTaiwan ? TaiwanPhrases.toTaiwan : TaiwanPhrases.fromTaiwan)
        var variants: [Character: Character] = [:]
        if direction == .toTaiwan {
            for (from, to) in TaiwanPhrases.variants where from.count == 1 && to.count == 1 { variants[Character(from)] = Character(to) }
        }
        self.variants = variants
    }

    public func convert(_ text: String) -> String {
        switch direction {
        case .toTaiwan:
            let traditional = transliterator.apply(text)
            let worded = phrases.replace(in: traditional)
            return String(worded.map { variants[$0] ?? $0 })
        case .toSimplified:
            return transliterator.apply(phrases.replace(in: text))
        }
    }

    /// The same translation with every text converted.
    public func convert(_ translation: Translation) -> Translation {
        var result = translation
        result.value = translation.value.map(convert)
        result.plural = translation.plural?.mapValues(convert)
        result.devices = translation.devices?.mapValues(convert)
        result.substitutions = translation.substitutions?.mapValues { substitution in
            var copy = substitution
            copy.plural = substitution.plural.mapValues(convert)
            return copy
        }
        result.presentation = Presentation()
        return result
    }
}

/// Longest-match replacement over a phrase list, as a trie over Unicode scalars: each step is one
/// lookup of an integer, where matching by Character hashed and normalised every candidate
/// substring (the audit's Taiwan-vocabulary check spent most of its time there).
struct PhraseTable {
    /// Node 0 is the root; `children[node][scalar]` is the next node.
    private var children: [[UInt32: Int32]] = [[:]]
    /// The replacement of the phrase that ends at a node.
    private var values: [String?] = [nil]

    init(_ pairs: [(String, String)]) {
        for (key, value) in pairs {
            var node = 0
            for scalar in key.unicodeScalars {
                if let next = children[node][scalar.value] {
                    node = Int(next)
                } else {
                    children.append([:])
                    values.append(nil)
                    children[node][scalar.value] = Int32(children.count - 1)
                    node = children.count - 1
                }
            }
            // The first pair for a phrase wins.
            if node != 0, values[node] == nil { values[node] = value }
        }
    }

    /// The longest phrase that starts at `start`: where it ends and its replacement.
    private func longestMatch(_ scalars: [Unicode.Scalar], from start: Int) -> (end: Int, replacement: String)? {
        var node = 0
        var best: (Int, String)?
        var index = start
        while index < scalars.count, let next = children[node][scalars[index].value] {
            node = Int(next)
            index += 1
            if let value = values[node] { best = (index, value) }
        }
        return best
    }

    /// The phrases found in `text`, with where they start (in Unicode scalars).
    func matches(in text: String) -> [(offset: Int, phrase: Substring, replacement: String)] {
        guard text.unicodeScalars.contains(where: { children[0][$0.value] != nil }) else { return [] }
        let scalars = Array(text.unicodeScalars)
        var result: [(Int, Substring, String)] = []
        var index = 0
        while index < scalars.count {
            guard let (end, replacement) = longestMatch(scalars, from: index) else {
                index += 1
                continue
            }
            var phrase = String.UnicodeScalarView()
            phrase.append(contentsOf: scalars[index..<end])
            result.append((index, Substring(String(phrase)), replacement))
            index = end
        }
        return result
    }

    func replace(in text: String) -> String {
        guard text.unicodeScalars.contains(where: { children[0][$0.value] != nil }) else { return text }
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if let (end, replacement) = longestMatch(scalars, from: index) {
                result.append(contentsOf: replacement.unicodeScalars)
                index = end
            } else {
                result.append(scalars[index])
                index += 1
            }
        }
        return String(result)
    }
}

/// Mainland words in zh-Hant text, for checks: the phrases of OpenCC's Taiwan list whose Taiwan
/// form differs, less the words Taiwan also uses (OpenCC lists them among their own values) and
/// an allow-list.
public struct MainlandVocabulary: Sendable {
    let table: PhraseTable
    let allowed: Set<String>

    /// Words OpenCC's list converts for programming texts that are ordinary Taiwan usage in app
    /// text: 類型 (type of account), 項目 (item), 參數 (parameter), 查看 (view), 拷貝 (Apple's
    /// Taiwan word for Copy), 文件 (document), 程序 (procedure); and words Apple's own Taiwan
    /// translations use, met in real apps' catalogs: 權限 (permissions), 連接 (a connected
    /// display or accessory; 連線 is a network's), 鏡像 (AirPlay's 鏡像輸出).
    public static let defaultAllowList: Set<String> = ["類型", "項目", "參數", "查看", "拷貝", "文件", "程序", "權限", "連接", "鏡像"]

    public init(allowing allowList: Set<String> = MainlandVocabulary.defaultAllowList) {
        table = PhraseTable(TaiwanPhrases.toTaiwan)
        allowed = allowList.union(TaiwanPhrases.alsoTaiwan)
    }

    /// Each mainland word in `text` with the word Taiwan uses.
    public func find(in text: String) -> [(word: String, taiwan: String)] {
        table.matches(in: text).compactMap { match in
            let word = String(match.phrase)
            return word == match.replacement || allowed.contains(word) ? nil : (word, match.replacement)
        }
    }
}

/// Drafting one Chinese script's translations from the other's.
public enum ScriptDrafts {
    /// Fills `target` (zh-Hant or zh-Hans) from the other script where the target has no value
    /// or only a `new` one. Drafts are marked `needs_review`; reviewed translations (translated,
    /// needs review, stale) are never replaced. Returns the catalog and how many were drafted.
    public static func draft(_ catalog: Catalog, target: String) throws(Diagnostic) -> (Catalog, drafted: Int, kept: Int) {
        let toTaiwan = target.lowercased().hasPrefix("zh-hant") || ["zh-tw", "zh-hk", "zh-mo"].contains(target.lowercased())
        let source = catalog.locales.first { locale in
            let lower = locale.lowercased()
            return toTaiwan ? (lower.hasPrefix("zh-hans") || lower == "zh-cn" || lower == "zh")
                            : (lower.hasPrefix("zh-hant") || lower == "zh-tw" || lower == "zh-hk")
        }
        guard let source else {
            throw Diagnostic.error("catalog.no-draft-source", target, catalog.locales.joined(separator: ", "))
        }
        let converter = try ChineseConverter(toTaiwan ? .toTaiwan : .toSimplified)
        var result = catalog
        var drafted = 0
        var kept = 0
        for index in result.entries.indices {
            guard let original = result.entries[index].translations[source], result.entries[index].shouldTranslate != false else { continue }
            if let existing = result.entries[index].translations[target], existing.state != .new, !existing.isEmpty {
                kept += 1
                continue
            }
            var draft = converter.convert(original)
            draft.state = .needsReview
            result.entries[index].translations[target] = draft
            drafted += 1
        }
        return (result, drafted, kept)
    }
}
