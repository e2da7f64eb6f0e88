public import AlmanacCore

/// How one app writes Taiwan Chinese, learned from the translations it already has: the choices its
/// translators made where a general draft of their zh-Hans text would have been written otherwise —
/// its words (帳號 where the draft writes 帳戶), its quotation marks, a space between Chinese and
/// Latin text or none, 您 or 你, full-width marks after Chinese. A choice is kept only where the
/// evidence is consistent: seen in several translations and contradicted by none. Drafts of the
/// app's new strings then follow it on top of the general draft (`ChineseConverter`).
///
/// ```swift
/// let converter = try ChineseConverter(.toTaiwan)
/// let memory = DraftMemory(pairs: [("保存账户", "儲存帳號"), ("删除账户", "刪除帳號")], converter: converter)
/// memory.apply(converter.convert("新建账户")).text   // 新增帳號 (the general draft writes 帳戶)
/// ```
///
/// Learning is deterministic: the same pairs give the same choices, whatever their order.
public struct DraftMemory: Sendable {
    /// One learned choice and how many of the app's translations show it.
    public struct Choice: Hashable, Sendable, Comparable {
        public enum Kind: Hashable, Sendable {
            /// A word the app writes otherwise than the general draft (`帳戶` → `帳號`).
            case word(draft: String, app: String)
            /// “” and ‘’ where drafts write 「」 and 『』.
            case westernQuotes
            /// A space between Chinese and Latin letters or digits (`true`), or none (`false`).
            case spacing(Bool)
            /// 您 for 你 (`true`), or 你 for 您 (`false`).
            case polite(Bool)
            /// Full-width `，：；？！` after Chinese where the draft has half-width ones.
            case fullWidthMarks
            /// The app's own translation of the same zh-Hans text, elsewhere in the catalog.
            case sameText
        }

        public var kind: Kind
        /// The app's translations that show the choice.
        public var seen: Int

        /// As a person reads it: `帳戶 → 帳號`, `“”`, `no space between Chinese and Latin`.
        public var summary: String {
            switch kind {
            case .word(let draft, let app): "\(draft) → \(app)"
            case .westernQuotes: "“” ‘’"
            case .spacing(let spaced): spaced ? "中文 Latin" : "中文Latin"
            case .polite(let polite): polite ? "你 → 您" : "您 → 你"
            case .fullWidthMarks: "，：；？！"
            case .sameText: "the app's translation of the same text"
            }
        }

        public static func < (lhs: Choice, rhs: Choice) -> Bool {
            lhs.seen != rhs.seen ? lhs.seen > rhs.seen : lhs.summary < rhs.summary
        }
    }

    /// What the app's translations showed, most seen first.
    public private(set) var choices: [Choice] = []
    private var words: [Text: Choice] = [:]
    private var wordIndex = WordIndex([])
    private var westernQuotes: Choice?
    private var spacing: Choice?
    private var polite: Choice?
    private var fullWidthMarks: Choice?
    /// zh-Hans texts the app translates one way wherever they stand, with that translation.
    private(set) var texts: [String: String] = [:]
    private var sameText: Choice?

    /// A choice needs this many of the app's translations showing it, and none against it.
    public static let evidence = 2
    /// Style choices (marks, spacing, 您) need more: each translation has many places to show them.
    public static let styleEvidence = 8
    /// A word choice: the share of the drafts with the word that the app writes otherwise.
    static let consistency = 0.8
    /// A text shorter than this many characters is the app's translation once seen twice.
    static let shortText = 4
    /// The longest text that is a phrase of others.
    static let longestPhrase = 24

    /// Knows nothing: drafts stay the general ones.
    public static let none = DraftMemory()

    /// Texts are compared as Unicode scalars: Chinese has one per character, and comparing them
    /// is comparing numbers.
    typealias Text = [Unicode.Scalar]

    init() {}

    /// Learns from the app's (zh-Hans, zh-Hant) translation pairs, each zh-Hant a person's.
    public init(pairs: [(source: String, target: String)], converter: ChineseConverter) {
        var candidates: [Text: [Text: Int]] = [:]   // draft word → app word → translations
        var drafts: [Text] = []
        var targets: [Text] = []
        // The same zh-Hans text translated one way everywhere is the app's translation of it.
        // A short text (继续, 启动) is translated for its place as often as for its words: it counts
        // once the app has translated it the same way twice.
        var translationsOf: [String: [String]] = [:]
        // A Taiwan text with Simplified characters in it (MASShortcut's 无效组合键) is no choice of
        // the app's: it is learned from nowhere, or drafts would carry it.
        let pairs = pairs.filter { !$0.target.unicodeScalars.contains(where: ChineseCharacters.isSimplifiedOnly) }
        for (source, target) in pairs where !target.isEmpty { translationsOf[source, default: []].append(target) }
        for (source, targets) in translationsOf where Set(targets).count == 1 && (source.count >= Self.shortText || targets.count >= 2) {
            texts[source] = targets[0]
        }
        if !texts.isEmpty { sameText = Choice(kind: .sameText, seen: texts.count) }
        var draftOf: [String: Text] = [:]
        func drafted(_ source: String) -> Text {
            if let known = draftOf[source] { return known }
            let made = Array(converter.convert(source).unicodeScalars)
            draftOf[source] = made
            return made
        }
        for (source, target) in pairs where target.unicodeScalars.contains(where: Self.isHan) {
            let draft = drafted(source), human = Array(target.unicodeScalars)
            drafts.append(draft)
            targets.append(human)
            guard draft != human, draft.count <= Self.longestText, human.count <= Self.longestText else { continue }
            var shown: Set<[Text]> = []
            for (from, to) in Self.replacedWords(draft, human) where shown.insert([from, to]).inserted {
                candidates[from, default: [:]][to, default: 0] += 1
            }
        }
        // A text the app translates one way is also a phrase of longer texts: where the general
        // draft of a longer text holds the draft of it, the app's translation of it stands there.
        var phrases: Set<Text> = []
        for (source, target) in texts where source.count >= Self.shortText && source.count <= Self.longestPhrase
            && source.unicodeScalars.contains(where: Self.isHan) {
            let draft = drafted(source), app = Array(target.unicodeScalars)
            // A text the app shortens for its place (欢迎使用 as 歡迎, a title) keeps its words elsewhere.
            guard draft != app, !Self.isShortening(app, of: draft) else { continue }
            candidates[draft, default: [:]][app, default: 0] += translationsOf[source, default: []].count
            phrases.insert(draft)
        }
        // A draft word the app writes one way, in enough translations, and keeps as the draft has
        // it in none.
        var kept: [Text: Int] = [:]
        var occurrences: [Text: Int] = [:]
        let index = WordIndex(candidates.keys)
        for (draft, human) in zip(drafts, targets) {
            for word in Set(index.words(in: draft)) {
                occurrences[word, default: 0] += 1
                // The draft's word inside the app's (應用 in 應用程式) is no contradiction.
                let apps = candidates[word, default: [:]].keys.filter { $0.count > word.count && Self.occurs(word, in: $0, outside: []) }
                if Self.occurs(word, in: human, outside: Array(apps)) { kept[word, default: 0] += 1 }
            }
        }
        for (from, tos) in candidates {
            // Written so wherever the draft has the word, near enough: a translator's rewording of one
            // text (向上 as 向下) is no choice of the app's.
            guard tos.count == 1, let (to, seen) = tos.first, seen >= (phrases.contains(from) ? 1 : Self.evidence), kept[from, default: 0] == 0,
                  Double(seen) >= Self.consistency * Double(occurrences[from, default: seen]) else { continue }
            words[from] = Choice(kind: .word(draft: Self.string(from), app: Self.string(to)), seen: seen)
        }
        wordIndex = WordIndex(words.keys)
        learnStyle(targets)
        choices = (Array(words.values) + [westernQuotes, spacing, polite, fullWidthMarks, sameText].compactMap { $0 }).sorted()
    }

    /// The catalog's pairs of `source` (zh-Hans) and `target` (a Taiwan locale) texts, where the
    /// target's text is a person's: translated, not a draft waiting for review.
    public init(learningFrom catalog: Catalog, source: String, target: String, converter: ChineseConverter) {
        var pairs: [(String, String)] = []
        for entry in catalog.entries {
            guard let from = entry.translations[source], let to = entry.translations[target],
                  to.state != .needsReview, to.state != .new else { continue }
            let targets = Dictionary(to.texts, uniquingKeysWith: { first, _ in first })
            for (path, text) in from.texts { if let human = targets[path], !human.isEmpty { pairs.append((text, human)) } }
        }
        self.init(pairs: pairs, converter: converter)
    }

    /// A general draft with the app's choices applied, and the choices that changed it.
    public func apply(_ draft: String) -> (text: String, used: [Choice]) {
        guard !choices.isEmpty else { return (draft, []) }
        var used: [Choice] = []
        var characters = Array(draft.unicodeScalars)
        if !words.isEmpty {
            var result: Text = []
            var index = 0
            while index < characters.count {
                // The longest of the app's words that starts here.
                if let word = wordIndex.longest(in: characters, at: index), let choice = words[word], case .word(_, let app) = choice.kind {
                    result += Array(app.unicodeScalars)
                    if !used.contains(choice) { used.append(choice) }
                    index += word.count
                } else {
                    result.append(characters[index])
                    index += 1
                }
            }
            characters = result
        }
        if let polite, case .polite(let wantsPolite) = polite.kind {
            let from: Unicode.Scalar = wantsPolite ? "你" : "您", to: Unicode.Scalar = wantsPolite ? "您" : "你"
            var changed = false
            for index in characters.indices where characters[index] == from {
                // 你們 is no 您們: the plural stays.
                if wantsPolite, index + 1 < characters.count, characters[index + 1] == "們" { continue }
                characters[index] = to
                changed = true
            }
            if changed { used.append(polite) }
        }
        if let westernQuotes {
            let western: [Unicode.Scalar: Unicode.Scalar] = ["「": "“", "」": "”", "『": "‘", "』": "’"]
            if characters.contains(where: { western[$0] != nil }) {
                characters = characters.map { western[$0] ?? $0 }
                used.append(westernQuotes)
            }
        }
        if let fullWidthMarks {
            let wide: [Unicode.Scalar: Unicode.Scalar] = [",": "，", ":": "：", ";": "；", "?": "？", "!": "！"]
            var result: Text = []
            var changed = false
            var index = 0
            while index < characters.count {
                let character = characters[index]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                // After Chinese, and before a space, Chinese or the end: punctuation, not a time or a ratio.
                if let full = wide[character], let last = result.last, Self.isHan(last), next == nil || next == " " || Self.isHan(next!) {
                    result.append(full)
                    changed = true
                    index += next == " " ? 2 : 1
                    continue
                }
                result.append(character)
                index += 1
            }
            if changed { characters = result; used.append(fullWidthMarks) }
        }
        if let spacing, case .spacing(let spaced) = spacing.kind {
            var result: Text = []
            var changed = false
            for (index, character) in characters.enumerated() {
                if spaced {
                    if let last = result.last, Self.isBoundary(last, character) { result.append(" "); changed = true }
                } else if character == " ", let last = result.last, index + 1 < characters.count, Self.isBoundary(last, characters[index + 1]) {
                    changed = true
                    continue
                }
                result.append(character)
            }
            if changed { characters = result; used.append(spacing) }
        }
        return (Self.string(characters), used)
    }

    /// The app's own translation of this zh-Hans text, where it translates the text one way.
    public func translation(of source: String) -> String? { texts[source] }

    /// Every text of a drafted translation (its value, plural forms, device variants) with the
    /// app's choices applied, and the choices that changed any of them. With `source`, the zh-Hans
    /// translation it was drafted from, a text the app already translates elsewhere is that
    /// translation.
    public func apply(to translation: Translation, source: Translation? = nil) -> (Translation, Set<Choice>) {
        guard !choices.isEmpty else { return (translation, []) }
        var used: Set<Choice> = []
        if let source, let sameText, let value = source.value, let known = texts[value], translation.plural == nil,
           translation.substitutions == nil, translation.devices == nil {
            var result = translation
            result.value = known
            return (result, [sameText])
        }
        func applied(_ text: String) -> String {
            let (result, choices) = apply(text)
            used.formUnion(choices)
            return result
        }
        var result = translation
        result.value = translation.value.map(applied)
        result.plural = translation.plural?.mapValues(applied)
        result.devices = translation.devices?.mapValues { variant in
            let (changed, choices) = apply(to: variant)
            used.formUnion(choices)
            return changed
        }
        result.substitutions = translation.substitutions?.mapValues { substitution in
            var copy = substitution
            copy.plural = substitution.plural.mapValues(applied)
            return copy
        }
        return (result, used)
    }

    // MARK: Learning

    /// Longer texts (a paragraph of help) align too loosely to teach words.
    static let longestText = 240
    /// The longest change a choice is made of (before the characters around it that place it).
    static let longestChoice = 4

    static func string(_ text: Text) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: text)
        return String(view)
    }

    /// The words the draft has that the human text writes otherwise: the places where the two
    /// differ, each with the characters around it up to one that both have in the same place, when
    /// both sides are Chinese words of up to four characters.
    static func replacedWords(_ draft: Text, _ human: Text) -> [(Text, Text)] {
        var result: [(Text, Text)] = []
        for block in differences(draft, human) {
            let core = (draft: Array(draft[block.draft]), human: Array(human[block.human]))
            guard core.draft.allSatisfy(isHan), core.human.allSatisfy(isHan), !(core.draft.isEmpty && core.human.isEmpty),
                  core.draft.count <= longestChoice, core.human.count <= longestChoice else { continue }
            // 您 for 你 is the pronoun's choice, learned as a style.
            if core.draft.map({ $0 == "你" ? "您" : $0 == "您" ? "你" : $0 }) == core.human { continue }
            // A particle put in or left out (组合变音符号 as 組合的變音符號) is the sentence's grammar,
            // not the app's word: 組合 is no 組合的 in 組合鍵.
            if core.draft.isEmpty || core.human.isEmpty, (core.draft + core.human).allSatisfy(particles.contains) { continue }
            // A change of two characters or more on both sides is a word by itself (通過 → 透過). One
            // character, or one put in or left out (應用 → 應用程式, 您確定 → 確定), says where it
            // applies only with the Chinese characters both texts have beside it: one or two before
            // it, or else after it. Each is a candidate; the evidence keeps those never contradicted.
            if core.draft.count >= 2, core.human.count >= 2 { result.append((core.draft, core.human)) }
            guard core.draft.count < 2 || core.human.count < 2 else { continue }
            var found = false
            for width in 1...2 {
                let d = block.draft.lowerBound - width, h = block.human.lowerBound - width
                guard d >= 0, h >= 0, draft[d..<block.draft.lowerBound] == human[h..<block.human.lowerBound],
                      draft[d..<block.draft.lowerBound].allSatisfy(isHan) else { break }
                result.append((Array(draft[d..<block.draft.upperBound]), Array(human[h..<block.human.upperBound])))
                found = true
            }
            if found { continue }
            for width in 1...2 {
                let d = block.draft.upperBound + width, h = block.human.upperBound + width
                guard d <= draft.count, h <= human.count, draft[block.draft.upperBound..<d] == human[block.human.upperBound..<h],
                      draft[block.draft.upperBound..<d].allSatisfy(isHan) else { break }
                result.append((Array(draft[block.draft.lowerBound..<d]), Array(human[block.human.lowerBound..<h])))
            }
        }
        return result
    }

    /// Where two texts differ, as ranges of each, from the longest common subsequence; two
    /// differences with a single character in common between them are one (粘貼 and 貼上 share 貼).
    static func differences(_ a: Text, _ b: Text) -> [(draft: Range<Int>, human: Range<Int>)] {
        // The common ends first: most drafts differ from the human text in a word or two.
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        let n = a.count - prefix - suffix, m = b.count - prefix - suffix
        // lengths[i * (m + 1) + j]: the longest common subsequence of the middles from i and from j.
        var lengths = [Int](repeating: 0, count: (n + 1) * (m + 1))
        if n > 0, m > 0 {
            for i in stride(from: n - 1, through: 0, by: -1) {
                for j in stride(from: m - 1, through: 0, by: -1) {
                    lengths[i * (m + 1) + j] = a[prefix + i] == b[prefix + j] ? lengths[(i + 1) * (m + 1) + j + 1] + 1
                        : max(lengths[(i + 1) * (m + 1) + j], lengths[i * (m + 1) + j + 1])
                }
            }
        }
        var blocks: [(Range<Int>, Range<Int>)] = []
        var i = 0, j = 0
        var start: (Int, Int)?
        while i < n || j < m {
            if i < n, j < m, a[prefix + i] == b[prefix + j] {
                if let open = start { blocks.append(((prefix + open.0)..<(prefix + i), (prefix + open.1)..<(prefix + j))); start = nil }
                i += 1; j += 1
            } else if j < m, i == n || lengths[i * (m + 1) + j + 1] >= lengths[(i + 1) * (m + 1) + j] {
                if start == nil { start = (i, j) }
                j += 1
            } else {
                if start == nil { start = (i, j) }
                i += 1
            }
        }
        if let open = start { blocks.append(((prefix + open.0)..<(prefix + n), (prefix + open.1)..<(prefix + m))) }
        // One common character between two differences joins them.
        var merged: [(draft: Range<Int>, human: Range<Int>)] = []
        for block in blocks {
            if let last = merged.last, block.0.lowerBound - last.draft.upperBound <= 1, block.1.lowerBound - last.human.upperBound <= 1,
               block.0.lowerBound - last.draft.upperBound == block.1.lowerBound - last.human.upperBound {
                merged[merged.count - 1] = (last.draft.lowerBound..<block.0.upperBound, last.human.lowerBound..<block.1.upperBound)
            } else {
                merged.append((draft: block.0, human: block.1))
            }
        }
        return merged
    }

    /// Whether `word` stands in `text` other than inside one of `containers` (words that hold it).
    static func occurs(_ word: Text, in text: Text, outside containers: [Text]) -> Bool {
        guard !word.isEmpty, word.count <= text.count else { return false }
        for start in 0...(text.count - word.count) where text[start..<(start + word.count)].elementsEqual(word) {
            let covered = containers.contains { container in
                guard container.count > word.count else { return false }
                for offset in 0...(container.count - word.count) where container[offset..<(offset + word.count)].elementsEqual(word) {
                    let from = start - offset
                    if from >= 0, from + container.count <= text.count, text[from..<(from + container.count)].elementsEqual(container) { return true }
                }
                return false
            }
            if !covered { return true }
        }
        return false
    }

    /// The app's marks, spacing and pronoun, from its human texts: a style is learned when enough
    /// places show it and at most one in twenty goes the other way.
    private mutating func learnStyle(_ texts: [Text]) {
        var western = 0, corner = 0, spaced = 0, tight = 0, nin = 0, ni = 0, full = 0, half = 0
        for text in texts {
            for (index, character) in text.enumerated() {
                switch character {
                case "“", "”", "‘": western += 1
                case "’" where !(index > 0 && index + 1 < text.count && Self.isLatinLetter(text[index - 1]) && Self.isLatinLetter(text[index + 1])):
                    western += 1
                case "「", "」", "『", "』": corner += 1
                case "您": nin += 1
                case "你": ni += 1
                case "，", "：", "；", "？", "！": if index > 0, Self.isHan(text[index - 1]) { full += 1 }
                case ",", ":", ";", "?", "!":
                    if index > 0, Self.isHan(text[index - 1]), index + 1 == text.count || text[index + 1] == " " || Self.isHan(text[index + 1]) { half += 1 }
                default: break
                }
                guard index + 1 < text.count else { continue }
                if Self.isBoundary(character, text[index + 1]) { tight += 1 }
                if character == " ", index > 0, Self.isBoundary(text[index - 1], text[index + 1]) { spaced += 1 }
            }
        }
        func decided(_ yes: Int, _ no: Int) -> Bool { yes >= Self.styleEvidence && no * 20 <= yes }
        if decided(western, corner) { westernQuotes = Choice(kind: .westernQuotes, seen: western) }
        if decided(spaced, tight) { spacing = Choice(kind: .spacing(true), seen: spaced) }
        else if decided(tight, spaced) { spacing = Choice(kind: .spacing(false), seen: tight) }
        if decided(nin, ni) { polite = Choice(kind: .polite(true), seen: nin) }
        else if decided(ni, nin) { polite = Choice(kind: .polite(false), seen: ni) }
        if decided(full, half) { fullWidthMarks = Choice(kind: .fullWidthMarks, seen: full) }
    }

    /// Characters that tie words into a sentence rather than name anything.
    static let particles: Set<Unicode.Scalar> = ["的", "地", "得", "了", "著", "着", "之", "嗎", "呢", "吧", "啊"]

    /// Whether `shorter` is `text` with characters left out and none put in or changed.
    static func isShortening(_ shorter: Text, of text: Text) -> Bool {
        guard shorter.count < text.count else { return false }
        var next = 0
        for scalar in text where next < shorter.count && shorter[next] == scalar { next += 1 }
        return next == shorter.count
    }

    static func isHan(_ scalar: Unicode.Scalar) -> Bool {
        (0x3400...0x9FFF).contains(scalar.value) || (0xF900...0xFAFF).contains(scalar.value)
    }

    /// Chinese beside a Latin letter or digit, either way round.
    static func isBoundary(_ a: Unicode.Scalar, _ b: Unicode.Scalar) -> Bool {
        (isHan(a) && isLatin(b)) || (isLatin(a) && isHan(b))
    }

    static func isLatin(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (isLatinLetter(scalar) || ("0"..."9").contains(scalar))
    }

    static func isLatinLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}

/// Words to find in texts, by their first character, longest first: a text's words are found
/// without making a string of each of its substrings.
struct WordIndex: Sendable {
    private var byFirst: [Unicode.Scalar: [[Unicode.Scalar]]] = [:]

    init(_ words: some Sequence<[Unicode.Scalar]>) {
        for word in words {
            guard let first = word.first else { continue }
            byFirst[first, default: []].append(word)
        }
        for key in byFirst.keys {
            byFirst[key]!.sort { $0.count != $1.count ? $0.count > $1.count : $0.lexicographicallyPrecedes($1) { $0.value < $1.value } }
        }
    }

    /// The longest word that starts at `start` of `text`.
    func longest(in text: [Unicode.Scalar], at start: Int) -> [Unicode.Scalar]? {
        guard let words = byFirst[text[start]] else { return nil }
        return words.first { $0.count <= text.count - start && text[start..<(start + $0.count)].elementsEqual($0) }
    }

    /// Every word the text holds (one for each place it starts).
    func words(in text: [Unicode.Scalar]) -> [[Unicode.Scalar]] {
        var found: [[Unicode.Scalar]] = []
        for start in text.indices {
            guard let words = byFirst[text[start]] else { continue }
            for word in words where word.count <= text.count - start && text[start..<(start + word.count)].elementsEqual(word) {
                found.append(word)
            }
        }
        return found
    }
}
