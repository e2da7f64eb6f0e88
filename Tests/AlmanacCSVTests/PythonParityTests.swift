@testable import AlmanacCSV
import AlmanacCore
import AlmanacTestSupport
import Foundation
import Testing

/// Every spectrum case reads exactly as Python's csv module reads it (skipped without python3).
@Suite(.enabled(if: ExternalCommand.runs(["python3", "--version"]) || ExternalCommand.peersRequired,
                "python3 is the reference: Python's csv module"))
struct PythonParityTests {
    static let cases: [String] = {
        let directory = URL(fileURLWithPath: fixturePath("spectrum"))
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".csv") }.sorted()
    }()

    static func python(_ path: String) throws -> [[String]] {
        let script = "import csv, json, sys; print(json.dumps(list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8-sig')))))"
        let data = Data(ExternalCommand.run(["python3", "-c", script, path], mergingErrors: false).output.utf8)
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
