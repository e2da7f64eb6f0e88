import Foundation
import PackagePlugin

/// Generates typed Swift accessors for a target's string catalogs (.strings, .stringsdict,
/// .xcstrings in its resources): `L10n.Home.title`, `L10n.Home.streak(3)`.
@main
struct StringAccessors: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let catalogs = target.sourceFiles.map(\.url).filter { ["strings", "stringsdict", "xcstrings"].contains($0.pathExtension) }
            .sorted { $0.path < $1.path }
        guard !catalogs.isEmpty else { return [] }
        let output = context.pluginWorkDirectoryURL.appending(path: "\(target.name)Strings.swift")
        return [
            .buildCommand(
                displayName: "Generating string accessors for \(target.name)",
                executable: try context.tool(named: "almanac-strings-gen").url,
                arguments: ["--output", output.path] + catalogs.map(\.path),
                inputFiles: catalogs,
                outputFiles: [output])
        ]
    }
}
