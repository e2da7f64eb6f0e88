/// The bytes Almanac's formats are made of, by name, and the ASCII tests and case changes the
/// readers use. A reader writes `ASCII.lineFeed`, never `0x0A`.
@usableFromInline package enum ASCII {
    @inlinable package static var null: UInt8 { UInt8(ascii: "\0") }
    @inlinable package static var bell: UInt8 { 0x07 }
    @inlinable package static var tab: UInt8 { UInt8(ascii: "\t") }
    @inlinable package static var lineFeed: UInt8 { UInt8(ascii: "\n") }
    @inlinable package static var verticalTab: UInt8 { 0x0B }
    @inlinable package static var formFeed: UInt8 { 0x0C }
    @inlinable package static var carriageReturn: UInt8 { UInt8(ascii: "\r") }
    @inlinable package static var backspace: UInt8 { 0x08 }
    @inlinable package static var escape: UInt8 { 0x1B }
    /// U+001F, which separates the cells of a row where they are hashed together.
    @inlinable package static var unitSeparator: UInt8 { 0x1F }
    @inlinable package static var space: UInt8 { UInt8(ascii: " ") }
    @inlinable package static var exclamation: UInt8 { UInt8(ascii: "!") }
    @inlinable package static var quote: UInt8 { UInt8(ascii: "\"") }
    @inlinable package static var hash: UInt8 { UInt8(ascii: "#") }
    @inlinable package static var dollar: UInt8 { UInt8(ascii: "$") }
    @inlinable package static var percent: UInt8 { UInt8(ascii: "%") }
    @inlinable package static var ampersand: UInt8 { UInt8(ascii: "&") }
    @inlinable package static var apostrophe: UInt8 { UInt8(ascii: "'") }
    @inlinable package static var openParenthesis: UInt8 { UInt8(ascii: "(") }
    @inlinable package static var closeParenthesis: UInt8 { UInt8(ascii: ")") }
    @inlinable package static var asterisk: UInt8 { UInt8(ascii: "*") }
    @inlinable package static var plus: UInt8 { UInt8(ascii: "+") }
    @inlinable package static var comma: UInt8 { UInt8(ascii: ",") }
    @inlinable package static var hyphen: UInt8 { UInt8(ascii: "-") }
    @inlinable package static var period: UInt8 { UInt8(ascii: ".") }
    @inlinable package static var slash: UInt8 { UInt8(ascii: "/") }
    @inlinable package static var zero: UInt8 { UInt8(ascii: "0") }
    @inlinable package static var nine: UInt8 { UInt8(ascii: "9") }
    @inlinable package static var colon: UInt8 { UInt8(ascii: ":") }
    @inlinable package static var semicolon: UInt8 { UInt8(ascii: ";") }
    @inlinable package static var lessThan: UInt8 { UInt8(ascii: "<") }
    @inlinable package static var equals: UInt8 { UInt8(ascii: "=") }
    @inlinable package static var greaterThan: UInt8 { UInt8(ascii: ">") }
    @inlinable package static var question: UInt8 { UInt8(ascii: "?") }
    @inlinable package static var at: UInt8 { UInt8(ascii: "@") }
    @inlinable package static var openBracket: UInt8 { UInt8(ascii: "[") }
    @inlinable package static var backslash: UInt8 { UInt8(ascii: "\\") }
    @inlinable package static var closeBracket: UInt8 { UInt8(ascii: "]") }
    @inlinable package static var caret: UInt8 { UInt8(ascii: "^") }
    @inlinable package static var underscore: UInt8 { UInt8(ascii: "_") }
    @inlinable package static var openBrace: UInt8 { UInt8(ascii: "{") }
    @inlinable package static var pipe: UInt8 { UInt8(ascii: "|") }
    @inlinable package static var closeBrace: UInt8 { UInt8(ascii: "}") }
    @inlinable package static var delete: UInt8 { 0x7F }
    /// Bytes from here up are not ASCII (UTF-8 lead and continuation bytes).
    @inlinable package static var firstNonASCII: UInt8 { 0x80 }

    /// `a`…`z` minus `A`…`Z`: the one bit that tells a letter's cases apart.
    @inlinable package static var caseBit: UInt8 { 0x20 }

    @inlinable @inline(__always)
    package static func isDigit(_ byte: UInt8) -> Bool { byte &- zero < 10 }

    @inlinable @inline(__always)
    package static func isUppercase(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "A") < 26 }

    @inlinable @inline(__always)
    package static func isLowercase(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "a") < 26 }

    @inlinable @inline(__always)
    package static func isLetter(_ byte: UInt8) -> Bool { (byte | caseBit) &- UInt8(ascii: "a") < 26 }

    @inlinable @inline(__always)
    package static func isAlphanumeric(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) }

    @inlinable @inline(__always)
    package static func isHexDigit(_ byte: UInt8) -> Bool { isDigit(byte) || (byte | caseBit) &- UInt8(ascii: "a") < 6 }

    /// The value of a hex digit, or nil.
    @inlinable
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        if isDigit(byte) { return byte - zero }
        let lower = byte | caseBit
        return lower &- UInt8(ascii: "a") < 6 ? lower - UInt8(ascii: "a") + 10 : nil
    }

    /// Space, tab, line feed or carriage return (JSON's and most formats' whitespace).
    @inlinable @inline(__always)
    package static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == tab || byte == lineFeed || byte == carriageReturn
    }

    /// A control character: below a space, or DEL.
    @inlinable @inline(__always)
    package static func isControl(_ byte: UInt8) -> Bool { byte < space || byte == delete }

    @inlinable @inline(__always)
    package static func lowercased(_ byte: UInt8) -> UInt8 { isUppercase(byte) ? byte | caseBit : byte }

    @inlinable @inline(__always)
    package static func uppercased(_ byte: UInt8) -> UInt8 { isLowercase(byte) ? byte & ~caseBit : byte }

    /// Whether two bytes are the same letter in either case, or the same byte.
    @inlinable @inline(__always)
    package static func equalIgnoringCase(_ a: UInt8, _ b: UInt8) -> Bool { a == b || (isLetter(a) && a | caseBit == b | caseBit) }

    /// The digit byte of a value 0–9.
    @inlinable @inline(__always)
    package static func digit(_ value: Int) -> UInt8 { zero &+ UInt8(truncatingIfNeeded: value) }
}

extension StringProtocol {
    /// Whether the text equals `other` with ASCII letters compared in either case (other
    /// characters compared as they are).
    package func equalsIgnoringASCIICase(_ other: some StringProtocol) -> Bool {
        utf8.count == other.utf8.count && zip(utf8, other.utf8).allSatisfy { ASCII.equalIgnoringCase($0, $1) }
    }

    /// Whether the text starts with `prefix`, ASCII letters compared in either case.
    package func hasPrefixIgnoringASCIICase(_ prefix: some StringProtocol) -> Bool {
        utf8.count >= prefix.utf8.count && zip(utf8, prefix.utf8).allSatisfy { ASCII.equalIgnoringCase($0, $1) }
    }
}

extension String {
    /// Without the spaces, tabs and carriage returns that end it: a line's padding (a line feed
    /// ends the line and stays).
    package func trimmingTrailingSpaces() -> String {
        var end = utf8.endIndex
        while end > utf8.startIndex {
            let before = utf8.index(before: end)
            let byte = utf8[before]
            guard byte == ASCII.space || byte == ASCII.tab || byte == ASCII.carriageReturn else { break }
            end = before
        }
        return String(self[..<end])
    }
}
