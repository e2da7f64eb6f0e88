import AlmanacBytes
import AlmanacTestSupport
import Testing

/// The word-at-a-time scans against a byte-by-byte reference, and the byte-string table against a
/// dictionary, on random bytes that favour the ones the matchers and their word tests sit beside.
@Suite struct ByteScanTests {
    /// Bytes on the edges of the matchers' tests: controls and a space, DEL, the ASCII/non-ASCII
    /// boundary, C1's lead, the bytes CSV, JSON and line scans stop at.
    static let edges: [UInt8] = [0x00, 0x01, 0x1F, 0x20, 0x21, 0x7E, 0x7F, 0x80, 0x81, 0xC1, 0xC2, 0xC3, 0xFF,
                                 ASCII.quote, ASCII.backslash, ASCII.slash, ASCII.comma, ASCII.lineFeed, ASCII.carriageReturn, ASCII.tab]

    static func randomBytes(_ random: inout SeededGenerator) -> [UInt8] {
        (0..<Int.random(in: 0...40, using: &random)).map { _ in
            Bool.random(using: &random) ? edges.randomElement(using: &random)! : UInt8(ascii: "a") + UInt8.random(in: 0..<26, using: &random)
        }
    }

    /// Checks one matcher's scans over `rounds` random inputs against `wanted`, byte by byte.
    static func agree(_ matcher: some ByteMatcher, wanted: (UInt8) -> Bool, seed: UInt64, rounds: Int = 3_000) {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<rounds {
            let bytes = randomBytes(&random)
            let start = Int.random(in: 0...bytes.count, using: &random)
            let end = Int.random(in: start...bytes.count, using: &random)
            let expected = bytes[start..<end].firstIndex(where: wanted) ?? end
            let expectedHigh = bytes[start..<expected].contains { $0 >= 0x80 }
            bytes.withByteView { view in
                for byte in bytes { #expect(matcher.matches(byte) == wanted(byte), "\(byte)") }
                #expect(ByteScan.firstIndex(in: view, from: start, to: end, where: matcher) == expected, "\(bytes) \(start)..<\(end)")
                var high: UInt64 = 0
                #expect(ByteScan.firstIndex(in: view, from: start, to: end, where: matcher, collectingHighBits: &high) == expected)
                #expect((high != 0) == expectedHigh, "high bits of \(bytes) \(start)..<\(expected)")
                #expect(ByteScan.contains(in: view, where: matcher) == bytes.contains(where: wanted))
            }
        }
    }

    @Test func anyOfTwoThreeFour() {
        Self.agree(AnyOf2.lineBreak, wanted: { $0 == ASCII.lineFeed || $0 == ASCII.carriageReturn }, seed: 1)
        Self.agree(AnyOf3(ASCII.comma, ASCII.lineFeed, ASCII.carriageReturn),
                   wanted: { $0 == ASCII.comma || $0 == ASCII.lineFeed || $0 == ASCII.carriageReturn }, seed: 2)
        Self.agree(AnyOf4(ASCII.comma, ASCII.quote, ASCII.lineFeed, ASCII.carriageReturn),
                   wanted: { [ASCII.comma, ASCII.quote, ASCII.lineFeed, ASCII.carriageReturn].contains($0) }, seed: 3)
        // A matcher of a byte with its top bit set, where a borrow from the lane below could show.
        Self.agree(AnyOf2(0x80, 0xFF), wanted: { $0 == 0x80 || $0 == 0xFF }, seed: 4)
    }

    @Test func jsonEscapesNonASCIIAndTerminalControls() {
        Self.agree(JSONEscapes(slash: false), wanted: { $0 == ASCII.quote || $0 == ASCII.backslash || $0 < 0x20 }, seed: 5)
        Self.agree(JSONEscapes(slash: true), wanted: { $0 == ASCII.quote || $0 == ASCII.backslash || $0 < 0x20 || $0 == ASCII.slash }, seed: 6)
        Self.agree(NonASCII(), wanted: { $0 >= 0x80 }, seed: 7)
        Self.agree(TerminalControls(), wanted: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }, seed: 8)
    }

    @Test func zeroAndASCIIChecks() {
        var random = SeededGenerator(seed: 9)
        for _ in 0..<2_000 {
            let bytes = Self.randomBytes(&random)
            bytes.withByteView { view in
                #expect(ByteScan.containsZero(view) == bytes.contains(0))
                #expect(ByteScan.isASCII(view) == bytes.allSatisfy { $0 < 0x80 })
            }
        }
    }

    /// Strings numbered in the order added, found again by their bytes, through the table's growth;
    /// strings past its limits are not added and those held are still found.
    @Test func byteStringTableAgreesWithADictionary() {
        var random = SeededGenerator(seed: 10)
        var table = ByteStringTable(maxCount: 5_000)
        var reference: [[UInt8]: Int] = [:]
        for _ in 0..<20_000 {
            // Short strings from few letters: many come again.
            let bytes = (0..<Int.random(in: 0...4, using: &random)).map { _ in UInt8(ascii: "a") + UInt8.random(in: 0..<6, using: &random) }
            let found = bytes.withByteView { table.number(of: $0) }
            #expect(found == reference[bytes])
            let inserted = bytes.withByteView { table.insert($0) }
            if let known = reference[bytes] {
                #expect(inserted?.number == known && inserted?.added == false)
            } else if reference.count < 5_000 {
                #expect(inserted?.number == reference.count && inserted?.added == true)
                reference[bytes] = reference.count
            } else {
                #expect(inserted == nil)
            }
        }
        #expect(table.count == reference.count)
        for (bytes, number) in reference {
            #expect(table.withBytes(of: number) { $0.array } == bytes)
        }
        var full = ByteStringTable(maxCount: 10, maxBytes: 3)
        #expect("ab".withByteView { full.insert($0) }?.number == 0)
        #expect("cd".withByteView { full.insert($0) } == nil)
        #expect("ab".withByteView { full.number(of: $0) } == 0)
    }
}
