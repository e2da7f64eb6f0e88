import Foundation
import PackagePlugin

/// `swift package fix-catalogs`: runs `almanac audit --fix` on the package's catalogs (the fixes with
/// one right answer, in place, drafts marked for review), then reports what is left as
/// `audit-catalogs` does. It writes to the package, so SwiftPM asks first (or
/// `--allow-writing-to-package-directory`).
@main
struct FixCatalogs: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        try CatalogAudit.run(context: context, arguments: arguments, fixing: true)
    }
}
