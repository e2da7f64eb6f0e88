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
        guard let scalar = character.unicodeScalars.first else { return false }
        switch scalar.value {
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FA1F: return true
        default: return false
        }
    }

    static func isHan(_ value: UInt32) -> Bool {
        switch value {
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FA1F: true
        default: false
        }
    }

    /// Characters of `text` that only Simplified Chinese uses.
    func simplifiedCharacters(in text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars where Self.isHan(scalar.value) {
            let known: Bool
            if let cached = simplifiedOnly[scalar.value] {
                known = cached
            } else {
                let alone = String(scalar)
                // Its own simplified form, and written differently in Traditional.
                known = !Self.taiwanStandard.contains(Character(scalar)) && toSimplified.convert(alone) == alone
                    && toTraditional.convert(alone) != alone
                simplifiedOnly[scalar.value] = known
            }
            if known { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    /// Characters of `text` that only Traditional Chinese uses.
    func traditionalCharacters(in text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars where Self.isHan(scalar.value) {
            let known: Bool
            if let cached = traditionalOnly[scalar.value] {
                known = cached
            } else {
                let alone = String(scalar)
                known = toSimplified.convert(alone) != alone
                traditionalOnly[scalar.value] = known
            }
            if known { result.unicodeScalars.append(scalar) }
        }
        return result
    }
}
