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
}
