import Foundation

/// What a catalog file's path says: its locale (the `.lproj` folder) and its table (the name).
public enum CatalogPath {
    /// The locale a file holds, from its path (`…/zh-Hans.lproj/Localizable.strings`).
    /// The name of the `.lproj` folder a file sits in (`zh_TW`, `Base`), nil for one in none.
    public static func folder(ofPath path: String?) -> String? {
        guard let parts = path?.split(separator: "/"), parts.count >= 2, parts[parts.count - 2].hasSuffix(".lproj") else { return nil }
        return String(parts[parts.count - 2].dropLast(6))
    }

    public static func locale(ofPath path: String?) -> String? {
        guard let path else { return nil }
        let parts = path.split(separator: "/")
        guard parts.count >= 2, parts[parts.count - 2].hasSuffix(".lproj") else { return nil }
        let name = parts[parts.count - 2].dropLast(6)
        return name == "Base" ? nil : String(name)
    }

    /// Whether a file sits in `Base.lproj`: Xcode's base internationalization, which holds the
    /// development language's text where that language has no folder of its own.
    public static func isBase(_ path: String?) -> Bool {
        guard let parts = path?.split(separator: "/"), parts.count >= 2 else { return false }
        return parts[parts.count - 2] == "Base.lproj"
    }

    /// The table a file holds (`Localizable` for `Localizable.strings`); nil when the name gives
    /// none (`.strings`, `..`: an XLIFF's `original` is any text its writer chose).
    public static func table(ofPath path: String?) -> String? {
        guard let name = path?.split(separator: "/").last else { return nil }
        let table = name.lastIndex(of: ".").map { name[..<$0] } ?? name
        return table.isEmpty || table == "." || table == ".." ? nil : String(table)
    }

}

/// One table (`Localizable`) read from its files in every locale, merged into one catalog.
public struct CatalogTable: Sendable {
    public var name: String
    /// The translations: a catalog, or a store where the table was read compact
    /// (`CatalogFiles.Merger(compact:)`).
    public var content: CatalogContent
    public var files: [String]
    public var diagnostics: [Diagnostic]

    /// The translations as a catalog (made from the store, where they are one).
    public var catalog: Catalog {
        get { content.catalog }
        set { content.catalog = newValue }
        _modify { yield &content.catalog }
    }

    public init(name: String, catalog: Catalog, files: [String] = [], diagnostics: [Diagnostic] = []) {
        self.init(name: name, content: CatalogContent(catalog), files: files, diagnostics: diagnostics)
    }

    public init(name: String, content: CatalogContent, files: [String] = [], diagnostics: [Diagnostic] = []) {
        self.name = name
        self.content = content
        self.files = files
        self.diagnostics = diagnostics
    }
}

/// Catalog files (`.strings`, `.stringsdict`, `.xcstrings`) merged into tables by name:
/// `en.lproj/Localizable.strings` and `zh-Hant.lproj/Localizable.stringsdict` are both `Localizable`.
public enum CatalogFiles {
    /// The order files are merged in: `.strings` first, so the plural rules in `.stringsdict`
    /// (which win at run time) replace them.
    public static func readingOrder(_ files: [String]) -> [String] {
        files.sorted { ($0.hasSuffix(".stringsdict") ? 1 : 0, $0) < ($1.hasSuffix(".stringsdict") ? 1 : 0, $1) }
    }

    /// Xcode's rule for `Base.lproj`: its files are the development language's, read only where
    /// that language's own folder beside it (`en.lproj`) has no file of the name (letters in any
    /// case), as a bundle looks a resource up: `en.lproj/Localizable.strings` replaces Base's, and
    /// Base's `Localizable.stringsdict` is still read when `en.lproj` has none. `shadowed` are the
    /// Base files its folder replaces.
    public static func applyingBaseRule(_ files: [String], sourceLanguage: String) -> (read: [String], shadowed: [(path: String, by: String)]) {
        // The folder holding the `.lproj`, and the file's name.
        func place(_ path: String) -> String {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            return parts.dropLast(2).joined(separator: "/") + "/" + (parts.last?.lowercased() ?? "")
        }
        var development: [String: String] = [:]
        for path in files where CatalogPath.locale(ofPath: path) == sourceLanguage && development[place(path)] == nil {
            development[place(path)] = path
        }
        guard !development.isEmpty else { return (files, []) }
        var read: [String] = []
        var shadowed: [(String, String)] = []
        for path in files {
            if CatalogPath.isBase(path), let own = development[place(path)] { shadowed.append((path, own)) } else { read.append(path) }
        }
        return (read, shadowed)
    }

    /// What reading one file gave: nil for a file that is no catalog (left out), or its catalog
    /// and diagnostics, or the error that stopped it.
    /// A content of nil: the file was read as a document of another model (its diagnostics are
    /// kept, nothing is merged).
    public typealias Reading = Result<(content: CatalogContent?, diagnostics: [Diagnostic])?, Diagnostic>

    /// The tables of files read in `readingOrder`, merged across locales by table name (letter case
    /// aside). A file that could not be read is named in its table's diagnostics; the others are
    /// still merged.
    public static func merge(_ readings: [(path: String, reading: Reading)], sourceLanguage: String) -> [CatalogTable] {
        var merger = Merger(sourceLanguage: sourceLanguage)
        for (path, reading) in readings { merger.add(path, reading) }
        return merger.finish()
    }

    /// Merges files one at a time, as they are read: a file's catalog can be let go once it is
    /// added, so a tree is never held as a table and every file's catalog besides.
    public struct Merger {
        private let sourceLanguage: String
        /// Whether tables are held as stores (`CatalogStore`) rather than catalogs.
        private let compact: Bool
        private var tables: [String: CatalogTable] = [:]
        private var order: [String] = []
        // Names that differ only in case are one table (`InfoPlist.strings` in en.lproj,
        // `infoPlist.strings` in zh-Hant.lproj), named as first met.
        private var spelling: [String: String] = [:]
        private var original: [String: String] = [:]
        private var spellingsNoted: Set<String> = []
        /// Each table's entries by key, kept between files (built when the second file comes).
        private var indexes: [String: [String: Int]] = [:]
        /// Each table's `.strings` files that hold no entry (comments only), by `.lproj` folder.
        private var entryless: [String: [String: StringsFile.CatalogLayout]] = [:]

        /// `compact`: hold each table as a `CatalogStore` (for reading large tables to check them).
        public init(sourceLanguage: String, compact: Bool = false) {
            self.sourceLanguage = sourceLanguage
            self.compact = compact
        }

        /// Adds the next file in `readingOrder`.
        public mutating func add(_ path: String, _ reading: consuming Reading) {
            if case .success(nil) = reading { return }
            let found = CatalogPath.table(ofPath: path) ?? "Localizable"
            let name = spelling[found.lowercased(), default: found]
            spelling[found.lowercased()] = name
            if tables[name] == nil {
                tables[name] = CatalogTable(name: name, content: compact ? CatalogContent(CatalogStore(sourceLanguage: sourceLanguage))
                                                : CatalogContent(Catalog(sourceLanguage: sourceLanguage)))
                order.append(name)
            }
            if found != name, spellingsNoted.insert(found).inserted {
                tables[name]!.diagnostics.append(.note(.catalogTableSpelledTwice(table: name, spelling: found), at: SourceLocation(file: path)))
            }
            tables[name]!.files.append(path)
            switch reading {
            case .success(let read?):
                tables[name]!.diagnostics += read.diagnostics.map { $0.inFile(path) }
                guard let content = read.content else { break }
                // The file of the development language's text, as Xcode names it in an XLIFF's
                // `original` (`en.lproj/Localizable.strings`): its `.strings`, else its `.stringsdict`.
                if tables[name]!.content.presentation[TableSource.self]?.original == nil, !path.hasSuffix(".xcstrings"),
                   CatalogPath.isBase(path) || CatalogPath.locale(ofPath: path) == sourceLanguage {
                    original[name] = original[name] ?? path.split(separator: "/").suffix(2).joined(separator: "/")
                }
                if compact {
                    // The file's store (or catalog) becomes the table's, or merges into it.
                    if tables[name]!.content.count == 0 {
                        var store = content.store
                        store.sourceLanguage = sourceLanguage
                        store.stringCatalogVersion = nil
                        tables[name]!.content = CatalogContent(store)
                    } else {
                        tables[name]!.content.updateStore { store in
                            if content.isStore {
                                store.merge(content.store, replacing: path.hasSuffix(".stringsdict"))
                            } else {
                                store.merge(content.catalog, replacing: path.hasSuffix(".stringsdict"))
                            }
                        }
                    }
                    break
                }
                let catalog = content.catalog
                // A file of comments only (an `InfoPlist.strings` nobody filled in) has no entry to
                // merge, but is a file of the tree: its layout is kept to write it back where it was.
                if catalog.entries.isEmpty, path.hasSuffix(".strings"), let folder = CatalogPath.folder(ofPath: path) {
                    entryless[name, default: [:]][folder] = catalog.presentation[StringsFile.CatalogLayout.self] ?? StringsFile.CatalogLayout()
                }
                if tables[name]!.catalog.entries.isEmpty {
                    tables[name]!.catalog.entries = catalog.entries
                    tables[name]!.catalog.presentation = catalog.presentation
                } else {
                    var index = indexes.removeValue(forKey: name) ?? [:]
                    tables[name]!.catalog.merge(catalog, replacing: path.hasSuffix(".stringsdict"), index: &index)
                    indexes[name] = index
                }
            case .success(nil): break
            case .failure(let error): tables[name]!.diagnostics.append(error.inFile(path))
            }
        }

        /// The tables, in the order their first files came.
        public consuming func finish() -> [CatalogTable] {
            indexes = [:]
            return order.map { name in
                var table = tables.removeValue(forKey: name)!
                if let file = original[name], table.content.presentation[TableSource.self]?.original == nil {
                    table.content.presentation[TableSource.self, default: TableSource()].original = file
                }
                if let files = entryless[name] { table.content.presentation[EntrylessFiles.self] = EntrylessFiles(layouts: files) }
                if table.content.isStore { table.content.updateStore { $0.finishMerging() } }
                return table
            }
        }
    }


    /// The tables of these files, read with Foundation only (no ICU, no libxml2: what the accessor
    /// generator builds with on a Mac that has nothing installed). `.strings` in UTF-8 or UTF-16,
    /// `.stringsdict` as XML property lists, `.xcstrings` as JSON.
    public static func read(files: [String], sourceLanguage: String) -> [CatalogTable] {
        let (read, shadowed) = applyingBaseRule(files, sourceLanguage: sourceLanguage)
        let readings = readingOrder(read).map { path in
            (path: path, reading: Reading { () throws(Diagnostic) in
                try self.read(path, sourceLanguage: sourceLanguage).map { (content: $0.catalog.map { CatalogContent($0) }, diagnostics: $0.diagnostics) }
            })
        }
        return merge(readings + shadowedReadings(shadowed), sourceLanguage: sourceLanguage)
    }

    /// The Base files a development language's folder replaces, as readings that merge nothing
    /// and say why.
    public static func shadowedReadings(_ shadowed: [(path: String, by: String)]) -> [(path: String, reading: Reading)] {
        shadowed.map { file in
            (file.path, .success((nil, [Diagnostic.note(.catalogBaseShadowed(table: file.by))])))
        }
    }

    static func read(_ path: String, sourceLanguage: String) throws(Diagnostic) -> (catalog: Catalog?, diagnostics: [Diagnostic])? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw Diagnostic.error(.inputNotFound, at: SourceLocation(file: path))
        }
        if isDirectory.boolValue { throw Diagnostic.error(.inputIsDirectory, at: SourceLocation(file: path)) }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw Diagnostic.error(.inputUnreadable(reason: (error as NSError).localizedDescription), at: SourceLocation(file: path))
        }
        let bytes = [UInt8](data)
        let locale = CatalogPath.locale(ofPath: path) ?? sourceLanguage
        var diagnostics: [Diagnostic] = []
        if path.hasSuffix(".xcstrings") {
            return (try XCStringsFile.catalog(bytes, fileName: path, diagnostics: &diagnostics), diagnostics)
        }
        if path.hasSuffix(".stringsdict") {
            guard let members = try StringsdictFile.propertyList(bytes, fileName: path).dictionary else { return nil }
            let catalog = try StringsdictFile.catalog(members, locale: locale, sourceLanguage: sourceLanguage, fileName: path,
                                                      diagnostics: &diagnostics)
            return (catalog, diagnostics)
        }
        guard path.hasSuffix(".strings") else { return nil }
        if StringsFile.isBinaryPropertyList(bytes) || StringsFile.isXMLPropertyList(bytes) {
            let parsed = StringsFile.isBinaryPropertyList(bytes) ? try StringsFile.parseBinary(bytes, fileName: path)
                : try StringsFile.parseXMLPropertyList(bytes, fileName: path)
            return (StringsFile.catalog(parsed, locale: locale, sourceLanguage: sourceLanguage, fileName: path, keepLayout: false), parsed.diagnostics)
        }
        let (text, _) = try StringsFile.text(bytes, fileName: path)
        let parsed = try StringsFile.parse(text, fileName: path, keepLayout: false)
        let catalog = StringsFile.catalog(parsed, locale: locale, sourceLanguage: sourceLanguage, fileName: path, keepLayout: false)
        return (catalog, parsed.diagnostics)
    }
}

/// A table's `.strings` files that hold no entry (comments only), by the `.lproj` folder they sit
/// in, each with its layout (text and encoding): a tree written back has them where they were,
/// rather than losing them because no locale of the table's entries is theirs.
public struct EntrylessFiles: PresentationLayout {
    public var layouts: [String: StringsFile.CatalogLayout]

    public init(layouts: [String: StringsFile.CatalogLayout]) { self.layouts = layouts }
}
