public import AlmanacCore

/// `.strings` and `.stringsdict` files live in Xcode's `xx.lproj/Table.strings` folders: a folder
/// of them reads as one catalog per table, and a catalog of several locales written into a folder
/// becomes such a tree (`--to strings -o out/`).
extension FolderLayoutCodec {
    public func isFolderLayout(_ path: String) -> Bool { CatalogTree.isTree(path) }

    public func decodeFolder(_ path: String, context: CodecContext) -> [(name: String, decoded: Decoded)] {
        CatalogTree.read(path, context: context).map { table in
            (table.name, Decoded(document: .catalog(table.catalog), diagnostics: table.diagnostics))
        }
    }

    /// A catalog written into a folder is a tree, as Xcode keeps it: every locale's `.lproj`, or
    /// the one asked for (`--locale zh-Hant`: `zh-Hant.lproj/`), or an XLIFF's target locale, with
    /// a `.stringsdict` beside the `.strings` for values with plural or device variants.
    public func encodeFolder(_ document: Document, name: String, context: CodecContext) throws(Diagnostic) -> [FolderLayoutFile]? {
        guard case .catalog(let catalog) = document else { return nil }
        // The locales of its entries, and those of its files of comments only.
        let entryless = (catalog.presentation[EntrylessFiles.self]?.layouts.keys).map(Array.init) ?? []
        var locales = catalog.locales + entryless.filter { !catalog.locales.contains($0) }.sorted()
        guard !locales.isEmpty else { return nil }
        if let chosen = context.options["locale"] ?? context.locale.map({ CatalogLocales.catalogName($0.bcp47, among: catalog.locales) }) {
            guard locales.contains(chosen) else { return nil }
            locales = [chosen]
        } else if let target = XLIFFCodec.target(of: catalog), locales.contains(target) {
            // An XLIFF export comes back as its translation's folder, as Xcode imports it.
            locales = [target]
        }
        return try CatalogTree.files(of: catalog, table: catalog.presentation[TableSource.self]?.table ?? name, locales: locales, context: context).map { file in
            FolderLayoutFile(path: file.path, bytes: file.bytes, diagnostics: file.diagnostics)
        }
    }
}

extension StringsCodec: FolderLayoutCodec {}
extension StringsdictCodec: FolderLayoutCodec {}
