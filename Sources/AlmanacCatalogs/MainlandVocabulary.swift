import AlmanacICU

/// Mainland words in zh-Hant text, for checks: the phrases of OpenCC's Taiwan list and Almanac's
/// whose Taiwan form differs, where they are words of the text and of ICU's dictionary, less the words Taiwan also uses
/// (OpenCC lists them among their own values) and the allowed ones. Words right in some meanings
/// only (支持: a feature's support is 支援, backing a project is 支持) are marked `contextual`.
/// The reviewed lists, each word with its reason, are `Scripts/opencc/TaiwanReview.txt`.
public struct MainlandVocabulary: Sendable {
    /// A mainland word found in a text.
    public struct Word: Equatable, Sendable {
        public var word: String
        /// The word Taiwan writes.
        public var taiwan: String
        /// Right in some meanings: for a person to decide, not a mistake.
        public var contextual: Bool
    }

    let table: PhraseTable
    let allowed: Set<String>
    let contextual: Set<String>

    /// The words Taiwan's UIs write as they are (類型, 項目, 字體, 像素, 回復, …).
    public static let defaultAllowList: Set<String> = TaiwanPhrases.reviewedAllowed

    public init(allowing allowList: Set<String> = MainlandVocabulary.defaultAllowList) {
        table = PhraseTable(TaiwanPhrases.toTaiwan)
        allowed = allowList.union(TaiwanPhrases.alsoTaiwan)
        contextual = TaiwanPhrases.reviewedContextual.subtracting(allowList)
    }

    /// Each mainland word in `text` with the word Taiwan uses. A phrase whose ends are not both word
    /// boundaries of ICU's dictionary is another word's part (類模板 in 分類|模板, 狀態欄 in
    /// 狀態|欄位, 在線 in 在|線上) and is not reported.
    /// A word the text holds several times is found once.
    public func find(in text: String) -> [Word] {
        var seen: Set<String> = []
        return table.matches(in: text).compactMap { match in
            let word = String(match.phrase)
            guard match.aligned, word != match.replacement, !allowed.contains(word), seen.insert(word).inserted else { return nil }
            return Word(word: word, taiwan: match.replacement, contextual: contextual.contains(word))
        }
    }
}

extension MainlandVocabulary {
    /// `text` with each of `words` that `find` reports replaced by the word Taiwan writes; words
    /// not in `words` are left as they are.
    public func replacing(_ words: Set<String>, in text: String) -> String {
        let matches = table.matches(in: text).filter { match in
            let word = String(match.phrase)
            return match.aligned && word != match.replacement && words.contains(word) && !allowed.contains(word) && !contextual.contains(word)
        }
        guard !matches.isEmpty else { return text }
        var scalars = Array(text.unicodeScalars)
        for match in matches.reversed() {
            scalars.replaceSubrange(match.offset..<(match.offset + match.phrase.unicodeScalars.count), with: match.replacement.unicodeScalars)
        }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars)
        return String(result)
    }
}
