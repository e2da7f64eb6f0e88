import AlmanacCore
import AlmanacTestSupport
import Foundation
import Testing

/// JSON string literals, for every escaping option, on text full of what needs escaping (quotes,
/// backslashes, slashes, every control, multi-byte text): as a plain reading of RFC 8259 writes
/// them, and, with short controls, as Foundation's encoder does.
@Suite struct JSONBytesTests {
    static func reference(_ text: String, _ escaping: JSONValue.Escaping) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "/" where escaping.contains(.slash): result += "\\/"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{8}" where escaping.contains(.shortControls): result += "\\b"
            case "\u{C}" where escaping.contains(.shortControls): result += "\\f"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    @Test func literalsForEveryOption() throws {
        var random = SeededGenerator(seed: 8259)
        let pieces = ["\"", "\\", "/", "a", "媽媽", "é", "🎉", " ", "long run of plain text"] + (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
        let options: [JSONValue.Escaping] = [[], .shortControls, .slash, [.slash, .shortControls]]
        let foundation = JSONEncoder()
        let foundationWithoutSlashes = JSONEncoder()
        foundationWithoutSlashes.outputFormatting = .withoutEscapingSlashes
        for round in 0..<3_000 {
            let text = (0..<Int.random(in: 0...10, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let escaping = options[round % options.count]
            var string = ""
            JSONValue.quote(text, into: &string, escaping: escaping)
            var bytes: [UInt8] = []
            JSONValue.quote(text, into: &bytes, escaping: escaping)
            let expected = Self.reference(text, escaping)
            #expect(string == expected, "\(text.debugDescription) \(escaping.rawValue)")
            #expect(String(decoding: bytes, as: UTF8.self) == expected, "\(text.debugDescription) \(escaping.rawValue)")
            if escaping.contains(.shortControls) {
                let encoder = escaping.contains(.slash) ? foundation : foundationWithoutSlashes
                #expect(String(decoding: try encoder.encode(text), as: UTF8.self) == expected, "\(text.debugDescription)")
            }
        }
    }
}
