/// What a conversion could not carry over, field by field, naming the items: the warnings
/// `convert.dropped` (left out) and `convert.approximated` (written as something close). A field
/// is named as the model's JSON names it (`location`, `recurrence.rules`, `alarms`), the same in
/// every language; items by their titles, the first five and how many more (`(+7)`).
///
/// Nothing may change silently in a conversion: every converter and codec that leaves something
/// out reports it here, and `--strict` turns these warnings into errors.
public struct Losses: Sendable {
    private var dropped: [String: [String]] = [:]
    private var approximated: [String: (how: String, items: [String])] = [:]
    private var order: [String] = []

    public init() {}

    public var isEmpty: Bool { dropped.isEmpty && approximated.isEmpty }

    /// `field` of `item` was left out.
    public mutating func dropped(_ field: String, of item: String) {
        if dropped[field] == nil, approximated[field] == nil { order.append(field) }
        dropped[field, default: []].append(item)
    }

    /// `field` of `item` was written as `how` says (`yearly in the Gregorian calendar`).
    public mutating func approximated(_ field: String, of item: String, as how: String) {
        if dropped[field] == nil, approximated[field] == nil { order.append(field) }
        approximated[field, default: (how, [])].items.append(item)
    }

    /// One warning per field, in the order the fields were met. `target` names the format.
    public func diagnostics(target: String) -> [Diagnostic] {
        var result: [Diagnostic] = []
        for field in order {
            if let items = dropped[field] {
                result.append(.warning("convert.dropped", target, field, Self.list(items)))
            }
            if let (how, items) = approximated[field] {
                result.append(.warning("convert.approximated", target, field, how, Self.list(items)))
            }
        }
        return result
    }

    /// `“a”, “b”` or `“a”, “b”, “c”, “d”, “e” (+7)`.
    static func list(_ items: [String]) -> String {
        var unique: [String] = []
        for item in items where !unique.contains(item) { unique.append(item) }
        let shown = unique.prefix(5).map { "“\($0)”" }.joined(separator: ", ")
        return unique.count > 5 ? shown + " (+\(unique.count - 5))" : shown
    }

    /// The codes of these warnings, for `--strict` and for tests.
    public static let codes: Set<String> = ["convert.dropped", "convert.approximated"]
}
