/// Rows of text under a header: what any CSV holds, whatever app it came from. Kept as read, so a
/// file that maps to no app model still converts (to JSON, to another dialect) and can be compared.
public struct Table: Hashable, Sendable, Codable {
    public var columns: [String]
    /// Rows in order; a row may have fewer or more fields than there are columns (reported when read).
    public var rows: [[String]]
    /// How the source was written, when it was a delimited file.
    public var dialect: TableDialect?
    /// What each column's cells hold, when they were written for a format with typed cells (a
    /// spreadsheet's numbers and dates, `CodecContext.typedCells`): the cells are then in the
    /// machine form each type names. Nil: every cell is text as people read it.
    public var cellTypes: [CellType]?
    /// The sheet's name, when it is one of several (a ledger's accounts, changes, goals).
    public var name: String?
    /// The other sheets of a workbook, after this one; formats with one sheet write this one only.
    public var otherSheets: [Table]?

    public init(columns: [String] = [], rows: [[String]] = [], dialect: TableDialect? = nil, cellTypes: [CellType]? = nil,
                name: String? = nil) {
        self.columns = columns
        self.rows = rows
        self.dialect = dialect
        self.cellTypes = cellTypes
        self.name = name
    }

    /// What a typed column's cells hold, and the machine form they are written in.
    public enum CellType: Hashable, Sendable, Codable {
        /// Text as people read it.
        case text
        /// `YYYY-MM-DD`.
        case date
        /// `YYYY-MM-DDTHH:MM:SS`, a wall time.
        case dateTime
        /// `HH:MM:SS`, a time of day.
        case time
        /// An exact decimal (`-1234.5`), in the currency named by the row's cell in
        /// `currencyColumn`, else in `currency`.
        case amount(currency: String?, currencyColumn: Int?)
        /// A whole number (days left: `-12`).
        case integer
        /// A ratio (`0.125` for 12.5 %).
        case percent
        /// `true` or `false`.
        case boolean
    }

    /// The index of a column by its exact name.
    public func column(_ name: String) -> Int? { columns.firstIndex(of: name) }
}

/// The way a delimited file was (or will be) written.
public struct TableDialect: Hashable, Sendable, Codable {
    /// `,`, `;`, a tab or `|`.
    public var delimiter: String
    /// `\r\n`, `\n` or `\r`.
    public var lineEnding: String
    /// The charset (`UTF-8`, `Big5`, `GB18030`, `UTF-16LE`).
    public var encoding: String
    public var byteOrderMark: Bool

    public init(delimiter: String = ",", lineEnding: String = "\r\n", encoding: String = "UTF-8", byteOrderMark: Bool = false) {
        self.delimiter = delimiter
        self.lineEnding = lineEnding
        self.encoding = encoding
        self.byteOrderMark = byteOrderMark
    }
}
