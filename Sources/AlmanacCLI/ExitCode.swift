import AlmanacCore

/// Ends a command with a status after its diagnostics have been reported.
struct CommandFailure: Error {
    let exitCode: AlmanacExitCode
    let diagnostics: [Diagnostic]

    init(_ exitCode: AlmanacExitCode, _ diagnostics: [Diagnostic] = []) {
        self.exitCode = exitCode
        self.diagnostics = diagnostics
    }

    static func usage(_ diagnostic: Diagnostic) -> CommandFailure { CommandFailure(.usage, [diagnostic]) }
}
