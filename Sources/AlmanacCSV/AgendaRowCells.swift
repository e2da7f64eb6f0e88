public import AlmanacCore

/// A row's cells as `AgendaRowReader` reads them: strings (a table read whole), or the bytes a
/// streamed batch of rows holds them in, made into a string only for a cell a column's role reads,
/// and only once (trimmed and unguarded on the bytes).
public protocol AgendaRowCells {
    var count: Int { get }
    /// The cell as written; "" past the row's end.
    func text(_ column: Int) -> String
    func isEmpty(_ column: Int) -> Bool
    /// The cell's value: blanks off both ends, the formula guard's apostrophe taken off; nil
    /// when nothing is left.
    func value(_ column: Int) -> String?
    /// Every cell's UTF-8 into `hash`, separated by U+001F (a row's id when it has none).
    func hash(into hash: inout StableHash)
}

extension Array: AgendaRowCells where Element == String {
    public func text(_ column: Int) -> String { column < count ? self[column] : "" }
    public func isEmpty(_ column: Int) -> Bool { column >= count || self[column].isEmpty }

    public func value(_ column: Int) -> String? {
        guard column < count else { return nil }
        let value = FormulaGuard.unguard(CellReader.trimmed(self[column]))
        return value.isEmpty ? nil : value
    }

    public func hash(into hash: inout StableHash) {
        for (index, field) in enumerated() {
            if index > 0 { hash.combine(ASCII.unitSeparator) }
            hash.combine(field.utf8)
        }
    }
}

extension TableRows.Fields: AgendaRowCells {
    public func text(_ column: Int) -> String { column < count ? string(column) : "" }
    public func isEmpty(_ column: Int) -> Bool { column >= count || self[column].isEmpty }

    public func value(_ column: Int) -> String? {
        guard column < count else { return nil }
        let bytes = self[column]
        guard let first = bytes.first else { return nil }
        // Most cells have no blanks at their ends and no apostrophe first: one string, as read.
        if first != ASCII.apostrophe, !CellReader.hasEdgeWhitespace(bytes) { return bytes.string }
        let value = FormulaGuard.unguard(CellReader.trimmed(bytes.string))
        return value.isEmpty ? nil : value
    }

    public func hash(into hash: inout StableHash) {
        for index in 0..<count {
            if index > 0 { hash.combine(ASCII.unitSeparator) }
            hash.combine(self[index])
        }
    }
}
