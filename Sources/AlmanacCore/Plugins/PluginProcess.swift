import AlmanacICU
import Foundation

/// Runs a plugin with a deadline, feeding standard input and collecting both outputs.
enum PluginProcess {
    struct Result {
        var status: Int32
        var output: [UInt8]
        var error: [UInt8]

        var errorSummary: String {
            let text = String(decoding: error.prefix(2000), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return text.split(separator: "\n").first.map(String.init) ?? "—"
        }
    }

    /// Collects a pipe's bytes on a background thread (so a chatty plugin never blocks on a full pipe).
    final class Collector: @unchecked Sendable {
        private let bytes = Locked<[UInt8]>([])
        private let done = DispatchSemaphore(value: 0)
        static let limit = 512 * 1024 * 1024

        init(_ handle: FileHandle) {
            Thread.detachNewThread { [self] in
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    bytes.withLock { bytes in if bytes.count < Self.limit { bytes += chunk } }
                }
                done.signal()
            }
        }

        func wait(until deadline: DispatchTime) -> [UInt8] {
            _ = done.wait(timeout: deadline)
            return bytes.withLock { $0 }
        }
    }

    static func run(_ executable: String, _ arguments: [String], input: [UInt8], timeout: Double, name: String) throws(Diagnostic) -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do { try process.run() } catch {
            throw Diagnostic.error(.pluginCannotStart(plugin: name, reason: "\(error)"), at: SourceLocation(file: executable))
        }
        let output = Collector(stdout.fileHandleForReading)
        let errors = Collector(stderr.fileHandleForReading)
        let writer = stdin.fileHandleForWriting
        Thread.detachNewThread {
            // A plugin that exits without reading its input must not take us down with SIGPIPE.
            signal(SIGPIPE, SIG_IGN)
            try? writer.write(contentsOf: input)
            try? writer.close()
        }
        let deadline = DispatchTime.now() + timeout
        if finished.wait(timeout: deadline) == .timedOut {
            process.terminate()
            if finished.wait(timeout: .now() + 2) == .timedOut { kill(process.processIdentifier, SIGKILL) }
            throw Diagnostic.error(.pluginTimeout(plugin: name, seconds: String(Int(timeout.rounded()))))
        }
        let drain = DispatchTime.now() + 5
        return Result(status: process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus,
                      output: output.wait(until: drain), error: errors.wait(until: drain))
    }
}
