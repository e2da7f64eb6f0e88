import AlmanacCore

/// Placeholders an app substitutes itself rather than through `String(format:)`: `%0`, `%1` (a
/// percent sign and digits that printf does not read as a placeholder), `{name}` and `${name}`.
/// A `%0` is a stray percent to printf; the audit takes it for the app's own placeholder when the
/// base value has it and some translation repeats it, and then checks that every locale has the
/// same tokens, as it checks printf placeholders.
enum AppTokens {
    /// The tokens of `text` in order (`%0`, `{name}`, `${toggle}`), and the UTF-8 offsets of the
    /// `%` of each percent token.
    static func find(in text: String) -> (tokens: [String], percentOffsets: [Int]) {
        // Most values have none of % { at all.
        guard text.utf8.contains(where: { $0 == ASCII.percent || $0 == ASCII.openBrace }) else { return ([], []) }
        return text.withByteView { find(in: $0) }
    }

    /// `find(in:)` over the text's bytes (read in place: this runs for every value of every locale).
    private static func find(in bytes: ByteView) -> (tokens: [String], percentOffsets: [Int]) {
        var tokens: [String] = []
        var offsets: [Int] = []
        func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
            ASCII.isLetter(byte) || byte == ASCII.underscore || (!first && (ASCII.isDigit(byte) || byte == ASCII.period || byte == ASCII.hyphen))
        }
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case ASCII.percent where index + 1 < bytes.count && bytes[index + 1] == ASCII.percent:
                index += 2  // %% is a literal percent sign
            case ASCII.percent where index + 1 < bytes.count && ASCII.isDigit(bytes[index + 1]):
                var end = index + 1
                while end < bytes.count && ASCII.isDigit(bytes[end]) { end += 1 }
                // `%1$@` and `%2d` are printf's; a token is followed by neither `$` nor a letter.
                if end < bytes.count && (bytes[end] == ASCII.dollar || isNameByte(bytes[end], first: true)) {
                    index = end
                } else {
                    tokens.append(bytes.string(index, end))
                    offsets.append(index)
                    index = end
                }
            case ASCII.openBrace:
                let start = index > 0 && bytes[index - 1] == ASCII.dollar ? index - 1 : index
                var end = index + 1
                while end < bytes.count && isNameByte(bytes[end], first: end == index + 1) { end += 1 }
                if end > index + 1, end < bytes.count, bytes[end] == ASCII.closeBrace {
                    tokens.append(bytes.string(start, end + 1))
                    index = end + 1
                } else {
                    index += 1
                }
            default:
                index += 1
            }
        }
        return (tokens, offsets)
    }
}
