@testable import AlmanacCSV
import AlmanacCore
import Foundation
import Testing

/// Every spectrum case reads exactly as Python's csv module reads it.
@Suite struct PythonParityTests {
    static let cases: [String] = {
        let directory = URL(fileURLWithPath: fixturePath("spectrum"))
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".csv") }.sorted()
    }()

    static func python(_ path: String) throws -> [[String]] {
        let script = "import csv, json, sys; print(json.dumps(list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8-sig')))))"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try JSONDecoder().decode([[String]].self, from: data)
    }

    @Test(arguments: cases)
    func sameRecordsAsPython(name: String) throws {
        let path = fixturePath("spectrum/\(name)")
        var ours: [[String]] = []
        _ = try CSVInput.read(CodecInput(contentsOf: path), options: .init(delimiter: 0x2C)) { (record) throws(Diagnostic) in
            ours.append(record.strings)
        }
        #expect(ours == (try Self.python(path)))
    }
}
