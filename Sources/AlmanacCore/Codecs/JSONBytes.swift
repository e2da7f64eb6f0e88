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
