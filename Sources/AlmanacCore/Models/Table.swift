/// Rows of text under a header: what any CSV holds, whatever app it came from. Kept as read, so a
/// file that maps to no app model still converts (to JSON, to another dialect) and can be compared.
public struct Table: Hashable, Sendable, Codable {
    public var columns: [String]
    /// Rows in order; a row may have fewer or more fields than there are columns (reported when read).
    public var rows: [[String]]
    /// How the source was written, when it was a delimited file.
    public var dialect: TableDialect?

    public init(columns: [String] = [], rows: [[String]] = [], dialect: TableDialect? = nil) {
        self.columns = columns
        self.rows = rows
        self.dialect = dialect
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
