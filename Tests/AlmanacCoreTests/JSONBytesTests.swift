import AlmanacCore
import AlmanacTestSupport
import Testing

/// The byte writer's string literals are the String writer's, with every escaping option, on text
/// full of what needs escaping (quotes, backslashes, slashes, every control, multi-byte text).
@Suite struct JSONBytesTests {
    @Test func bytesQuoteAsTheStringWriterQuotes() {
        var random = SeededGenerator(seed: 8259)
        let pieces = ["\"", "\\", "/", "a", "媽媽", "é", "🎉", " ", "long run of plain text"] + (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
        let options: [JSONValue.Escaping] = [[], .shortControls, .slash, [.slash, .shortControls]]
        for round in 0..<3_000 {
            let text = (0..<Int.random(in: 0...10, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let escaping = options[round % options.count]
            var string = ""
            JSONValue.quote(text, into: &string, escaping: escaping)
            var bytes: [UInt8] = []
            JSONValue.quote(text, into: &bytes, escaping: escaping)
            #expect(String(decoding: bytes, as: UTF8.self) == string, "\(text.debugDescription) \(escaping.rawValue)")
        }
    }
}
