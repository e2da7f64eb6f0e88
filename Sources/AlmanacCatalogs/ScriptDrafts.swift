public import AlmanacCore
import AlmanacICU

/// Drafting one Chinese script's translations from the other's.
public enum ScriptDrafts {
    /// The locale drafts were written in (`--to-locale zh-Hant`): what a format of one locale writes
    /// when none is asked for, as it writes an XLIFF file's target.
    public static func draftedLocale(of catalog: Catalog) -> String? { catalog.presentation[Drafted.self]?.locale }

    /// The locale a catalog's drafts were written in, kept on it.
    struct Drafted: PresentationLayout {
        var locale: String
    }

    /// What drafting a catalog did: the catalog, how many values were drafted and how many
    /// reviewed ones kept, and the app's own choices (`DraftMemory`) that changed drafts, with how
    /// many drafts each changed.
    public struct Result: Sendable {
        public var catalog: Catalog
        public var drafted: Int
        public var kept: Int
        public var learned: [(choice: DraftMemory.Choice, drafts: Int)]
    }

    /// Fills `target` (zh-Hant or zh-Hans) from the other script where the target has no value
    /// or only a `new` one. Drafts are marked `needs_review`; reviewed translations (translated,
    /// needs review, stale) are never replaced. Returns the catalog and how many were drafted.
    public static func draft(_ catalog: Catalog, target: String) throws(Diagnostic) -> (Catalog, drafted: Int, kept: Int) {
        let result = try draft(catalog, target: target, learning: false)
        return (result.catalog, result.drafted, result.kept)
    }

    /// The same, and with `learning`, Taiwan drafts follow the choices the catalog's own Taiwan
    /// translations show (`DraftMemory`: the app's words, marks, spacing, 您 or 你).
    public static func draft(_ catalog: Catalog, target: String, learning: Bool) throws(Diagnostic) -> Result {
        let toTaiwan = CatalogLocales.chineseScript(of: target) == "zh-Hant"
        // The other script's locale, however its folder spells it (zh-Hans, zh_CN, zh-Hans-CN, zh).
        let sourceScript = toTaiwan ? "zh-Hans" : "zh-Hant"
        let candidates = catalog.locales.filter { CatalogLocales.chineseScript(of: $0) == sourceScript }
        let source = candidates.isEmpty ? nil : CatalogLocales.catalogName(sourceScript, among: candidates)
        guard let source else {
            throw Diagnostic.error(.catalogNoDraftSource(target: target, locales: catalog.locales.joined(separator: ", ")))
        }
        let converter = try ChineseConverter(toTaiwan ? .toTaiwan : .toSimplified)
        let memory = learning && toTaiwan ? DraftMemory(learningFrom: catalog, source: source, target: target, converter: converter) : .none
        var result = catalog
        result.presentation[Drafted.self] = Drafted(locale: target)
        var drafted = 0
        var kept = 0
        var learned: [DraftMemory.Choice: Int] = [:]
        for index in result.entries.indices {
            guard let original = result.entries[index].translations[source], result.entries[index].shouldTranslate != false else { continue }
            if let existing = result.entries[index].translations[target], existing.state != .new, !existing.isEmpty {
                kept += 1
                continue
            }
            var (draft, used) = memory.apply(to: converter.convert(original), source: original)
            for choice in used { learned[choice, default: 0] += 1 }
            draft.state = .needsReview
            result.entries[index].translations[target] = draft
            drafted += 1
        }
        return Result(catalog: result, drafted: drafted, kept: kept,
                      learned: learned.map { ($0.key, $0.value) }.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 })
    }
}
