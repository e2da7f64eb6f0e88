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

    /// A catalog of several locales, when no single locale was asked for, is a tree.
    public func encodeFolder(_ document: Document, name: String, context: CodecContext) throws(Diagnostic) -> [FolderLayoutFile]? {
        guard case .catalog(let catalog) = document, catalog.locales.count > 1, context.locale == nil, context.options["locale"] == nil
        else { return nil }
        return try CatalogTree.files(of: catalog, table: catalog.presentation["table"] ?? name, context: context).map { file in
            FolderLayoutFile(path: file.path, bytes: file.bytes, diagnostics: file.diagnostics)
        }
    }
}

extension StringsCodec: FolderLayoutCodec {}
extension StringsdictCodec: FolderLayoutCodec {}
