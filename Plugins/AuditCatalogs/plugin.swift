import Foundation
import PackagePlugin

/// `swift package audit-catalogs`: runs `almanac audit` on the package's catalogs and sources and
/// reports each finding as a diagnostic with its file and line.
@main
struct AuditCatalogs: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        try CatalogAudit.run(context: context, arguments: arguments, fixing: false)
    }
}
