import AlmanacBytes
import Foundation
import AlmanacTestSupport
import Testing

/// The byte writer's hand-written pieces against the standard library's answers.
@Suite struct ByteWriterTests {
    /// Short runs are copied word by word (`ShortCopy`): every length from 0 to 40 bytes, at
    /// every offset into the source, lands exactly, beside what was there before and after it.
    @Test func shortRunsCopiedExactly() {
        let source = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        source.withByteView { view in
            for length in 0...40 {
                for offset in 0...(64 - length) {
                    var writer = ByteWriter(capacity: 4)
                    writer.append("<")
                    writer.append(view, offset, offset + length)
                    writer.append(">")
                    #expect(writer.take() == [UInt8(ascii: "<")] + source[offset..<(offset + length)] + [UInt8(ascii: ">")])
                }
            }
        }
    }

    /// Escaped JSON strings whose plain runs between escapes have every length up to 40.
    @Test func escapedRunsOfEveryLength() {
        for length in 0...40 {
            let run = String(repeating: "ab寶", count: length / 3 + 1).utf8.prefix(length)
            let text = String(decoding: run, as: UTF8.self)
            for value in [text, "\"" + text + "\n" + text + "\\", text + "\u{1}" + text] {
                var writer = ByteWriter(capacity: 4)
                value.withByteView { writer.appendJSONString($0, escaping: []) }
                let written = String(decoding: writer.take(), as: UTF8.self)
                let expected = "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                    .replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\u{1}", with: "\\u0001") + "\""
                #expect(written == expected, "\(length)")
            }
        }
    }

    /// A table row written as a flat object is what the general calls write for it.
    @Test func flatObjectsAsTheGeneralCallsWriteThem() {
        let keys = ["id", "名稱", "a\"b", ""]
        let values = ["1", "寶寶\n滿月", "", "tab\there"]
        for count in 0...keys.count {
            var general = JSONWriter(layout: .compact)
            general.beginObject(oneLine: true)
            for index in 0..<count {
                general.key(keys[index])
                general.string(values[index])
            }
            general.endObject()
            let quotedKeys = keys.map { key -> [UInt8] in
                var one = JSONWriter(layout: .compact)
                one.string(key)
                return one.take() + [UInt8(ascii: ":")]
            }
            // Each list's bytes in one buffer, lent whole; a member is a range of it.
            func starts(_ pieces: [[UInt8]]) -> [Int] { pieces.reduce(into: [0]) { $0.append($0.last! + $1.count) } }
            let valueBytes = values.map { Array($0.utf8) }
            let (keyStarts, valueStarts) = (starts(quotedKeys), starts(valueBytes))
            var flat = JSONWriter(layout: .compact)
            Array(quotedKeys.joined()).withByteView { allKeys in
                Array(valueBytes.joined()).withByteView { allValues in
                    flat.flatObject(count: count, key: { allKeys[keyStarts[$0]..<keyStarts[$0 + 1]] },
                                    value: { allValues[valueStarts[$0]..<valueStarts[$0 + 1]] })
                }
            }
            #expect(flat.take() == general.take())
        }
    }

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
