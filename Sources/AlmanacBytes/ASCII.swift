/// The bytes Almanac's formats are made of, by name, and the ASCII tests and case changes the
/// readers use. A reader writes `ASCII.lineFeed`, never `0x0A`.
@usableFromInline package enum ASCII {
    @usableFromInline package static let null = UInt8(ascii: "\0")
    @usableFromInline package static let bell: UInt8 = 0x07
    @usableFromInline package static let tab = UInt8(ascii: "\t")
    @usableFromInline package static let lineFeed = UInt8(ascii: "\n")
    @usableFromInline package static let verticalTab: UInt8 = 0x0B
    @usableFromInline package static let formFeed: UInt8 = 0x0C
    @usableFromInline package static let carriageReturn = UInt8(ascii: "\r")
    @usableFromInline package static let backspace: UInt8 = 0x08
    @usableFromInline package static let escape: UInt8 = 0x1B
    /// U+001F, which separates the cells of a row where they are hashed together.
    @usableFromInline package static let unitSeparator: UInt8 = 0x1F
    @usableFromInline package static let space = UInt8(ascii: " ")
    @usableFromInline package static let exclamation = UInt8(ascii: "!")
    @usableFromInline package static let quote = UInt8(ascii: "\"")
    @usableFromInline package static let hash = UInt8(ascii: "#")
    @usableFromInline package static let dollar = UInt8(ascii: "$")
    @usableFromInline package static let percent = UInt8(ascii: "%")
    @usableFromInline package static let ampersand = UInt8(ascii: "&")
    @usableFromInline package static let apostrophe = UInt8(ascii: "'")
    @usableFromInline package static let openParenthesis = UInt8(ascii: "(")
    @usableFromInline package static let closeParenthesis = UInt8(ascii: ")")
    @usableFromInline package static let asterisk = UInt8(ascii: "*")
    @usableFromInline package static let plus = UInt8(ascii: "+")
    @usableFromInline package static let comma = UInt8(ascii: ",")
    @usableFromInline package static let hyphen = UInt8(ascii: "-")
    @usableFromInline package static let period = UInt8(ascii: ".")
    @usableFromInline package static let slash = UInt8(ascii: "/")
    @usableFromInline package static let zero = UInt8(ascii: "0")
    @usableFromInline package static let nine = UInt8(ascii: "9")
    @usableFromInline package static let colon = UInt8(ascii: ":")
    @usableFromInline package static let semicolon = UInt8(ascii: ";")
    @usableFromInline package static let lessThan = UInt8(ascii: "<")
    @usableFromInline package static let equals = UInt8(ascii: "=")
    @usableFromInline package static let greaterThan = UInt8(ascii: ">")
    @usableFromInline package static let question = UInt8(ascii: "?")
    @usableFromInline package static let at = UInt8(ascii: "@")
    @usableFromInline package static let openBracket = UInt8(ascii: "[")
    @usableFromInline package static let backslash = UInt8(ascii: "\\")
    @usableFromInline package static let closeBracket = UInt8(ascii: "]")
    @usableFromInline package static let caret = UInt8(ascii: "^")
    @usableFromInline package static let underscore = UInt8(ascii: "_")
    @usableFromInline package static let openBrace = UInt8(ascii: "{")
    @usableFromInline package static let pipe = UInt8(ascii: "|")
    @usableFromInline package static let closeBrace = UInt8(ascii: "}")
    @usableFromInline package static let delete: UInt8 = 0x7F
    /// Bytes from here up are not ASCII (UTF-8 lead and continuation bytes).
    @usableFromInline package static let firstNonASCII: UInt8 = 0x80

    /// `a`…`z` minus `A`…`Z`: the one bit that tells a letter's cases apart.
    @usableFromInline package static let caseBit: UInt8 = 0x20

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
