extension JSONValue {
    /// Appends `text` as a JSON string literal to UTF-8 output, escaped exactly as
    /// `quote(_:into:escaping:)` does with the same options; fast for the usual text that needs
    /// no escape (checked eight bytes at a time, then copied whole).
    public static func quote(_ text: String, into output: inout [UInt8], escaping: Escaping = []) {
        var text = text
        text.withUTF8 { quote(utf8: $0, into: &output, escaping: escaping) }
    }

    public static func quote(utf8: UnsafeBufferPointer<UInt8>, into output: inout [UInt8], escaping: Escaping = []) {
        output.append(0x22)
        var start = 0
        var index = 0
        let count = utf8.count
        let slash = escaping.contains(.slash)
        if !slash, let base = utf8.baseAddress.map(UnsafeRawPointer.init) {
            // A byte needs escaping when it is a quote, a backslash or below 0x20.
            let ones: UInt64 = 0x0101_0101_0101_0101
            let tops: UInt64 = 0x8080_8080_8080_8080
            let quotes: UInt64 = 0x2222_2222_2222_2222, backslashes: UInt64 = 0x5C5C_5C5C_5C5C_5C5C
            while index + 8 <= count {
                let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let a = word ^ quotes, b = word ^ backslashes
                let control = (word &- 0x2020_2020_2020_2020) & ~word
                if ((a &- ones) & ~a | (b &- ones) & ~b | control) & tops != 0 { break }
                index += 8
            }
        }
        while index < count {
            let byte = utf8[index]
            if byte == 0x22 || byte == 0x5C || byte < 0x20 || (slash && byte == 0x2F) {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                switch byte {
                case 0x22: output.append(contentsOf: [0x5C, 0x22])
                case 0x5C: output.append(contentsOf: [0x5C, 0x5C])
                case 0x2F: output.append(contentsOf: [0x5C, 0x2F])
                case 0x0A: output.append(contentsOf: [0x5C, 0x6E])
                case 0x0D: output.append(contentsOf: [0x5C, 0x72])
                case 0x09: output.append(contentsOf: [0x5C, 0x74])
                case 0x08 where escaping.contains(.shortControls): output.append(contentsOf: [0x5C, 0x62])
                case 0x0C where escaping.contains(.shortControls): output.append(contentsOf: [0x5C, 0x66])
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    output.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
                }
                start = index + 1
            }
            index += 1
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<count]))
        output.append(0x22)
    }
}

extension JSONValue {
    /// Appends the value as UTF-8, byte for byte what `serialized(pretty:)` writes (with `indent`
    /// spaces of nesting when it is part of a larger pretty-printed document), without building
    /// strings: for writers of large documents.
    public func write(into output: inout [UInt8], pretty: Bool, indent: Int) {
        switch self {
        case .null: output += [0x6E, 0x75, 0x6C, 0x6C]
        case .bool(let flag): output += flag ? Array("true".utf8) : Array("false".utf8)
        case .integer(let number): output += Array(String(number).utf8)
        case .number(let number):
            output += Array((number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) + ".0" : String(number)).utf8)
        case .string(let text): JSONValue.quote(text, into: &output)
        case .array(let items):
            if items.isEmpty { output += [0x5B, 0x5D]; return }
            if !pretty || items.allSatisfy({ $0.array == nil }) {
                output.append(0x5B)
                for (index, item) in items.enumerated() {
                    if index > 0 { output += pretty ? [0x2C, 0x20] : [0x2C] }
                    item.write(into: &output, pretty: false, indent: indent)
                }
                output.append(0x5D)
                return
            }
            output += [0x5B, 0x0A]
            for (index, item) in items.enumerated() {
                output += repeatElement(0x20, count: indent + 2)
                item.write(into: &output, pretty: pretty, indent: indent + 2)
                output += index < items.count - 1 ? [0x2C, 0x0A] : [0x0A]
            }
            output += repeatElement(0x20, count: indent)
            output.append(0x5D)
        case .object(let members):
            if members.isEmpty { output += [0x7B, 0x7D]; return }
            output += pretty ? [0x7B, 0x0A] : [0x7B]
            for (index, (key, value)) in members.enumerated() {
                if pretty { output += repeatElement(0x20, count: indent + 2) }
                JSONValue.quote(key, into: &output)
                output += pretty ? [0x3A, 0x20] : [0x3A]
                value.write(into: &output, pretty: pretty, indent: indent + 2)
                if index < members.count - 1 { output.append(0x2C) }
                if pretty { output.append(0x0A) }
            }
            if pretty { output += repeatElement(0x20, count: indent) }
            output.append(0x7D)
        }
    }
}
