import AlmanacCore

/// What the parser reports, in order: components beginning and ending (always balanced: the
/// parser closes what a file leaves open and ignores stray ENDs, with warnings) and properties.
protocol ICalEvents {
    mutating func begin(_ name: String, line: Int) throws(Diagnostic)
    mutating func property(_ property: ICalProperty) throws(Diagnostic)
    mutating func end(_ name: String, line: Int) throws(Diagnostic)
    /// A component the file never closed, closed by the parser (which warned of it) at `line`.
    mutating func endUnclosed(_ name: String, line: Int) throws(Diagnostic)
    /// A property of a known kind written with no parameters (or, for a date, only TZID and
    /// VALUE), inside a component, offered before it is made into an `ICalProperty`: true when
    /// the events took it from its value's bytes (as `property` would have), false to be handed
    /// it as a property. Most lines of a calendar are such, and a reader that maps them into
    /// fields needs no strings for their names and parameters, nor one for a value it reads as
    /// a date.
    mutating func plainProperty(_ kind: PropertyKind, _ value: ByteView, _ parameters: DateParameters) -> Bool
    /// Whether a property line inside a component (of kind `kind`, named `name` as written) can go
    /// unread: no property is made of it and nothing is reported for it. (Mutating only so that
    /// it is called in place: a non-mutating call on the parser's `inout` events copied them.)
    mutating func skips(_ kind: PropertyKind, name: ByteView) -> Bool
}

extension ICalEvents {
    mutating func endUnclosed(_ name: String, line: Int) throws(Diagnostic) { try end(name, line: line) }
    func plainProperty(_ kind: PropertyKind, _ value: ByteView, _ parameters: DateParameters) -> Bool { false }
    func skips(_ kind: PropertyKind, name: ByteView) -> Bool { false }
}

/// The parameters of a date property line that has no others than TZID and VALUE, each at most
/// once, with one value written plainly (no quotes, escapes or commas).
struct DateParameters {
    /// TZID's value (nil when the line has none).
    var tzid: String?
    /// VALUE's bytes as written (empty when the line has none).
    var valueType: ByteView

    static var none: DateParameters { DateParameters(tzid: nil, valueType: .empty) }
}
