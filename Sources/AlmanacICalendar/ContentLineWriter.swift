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
    static func appendFolded(_ line: String, to output: inout [UInt8]) {
        var width = 0
        var utf8 = line.utf8.makeIterator()
        var pending = utf8.next()
        while let lead = pending {
            // A whole UTF-8 sequence goes on one line.
            let length = UTF8Validation.sequenceLength(lead: lead)
            if width + length > 75 {
                output.append(contentsOf: [ASCII.carriageReturn, ASCII.lineFeed, ASCII.space])
                width = 1
            }
            output.append(lead)
            width += 1
            pending = utf8.next()
            var remaining = length - 1
            while remaining > 0, let byte = pending, UTF8Validation.isContinuation(byte) {
                output.append(byte)
                width += 1
                remaining -= 1
                pending = utf8.next()
            }
        }
        output.append(ASCII.carriageReturn)
        output.append(ASCII.lineFeed)
    }
}
