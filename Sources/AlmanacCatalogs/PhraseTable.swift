import AlmanacICU

/// A phrase list (Simplified → Traditional, mainland word → Taiwan word, or back) applied to the
/// words of a text.
///
/// A phrase is replaced only where it is a word of the text. Matching the longest phrase from left
/// to right, as OpenCC does, takes a phrase that straddles two words: 變量 in 改變|量子 (改變數子),
/// 數組 in 少數|組織, 視頻 in 電視|頻段. Here the text is segmented first: ICU's dictionary words, the
/// list's phrases and single characters are the candidate words, and the segmentation with the
/// fewest words wins; then the one using a short list's words most and the one whose ends agree
/// most with ICU's (for OpenCC's long list of phrases, the other way round).
/// The list's identity entries (電視, 頻段) are words that guard a boundary ICU's dictionary misses.
/// Inside one of ICU's words, the longest phrases from the left are replaced. What no phrase covers
/// is written with the table's characters, if it has any (OpenCC's STCharacters: each character's
/// first Traditional form).
///
/// The phrases are a trie over Unicode scalars, its edges one dictionary keyed by node and scalar.
struct PhraseTable: Sendable {
    /// The child of node `n` by scalar `s` is `edges[n << 32 | s]`; node 0 is the root.
    private var edges: [UInt64: Int32] = [:]
    /// The replacement of the phrase that ends at a node.
    private var values: [String?] = [nil]
    /// What a character no phrase covers is written as.
    private var characters: [UInt32: String] = [:]
    /// Whether the list's words win over ICU's dictionary when both segment a text into as many
    /// words: true for a short list of words, false for OpenCC's tens of thousands of phrases.
    private var prefersListedWords = true

    /// A word of a segmented text: its scalars `start..<end` and what replaces them, if anything.
    /// `aligned` when both its ends are among ICU's word boundaries.
    struct Word: Equatable {
        var start: Int
        var end: Int
        var replacement: String?
        var aligned = true
    }

    init(_ pairs: [(String, String)]) {
        for (key, value) in pairs { insert(key.unicodeScalars, value) }
    }

    /// A table from OpenCC's `key<TAB>value` lines, phrases and characters apart.
    init(phraseLines: String, characterLines: String) {
        prefersListedWords = false
        edges.reserveCapacity(180_000)
        Self.forEachPair(in: phraseLines) { key, value in insert(key.unicodeScalars, value) }
        Self.forEachPair(in: characterLines) { key, value in
            if key.unicodeScalars.count == 1, let scalar = key.unicodeScalars.first { characters[scalar.value] = String(value) }
        }
    }

    /// OpenCC's Simplified-to-Traditional step, built once.
    static let simplifiedToTraditional = PhraseTable(phraseLines: OpenCCTables.simplifiedPhrases,
                                                     characterLines: OpenCCTables.simplifiedCharacters)

    static func forEachPair(in lines: String, _ body: (Substring, Substring) -> Void) {
        for line in lines.split(separator: "\n") {
            guard let tab = line.firstIndex(of: "\t") else { continue }
            body(line[..<tab], line[line.index(after: tab)...])
        }
    }

    private mutating func insert<Key: Collection<Unicode.Scalar>>(_ key: Key, _ value: some StringProtocol) {
        var node: Int32 = 0
        for scalar in key {
            let edge = UInt64(UInt32(node)) << 32 | UInt64(scalar.value)
            if let next = edges[edge] {
                node = next
            } else {
                values.append(nil)
                node = Int32(values.count - 1)
                edges[edge] = node
            }
        }
        // The first pair for a phrase wins.
        if node != 0, values[Int(node)] == nil { values[Int(node)] = String(value) }
    }

    private func child(_ node: Int32, _ scalar: Unicode.Scalar) -> Int32? {
        edges[UInt64(UInt32(node)) << 32 | UInt64(scalar.value)]
    }

    /// Every phrase that starts at `start` and ends by `limit`: where each ends and its replacement,
    /// shortest first.
    private func phrases(_ scalars: [Unicode.Scalar], from start: Int, limit: Int) -> [(end: Int, replacement: String)] {
        var node: Int32 = 0
        var found: [(Int, String)] = []
        var index = start
        while index < limit, let next = child(node, scalars[index]) {
            node = next
            index += 1
            if let value = values[Int(node)] { found.append((index, value)) }
        }
        return found
    }

    /// Whether any phrase occurs in `scalars` at all.
    private func occurs(in scalars: [Unicode.Scalar]) -> Bool {
        scalars.indices.contains { start in
            child(0, scalars[start]).map { _ in !phrases(scalars, from: start, limit: scalars.count).isEmpty } ?? false
        }
    }

    /// `start..<end`, one of ICU's words, with the longest phrases from the left replaced.
    private func wordsInside(_ scalars: [Unicode.Scalar], _ start: Int, _ end: Int, into words: inout [Word]) {
        var index = start
        var plainStart = start
        while index < end {
            if let longest = phrases(scalars, from: index, limit: end).last {
                if plainStart < index { words.append(Word(start: plainStart, end: index)) }
                words.append(Word(start: index, end: longest.end, replacement: longest.replacement,
                                  aligned: index == start && longest.end == end))
                index = longest.end
                plainStart = index
            } else {
                index += 1
            }
        }
        if plainStart < end { words.append(Word(start: plainStart, end: end)) }
    }

    /// The words of `scalars`, chosen as the type's documentation says; nil when no phrase occurs.
    func segment(_ scalars: [Unicode.Scalar]) -> [Word]? {
        guard occurs(in: scalars) else { return nil }
        let count = scalars.count
        let cuts = (try? WordBreaker(locale: "zh"))?.boundaries(of: scalars) ?? Array(0...count)
        var isCut = [Bool](repeating: false, count: count + 1)
        for cut in cuts where cut <= count { isCut[cut] = true }
        var nextCut = [Int](repeating: count, count: count + 1)
        var following = count
        for index in stride(from: count, through: 0, by: -1) {
            nextCut[index] = following
            if isCut[index] { following = index }
        }

        // cost[i]: the best way to segment scalars[0..<i] as (words, scalars not in the list's
        // phrases, ends off ICU's cuts). Of two segmentations with as many words, a short list of
        // words (Taiwan's) wins over ICU's dictionary (有|源代碼, where ICU reads 有源|代碼), and ICU's
        // dictionary wins over a list of tens of thousands of phrases (OpenCC's, where 了如 of 了如指掌
        // would be taken across 展示|了|如何).
        typealias Cost = (words: Int, unlisted: Int, off: Int)
        let listFirst = prefersListedWords
        func better(_ a: Cost, _ b: Cost) -> Bool {
            listFirst ? (a.words, a.unlisted, a.off) < (b.words, b.unlisted, b.off)
                      : (a.words, a.off, a.unlisted) < (b.words, b.off, b.unlisted)
        }
        var cost = [Cost?](repeating: nil, count: count + 1)
        // How the best segmentation reaches i: from where, and the phrase replacement if the last
        // word is the list's (nil for one of ICU's words or a single character).
        var step = [(from: Int, phrase: String?)](repeating: (0, nil), count: count + 1)
        cost[0] = (0, 0, 0)
        // Whether the best way to reach `end` ends in a phrase that replaces its text by itself.
        func keepsItsText(_ end: Int) -> Bool {
            guard let phrase = step[end].phrase else { return false }
            return phrase.unicodeScalars.elementsEqual(scalars[step[end].from..<end])
        }
        for start in 0..<count {
            guard let here = cost[start] else { continue }
            func offer(_ end: Int, _ phrase: String?, listed: Bool) {
                let off = (isCut[start] ? 0 : 1) + (isCut[end] ? 0 : 1)
                let candidate: Cost = (here.words + 1, here.unlisted + (listed ? 0 : end - start), here.off + off)
                // In OpenCC's table, of two ways that tie in full, one whose last word is a phrase that
                // only keeps its characters (制中 → 制中) gives way to the longer word on the left, as
                // OpenCC's longest match from the left reads it: 录制|中, not 录|制中. Otherwise the first
                // found stays (這|只會; in a short list, a guard word: 在|線段, not 在線|段).
                if let existing = cost[end], !better(candidate, existing)
                    && !(!listFirst && start > step[end].from && !better(existing, candidate) && keepsItsText(end)) { return }
                cost[end] = candidate
                step[end] = (start, phrase)
            }
            if isCut[start] { offer(nextCut[start], nil, listed: false) }
            offer(start + 1, nil, listed: false)
            for (end, replacement) in phrases(scalars, from: start, limit: count) {
                offer(end, replacement, listed: true)
            }
        }
        var chosen: [(start: Int, end: Int, phrase: String?)] = []
        var end = count
        while end > 0 {
            let (from, phrase) = step[end]
            chosen.append((from, end, phrase))
            end = from
        }
        var words: [Word] = []
        for (start, end, phrase) in chosen.reversed() {
            if let phrase {
                words.append(Word(start: start, end: end, replacement: phrase, aligned: isCut[start] && isCut[end]))
            } else {
                let first = words.count
                wordsInside(scalars, start, end, into: &words)
                if !(isCut[start] && isCut[end]) {
                    for index in first..<words.count { words[index].aligned = false }
                }
            }
        }
        return words
    }

    /// The phrases replaced in `text`, with where they start (in Unicode scalars) and whether both
    /// their ends are among ICU's word boundaries.
    func matches(in text: String) -> [(offset: Int, phrase: Substring, replacement: String, aligned: Bool)] {
        guard text.unicodeScalars.contains(where: { child(0, $0) != nil }) else { return [] }
        let scalars = Array(text.unicodeScalars)
        guard let words = segment(scalars) else { return [] }
        return words.compactMap { word in
            guard let replacement = word.replacement else { return nil }
            var phrase = String.UnicodeScalarView()
            phrase.append(contentsOf: scalars[word.start..<word.end])
            return (word.start, Substring(String(phrase)), replacement, word.aligned)
        }
    }

    func replace(in text: String) -> String {
        let hasPhrase = text.unicodeScalars.contains { child(0, $0) != nil }
        guard hasPhrase || (!characters.isEmpty && text.unicodeScalars.contains { characters[$0.value] != nil }) else { return text }
        let scalars = Array(text.unicodeScalars)
        let words = (hasPhrase ? segment(scalars) : nil) ?? [Word(start: 0, end: scalars.count)]
        var result = String.UnicodeScalarView()
        for word in words {
            if let replacement = word.replacement {
                result.append(contentsOf: replacement.unicodeScalars)
            } else {
                for scalar in scalars[word.start..<word.end] {
                    if let character = characters[scalar.value] {
                        result.append(contentsOf: character.unicodeScalars)
                    } else {
                        result.append(scalar)
                    }
                }
            }
        }
        return String(result)
    }
}
