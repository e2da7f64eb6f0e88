import AlmanacCore

/// Writes content lines as RFC 5545 asks: parameters quoted when needed (RFC 6868 escapes for
/// quotes and newlines), folded at 75 octets without splitting a UTF-8 sequence, CRLF line ends.
enum ContentLineWriter {
    /// The unfolded line `NAME;PARAM=value:value`.
    static func line(_ name: String, _ parameters: [CarriedProperty.Parameter], _ value: String) -> String {
        var text = name
        for parameter in parameters {
            text += ";" + parameter.name + "=" + parameter.values.map(quoted).joined(separator: ",")
        }
        return text + ":" + value
    }

    static func quoted(_ value: String) -> String {
        var needsQuotes = false
        var needsCaret = false
        for scalar in value.unicodeScalars {
            switch scalar {
            case ":", ";", ",": needsQuotes = true
            case "\"", "\n", "^": needsCaret = true
            default: break
            }
        }
        var text = value
        if needsCaret {
            text = ""
            for character in value {
                switch character {
                case "^": text += "^^"
                case "\"": text += "^'"
                case "\n", "\r\n": text += "^n"
                default: text.append(character)
                }
            }
        }
        return needsQuotes || needsCaret ? "\"" + text + "\"" : text
    }

    /// Appends `line` folded at 75 octets, each physical line ending in CRLF.
    /// The first line holds 75 octets, each continuation line its space and 74 more; a
    /// character is never split (RFC 5545 §3.1). The pieces are copied whole.
    static func appendFolded(_ line: String, to output: inout [UInt8]) {
        line.withByteView { bytes in
            var start = 0
            var limit = 75
            while bytes.count - start > limit {
                // Back to the first byte of the character the limit falls in.
                var end = start + limit
                while end > start, UTF8Validation.isContinuation(bytes[end]) { end -= 1 }
                bytes.append(start, end, to: &output)
                output.append(contentsOf: [ASCII.carriageReturn, ASCII.lineFeed, ASCII.space])
                start = end
                limit = 74
            }
            bytes.append(start, bytes.count, to: &output)
        }
        output.append(ASCII.carriageReturn)
        output.append(ASCII.lineFeed)
    }
}
