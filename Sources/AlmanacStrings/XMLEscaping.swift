/// XML's escaping of text written by hand, in one place: the audit's HTML report and the workbook's
/// styles write with it, the stringsdict layout reader reads keys back with it. (Documents written
/// through libxml2 are escaped by libxml2; cell text in a workbook also takes OOXML's `_xHHHH_`
/// escape, AlmanacXLSX's OOXMLText; the streamed XML scanner resolves entities as it reads.)
package enum XMLEscaping {
    /// Text as XML (or HTML) character data or an attribute value: `& < > " '` as entities.
    package static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    /// The text of XML character data: entities and character references replaced.
    package static func unescaped(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";") else { break }
            let name = rest[rest.index(after: amp)..<semicolon]
            let scalar: Unicode.Scalar? = switch name {
            case "lt": "<"
            case "gt": ">"
            case "amp": "&"
            case "quot": "\""
            case "apos": "'"
            default:
                name.hasPrefix("#x") ? UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                    : name.hasPrefix("#") ? UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init) : nil
            }
            if let scalar {
                result.unicodeScalars.append(scalar)
            } else {
                result += rest[amp...semicolon]
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}
