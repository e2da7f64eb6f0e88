import AlmanacCore
import AlmanacCatalogs

/// A locale folder named without its script or in a legacy form (`zh_TW`, `zh_HK`, `zh_CN`,
/// `zh_tw`): ICU's likely subtags give its script and region, which decide the checks it gets.
/// Said once per name, at its first file.
struct LocaleNameRule: ProjectRule {
    static let description = AuditRuleDescription(
        id: "locale-name", severity: .note, scope: .project, locales: .none,
        triggering: [.values(("settings", "en", "Settings"), ("settings", "zh_TW", "設定")),
                     .values(("settings", "en", "Settings"), ("settings", "zh_tw", "設定"))],
        nonTriggering: [.values(("settings", "en", "Settings"), ("settings", "zh-Hant", "設定"), ("settings", "zh-Hant-TW", "設定"))])

    func check(_ project: ProjectContext) {
        var seen: Set<String> = []
        for (table, locales) in zip(project.tables, project.locales) {
            for name in locales where !seen.contains(name) && project.auditor.locale(name).isReadByLikelySubtags {
                seen.insert(name)
                let file = table.files.first { CatalogPath.locale(ofPath: $0) == name }
                project.report(Self.description, table: table.name, locale: name, location: file.map { SourceLocation(file: $0) },
                               [name, project.auditor.locale(name).resolved])
            }
        }
    }
}
