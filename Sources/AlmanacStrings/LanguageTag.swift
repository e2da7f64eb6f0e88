/// The names of locales read from a file's content (an `.xcstrings` localization, XLIFF's
/// `target-language`, an `.lproj` folder, a translator's column): a catalog's locales become
/// folder names (`zh-Hant.lproj`), so a name that is not a language tag is refused where it enters
/// the model, before it can become part of a path.
///
/// Accepted: well-formed BCP 47 tags (RFC 5646's syntax: `en`, `zh-Hant-TW`, `es-419`,
/// `sr-Latn`, `de-CH-1901`, `en-u-ca-gregory`, `x-pirate`, the grandfathered `i-klingon`), the same
/// with underscores as ICU and Apple's older `.lproj` folders write them (`zh_TW`, `zh_Hant_TW`),
/// and Apple's English names (`English`, `Japanese`) and `Base`, which the syntax already allows.
/// Nothing else: no `/`, `.`, spaces or control characters can pass, whatever the separator.
public enum LanguageTag {
    /// The longest name taken: well beyond any tag in use (RFC 5646 asks for 35 characters, 42 with
    /// extensions), and far inside a file name's 255 bytes once `.lproj` is added.
    public static let maximumLength = 128

    /// Whether `name` is a well-formed tag in one of the accepted spellings.
    public static func isWellFormed(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumLength else { return false }
        // One separator throughout: `zh_Hant-TW` is neither spelling.
        let separator: UInt8 = bytes.contains(underscore) ? underscore : hyphen
        if separator == underscore, bytes.contains(hyphen) { return false }
        let subtags = bytes.split(separator: separator, omittingEmptySubsequences: false).map { Array($0) }
        guard subtags.allSatisfy({ !$0.isEmpty && $0.count <= 8 && $0.allSatisfy(isAlphanumeric) }) else { return false }
        let lowered = subtags.map { $0.map(lowercase) }
        if separator == hyphen, grandfathered.contains(lowered) { return true }
        return isLanguageTag(lowered)
    }

    /// Throws `catalog.locale-not-tag` at `location` when `name` is not a well-formed tag.
    public static func check(_ name: String, at location: SourceLocation) throws(Diagnostic) {
        guard !isWellFormed(name) else { return }
        throw Diagnostic.error(.catalogLocaleNotTag(name: Message.quoting(name, limit: maximumLength)), at: location)
    }

    // MARK: RFC 5646, section 2.1, over lowercased subtags

    /// `langtag` or `privateuse`.
    private static func isLanguageTag(_ subtags: [[UInt8]]) -> Bool {
        if subtags[0] == [x] { return isPrivateUse(subtags[...]) }
        var rest = subtags[...]
        // language = 2*3ALPHA ["-" extlang] / 4ALPHA / 5*8ALPHA
        let language = rest.removeFirst()
        guard language.count >= 2, language.allSatisfy(isLetter) else { return false }
        if language.count <= 3 {
            // extlang = 3ALPHA *2("-" 3ALPHA)
            var extlangs = 0
            while extlangs < 3, let next = rest.first, next.count == 3, next.allSatisfy(isLetter) {
                rest.removeFirst()
                extlangs += 1
            }
        }
        // script = 4ALPHA
        if let next = rest.first, next.count == 4, next.allSatisfy(isLetter) { rest.removeFirst() }
        // region = 2ALPHA / 3DIGIT
        if let next = rest.first, (next.count == 2 && next.allSatisfy(isLetter)) || (next.count == 3 && next.allSatisfy(isDigit)) {
            rest.removeFirst()
        }
        // variant = 5*8alphanum / (DIGIT 3alphanum)
        while let next = rest.first, next.count >= 5 || (next.count == 4 && isDigit(next[0])) { rest.removeFirst() }
        // extension = singleton 1*("-" (2*8alphanum))
        while let next = rest.first, next.count == 1, next[0] != x {
            rest.removeFirst()
            var parts = 0
            while let part = rest.first, part.count >= 2 {
                rest.removeFirst()
                parts += 1
            }
            guard parts > 0 else { return false }
        }
        // ["-" privateuse]
        if let next = rest.first, next == [x] { return isPrivateUse(rest) }
        return rest.isEmpty
    }

    /// privateuse = "x" 1*("-" (1*8alphanum))
    private static func isPrivateUse(_ subtags: ArraySlice<[UInt8]>) -> Bool {
        subtags.count >= 2
    }

    /// RFC 5646's grandfathered tags, which the general syntax does not cover (the regular ones
    /// it does, but they are listed whole for clarity).
    private static let grandfathered: Set<[[UInt8]]> = Set([
        "en-GB-oed", "i-ami", "i-bnn", "i-default", "i-enochian", "i-hak", "i-klingon", "i-lux", "i-mingo", "i-navajo",
        "i-pwn", "i-tao", "i-tay", "i-tsu", "sgn-BE-FR", "sgn-BE-NL", "sgn-CH-DE",
        "art-lojban", "cel-gaulish", "no-bok", "no-nyn", "zh-guoyu", "zh-hakka", "zh-min", "zh-min-nan", "zh-xiang",
    ].map { tag in tag.lowercased().utf8.split(separator: hyphen).map { Array($0) } })

    private static let hyphen = UInt8(ascii: "-")
    private static let underscore = UInt8(ascii: "_")
    private static let x = UInt8(ascii: "x")

    private static func isLetter(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isDigit(byte) || isLetter(lowercase(byte))
    }
    private static func lowercase(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte - UInt8(ascii: "A") + UInt8(ascii: "a") : byte
    }
}

extension Catalog {
    /// Checks every locale the catalog names (its source language and each translation's) with
    /// `LanguageTag`; for models that arrive whole (Almanac's catalog JSON, a codec plugin's
    /// output). `file` is the input the error names; the key path points at the first bad name.
    public func checkLocaleNames(file: String?) throws(Diagnostic) {
        try LanguageTag.check(sourceLanguage, at: SourceLocation(file: file, keyPath: "/sourceLanguage"))
        for (index, entry) in entries.enumerated() {
            for locale in entry.translations.keys.sorted() where !LanguageTag.isWellFormed(locale) {
                try LanguageTag.check(locale, at: SourceLocation(file: file, keyPath: "/entries/\(index)/translations"))
            }
        }
    }
}
