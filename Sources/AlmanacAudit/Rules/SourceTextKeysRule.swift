import AlmanacCore
/// Keys that are the source text (SwiftUI's `Text("Move Screen")`): the base table is empty,
/// absent or `"" = "";`, and every other locale has the key. Each key is then checked as its own
/// base value; the report says so once per table.
struct SourceTextKeysRule: TableRule {
    static let description = AuditRuleDescription(
        id: "source-text-keys", severity: .note, scope: .table, locales: .none,
        triggering: [.files(("en.lproj/Localizable.strings", "\"\" = \"\";\n"),
                            ("zh-Hans.lproj/Localizable.strings", "\"Move Screen\" = \"移动屏幕\";\n"),
                            ("zh-Hant.lproj/Localizable.strings", "\"Move Screen\" = \"移動螢幕\";\n"))],
        nonTriggering: [.values(("move", "en", "Move Screen"), ("move", "zh-Hans", "移动屏幕"), ("move", "zh-Hant", "移動螢幕"))])

    func check(_ table: TableContext) {
        guard table.sourceTextKeys > 0 else { return }
        table.report(Self.description, locale: table.baseLocale, location: table.table.files.first.map { SourceLocation(file: $0) },
                     [table.table.name, String(table.sourceTextKeys), table.baseLocale])
    }
}
