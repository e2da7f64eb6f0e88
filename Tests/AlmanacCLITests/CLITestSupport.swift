import AlmanacCLI
import AlmanacCore
import Foundation
import Synchronization

/// Runs `almanac` in-process and captures what it prints.
struct CLIRun {
    let status: Int32
    let output: String
    let error: String
    let bytes: [UInt8]

    init(_ arguments: [String], input: [UInt8] = [], environment: [String: String] = [:], language: Language = .english) {
        let captured = Mutex<(out: String, err: String, bytes: [UInt8])>(("", "", []))
        let session = Session(
            environment: environment, language: language,
            standardOutput: { text in captured.withLock { $0.out += text } },
            standardError: { text in captured.withLock { $0.err += text } },
            standardInput: { input },
            binaryOutput: { bytes in captured.withLock { $0.bytes += bytes; $0.out += String(decoding: bytes, as: UTF8.self) } })
        status = Almanac.run(arguments, session: session)
        (output, error, bytes) = captured.withLock { ($0.out, $0.err, $0.bytes) }
    }
}

/// A fresh directory for a test's files.
func temporaryDirectory() -> String {
    let path = NSTemporaryDirectory() + "almanac-cli-\(UUID().uuidString)"
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// `.strings` tables at `folder/LOCALE.lproj/TABLE.strings`, from (locale, table, text).
func writeTree(_ files: [(locale: String, table: String, text: String)], at folder: String) throws {
    for (locale, table, text) in files {
        try FileManager.default.createDirectory(atPath: "\(folder)/\(locale).lproj", withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: "\(folder)/\(locale).lproj/\(table).strings"))
    }
}

func read(_ path: String) -> String? {
    FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
}
