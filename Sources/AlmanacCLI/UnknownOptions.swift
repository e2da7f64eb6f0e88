import AlmanacCore
import ArgumentParser

/// A long option a command does not have, named before the command runs, with the nearest one it
/// has, or the format option it looks like (`--styel iso` → `--option style=iso`).
///
/// swift-argument-parser names an unknown option only after a command's own checks: `convert FILE
/// --styel iso` took `iso` for a second input and answered "Several inputs need -o DIRECTORY".
enum UnknownOptions {
    /// The error for the first unknown long option of `arguments` (a subcommand's name first), if any.
    static func check(_ arguments: [String], registry: FormatRegistry) -> String? {
        // The subcommand named (`convert`; `locale show`), down to the last one named.
        var command: any ParsableCommand.Type = Almanac.self
        var names: [String] = []
        for argument in arguments {
            guard let sub = command.configuration.subcommands.first(where: { $0.configuration.commandName == argument }) else { break }
            command = sub
            names.append(argument)
        }
        guard !names.isEmpty else { return nil }
        let name = names.joined(separator: " ")
        let known = longNames(of: command)
        for (index, argument) in arguments.enumerated().dropFirst(names.count) {
            if argument == "--" { break }
            guard argument.hasPrefix("--"), argument.count > 2 else { continue }
            let option = String(argument.dropFirst(2).prefix { $0 != "=" })
            guard !known.contains(option), !alwaysKnown.contains(option) else { continue }
            // Hidden options of swift-argument-parser's and ours (`--fix=CHECKS`) are in `known`
            // through the dump; anything else is unknown.
            var message = L(.cliUnknownOption(option: "--" + option))
            if let meant = Spelling.nearest(to: option, among: known) {
                message = L(.cliUnknownOptionNear(option: "--" + option, meant: "--" + meant))
            } else if let meant = Spelling.nearest(to: option, among: registry.declaredOptionNames) {
                let value = argument.contains("=") ? String(argument.drop { $0 != "=" }.dropFirst())
                    : index + 1 < arguments.count && !arguments[index + 1].hasPrefix("-") ? arguments[index + 1] : "…"
                message = L(.cliUnknownOptionFormat(option: "--" + option, meant: "--option \(meant)=\(value)"))
            }
            return "Error: " + message + "\nUsage: " + Almanac.usageString(for: command).split(separator: "\n").prefix(1).joined()
                + "\n  " + L(.cliSeeHelp(command: "almanac " + name))
        }
        return nil
    }

    /// Options every command takes from swift-argument-parser.
    static let alwaysKnown: Set<String> = ["help", "version", "experimental-dump-help", "generate-completion-script"]

    /// A command's long option names, as swift-argument-parser describes the command.
    static func longNames(of command: any ParsableCommand.Type) -> Set<String> {
        func member(_ value: JSONValue?, _ key: String) -> JSONValue? { value?.object?.first { $0.0 == key }?.1 }
        guard let dump = try? JSONValue(parsing: Array(command._dumpHelp().utf8)), let arguments = member(member(dump, "command"), "arguments")?.array
        else { return [] }
        var names: Set<String> = []
        for argument in arguments {
            for name in member(argument, "names")?.array ?? [] where member(name, "kind")?.string == "long" {
                if let text = member(name, "name")?.string { names.insert(text) }
            }
        }
        return names
    }
}
