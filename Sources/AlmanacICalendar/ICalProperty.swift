public import AlmanacCore

/// One property of an iCalendar component as written: name, parameters in order, raw value
/// (TEXT escaping intact), and the line it started on.
public struct ICalProperty: Hashable, Sendable {
    public var name: String
    public var parameters: [CarriedProperty.Parameter]
    public var value: String
    public var line: Int
    var kind: PropertyKind

    public init(name: String, parameters: [CarriedProperty.Parameter] = [], value: String, line: Int = 0) {
        self.name = name
        self.parameters = parameters
        self.value = value
        self.line = line
        self.kind = name.withByteView { PropertyKind.classify($0, 0, $0.count).0 }
    }

    init(name: String, kind: PropertyKind, parameters: [CarriedProperty.Parameter], value: String, line: Int) {
        self.name = name
        self.parameters = parameters
        self.value = value
        self.line = line
        self.kind = kind
    }

    /// The first value of a parameter (names are case-insensitive; stored uppercase).
    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.values.first
    }

    var carried: CarriedProperty { CarriedProperty(name: name, parameters: parameters, value: value) }
}
