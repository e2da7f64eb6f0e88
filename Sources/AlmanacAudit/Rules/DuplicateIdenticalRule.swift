import AlmanacCore
import AlmanacCatalogs

/// A key defined twice in one file with the same text: it reads the same whichever Apple keeps,
/// so only worth tidying.
struct DuplicateIdenticalRule: TableRule {
    static let description = AuditRuleDescription(
        id: "duplicate-identical", severity: .warning, scope: .table, locales: .none,
        triggering: [.files(("en.lproj/Localizable.strings", "\"save\" = \"Save\";\n\"cancel\" = \"Cancel\";\n\"save\" = \"Save\";\n"))],
        nonTriggering: [.files(("en.lproj/Localizable.strings", "\"save\" = \"Save\";\n\"cancel\" = \"Cancel\";\n"))])

    func check(_ table: TableContext) {
        for diagnostic in table.table.diagnostics where diagnostic.code == .catalogDuplicateKeySame {
            table.report(Self.description, key: diagnostic.message.arguments.first ?? "",
                         locale: diagnostic.location?.file.flatMap(CatalogPath.locale(ofPath:)), location: diagnostic.location,
                         Array(diagnostic.message.arguments))
        }
    }
}
