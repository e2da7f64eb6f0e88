import AlmanacBytes
import AlmanacTestSupport
import Testing

/// The byte tools the readers share, each against the plain thing it stands for.
@Suite struct ByteToolsTests {
    /// Names found in any case, at any place in a buffer (near its end too, where the lookup reads
    /// byte by byte), and nothing else: against a comparison of the names uppercased.
    @Test func packedNameTableFindsExactlyItsNames() {
        let names = ["BEGIN", "END", "DTSTART", "DTEND", "DUE", "SUMMARY", "RRULE", "EXDATE", "X-ALMANAC-TYPE",
                     "X-WR-CALNAME", "TZID", "UID", "VALARM", "CATEGORIES", "LAST-MODIFIED", "ABCDEFGHIJKLMNOP"]
        let table = PackedNameTable(names.enumerated().map { ($0.element, $0.offset) })
        func upper(_ bytes: [UInt8]) -> [UInt8] { bytes.map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 } }
        var random = SeededGenerator(seed: 11)
        let noise: [UInt8] = Array("-_@`[{;:=0129azAZ".utf8) + [0x00, 0x7F, 0x80, 0xC4, 0xE4, 0xFF]
        for _ in 0..<20_000 {
            var name = Array(names.randomElement(using: &random)!.utf8)
            switch Int.random(in: 0..<5, using: &random) {
            case 0: name = name.map { Bool.random(using: &random) && (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
            case 1: name[Int.random(in: 0..<name.count, using: &random)] = noise.randomElement(using: &random)!
            case 2: name.removeLast()
            case 3: name.append(noise.randomElement(using: &random)!)
            default: break
            }
            let before = (0..<Int.random(in: 0...3, using: &random)).map { _ in noise.randomElement(using: &random)! }
            let after = (0..<Int.random(in: 0...20, using: &random)).map { _ in noise.randomElement(using: &random)! }
            let buffer = before + name + after
            let expected = names.firstIndex { Array($0.utf8) == upper(name) }
            buffer.withByteView { view in
                let found = table.lookup(view, before.count, before.count + name.count)
                #expect(found?.0 == expected, "\(String(decoding: name, as: UTF8.self))")
                if let expected { #expect(found?.1 == names[expected]) }
            }
        }
    }

    /// A line's padding goes (spaces, tabs, carriage returns), and nothing else: not a line feed,
    /// an ideographic space, or padding before the text.
    @Test func trailingSpacesTrimmed() {
        let cases: [(String, String)] = [
            ("", ""), ("   ", ""), ("abc", "abc"), ("abc \t\r", "abc"), ("abc \r \t", "abc"), ("  abc  ", "  abc"),
            ("abc\n", "abc\n"), ("abc\n  ", "abc\n"), ("設定\u{3000}", "設定\u{3000}"), ("設定 ", "設定"),
            ("a\r\n", "a\r\n"), ("é\t", "é"),
        ]
        for (text, expected) in cases { #expect(text.trimmingTrailingSpaces() == expected, "\(text.debugDescription)") }
    }

    /// A shared string is the string of its bytes, however often and in whatever order they come.
    @Test func byteInternerGivesTheStringOfTheBytes() {
        var random = SeededGenerator(seed: 12)
        let interner = ByteInterner()
        let pool = (0..<40).map { index in String(repeating: "時區\(index)·", count: index % 9 + 1) + String(repeating: "x", count: index * 7) }
        for _ in 0..<5_000 {
            let text = Array(pool.randomElement(using: &random)!.utf8)
            let start = Int.random(in: 0...min(3, text.count), using: &random)
            let end = Int.random(in: start...text.count, using: &random)
            text.withByteView { view in
                #expect(interner.string(view, start, end) == view.string(start, end))
            }
        }
    }

    /// Pushes, pops and comparisons with the top, against an array of byte strings.
    @Test func byteStackIsAStack() {
        var random = SeededGenerator(seed: 13)
        var stack = ByteStack()
        var reference: [[UInt8]] = []
        let names = ["a", "b", "dict", "key", "string", "plist", "array", "ab", ""].map { Array($0.utf8) }
        for _ in 0..<20_000 {
            if reference.isEmpty || Bool.random(using: &random) {
                let name = names.randomElement(using: &random)!
                name.withByteView { stack.push($0) }
                reference.append(name)
            } else {
                stack.pop()
                reference.removeLast()
            }
            #expect(stack.count == reference.count && stack.isEmpty == reference.isEmpty)
            #expect(stack.top.map { Array($0.utf8) } == reference.last)
            let probe = names.randomElement(using: &random)!
            #expect(probe.withByteView { stack.topEquals($0) } == (reference.last == probe))
        }
    }
}
