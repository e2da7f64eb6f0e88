public import AlmanacCore
import AlmanacICU

/// Converts Chinese text between scripts the way a translator's first draft would. To Taiwan's:
/// OpenCC's phrases and characters (书签 → 書籤, 录制 → 錄製, 松开 → 鬆開: one Simplified character with
/// several Traditional forms is decided by the word it is in), then Taiwan's vocabulary (OpenCC's
/// Taiwan list and Almanac's: 軟件 → 軟體, 信息 → 資訊, 默認 → 預設, and the words Taiwan's apps write,
/// `Scripts/opencc/AlmanacDrafts.txt`), then Taiwan's character variants (爲 → 為, 裏 → 裡, and the
/// apps' 台 for OpenCC's 臺). Each list replaces a phrase only where it is a word of the text
/// (`PhraseTable`). To Simplified: Taiwan's words back, then ICU's character transform. Placeholders
/// and format specifiers pass through.
public final class ChineseConverter: @unchecked Sendable {
    public enum Direction: Sendable {
        /// zh-Hans → zh-Hant as written in Taiwan.
        case toTaiwan
        /// zh-Hant (Taiwan) → zh-Hans.
        case toSimplified
    }

    public let direction: Direction
    /// To Taiwan: OpenCC's Simplified-to-Traditional step; to Simplified: ICU's transform.
    private let toTraditional: PhraseTable?
    private let transliterator: Transliterator?
    let phrases: PhraseTable
    let variants: [Character: Character]
    /// `variants` and the characters drafts write otherwise (臺 → 台): the last step, after the words,
    /// whose keys are OpenCC's characters (臺式機).
    let finalCharacters: [Character: Character]
    /// Whole texts written otherwise (a settings tab's 通用 is 一般).
    let wholeTexts: [String: String]

    /// `keepingSharedWords`: a mainland word Taiwan also writes (代碼, which is 程式碼 only for source
    /// code) stays as it is, as the audit's vocabulary check lets it be; for drafts that must not
    /// change what a text says.
    public init(_ direction: Direction, keepingSharedWords: Bool = false) throws(Diagnostic) {
        self.direction = direction
        switch direction {
        case .toTaiwan:
            toTraditional = PhraseTable.simplifiedToTraditional
            transliterator = nil
            let words = TaiwanPhrases.draftWords + TaiwanPhrases.toTaiwan
            phrases = PhraseTable(keepingSharedWords ? words.filter { !TaiwanPhrases.alsoTaiwan.contains($0.0) } : words)
        case .toSimplified:
            toTraditional = nil
            do {
                transliterator = try .traditionalToSimplified()
            } catch {
                throw Diagnostic.error(.catalogNoTransliterator(reason: error.description))
            }
            phrases = PhraseTable(TaiwanPhrases.fromTaiwan)
        }
        wholeTexts = direction == .toTaiwan ? Dictionary(TaiwanPhrases.draftWholeTexts, uniquingKeysWith: { first, _ in first }) : [:]
        variants = direction == .toTaiwan ? Self.taiwanVariants : [:]
        finalCharacters = direction == .toTaiwan ? Self.taiwanVariants.merging(Self.draftCharacters) { _, draft in draft } : [:]
    }

    public func convert(_ text: String) -> String {
        switch direction {
        case .toTaiwan:
            // Taiwan's variants before its words too: OpenCC writes 羣, which ICU's dictionary does
            // not know, so 聚集成羣 would not be read as 聚集|成群.
            let traditional = String((toTraditional?.replace(in: text) ?? text).map { variants[$0] ?? $0 })
            if let whole = wholeTexts[traditional] { return whole }
            let worded = phrases.replace(in: traditional)
            return Self.taiwanQuotes(String(worded.map { finalCharacters[$0] ?? $0 }))
        case .toSimplified:
            let worded = phrases.replace(in: text)
            return transliterator?.apply(worded) ?? worded
        }
    }

    /// The text's characters in Taiwan's Traditional forms, each decided by the word it is in
    /// (OpenCC's phrases and characters, then Taiwan's variants), with no word replaced by another:
    /// what a Simplified character left in Traditional text stands for (设置 → 設置, 這里 → 這裡).
    public static func taiwanCharacters(_ text: String) -> String {
        String(PhraseTable.simplifiedToTraditional.replace(in: text).map { taiwanVariants[$0] ?? $0 })
    }

    /// `text` with the characters at `positions` (Unicode scalar offsets: Simplified characters left
    /// in Traditional text) in Taiwan's forms, where the form is certain: a character with one
    /// Traditional form, or one inside a phrase of OpenCC's, which then decides the phrase's other
    /// characters too (录制 → 錄製: 制, also a Traditional character, goes with 录). Where one of
    /// them has several forms and no phrase (鼠须管's 须: 須 or 鬚; 文件夹's 夹: 夾 or 袷), the text
    /// stays for a person, all of it: converting the rest would leave a word half converted. Nil
    /// when nothing changes.
    public static func taiwanCharacters(at positions: [Int], in text: String) -> String? {
        let scalars = Array(text.unicodeScalars)
        let converted = Array(taiwanCharacters(text).unicodeScalars)
        guard converted.count == scalars.count, !positions.isEmpty else { return nil }
        var replace = Set(positions.filter { !ambiguousSimplified.contains(scalars[$0].value) })
        let wanted = Set(positions)
        for match in PhraseTable.simplifiedToTraditional.matches(in: text) {
            let span = match.offset..<min(scalars.count, match.offset + match.phrase.unicodeScalars.count)
            if span.contains(where: wanted.contains) { replace.formUnion(span) }
        }
        guard wanted.isSubset(of: replace) else { return nil }
        var result = scalars
        for index in replace { result[index] = converted[index] }
        guard result != scalars else { return nil }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: result)
        return String(view)
    }

    /// Whether a Traditional character has several Simplified forms (乾: 干 or 乾), which a
    /// character-by-character conversion cannot decide.
    public static func hasSeveralSimplifiedForms(_ scalar: Unicode.Scalar) -> Bool { ambiguousTraditional.contains(scalar.value) }

    static let ambiguousSimplified = Set(OpenCCTables.ambiguousSimplified.unicodeScalars.map(\.value))
    static let ambiguousTraditional = Set(OpenCCTables.ambiguousTraditional.unicodeScalars.map(\.value))

    /// Taiwan's forms of OpenCC's characters (裏 → 裡, 羣 → 群, 爲 → 為).
    static let taiwanVariants = characterMap(TaiwanPhrases.variants)

    /// Characters drafts write in Taiwan apps' form rather than OpenCC's (臺 → 台), wherever they stand.
    static let draftCharacters = characterMap(TaiwanPhrases.draftCharacters)

    /// The one-character pairs of a list, as a map.
    static func characterMap(_ pairs: [(String, String)]) -> [Character: Character] {
        var result: [Character: Character] = [:]
        for (from, to) in pairs where from.count == 1 && to.count == 1 { result[Character(from)] = Character(to) }
        return result
    }

    /// Whether the ’ at `index` is an apostrophe (Couldn’t, Cork’s): between two ASCII letters.
    public static func isApostrophe(_ characters: [Character], at index: Int) -> Bool {
        characters[index] == "’" && index > 0 && index + 1 < characters.count
            && characters[index - 1].isLetter && characters[index + 1].isLetter && characters[index - 1].isASCII && characters[index + 1].isASCII
    }

    /// Quotation marks as Taiwan writes them: “” are 「」, and ‘’ are 『』 inside them and 「」 where
    /// they stand alone (an apostrophe between two letters stays); a placeholder in straight single
    /// quotes ('%@') is quoted 「%@」. A full-width bracket carries its own space: the space the
    /// source put between a western quote and a Chinese character goes.
    static func taiwanQuotes(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { "“”‘’'".unicodeScalars.contains($0) }) else { return text }
        var characters = Array(text)
        var converted: Set<Int> = []
        var insideDouble = false
        var singleOpen: Character?
        for index in characters.indices {
            switch characters[index] {
            case "“": characters[index] = "「"; insideDouble = true
            case "”": characters[index] = "」"; insideDouble = false
            case "‘":
                characters[index] = insideDouble ? "『" : "「"
                singleOpen = characters[index]
            case "’":
                guard !isApostrophe(characters, at: index) else { continue }
                characters[index] = (singleOpen ?? (insideDouble ? "『" : "「")) == "『" ? "』" : "」"
                singleOpen = nil
            case "'":
                // '%@' (a placeholder and nothing else between straight quotes).
                guard let close = characters[(index + 1)...].firstIndex(of: "'") else { continue }
                let inside = String(characters[(index + 1)..<close])
                let placeholders = PlaceholderList(inside).placeholders
                if placeholders.count == 1, placeholders[0].text == inside {
                    characters[index] = insideDouble ? "『" : "「"
                    characters[close] = insideDouble ? "』" : "」"
                    converted.formUnion([index, close])
                }
                continue
            default: continue
            }
            converted.insert(index)
        }
        // 在 '%1$@' 中 → 在「%1$@」中: a space between a converted bracket and a Chinese character.
        var dropped: Set<Int> = []
        for index in converted {
            let opening = characters[index] == "「" || characters[index] == "『"
            let space = opening ? index - 1 : index + 1, beyond = opening ? index - 2 : index + 2
            guard space >= 0, space < characters.count, characters[space] == " ", beyond >= 0, beyond < characters.count,
                  characters[beyond].unicodeScalars.allSatisfy(DraftMemory.isHan) else { continue }
            dropped.insert(space)
        }
        if !dropped.isEmpty { characters = characters.indices.filter { !dropped.contains($0) }.map { characters[$0] } }
        return String(characters)
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

/// Drafting one Chinese script's translations from the other's.
public enum ScriptDrafts {
    /// The locale drafts were written in (`--to-locale zh-Hant`): what a format of one locale writes
    /// when none is asked for, as it writes an XLIFF file's target.
    public static func draftedLocale(of catalog: Catalog) -> String? { catalog.presentation[draftedKey] }

    static let draftedKey = "drafts.locale"

    /// What drafting a catalog did: the catalog, how many values were drafted and how many
    /// reviewed ones kept, and the app's own choices (`DraftMemory`) that changed drafts, with how
    /// many drafts each changed.
    public struct Result: Sendable {
        public var catalog: Catalog
        public var drafted: Int
        public var kept: Int
        public var learned: [(choice: DraftMemory.Choice, drafts: Int)]
    }

    /// Fills `target` (zh-Hant or zh-Hans) from the other script where the target has no value
    /// or only a `new` one. Drafts are marked `needs_review`; reviewed translations (translated,
    /// needs review, stale) are never replaced. Returns the catalog and how many were drafted.
    public static func draft(_ catalog: Catalog, target: String) throws(Diagnostic) -> (Catalog, drafted: Int, kept: Int) {
        let result = try draft(catalog, target: target, learning: false)
        return (result.catalog, result.drafted, result.kept)
    }

    /// The same, and with `learning`, Taiwan drafts follow the choices the catalog's own Taiwan
    /// translations show (`DraftMemory`: the app's words, marks, spacing, 您 or 你).
    public static func draft(_ catalog: Catalog, target: String, learning: Bool) throws(Diagnostic) -> Result {
        let toTaiwan = CatalogLocales.chineseScript(of: target) == "zh-Hant"
        // The other script's locale, however its folder spells it (zh-Hans, zh_CN, zh-Hans-CN, zh).
        let sourceScript = toTaiwan ? "zh-Hans" : "zh-Hant"
        let candidates = catalog.locales.filter { CatalogLocales.chineseScript(of: $0) == sourceScript }
        let source = candidates.isEmpty ? nil : CatalogLocales.catalogName(sourceScript, among: candidates)
        guard let source else {
            throw Diagnostic.error(.catalogNoDraftSource(target: target, locales: catalog.locales.joined(separator: ", ")))
        }
        let converter = try ChineseConverter(toTaiwan ? .toTaiwan : .toSimplified)
        let memory = learning && toTaiwan ? DraftMemory(learningFrom: catalog, source: source, target: target, converter: converter) : .none
        var result = catalog
        result.presentation[draftedKey] = target
        var drafted = 0
        var kept = 0
        var learned: [DraftMemory.Choice: Int] = [:]
        for index in result.entries.indices {
            guard let original = result.entries[index].translations[source], result.entries[index].shouldTranslate != false else { continue }
            if let existing = result.entries[index].translations[target], existing.state != .new, !existing.isEmpty {
                kept += 1
                continue
            }
            var (draft, used) = memory.apply(to: converter.convert(original), source: original)
            for choice in used { learned[choice, default: 0] += 1 }
            draft.state = .needsReview
            result.entries[index].translations[target] = draft
            drafted += 1
        }
        return Result(catalog: result, drafted: drafted, kept: kept,
                      learned: learned.map { ($0.key, $0.value) }.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 })
    }
}
