

/// A sink that keeps every item (a whole document read through a streaming decoder).
public struct DocumentCollector: DocumentSink {
    public private(set) var frame: Document?
    public private(set) var items: [DocumentItem] = []

    public init() {}

    public mutating func begin(_ frame: Document) throws(Diagnostic) { self.frame = frame }
    public mutating func item(_ item: DocumentItem) throws(Diagnostic) { items.append(item) }
}
