import AlmanacCore
import AlmanacTestSupport
import Testing

/// The byte writer's hand-written pieces against the standard library's answers.
@Suite struct ByteWriterTests {
    /// Decimal digits as `String(_:)` writes them, at every length, both signs and the extremes.
    @Test func decimalsAsTheStandardLibraryWritesThem() {
        var random = SeededGenerator(seed: 20_261_127)
        var numbers = [0, 1, -1, 9, 10, 99, 100, Int.max, Int.min, Int.max - 1, Int.min + 1]
        var power = 1
        for _ in 0..<18 {
            power *= 10
            numbers += [power - 1, power, power + 1, -power, -(power - 1)]
        }
        for _ in 0..<5_000 {
            let magnitude = Int.random(in: 0...18, using: &random)
            var bound = 1
            for _ in 0..<magnitude { bound *= 10 }
            numbers.append(Int.random(in: -bound...bound, using: &random))
        }
        for number in numbers {
            var writer = ByteWriter(capacity: 4)
            writer.append(UInt8(ascii: "<"))
            writer.append(decimal: number)
            writer.append(">")
            #expect(String(decoding: writer.take(), as: UTF8.self) == "<\(number)>")
        }
    }

    /// Text made at run time and literals go in as their UTF-8, whatever the string's storage.
    @Test func stringsGoInAsTheirBytes() {
        let made = String(repeating: "節日", count: 40) + "é"
        let small = "ab"  // a small string is stored inline, not in a buffer
        var writer = ByteWriter(capacity: 1)
        writer.append(made)
        writer.append(small)
        writer.append("literal")
        writer.append(made.dropFirst(3).description)
        #expect(writer.take() == Array((made + small + "literal" + made.dropFirst(3)).utf8))
    }
}

/// The table of distinct byte strings answers as a dictionary of byte arrays does, within its
/// limits of strings and of bytes.
@Test(arguments: [(3, Int.max), (1_000, 40), (10_000, Int.max)])
func byteStringTableAnswersAsADictionary(maxCount: Int, maxBytes: Int) {
    var random = SeededGenerator(seed: UInt64(maxCount))
    let pieces = ["", "生活", "é", "e\u{301}", "x", "FREQ=DAILY;COUNT=3", "\0", "0123456789abcdef"]
    var table = ByteStringTable(maxCount: maxCount, maxBytes: maxBytes)
    var reference: [[UInt8]: Int] = [:]
    var bytes = 0
    for _ in 0..<3_000 {
        let text = (0..<Int.random(in: 0...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        let key = Array(text.utf8)
        #expect(text.withByteView { table.number(of: $0) } == reference[key])
        let inserted = text.withByteView { table.insert($0) }
        if let known = reference[key] {
            #expect(inserted?.number == known && inserted?.added == false)
        } else if reference.count < maxCount, bytes + key.count <= maxBytes {
            #expect(inserted?.number == reference.count && inserted?.added == true)
            reference[key] = reference.count
            bytes += key.count
        } else {
            #expect(inserted == nil)
        }
        if let number = reference[key] { #expect(table.withBytes(of: number) { $0.array } == key) }
    }
    #expect(table.count == reference.count)
}
