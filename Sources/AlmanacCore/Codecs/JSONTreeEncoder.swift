import Foundation

/// An `Encoder` that builds a tree of what a `Codable` value encodes, for `JSONWriter` to write:
/// Almanac's model JSON, reports and baselines go through the same writer as every other JSON
/// it produces. Values come out as Foundation's `JSONEncoder` writes them (a `Decimal` exactly,
/// a whole `Double` without `.0`, a `Date` as seconds since 2001, `Data` in Base64), so files
/// written before read and compare the same.
struct JSONTreeEncoder {
    /// A node of the tree. Containers are boxes: an encoder hands out a container and fills it
    /// after it is placed in its parent.
    indirect enum Node {
        case null
        case bool(Bool)
        /// A number as its JSON text.
        case number(String)
        case string(String)
        case array(ArrayBox)
        case object(ObjectBox)
    }

    final class ArrayBox { var items: [Node] = [] }
    final class ObjectBox { var members: [String: Node] = [:] }

    /// The tree of `value`.
    static func tree(of value: some Encodable) throws -> Node {
        let encoder = TreeEncoder(codingPath: [])
        return try encoder.encodeValue(value)
    }

    /// Writes `node` with `writer`, every object's keys in code point order.
    static func write(_ node: Node, into writer: inout JSONWriter) {
        switch node {
        case .null: writer.null()
        case .bool(let flag): writer.bool(flag)
        case .number(let text): writer.number(text: text)
        case .string(let text): writer.string(text)
        case .array(let box):
            writer.beginArray()
            for item in box.items { write(item, into: &writer) }
            writer.endArray()
        case .object(let box):
            writer.beginObject()
            for key in box.members.keys.sorted(by: JSONValue.precedes) {
                writer.key(key)
                write(box.members[key]!, into: &writer)
            }
            writer.endObject()
        }
    }

    /// A number's text as Foundation writes it: the shortest that reads back the same, without
    /// `.0` for a whole number.
    static func text(_ number: some LosslessStringConvertible) -> String {
        let text = number.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}

/// The encoder proper: one per value, its containers writing into boxes.
private final class TreeEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// What this encoder's value encoded as (set by its single-value container or its first
    /// container).
    var node: JSONTreeEncoder.Node?

    init(codingPath: [any CodingKey]) { self.codingPath = codingPath }

    func encodeValue(_ value: some Encodable) throws -> JSONTreeEncoder.Node {
        // The types JSONEncoder writes its own way rather than through their Codable.
        switch value {
        case let decimal as Decimal: return .number(decimal.description)
        case let date as Date: return .number(JSONTreeEncoder.text(date.timeIntervalSinceReferenceDate))
        case let url as URL: return .string(url.absoluteString)
        case let data as Data: return .string(data.base64EncodedString())
        default:
            try value.encode(to: self)
            return node ?? .object(JSONTreeEncoder.ObjectBox())
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: JSONTreeEncoder.ObjectBox
        if case .object(let existing) = node { box = existing } else {
            box = JSONTreeEncoder.ObjectBox()
            node = .object(box)
        }
        return KeyedEncodingContainer(KeyedContainer<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let box: JSONTreeEncoder.ArrayBox
        if case .array(let existing) = node { box = existing } else {
            box = JSONTreeEncoder.ArrayBox()
            node = .array(box)
        }
        return UnkeyedContainer(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(encoder: self) }

    /// A nested value's node.
    static func node(of value: some Encodable, at path: [any CodingKey]) throws -> JSONTreeEncoder.Node {
        try TreeEncoder(codingPath: path).encodeValue(value)
    }
}

private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue!) }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: JSONTreeEncoder.ObjectBox
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { box.members[key.stringValue] = .null }
    mutating func encode(_ value: Bool, forKey key: Key) throws { box.members[key.stringValue] = .bool(value) }
    mutating func encode(_ value: String, forKey key: Key) throws { box.members[key.stringValue] = .string(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { box.members[key.stringValue] = try SingleContainer.number(value, codingPath + [key]) }
    mutating func encode(_ value: Float, forKey key: Key) throws { box.members[key.stringValue] = try SingleContainer.number(value, codingPath + [key]) }
    mutating func encode(_ value: Int, forKey key: Key) throws { box.members[key.stringValue] = .number(String(value)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { box.members[key.stringValue] = .number(String(value)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { box.members[key.stringValue] = .number(String(value)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { box.members[key.stringValue] = .number(String(value)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { box.members[key.stringValue] = .number(String(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { box.members[key.stringValue] = .number(String(value)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { box.members[key.stringValue] = .number(String(value)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { box.members[key.stringValue] = .number(String(value)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { box.members[key.stringValue] = .number(String(value)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { box.members[key.stringValue] = .number(String(value)) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        box.members[key.stringValue] = try TreeEncoder.node(of: value, at: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = JSONTreeEncoder.ObjectBox()
        box.members[key.stringValue] = .object(nested)
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(box: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = JSONTreeEncoder.ArrayBox()
        box.members[key.stringValue] = .array(nested)
        return UnkeyedContainer(box: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { SuperEncoder(box: box, key: "super", codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { SuperEncoder(box: box, key: key.stringValue, codingPath: codingPath + [key]) }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let box: JSONTreeEncoder.ArrayBox
    let codingPath: [any CodingKey]
    var count: Int { box.items.count }

    private var nextPath: [any CodingKey] { codingPath + [IndexKey(box.items.count)] }

    mutating func encodeNil() throws { box.items.append(.null) }
    mutating func encode(_ value: Bool) throws { box.items.append(.bool(value)) }
    mutating func encode(_ value: String) throws { box.items.append(.string(value)) }
    mutating func encode(_ value: Double) throws { box.items.append(try SingleContainer.number(value, nextPath)) }
    mutating func encode(_ value: Float) throws { box.items.append(try SingleContainer.number(value, nextPath)) }
    mutating func encode(_ value: Int) throws { box.items.append(.number(String(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws { box.items.append(try TreeEncoder.node(of: value, at: nextPath)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = JSONTreeEncoder.ObjectBox()
        let path = nextPath
        box.items.append(.object(nested))
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(box: nested, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = JSONTreeEncoder.ArrayBox()
        let path = nextPath
        box.items.append(.array(nested))
        return UnkeyedContainer(box: nested, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let nested = JSONTreeEncoder.ObjectBox()
        box.items.append(.object(nested))
        return SuperEncoder(box: nested, key: nil, codingPath: codingPath)
    }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    /// A floating-point number; JSON has no infinity or NaN, so they are refused as JSONEncoder refuses them.
    static func number<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F, _ path: [any CodingKey]) throws -> JSONTreeEncoder.Node {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: path, debugDescription: "\(value) is not a JSON number"))
        }
        return .number(JSONTreeEncoder.text(value))
    }

    func encodeNil() throws { encoder.node = .null }
    func encode(_ value: Bool) throws { encoder.node = .bool(value) }
    func encode(_ value: String) throws { encoder.node = .string(value) }
    func encode(_ value: Double) throws { encoder.node = try Self.number(value, codingPath) }
    func encode(_ value: Float) throws { encoder.node = try Self.number(value, codingPath) }
    func encode(_ value: Int) throws { encoder.node = .number(String(value)) }
    func encode(_ value: Int8) throws { encoder.node = .number(String(value)) }
    func encode(_ value: Int16) throws { encoder.node = .number(String(value)) }
    func encode(_ value: Int32) throws { encoder.node = .number(String(value)) }
    func encode(_ value: Int64) throws { encoder.node = .number(String(value)) }
    func encode(_ value: UInt) throws { encoder.node = .number(String(value)) }
    func encode(_ value: UInt8) throws { encoder.node = .number(String(value)) }
    func encode(_ value: UInt16) throws { encoder.node = .number(String(value)) }
    func encode(_ value: UInt32) throws { encoder.node = .number(String(value)) }
    func encode(_ value: UInt64) throws { encoder.node = .number(String(value)) }
    func encode<T: Encodable>(_ value: T) throws { encoder.node = try encoder.encodeValue(value) }
}

/// A class's superclass part, encoded under `key` (or into the box itself).
private final class SuperEncoder: Encoder {
    let box: JSONTreeEncoder.ObjectBox
    let key: String?
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    private let inner: TreeEncoder

    init(box: JSONTreeEncoder.ObjectBox, key: String?, codingPath: [any CodingKey]) {
        self.box = box
        self.key = key
        self.codingPath = codingPath
        inner = TreeEncoder(codingPath: codingPath)
    }

    deinit {
        if let key, let node = inner.node { box.members[key] = node }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        guard key != nil else { return KeyedEncodingContainer(KeyedContainer<Key>(box: box, codingPath: codingPath)) }
        return inner.container(keyedBy: type)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { inner.unkeyedContainer() }
    func singleValueContainer() -> any SingleValueEncodingContainer { inner.singleValueContainer() }
}
