extension Document {
    /// The document without its items, and the items: an agenda's items, a table's rows. Other
    /// models have no items that stream and come back whole as the frame.
    public func splitItems() -> (frame: Document, items: [DocumentItem]) {
        switch self {
        case .agenda(var agenda):
            let items = agenda.items.map(DocumentItem.calendarItem)
            agenda.items = []
            return (.agenda(agenda), items)
        case .table(var table):
            // Batches of rows, as a reader that streams hands them over.
            var items: [DocumentItem] = []
            var index = 0
            while index < table.rows.count {
                let end = min(index + 1024, table.rows.count)
                items.append(.rows(TableRows(table.rows[index..<end])))
                index = end
            }
            table.rows = []
            return (.table(table), items)
        default:
            return (self, [])
        }
    }

    /// The frame with `items` put back (items of another model are ignored).
    public func withItems(_ items: [DocumentItem]) -> Document {
        switch self {
        case .agenda(var agenda):
            agenda.items.reserveCapacity(agenda.items.count + items.count)
            for case .calendarItem(let item) in items { agenda.items.append(item) }
            return .agenda(agenda)
        case .table(var table):
            table.rows.reserveCapacity(table.rows.count + items.count)
            for case .rows(let rows) in items { table.rows += rows }
            return .table(table)
        default:
            return self
        }
    }
}
