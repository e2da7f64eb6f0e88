/// XML character data as SpreadsheetML stores it, written without making strings.
extension ByteWriter {
    /// `text` as XML character data: `&`, `<` and `>` as entities, and the control characters
    /// XML 1.0 cannot hold (all below U+0020 but tab, line feed and carriage return) as OOXML's
    /// `_xHHHH_` escape, which Excel and openpyxl read back as the character. An underscore that
    /// would start such an escape is itself escaped (`_x005F_`), so text reads back as it was.
    package mutating func appendXMLText(_ text: ByteView) {
        var start = 0
        var index = 0
        let count = text.count
        while index < count {
            let byte = text[index]
            // Bytes above `>` other than `_` never need escaping: most text is one copy.
            if byte > ASCII.greaterThan && byte != ASCII.underscore {
                index += 1
                continue
            }
            let replacement: StaticString?
            switch byte {
            case ASCII.ampersand: replacement = "&amp;"
            case ASCII.lessThan: replacement = "&lt;"
            case ASCII.greaterThan: replacement = "&gt;"
            case ASCII.tab, ASCII.lineFeed, ASCII.carriageReturn: replacement = nil
            case ASCII.underscore:
                guard Self.startsEscape(text, index) else { index += 1; continue }
                replacement = "_x005F_"
            case ..<ASCII.space:
                append(text, start, index)
                append("_x00")
                append(Self.hexDigits[Int(byte >> 4)])
                append(Self.hexDigits[Int(byte & 0x0F)])
                append(ASCII.underscore)
                index += 1
                start = index
                continue
            default: replacement = nil
            }
            if let replacement {
                append(text, start, index)
                append(replacement)
                start = index + 1
            }
            index += 1
        }
        append(text, start, count)
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Whether `_xHHHH_` begins at `index`.
    private static func startsEscape(_ text: ByteView, _ index: Int) -> Bool {
        guard index + 7 <= text.count, text[index + 1] == UInt8(ascii: "x"), text[index + 6] == ASCII.underscore else { return false }
        for offset in 2..<6 where !ASCII.isHexDigit(text[index + offset]) { return false }
        return true
    }
}

/// Where a reader of XML (`XMLScanner`) must stop, found eight bytes at a time: a control
/// character or either of two bytes.
@usableFromInline package struct XMLSpecials: ByteMatcher, Sendable {
    @usableFromInline let others: AnyOf2

    @inlinable init(_ a: UInt8, _ b: UInt8) { others = AnyOf2(a, b) }

    /// In text: `&`, the controls (tab and line feed are text as they are, carriage return is
    /// normalised, the rest are refused), and `]`, which may start a `]]>` that text must not hold.
    @inlinable package static var text: XMLSpecials { XMLSpecials(ASCII.ampersand, ASCII.closeBracket) }

    /// In an attribute value: `&`, the controls, and `<`, which a value may not hold.
    @inlinable package static var value: XMLSpecials { XMLSpecials(ASCII.ampersand, ASCII.lessThan) }

    @inlinable @inline(__always) package func lanes(_ word: UInt64) -> UInt64 {
        ByteScan.lanes(of: word, below: ASCII.space) | others.lanes(word)
    }

    @inlinable @inline(__always) package func matches(_ byte: UInt8) -> Bool { byte < ASCII.space || others.matches(byte) }
}
