public import ArgumentParser
import AlmanacCore
import Foundation

/// The `almanac` command: formats, inspect, convert, locale, lunar.
public struct Almanac: ParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "almanac",
            abstract: L(.cliAbstract),
            discussion: L(.cliDiscussion),
            version: AlmanacVersion.current,
            subcommands: [Convert.self, Audit.self, Inspect.self, Expand.self, Formats.self, LocaleCommand.self, Lunar.self])
    }

    public init() {}

    /// Runs a command line and returns the exit status; output goes to the session.
    public static func run(_ arguments: [String], session: Session) -> Int32 {
        let language = requestedLanguage(arguments) ?? session.language
        let session = session.speaking(language)
        return Session.$current.withValue(session) {
            do {
                var command: any ParsableCommand
                do {
                    command = try parseAsRoot(Audit.splittingFixChecks(arguments))
                } catch {
                    // A command line with an unknown option never parses; only then is it worth
                    // describing the command's options (a few milliseconds) to name the one meant.
                    if let unknown = UnknownOptions.check(arguments, registry: session.registry) {
                        session.printError(unknown)
                        return AlmanacExitCode.usage.rawValue
                    }
                    throw error
                }
                try command.run()
                return AlmanacExitCode.success.rawValue
            } catch let failure as CommandFailure {
                for diagnostic in failure.diagnostics { session.report(diagnostic) }
                return failure.exitCode.rawValue
            } catch let diagnostic as Diagnostic {
                session.report(diagnostic)
                return AlmanacExitCode.inputError.rawValue
            } catch {
                let code = exitCode(for: error)
                let message = fullMessage(for: error)
                if code == .success {
                    if !message.isEmpty { session.print(message) }
                    return 0
                }
                if !message.isEmpty { session.printError(message) }
                return code == .validationFailure ? AlmanacExitCode.usage.rawValue : AlmanacExitCode.usage.rawValue
            }
        }
    }

    /// Runs this process's command line and exits with its status: what `almanac` does, and
    /// what a tool of your own built on AlmanacCLI does with its extra codecs, which join the
    /// built-in formats and the codec plugins found on PATH.
    public static func runProcess(adding codecs: [any Codec] = []) -> Never {
        let session = Session.process(adding: codecs)
        // Not even the program's name: Swift found no command line (on Linux it reads
        // /proc/self/cmdline), and running without one would answer a different question.
        guard !CommandLine.arguments.isEmpty else {
            session.printError(L(.cliNoCommandLine))
            Foundation.exit(AlmanacExitCode.usage.rawValue)
        }
        Foundation.exit(run(Array(CommandLine.arguments.dropFirst()), session: session))
    }

    /// `--lang` is read before parsing so help texts come out in the right language too.
    static func requestedLanguage(_ arguments: [String]) -> Language? {
        for (index, argument) in arguments.enumerated() {
            if argument == "--lang", index + 1 < arguments.count { return Language(tag: arguments[index + 1]) }
            if argument.hasPrefix("--lang=") { return Language(tag: String(argument.dropFirst(7))) }
        }
        return nil
    }
}

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(name: .customLong("lang"), help: ArgumentHelp(L(.cliOptionLang), valueName: "en|zh-Hans|zh-Hant"), completion: .list(["en", "zh-Hans", "zh-Hant"]))
    var language: String?
}
