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
