import AlmanacCore

/// What the parser reports, in order: components beginning and ending (always balanced: the
/// parser closes what a file leaves open and ignores stray ENDs, with warnings) and properties.
protocol ICalEvents {
    mutating func begin(_ name: String, line: Int) throws(Diagnostic)
    mutating func property(_ property: ICalProperty) throws(Diagnostic)
    mutating func end(_ name: String, line: Int) throws(Diagnostic)
}
