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
        return (.catalog(drafted), [.note(.catalogDrafted(count: String(count), locale: locale, kept: String(kept)), at: SourceLocation(file: context.sourceFile))])
    }
}
