import AlmanacBytes
import Foundation

/// One table's translations with locales as columns: what `Catalog` holds, without a dictionary,
/// an entry and a string object per key. Keys, comments and values are UTF-8 bytes in one array;
/// each locale is a column of fixed-size cells, one per key (its text's place, and the line and
/// column it was read at). A translation with more than a value and where it was read (plural
/// forms, device variants, a review state, layout kept for writing back) is kept whole beside
/// the columns, as are an entry's rarely set fields.
///
/// A `Catalog` of 500,000 keys in three locales holds 1.5 million dictionaries' buckets and about
/// 2.5 million strings; this holds a few arrays. Readers take one entry at a time
/// (`entry(at:)`), made from the cells when asked, and may let it go before the next:
/// `almanac audit` walks a table so. `catalog` makes the whole `Catalog` again, equal to the one
/// the store was made from, presentation and origins included.
public struct CatalogStore: Sendable {
    public var sourceLanguage: String
    public var stringCatalogVersion: String?
    /// The table's layout (the first file's, as `Catalog.presentation` is).
    public var presentation: Presentation

    /// A text's place in `bytes`.
    struct Span: Sendable {
        var start: Int
        var count: Int

        static let none = Span(start: 0, count: -1)
        /// A comment that is the key's own text (`/* settings.title */`).
        static let sameAsKey = Span(start: 0, count: -2)
    }

    /// One locale's translation of one key: its value's place and where it was read, or the
    /// number of a translation kept whole, or nothing.
    struct Cell: Sendable {
        var start: Int
        var count: Int32
        var line: Int32
        var column: Int32
        /// ≥ 0: the number of the file it was read from (its value is at `start`); `absent`; or
        /// `-(n + 2)` for `whole[n]`.
        var source: Int32

        static let absent = Cell(start: 0, count: 0, line: -1, column: -1, source: -1)
        var isPresent: Bool { source != -1 }
    }

    /// An entry's fields that most entries leave unset.
    struct EntryExtras: Sendable {
        var extractionState: String?
        var shouldTranslate: Bool?
        var presentation: Presentation
    }

    private var bytes: [UInt8] = []
    private var keys: [Span] = []
    private var comments: [Span] = []
    /// The locales' names, and each one's cells by row (a column shorter than `keys` has no
    /// translation past its end).
    private var columnNames: [String] = []
    private var columns: [[Cell]] = []
    /// The files translations were read from, by number (a location without a file is one too).
    private var files: [String?] = []
    private var fileNumbers: [String: Int32] = [:]
    private var noFile: Int32?
    private var whole: [Translation] = []
    private var extras: [Int: EntryExtras] = [:]
    /// Rows by key while the store is merged into (keys as canonically composed bytes, so that
    /// keys equal as Swift strings are one key, as in `Catalog.merge`), with the row of each
    /// number the key table gives.
    private var keyTable: ByteStringTable?
    private var keyRows: [Int32] = []

    public init(sourceLanguage: String = "en", stringCatalogVersion: String? = nil, presentation: Presentation = Presentation()) {
        self.sourceLanguage = sourceLanguage
        self.stringCatalogVersion = stringCatalogVersion
        self.presentation = presentation
    }

    /// The catalog's entries and translations, in its order.
    public init(_ catalog: Catalog) {
        self.init(sourceLanguage: catalog.sourceLanguage, stringCatalogVersion: catalog.stringCatalogVersion,
                  presentation: catalog.presentation)
        keys.reserveCapacity(catalog.entries.count)
        comments.reserveCapacity(catalog.entries.count)
        for entry in catalog.entries { append(entry) }
    }

    /// The number of entries.
    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    /// Every locale with at least one value, sorted (as `Catalog.locales`).
    public var locales: [String] {
        zip(columnNames, columns).filter { $0.1.contains(where: \.isPresent) }.map(\.0).sorted()
    }

    /// The key of entry `row`.
    public func key(at row: Int) -> String { text(keys[row]) }

    /// Entry `row`, made from its cells.
    public func entry(at row: Int) -> CatalogEntry {
        let key = text(keys[row])
        var translations = [String: Translation](minimumCapacity: columns.count)
        for (column, cells) in columns.enumerated() where row < cells.count && cells[row].isPresent {
            translations[columnNames[column]] = translation(cells[row])
        }
        let comment: String? = switch comments[row].count {
        case Span.none.count: nil
        case Span.sameAsKey.count: key
        default: text(comments[row])
        }
        let extra = extras[row]
        return CatalogEntry(key: key, comment: comment, translations: translations, extractionState: extra?.extractionState,
                            shouldTranslate: extra?.shouldTranslate, presentation: extra?.presentation ?? Presentation())
    }

    /// The translation of entry `row` in `locale`, if it has one.
    public func translation(at row: Int, locale: String) -> Translation? {
        guard let column = columnNames.firstIndex(of: locale), row < columns[column].count, columns[column][row].isPresent else { return nil }
        return translation(columns[column][row])
    }

    /// The whole catalog.
    public var catalog: Catalog {
        var catalog = Catalog(sourceLanguage: sourceLanguage, stringCatalogVersion: stringCatalogVersion, presentation: presentation)
        catalog.entries.reserveCapacity(count)
        for row in 0..<count { catalog.entries.append(entry(at: row)) }
        return catalog
    }

    /// Adds an entry as the last one, whatever its key (a catalog may hold a key twice).
    public mutating func append(_ entry: CatalogEntry) {
        let row = keys.count
        let key = span(entry.key)
        keys.append(key)
        comments.append(entry.comment.map { $0.utf8.elementsEqual(entry.key.utf8) ? .sameAsKey : span($0) } ?? .none)
        if entry.extractionState != nil || entry.shouldTranslate != nil || !entry.presentation.isEmpty {
            extras[row] = EntryExtras(extractionState: entry.extractionState, shouldTranslate: entry.shouldTranslate, presentation: entry.presentation)
        }
        for (locale, translation) in entry.translations { set(translation, row: row, locale: locale) }
        if keyTable != nil { remember(entry.key, row: row) }
    }

    /// `Catalog.merge` into the store: entries matched by key (equal as Swift strings), new keys
    /// appended in the other's order, a locale's value already present kept unless `replacing`.
    public mutating func merge(_ other: Catalog, replacing: Bool = false) {
        for entry in other.entries { merge(entry, replacing: replacing) }
    }

    /// `merge` of another store's entries. Cells are copied as they are; only a new key's entry is
    /// made whole to be appended.
    public mutating func merge(_ other: CatalogStore, replacing: Bool = false) {
        if keyTable == nil { indexKeys() }
        // The other's files and locales as this store numbers them.
        var fileMap: [Int32?] = Array(repeating: nil, count: other.files.count)
        let columnMap = other.columnNames.map { column(for: $0) }
        for row in 0..<other.count {
            guard let mine = self.row(of: other.key(at: row)) else {
                append(other.entry(at: row))
                continue
            }
            if comments[mine].count == Span.none.count, other.comments[row].count != Span.none.count {
                replaceComment(at: mine, with: other.comments[row].count == Span.sameAsKey.count ? other.key(at: row) : other.text(other.comments[row]))
            }
            for (theirs, column) in columnMap.enumerated() where row < other.columns[theirs].count && other.columns[theirs][row].isPresent {
                guard replacing || !(mine < columns[column].count && columns[column][mine].isPresent) else { continue }
                let cell = other.columns[theirs][row]
                if cell.source <= -2 {
                    set(other.whole[Int(-(cell.source + 2))], row: mine, column: column)
                    continue
                }
                let file = fileMap[Int(cell.source)] ?? fileNumber(other.files[Int(cell.source)])
                fileMap[Int(cell.source)] = file
                let start = bytes.count
                bytes.append(contentsOf: other.bytes[cell.start..<(cell.start + Int(cell.count))])
                place(Cell(start: start, count: cell.count, line: cell.line, column: cell.column, source: file), row: mine, column: column)
            }
        }
    }

    /// One entry of `merge`.
    public mutating func merge(_ entry: CatalogEntry, replacing: Bool = false) {
        if keyTable == nil { indexKeys() }
        guard let row = row(of: entry.key) else {
            append(entry)
            return
        }
        if comments[row].count == Span.none.count, let comment = entry.comment {
            // The key found may be spelled otherwise (composed another way): the comment is its
            // text only when it is the row's key byte for byte.
            replaceComment(at: row, with: comment)
        }
        for (locale, translation) in entry.translations where replacing || !has(row: row, locale: locale) {
            set(translation, row: row, locale: locale)
        }
    }

    /// Lets go of what merging needs (the rows by key): call when no more files come.
    public mutating func finishMerging() {
        keyTable = nil
        keyRows = []
    }

    // MARK: Read straight from a file

    /// Starts keeping rows by key, so that `row(of:)` finds them (a store read from a file asks
    /// for each key whether it came before).
    mutating func startMerging() {
        if keyTable == nil { indexKeys() }
    }

    /// Adds an entry of one translation: a value read at a line and column of a file (what a
    /// `.strings` entry is).
    mutating func append(key: String, comment: String?, value: String, locale: String, file: String?, line: Int, column: Int) {
        let row = keys.count
        keys.append(span(key))
        comments.append(comment.map { $0.utf8.elementsEqual(key.utf8) ? .sameAsKey : span($0) } ?? .none)
        if value.utf8.count <= Int(Int32.max) {
            // The cell `set` would make of the translation, made directly (a line or column kept
            // in 32 bits, as a presentation keeps it).
            let localeColumn = self.column(for: locale)
            let place = span(value)
            self.place(Cell(start: place.start, count: Int32(place.count), line: Int32(clamping: line), column: Int32(clamping: column),
                            source: fileNumber(file)), row: row, column: localeColumn)
        } else {
            let origin = SourceLocation(file: file, line: line, column: column)
            set(Translation(value: value, presentation: Presentation(origin: origin)), row: row, locale: locale)
        }
        if keyTable != nil { remember(key, row: row) }
    }

    /// The value of entry `row` in `locale`, and the line it was read on.
    func value(at row: Int, locale: String) -> (value: String, line: Int)? {
        translation(at: row, locale: locale).map { ($0.value ?? "", $0.presentation.origin?.line ?? 0) }
    }

    /// Replaces the value of entry `row` in `locale`, keeping where it was read.
    mutating func replaceValue(at row: Int, locale: String, with value: String) {
        guard var translation = translation(at: row, locale: locale) else { return }
        translation.value = value
        set(translation, row: row, locale: locale)
    }

    /// Replaces the comment of entry `row`.
    mutating func replaceComment(at row: Int, with comment: String) {
        let isKey = bytes[keys[row].start..<(keys[row].start + keys[row].count)].elementsEqual(comment.utf8)
        comments[row] = isKey ? .sameAsKey : span(comment)
    }

    /// The row of the first entry with this key, while merging.
    func row(of key: String) -> Int? {
        guard let keyTable else { return nil }
        return Self.withCanonicalBytes(key) { keyTable.number(of: $0) }.map { Int(keyRows[$0]) }
    }

    private mutating func indexKeys() {
        keyTable = ByteStringTable(maxCount: Int(Int32.max))
        keyRows = []
        for row in 0..<count { remember(text(keys[row]), row: row) }
    }

    /// Makes `key` find `row`, unless an earlier row has it.
    private mutating func remember(_ key: String, row: Int) {
        guard var table = keyTable else { return }
        keyTable = nil
        if let (_, added) = Self.withCanonicalBytes(key, { table.insert($0) }), added { keyRows.append(Int32(clamping: row)) }
        keyTable = table
    }

    /// The key's bytes in canonical composition (NFC): two keys are equal as Swift strings when
    /// these are equal. ASCII is its own composition.
    private static func withCanonicalBytes<Result>(_ key: String, _ body: (ByteView) -> Result) -> Result {
        if key.withByteView(ByteScan.isASCII) { return key.withByteView(body) }
        return key.precomposedStringWithCanonicalMapping.withByteView(body)
    }

    private func has(row: Int, locale: String) -> Bool {
        guard let column = columnNames.firstIndex(of: locale) else { return false }
        return row < columns[column].count && columns[column][row].isPresent
    }

    private mutating func set(_ translation: Translation, row: Int, locale: String) {
        set(translation, row: row, column: column(for: locale))
    }

    /// The column of a locale, added (empty) when the store has none.
    private mutating func column(for locale: String) -> Int {
        if let known = columnNames.firstIndex(of: locale) { return known }
        columnNames.append(locale)
        columns.append([])
        return columnNames.count - 1
    }

    private mutating func set(_ translation: Translation, row: Int, column: Int) {
        place(cell(translation), row: row, column: column)
    }

    /// Puts a cell in a column, which grows to the row.
    private mutating func place(_ cell: Cell, row: Int, column: Int) {
        if columns[column].count <= row {
            if columns[column].isEmpty { columns[column].reserveCapacity(max(keys.capacity, row + 1)) }
            columns[column].append(contentsOf: repeatElement(.absent, count: row + 1 - columns[column].count))
        }
        columns[column][row] = cell
    }

    /// A translation's cell: compact when it is a value and where it was read, else kept whole.
    private mutating func cell(_ translation: Translation) -> Cell {
        if let value = translation.value, translation.isPlain, value.utf8.count <= Int(Int32.max),
           !translation.presentation.hasLayout, let origin = translation.presentation.originParts {
            let place = span(value)
            return Cell(start: place.start, count: Int32(place.count), line: origin.line, column: origin.column, source: fileNumber(origin.file))
        }
        whole.append(translation)
        return Cell(start: 0, count: 0, line: -1, column: -1, source: -Int32(clamping: whole.count - 1) - 2)
    }

    private func translation(_ cell: Cell) -> Translation {
        if cell.source <= -2 { return whole[Int(-(cell.source + 2))] }
        return Translation(value: text(Span(start: cell.start, count: Int(cell.count))),
                           presentation: Presentation(file: files[Int(cell.source)], line: cell.line, column: cell.column))
    }

    private mutating func fileNumber(_ file: String?) -> Int32 {
        if let known = file.map({ fileNumbers[$0] }) ?? noFile { return known }
        let number = Int32(clamping: files.count)
        files.append(file)
        if let file { fileNumbers[file] = number } else { noFile = number }
        return number
    }

    private mutating func span(_ text: String) -> Span {
        let start = bytes.count
        bytes.append(contentsOf: text.utf8)
        return Span(start: start, count: bytes.count - start)
    }

    private func text(_ span: Span) -> String {
        String(decoding: bytes[span.start..<(span.start + span.count)], as: UTF8.self)
    }
}

extension Translation {
    /// Whether it is a value alone: no plural forms, device variants, plural variables, or states.
    var isPlain: Bool { plural == nil && devices == nil && substitutions == nil && textStates == nil && state == nil }
}

/// A table's translations as a `Catalog` or as a `CatalogStore` (tables read for checking, which
/// may be large), read the same way either way: entry by entry, or as the whole catalog, made
/// from the store when asked. Changing the catalog in place (`content.catalog.entries[0]…`) makes
/// it once and changes that.
public struct CatalogContent: Sendable {
    private enum Storage: Sendable {
        case catalog(Catalog)
        case store(CatalogStore)
    }

    private var storage: Storage

    public init(_ catalog: Catalog = Catalog()) { storage = .catalog(catalog) }
    public init(_ store: CatalogStore) { storage = .store(store) }

    /// Whether the translations are held as a store.
    public var isStore: Bool {
        if case .store = storage { return true }
        return false
    }

    public var catalog: Catalog {
        get {
            switch storage {
            case .catalog(let catalog): catalog
            case .store(let store): store.catalog
            }
        }
        set { storage = .catalog(newValue) }
        _modify {
            var catalog: Catalog
            switch storage {
            case .catalog(let held): catalog = held
            case .store(let store): catalog = store.catalog
            }
            // Let go of the held copy, so that the catalog changed in place is the only one.
            storage = .catalog(Catalog())
            defer { storage = .catalog(catalog) }
            yield &catalog
        }
    }

    /// The store, made from the catalog where the translations are one.
    public var store: CatalogStore {
        get {
            switch storage {
            case .catalog(let catalog): CatalogStore(catalog)
            case .store(let store): store
            }
        }
        set { storage = .store(newValue) }
    }

    /// Changes the translations as a store (made from the catalog where they are one), in place:
    /// the held copy is let go first, so the store is not copied.
    public mutating func updateStore(_ change: (inout CatalogStore) -> Void) {
        var store = self.store
        storage = .catalog(Catalog())
        change(&store)
        storage = .store(store)
    }

    /// The number of entries.
    public var count: Int {
        switch storage {
        case .catalog(let catalog): catalog.entries.count
        case .store(let store): store.count
        }
    }

    /// Entry `row`.
    public func entry(at row: Int) -> CatalogEntry {
        switch storage {
        case .catalog(let catalog): catalog.entries[row]
        case .store(let store): store.entry(at: row)
        }
    }

    /// The key of entry `row`.
    public func key(at row: Int) -> String {
        switch storage {
        case .catalog(let catalog): catalog.entries[row].key
        case .store(let store): store.key(at: row)
        }
    }

    /// The translation of entry `row` in `locale`, if it has one.
    public func translation(at row: Int, locale: String) -> Translation? {
        switch storage {
        case .catalog(let catalog): catalog.entries[row].translations[locale]
        case .store(let store): store.translation(at: row, locale: locale)
        }
    }

    /// The entries, one made at a time.
    public var entries: some Sequence<CatalogEntry> { (0..<count).lazy.map { entry(at: $0) } }

    /// Every locale with at least one value, sorted.
    public var locales: [String] {
        switch storage {
        case .catalog(let catalog): catalog.locales
        case .store(let store): store.locales
        }
    }

    public var sourceLanguage: String {
        switch storage {
        case .catalog(let catalog): catalog.sourceLanguage
        case .store(let store): store.sourceLanguage
        }
    }

    /// The table's layout.
    public var presentation: Presentation {
        get {
            switch storage {
            case .catalog(let catalog): catalog.presentation
            case .store(let store): store.presentation
            }
        }
        set {
            switch storage {
            case .catalog(var catalog):
                storage = .catalog(Catalog())
                catalog.presentation = newValue
                storage = .catalog(catalog)
            case .store(var store):
                storage = .catalog(Catalog())
                store.presentation = newValue
                storage = .store(store)
            }
        }
    }
}
