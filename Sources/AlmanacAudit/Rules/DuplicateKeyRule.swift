import AlmanacCore
import AlmanacCatalogs

/// A key defined twice in one file with different texts: Apple keeps the last, so the first is
/// dead and one of the two is wrong.
struct DuplicateKeyRule: TableRule {
    static let description = AuditRuleDescription(
        id: "duplicate-key", severity: .error, scope: .table, locales: .none,
        triggering: [.files(("en.lproj/Localizable.strings", "\"title\" = \"Days\";\n\"title\" = \"Countdowns\";\n"))],
        nonTriggering: [.files(("en.lproj/Localizable.strings", "\"title\" = \"Days\";\n\"title\" = \"Days\";\n"), alsoFinds: ["duplicate-identical"]),
                        .files(("en.lproj/Localizable.strings", "\"title\" = \"Days\";\n"), ("en.lproj/InfoPlist.strings", "\"title\" = \"Days\";\n"))])

    func check(_ table: TableContext) {
        for diagnostic in table.table.diagnostics where diagnostic.code == .catalogDuplicateKey {
            table.report(Self.description, key: diagnostic.message.arguments.first ?? "",
                         locale: diagnostic.location?.file.flatMap(CatalogPath.locale(ofPath:)), location: diagnostic.location,
                         Array(diagnostic.message.arguments))
        }
    }
}
