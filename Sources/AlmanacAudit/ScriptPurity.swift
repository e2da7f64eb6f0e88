import AlmanacCatalogs

/// Which Han characters of a text belong to one Chinese script only, from OpenCC's character
/// tables (`ChineseCharacters`): characters both scripts write (里 in 千里, 著 in 显著, 后 in 皇后)
/// are reported only inside a word that is written otherwise in the other script (這里, 以后).
enum ScriptPurity {
    /// Characters Taiwan writes although OpenCC prefers another form: 台 (臺), and 占 and 污, which
    /// the Ministry of Education's standard forms list (佔 and 汙 are variants).
    static let taiwanStandard: Set<Unicode.Scalar> = ["台", "占", "污"]

    /// Each Chinese script's name for itself, as a language list writes it in that script whatever
    /// the list's own language (Apple's and ICU's names: 简体中文, 繁體中文, 中文（简体）).
    static let chineseAutonyms: Set<String> = [
        "简体中文", "中文（简体）", "中文(简体)", "中文 (简体)", "简体", "中文简体",
        "繁體中文", "中文（繁體）", "中文(繁體)", "中文 (繁體)", "繁體", "中文繁體", "正體中文",
    ]

    static func isHan(_ value: UInt32) -> Bool {
        switch value {
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FA1F: true
        default: false
        }
    }

    /// The characters of `text`, in order, that only Simplified Chinese writes there.
    static func simplifiedCharacters(in text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        for index in simplifiedPositions(in: scalars) { result.append(scalars[index]) }
        return String(result)
    }

    /// Where those characters are, in `scalars`.
    static func simplifiedPositions(in scalars: [Unicode.Scalar]) -> [Int] {
        var leftovers = Set(ChineseCharacters.simplifiedLeftovers(in: scalars))
        return scalars.indices.filter { index in
            let scalar = scalars[index]
            guard isHan(scalar.value), !taiwanStandard.contains(scalar) else { return false }
            return ChineseCharacters.isSimplifiedOnly(scalar) || leftovers.remove(index) != nil
        }
    }

    /// The characters of `text`, in order, that only Traditional Chinese writes.
    static func traditionalCharacters(in text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where isTraditionalOnly(scalar) { result.append(scalar) }
        return String(result)
    }

    /// Where those characters are, in `scalars`.
    static func traditionalPositions(in scalars: [Unicode.Scalar]) -> [Int] {
        scalars.indices.filter { isTraditionalOnly(scalars[$0]) }
    }

    private static func isTraditionalOnly(_ scalar: Unicode.Scalar) -> Bool {
        isHan(scalar.value) && ChineseCharacters.isTraditionalOnly(scalar)
    }
}
