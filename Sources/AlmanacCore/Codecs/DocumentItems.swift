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
            let items = table.rows.map(DocumentItem.row)
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
            for case .row(let row) in items { table.rows.append(row) }
            return .table(table)
        default:
            return self
        }
    }
}
