public import AlmanacCore

/// `--to-locale zh-Hant` (or `zh-Hans`): drafts the missing values of a catalog's other Chinese
/// script (`ScriptDrafts`), marked for review; reviewed translations are never replaced. Taiwan
/// drafts follow the choices the catalog's own Taiwan translations show (`DraftMemory`), unless
/// `--option learn=no`; a note names the choices that changed drafts.
public struct ScriptDraftTransform: DocumentTransform {
    public init() {}

    public var id: String { "to-locale" }

    public var options: [FormatDescription.Option] {
        [.init(name: "learn", summary: "Whether Taiwan drafts follow the catalog's own Taiwan translations' choices (yes, no; default yes).",
               values: ["yes", "no"])]
    }

    /// A table of a tree with no text in the other script (a comment-only `InfoPlist.strings`, a
    /// table only the base has) is left as it is there.
    public var nothingToDo: Set<DiagnosticCode> { [.catalogNoDraftSource] }

    /// The choices a note names (the rest are counted).
    static let choicesNamed = 6

    public func apply(_ document: Document, argument: String, context: CodecContext) throws(Diagnostic) -> (document: Document, diagnostics: [Diagnostic]) {
        guard case .catalog(let catalog) = document else {
            throw Diagnostic.error(.convertToLocaleNeedsCatalog(model: document.kind.rawValue))
        }
        let locale = CatalogLocales.catalogName(argument, among: catalog.locales)
        let result = try ScriptDrafts.draft(catalog, target: locale, learning: context.options["learn"] != "no")
        let place = SourceLocation(file: context.sourceFile)
        var notes = [Diagnostic(.note, .catalogDrafted(count: String(result.drafted), locale: locale, kept: String(result.kept)),
                                at: place, items: result.drafted)]
        if let note = Self.learnedNote(result, locale: locale, at: place) { notes.append(note) }
        return (.catalog(result.catalog), notes)
    }

    /// Which of the catalog's own choices changed drafts, and how many each: one note.
    static func learnedNote(_ result: ScriptDrafts.Result, locale: String, at place: SourceLocation) -> Diagnostic? {
        guard !result.learned.isEmpty else { return nil }
        var named = result.learned.prefix(choicesNamed).map { "\($0.choice.summary) (\($0.drafts))" }
        if result.learned.count > choicesNamed { named.append("+\(result.learned.count - choicesNamed)") }
        let drafts = result.learned.map(\.drafts).max() ?? 0
        return Diagnostic(.note, .catalogDraftLearned(locale: locale, choices: named.joined(separator: ", ")), at: place, items: drafts)
    }

    /// A tree's drafts as one note: how many values in how many tables, and how many reviewed
    /// ones were kept (each table's note says its own counts; `--verbose` shows none of them).
    /// What each table learned stays that table's note.
    public func folderNotes(_ notes: [Diagnostic], argument: String, documents: Int, folder: String) -> [Diagnostic]? {
        let drafts = notes.filter { $0.code == .catalogDrafted }
        guard !drafts.isEmpty else { return nil }
        // Each note's arguments are its counts and locale, as `apply` made them.
        let drafted = drafts.reduce(0) { $0 + (Int($1.message.arguments[0]) ?? 0) }
        let kept = drafts.reduce(0) { $0 + (Int($1.message.arguments[2]) ?? 0) }
        var named: [String] = []
        for locale in drafts.map({ $0.message.arguments[1] }) where !named.contains(locale) { named.append(locale) }
        let summary = Diagnostic(.note, .catalogDraftedTables(count: String(drafted), locale: named.joined(separator: ", "), tables: String(drafts.count),
                                                              kept: String(kept)), at: SourceLocation(file: folder), items: drafted)
        return [summary] + notes.filter { $0.code != .catalogDrafted }
    }
}
