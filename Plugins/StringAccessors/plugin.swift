import Foundation
import PackagePlugin

/// Generates typed Swift accessors for a target's string catalogs (.strings, .stringsdict,
/// .xcstrings in its resources): `L10n.Home.title`, `L10n.Home.streak(3)`. A file
/// `almanac-strings.json` in the target's folder sets the enum's name, the development language
/// and the tables (`{"enumName": "ZXStrings", "sourceLanguage": "zh-Hans", "tables": ["Localizable"]}`);
/// without it, `L10n`, `en` and every table.
@main
struct StringAccessors: BuildToolPlugin {
    static let configurationName = "almanac-strings.json"

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let catalogs = target.sourceFiles.map(\.url).filter { ["strings", "stringsdict", "xcstrings"].contains($0.pathExtension) }
            .sorted { $0.path < $1.path }
        guard !catalogs.isEmpty else { return [] }
        let output = context.pluginWorkDirectoryURL.appending(path: "\(target.name)Strings.swift")
        var arguments = ["--output", output.path]
        var inputs = catalogs
        let configuration = target.directoryURL.appending(path: Self.configurationName)
        if FileManager.default.fileExists(atPath: configuration.path) {
            arguments += ["--config", configuration.path]
            inputs.append(configuration)
        }
        return [
            .buildCommand(
                displayName: "Generating string accessors for \(target.name)",
                executable: try context.tool(named: "almanac-strings-gen").url,
                arguments: arguments + catalogs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}
