import Foundation

/// Runs a program the tests compare against (python3, cc, pkg-config, swiftc, a peer built on the
/// fly) and collects what it prints. Found on PATH through /usr/bin/env unless the path is absolute.
public enum ExternalCommand {
    /// Exit status and standard output (with standard error after it when `mergingErrors`); a
    /// program that cannot start gives status -1 and the reason as output.
    public static func run(_ arguments: [String], mergingErrors: Bool = true) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = mergingErrors ? output : FileHandle.nullDevice
        do { try process.run() } catch { return (-1, "\(error)") }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Whether CI asked for every peer (`ALMANAC_REQUIRE_PEERS`): a test that needs a program then
    /// runs, and fails where the program is missing, instead of being skipped.
    public static var peersRequired: Bool { ProcessInfo.processInfo.environment["ALMANAC_REQUIRE_PEERS"] != nil }

    /// Whether the command runs here and exits 0 (`["python3", "--version"]`): a test that needs
    /// the program is `.enabled(if: ExternalCommand.runs(…) || ExternalCommand.peersRequired)`,
    /// so that a machine with only what the README names skips it, and says so.
    public static func runs(_ arguments: [String]) -> Bool {
        run(arguments).status == 0
    }
}
