public import AlmanacCore

/// `--to-locale zh-Hant` (or `zh-Hans`): drafts the missing values of a catalog's other Chinese
/// script (`ScriptDrafts`), marked for review; reviewed translations are never replaced.
public struct ScriptDraftTransform: DocumentTransform {
    public init() {}

    public var id: String { "to-locale" }

    /// A table of a tree with no text in the other script (a comment-only `InfoPlist.strings`, a
    /// table only the base has) is left as it is there.
    public var nothingToDo: Set<DiagnosticCode> { [.catalogNoDraftSource] }

    public func apply(_ document: Document, argument: String, context: CodecContext) throws(Diagnostic) -> (document: Document, diagnostics: [Diagnostic]) {
        guard case .catalog(let catalog) = document else {
            throw Diagnostic.error(.convertToLocaleNeedsCatalog(model: document.kind.rawValue))
        }
        let locale = CatalogLocales.catalogName(argument, among: catalog.locales)
        let (drafted, count, kept) = try ScriptDrafts.draft(catalog, target: locale)
        return (.catalog(drafted), [Diagnostic(.note, .catalogDrafted(count: String(count), locale: locale, kept: String(kept)),
                                               at: SourceLocation(file: context.sourceFile), items: count)])
    }

    /// A tree's drafts as one note: how many values in how many tables, and how many reviewed
    /// ones were kept (each table's note says its own counts; `--verbose` shows none of them).
    public func folderNote(_ notes: [Diagnostic], argument: String, documents: Int, folder: String) -> Diagnostic? {
        let drafts = notes.filter { $0.code == .catalogDrafted }
        guard !drafts.isEmpty, drafts.count == notes.count else { return nil }
        // Each note's arguments are its counts and locale, as `apply` made them.
        let drafted = drafts.reduce(0) { $0 + (Int($1.message.arguments[0]) ?? 0) }
        let kept = drafts.reduce(0) { $0 + (Int($1.message.arguments[2]) ?? 0) }
        let locales = drafts.map { $0.message.arguments[1] }
        var named: [String] = []
        for locale in locales where !named.contains(locale) { named.append(locale) }
        return Diagnostic(.note, .catalogDraftedTables(count: String(drafted), locale: named.joined(separator: ", "), tables: String(drafts.count),
                                                       kept: String(kept)), at: SourceLocation(file: folder), items: drafted)
    }
}
