import AlmanacCatalogs
import AlmanacICU

/// Which Han characters belong to one Chinese script only, decided by ICU's transforms (with
/// Taiwan's variants), one character at a time and remembered: a catalog of 50,000 strings uses a
/// few thousand distinct characters.
final class ScriptPurity {
    let toTraditional: ChineseConverter
    let toSimplified: ChineseConverter
    // By the character's first scalar (Han characters are one scalar).
    private var simplifiedOnly: [UInt32: Bool] = [:]
    private var traditionalOnly: [UInt32: Bool] = [:]

    /// Characters Taiwan writes although ICU's transform prefers another form (台 for 臺).
    static let taiwanStandard: Set<Character> = ["台"]

    init() throws {
        toTraditional = try ChineseConverter(.toTaiwan)
        toSimplified = try ChineseConverter(.toSimplified)
    }

    static func isHan(_ character: Character) -> Bool {
        character.unicodeScalars.first.map { isHan($0.value) } ?? false
    }

    static func isHan(_ value: UInt32) -> Bool {
        switch value {
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FA1F: true
        default: false
        }
    }

    /// Characters of `text` that only Simplified Chinese uses: their own simplified form, and
    /// written differently in Traditional.
    func simplifiedCharacters(in text: String) -> String {
        characters(in: text, remembered: &simplifiedOnly) { alone in
            !Self.taiwanStandard.contains(Character(alone)) && toSimplified.convert(alone) == alone && toTraditional.convert(alone) != alone
        }
    }

    /// Characters of `text` that only Traditional Chinese uses.
    func traditionalCharacters(in text: String) -> String {
        characters(in: text, remembered: &traditionalOnly) { alone in toSimplified.convert(alone) != alone }
    }

    /// The Han characters of `text` that pass `test`, each decided once.
    private func characters(in text: String, remembered: inout [UInt32: Bool], where test: (String) -> Bool) -> String {
        var result = ""
        for scalar in text.unicodeScalars where Self.isHan(scalar.value) {
            let known = remembered[scalar.value] ?? {
                let answer = test(String(scalar))
                remembered[scalar.value] = answer
                return answer
            }()
            if known { result.unicodeScalars.append(scalar) }
        }
        return result
    }
}
