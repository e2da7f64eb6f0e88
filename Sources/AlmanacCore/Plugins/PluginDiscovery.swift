import AlmanacICU
import Foundation

/// Finds plugin executables: `almanac-codec-*` in `ALMANAC_PLUGIN_PATH` (first) and `PATH`.
public enum PluginDiscovery {
    public static let prefix = "almanac-codec-"

    public static func executables(environment: [String: String]) -> [String] {
        let directories = (environment["ALMANAC_PLUGIN_PATH"] ?? "").split(separator: ":").map(String.init)
            + (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        var seen = Set<String>()
        var result: [String] = []
        for directory in directories where !directory.isEmpty {
            for name in names(in: directory).sorted() where !seen.contains(name) {
                let path = (directory as NSString).appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                      FileManager.default.isExecutableFile(atPath: path) else { continue }
                seen.insert(name)
                result.append(path)
            }
        }
        return result
    }

    /// The names in `directory` that start with `prefix`, compared as bytes while the directory
    /// is read: every command runs this over each `PATH` folder, which hold thousands of names.
    static func names(in directory: String) -> [String] {
        DirectoryEntry.names(in: directory, startingWith: prefix)
    }

    /// Every plugin that describes itself, and a diagnostic for each that does not.
    public static func codecs(environment: [String: String]) -> (codecs: [ExternalCodec], problems: [Diagnostic]) {
        let timeout = environment["ALMANAC_PLUGIN_TIMEOUT"].flatMap(Double.init) ?? 5
        var codecs: [ExternalCodec] = []
        var problems: [Diagnostic] = []
        for executable in executables(environment: environment) {
            do {
                let codec = try ExternalCodec.describe(executable, timeout: timeout)
                codecs.append(ExternalCodec(executable: codec.executable, format: codec.format,
                                            timeout: environment["ALMANAC_PLUGIN_TIMEOUT"].flatMap(Double.init) ?? 30, messages: codec.messages))
            } catch {
                problems.append(error)
            }
        }
        return (codecs, problems)
    }
}
