@testable import AlmanacCatalogs
import AlmanacCore
import AlmanacStrings
import Foundation
import Testing

/// The differences between two catalogs, layout and origins included (`==` ignores them), as
/// lines a failure shows: empty when they are the same byte for byte.
func layoutDifferences(_ a: Catalog, _ b: Catalog) -> [String] {
    var found: [String] = []
    func same(_ x: String?, _ y: String?) -> Bool { x.map { Array($0.utf8) } == y.map { Array($0.utf8) } }
    if a != b { found.append("contents differ") }
    if !a.presentation.hasSameLayouts(as: b.presentation) { found.append("catalog layout") }
    if a.stringCatalogVersion != b.stringCatalogVersion { found.append("version") }
    guard a.entries.count == b.entries.count else { return found + ["\(a.entries.count) entries / \(b.entries.count)"] }
    for (x, y) in zip(a.entries, b.entries) {
        if !same(x.key, y.key) { found.append("key \(x.key) / \(y.key)") }
        if !same(x.comment, y.comment) { found.append("\(x.key): comment") }
        if !x.presentation.hasSameLayouts(as: y.presentation) || x.presentation.origin != y.presentation.origin { found.append("\(x.key): entry layout") }
        if x.extractionState != y.extractionState || x.shouldTranslate != y.shouldTranslate { found.append("\(x.key): entry fields") }
        if Set(x.translations.keys) != Set(y.translations.keys) { found.append("\(x.key): locales") }
        for (locale, translation) in x.translations {
            guard let other = y.translations[locale] else { continue }
            if translation != other || !same(translation.value, other.value) { found.append("\(x.key) \(locale): value") }
            if !translation.presentation.hasSameLayouts(as: other.presentation) { found.append("\(x.key) \(locale): layout") }
            if translation.presentation.origin != other.presentation.origin {
                found.append("\(x.key) \(locale): origin \(String(describing: translation.presentation.origin)) / \(String(describing: other.presentation.origin))")
            }
        }
    }
    return found
}

@Suite struct CatalogStoreTests {
    static let catalogFiles: [String] = {
        let root = fixture("")
        let names = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).filter { name in
            [".strings", ".stringsdict", ".xcstrings", ".xliff"].contains { name.hasSuffix($0) }
        }
        return names.sorted()
    }()

    static func decoded(_ name: String, layout: Bool) throws -> Catalog? {
        let path = fixture(name)
        let registry = FormatRegistry([StringsCodec(), StringsdictCodec(), XCStringsCodec(), XLIFFCodec()])
        let (codec, input) = try registry.open(.file(path), codec: nil)
        let decoded = try codec.decode(input, context: CodecContext(options: layout ? [:] : ["layout": "no"]))
        guard case .catalog(let catalog) = decoded.document else { return nil }
        return catalog
    }

    @Test func fixturesAreThere() {
        #expect(Self.catalogFiles.count >= 20)
    }

    /// A store made from a catalog gives the catalog back: every entry, value, layout and origin.
    @Test(arguments: catalogFiles)
    func catalogComesBackWhole(_ name: String) throws {
        for layout in [true, false] {
            guard let catalog = try? Self.decoded(name, layout: layout) else { continue }
            let store = CatalogStore(catalog)
            #expect(store.count == catalog.entries.count)
            #expect(store.locales == catalog.locales)
            #expect(layoutDifferences(store.catalog, catalog) == [], "\(name), layout \(layout)")
            for row in 0..<min(3, store.count) {
                #expect(store.key(at: row) == catalog.entries[row].key)
                for locale in catalog.locales {
                    #expect(store.translation(at: row, locale: locale) == catalog.entries[row].translations[locale])
                }
            }
        }
    }

    /// `.strings` parsed straight into a store reads as the codec reads it without layout: the same
    /// entries, origins, table layout and diagnostics, or the same error.
    @Test(arguments: catalogFiles.filter { $0.hasSuffix(".strings") })
    func stringsReadStraightIntoAStore(_ name: String) throws {
        let context = CodecContext(options: ["layout": "no"])
        let input = CodecInput(contentsOf: fixture(name))
        let viaCatalog = Result { () throws(Diagnostic) in try StringsCodec().decode(input, context: context) }
        let straight = Result { () throws(Diagnostic) in try StringsCodec().decodeStore(input, context: context) }
        switch (viaCatalog, straight) {
        case (.success(let decoded), .success(let read)):
            #expect(layoutDifferences(read.store.catalog, catalog(decoded)) == [], "\(name)")
            #expect(read.diagnostics.map(\.description) == decoded.diagnostics.map(\.description))
        case (.failure(let error), .failure(let other)):
            #expect(error.description == other.description)
        default:
            Issue.record("\(name): one way read it, the other did not")
        }
    }

    /// Merging into a store is `Catalog.merge`: keys equal as Swift strings (composed either way)
    /// are one key, a key twice in the first file stays twice, new keys come last, comments fill
    /// in, and `replacing` replaces.
    @Test func mergeIsCatalogsMerge() {
        func translation(_ value: String, line: Int) -> Translation {
            Translation(value: value, presentation: Presentation(origin: SourceLocation(file: "f.strings", line: line, column: 1)))
        }
        let first = Catalog(entries: [
            CatalogEntry(key: "caf\u{E9}", translations: ["en": translation("Café", line: 1)]),
            CatalogEntry(key: "a", comment: "a", translations: ["en": translation("A", line: 2)]),
            CatalogEntry(key: "a", translations: ["en": translation("A again", line: 3)]),
            CatalogEntry(key: "k", extractionState: "manual", shouldTranslate: false),
        ])
        let second = Catalog(entries: [
            CatalogEntry(key: "cafe\u{301}", comment: "coffee", translations: ["zh-Hans": translation("咖啡", line: 1), "en": translation("no", line: 1)]),
            CatalogEntry(key: "b", translations: ["zh-Hans": translation("乙", line: 2)]),
            CatalogEntry(key: "a", comment: "later", translations: ["zh-Hans": translation("甲", line: 3)]),
        ])
        var plural = Translation(value: "%#@n@", substitutions: ["n": Substitution(plural: [.one: "%d day", .other: "%d days"])])
        plural.presentation = Presentation(StringsFile.EntryLayout(text: "x"), origin: SourceLocation(file: "f.stringsdict", keyPath: "a"))
        let third = Catalog(entries: [CatalogEntry(key: "a", translations: ["en": plural]), CatalogEntry(key: "b", translations: ["en": plural])])

        var merged = first
        merged.merge(second)
        merged.merge(third, replacing: true)
        // Catalogs merged into a store, and stores (whose cells are copied as they are).
        var fromCatalogs = CatalogStore(first)
        fromCatalogs.merge(second)
        fromCatalogs.merge(third, replacing: true)
        var fromStores = CatalogStore(first)
        fromStores.merge(CatalogStore(second))
        fromStores.merge(CatalogStore(third), replacing: true)
        for var store in [fromCatalogs, fromStores] {
            store.finishMerging()
            #expect(layoutDifferences(store.catalog, merged) == [])
            #expect(store.catalog.entries.map(\.key) == ["caf\u{E9}", "a", "a", "k", "b"])
            #expect(store.locales == ["en", "zh-Hans"])
        }
    }

    /// A table read as a store audits as the same table read as a catalog.
    @Test func contentReadsEitherWay() throws {
        let catalog = try #require(try Self.decoded("Accessors/en.lproj/Localizable.strings", layout: false))
        let asStore = CatalogContent(CatalogStore(catalog))
        let asCatalog = CatalogContent(catalog)
        #expect(asStore.isStore && !asCatalog.isStore)
        #expect(asStore.count == asCatalog.count && asStore.locales == asCatalog.locales)
        #expect(Array(asStore.entries) == Array(asCatalog.entries))
        var changed = asStore
        changed.catalog.entries[0].comment = "changed"
        #expect(!changed.isStore && changed.entry(at: 0).comment == "changed")
        #expect(asStore.entry(at: 0).comment != "changed")
    }
}
