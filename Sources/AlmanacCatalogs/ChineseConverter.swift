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
