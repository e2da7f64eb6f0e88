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
        guard text.utf8.contains(where: { $0 == 0x25 || $0 == 0x7B }) else { return ([], []) }
        var text = text
        return text.withUTF8 { find(in: $0) }
    }

    /// `find(in:)` over the text's bytes (read in place: this runs for every value of every locale).
    private static func find(in bytes: UnsafeBufferPointer<UInt8>) -> (tokens: [String], percentOffsets: [Int]) {
        var tokens: [String] = []
        var offsets: [Int] = []
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
            (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || byte == 0x5F || (!first && (isDigit(byte) || byte == 0x2E || byte == 0x2D))
        }
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case 0x25 where index + 1 < bytes.count && bytes[index + 1] == 0x25:
                index += 2  // %% is a literal percent sign
            case 0x25 where index + 1 < bytes.count && isDigit(bytes[index + 1]):
                var end = index + 1
                while end < bytes.count && isDigit(bytes[end]) { end += 1 }
                // `%1$@` and `%2d` are printf's; a token is followed by neither `$` nor a letter.
                if end < bytes.count && (bytes[end] == 0x24 || isNameByte(bytes[end], first: true)) {
                    index = end
                } else {
                    tokens.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self))
                    offsets.append(index)
                    index = end
                }
            case 0x7B:
                let start = index > 0 && bytes[index - 1] == 0x24 ? index - 1 : index
                var end = index + 1
                while end < bytes.count && isNameByte(bytes[end], first: end == index + 1) { end += 1 }
                if end > index + 1, end < bytes.count, bytes[end] == 0x7D {
                    tokens.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start...end]), as: UTF8.self))
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
