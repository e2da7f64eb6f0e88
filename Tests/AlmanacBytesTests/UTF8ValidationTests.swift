import AlmanacBytes
import AlmanacTestSupport
import Testing

/// The hand-written validator every reader uses agrees with the standard library's, on text and
/// on text with bytes damaged, cut and swapped (where its fast paths could go wrong).
@Suite struct UTF8ValidationTests {
    @Test func agreesWithTheStandardLibrary() {
        var random = SeededGenerator(seed: 20_261_124)
        let samples = ["記得提前訂蛋糕；地點：台北101", "媽媽生日 🎉 é ß", "DTSTART;TZID=Asia/Taipei:20260108T170000", "\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}\u{D7FF}\u{E000}"]
        // Bytes that sit on the edges of the rules: overlong leads, surrogates, beyond U+10FFFF.
        let edges: [UInt8] = [0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEE, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0x9F, 0xA0, 0x8F, 0x90]
        for round in 0..<4_000 {
            var bytes = Array(samples[round % samples.count].utf8)
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[at] = edges.randomElement(using: &random)!
                case 1: bytes.remove(at: at)
                default: bytes.insert(edges.randomElement(using: &random)!, at: at)
                }
                if bytes.isEmpty { bytes = [0x41] }
            }
            let valid = String(validating: bytes, as: UTF8.self) != nil
            let (invalid, complete) = UTF8Validation.validate(bytes)
            #expect((invalid == nil && complete == bytes.count) == valid, "\(bytes)")
            if valid { #expect(bytes.withByteView { UTF8Validation.isValid($0, 0, $0.count) }) }
            // Where it stops is where the valid prefix ends.
            if let invalid {
                #expect(String(validating: bytes[..<invalid], as: UTF8.self) != nil, "\(bytes) at \(invalid)")
            }
        }
    }

    /// The exact answer (first invalid byte, end of the last whole character) against the rules
    /// written plainly one byte at a time, on long mixed text (runs of ASCII past sixteen bytes,
    /// CJK runs, damage anywhere) and from any start to any end inside the buffer.
    @Test func exactAnswerOnLongMixedText() {
        func reference(_ bytes: [UInt8], _ start: Int, _ end: Int) -> (invalid: Int?, complete: Int) {
            var index = start
            while index < end {
                let lead = bytes[index]
                let (length, low, high): (Int, UInt8, UInt8) = switch lead {
                case 0x00...0x7F: (1, 0, 0)
                case 0xC2...0xDF: (2, 0x80, 0xBF)
                case 0xE0: (3, 0xA0, 0xBF)
                case 0xED: (3, 0x80, 0x9F)
                case 0xE1...0xEF: (3, 0x80, 0xBF)
                case 0xF0: (4, 0x90, 0xBF)
                case 0xF1...0xF3: (4, 0x80, 0xBF)
                case 0xF4: (4, 0x80, 0x8F)
                default: (0, 0, 0)
                }
                if length == 0 { return (index, index) }
                for offset in 1..<max(length, 1) where index + offset < end {
                    let byte = bytes[index + offset]
                    if offset == 1 ? (byte < low || byte > high) : (byte & 0xC0 != 0x80) { return (index, index) }
                }
                if index + length > end { return (nil, index) }
                index += length
            }
            return (nil, end)
        }
        var random = SeededGenerator(seed: 20_261_125)
        let pieces = ["DTSTART;TZID=Asia/Taipei:20260108T170000\r\n", "記得提前訂蛋糕", "；", "a", " 🎉 ", "é", "\u{FFFF}", "台北101", "ß"]
        let edges: [UInt8] = [0x80, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0x9F, 0xA0]
        for _ in 0..<3_000 {
            var bytes = Array((0..<Int.random(in: 1...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined().utf8)
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = edges.randomElement(using: &random)!
            }
            let start = Int.random(in: 0...bytes.count, using: &random)
            let end = Int.random(in: start...bytes.count, using: &random)
            let answer = bytes.withByteView { UTF8Validation.validate($0, start, end) }
            let expected = reference(bytes, start, end)
            #expect(answer.invalid == expected.invalid && answer.complete == expected.complete, "\(bytes) \(start)..<\(end)")
        }
    }

    /// Text checked in pieces cut anywhere (inside a character too) gets the answer the whole
    /// text gets; a damaged piece keeps the stream invalid.
    @Test func streamOfPiecesAgreesWithTheWhole() {
        var random = SeededGenerator(seed: 20_261_127)
        let pieces = ["記得提前訂蛋糕", "；", "a,b\r\n", " 🎉 ", "é", "台北101", "\u{10FFFF}"]
        let edges: [UInt8] = [0x80, 0xBF, 0xC0, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF]
        for _ in 0..<3_000 {
            var bytes = Array((0..<Int.random(in: 1...10, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined().utf8)
            if Bool.random(using: &random) { bytes[Int.random(in: 0..<bytes.count, using: &random)] = edges.randomElement(using: &random)! }
            if Int.random(in: 0..<4, using: &random) == 0 { bytes.removeLast(Int.random(in: 0..<min(3, bytes.count), using: &random)) }
            var stream = UTF8Validation.Stream()
            var index = 0
            var everValid = true
            while index < bytes.count {
                let end = min(bytes.count, index + Int.random(in: 1...7, using: &random))
                let valid = stream.check(Array(bytes[index..<end]))
                #expect(everValid || !valid, "once invalid, always invalid")
                everValid = valid
                index = end
            }
            let expected = String(validating: bytes, as: UTF8.self) != nil
            #expect((stream.isValid && !stream.endsInsideCharacter) == expected, "\(bytes)")
        }
    }

    /// ASCII up to the end given, sixteen bytes at a time, with a continuation byte just past
    /// it: the byte past the end is never looked at (it was, once: ASan found the read).
    @Test func stopsAtTheEndItIsGiven() {
        for length in [16, 32, 48, 24, 8, 0] {
            let bytes = Array(repeating: UInt8(0x41), count: length) + [0x80, 0x80]
            let answer = bytes.withByteView { UTF8Validation.validate($0, 0, length) }
            #expect(answer.invalid == nil && answer.complete == length, "\(length)")
        }
    }
}
