import Foundation
import Testing

/// The committed lunar table and its reference fixture are what their generators produce today
/// (swift-format's "generated files are valid" check). Needs Python with lunar-python and
/// lunardate, which `.ci/run` installs; elsewhere the test says how to get them.
@Suite struct GeneratedDataTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func run(_ script: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent(script).path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static var pythonHasPeers: Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import lunar_python, lunardate"]
        process.standardError = Pipe()
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    @Test(.enabled(if: pythonHasPeers || ProcessInfo.processInfo.environment["ALMANAC_REQUIRE_PEERS"] != nil,
                   "needs: pip install lunar-python==1.4.8 lunardate==0.3.0"))
    func lunarTableAndFixtureAreUpToDate() throws {
        let table = try Self.run("Scripts/lunar/generate_table.py")
        #expect(table.status == 0)
        let committedTable = try String(contentsOf: Self.root.appendingPathComponent("Sources/AlmanacICU/ChineseCalendarTable.swift"), encoding: .utf8)
        #expect(table.output == committedTable, "regenerate: python3 Scripts/lunar/generate_table.py > Sources/AlmanacICU/ChineseCalendarTable.swift")
        let fixture = try Self.run("Scripts/lunar/generate_fixture.py")
        #expect(fixture.status == 0)
        let committedFixture = try String(contentsOf: Self.root.appendingPathComponent("Tests/AlmanacICUTests/Fixtures/lunar-hko.txt"), encoding: .utf8)
        #expect(fixture.output == committedFixture, "regenerate: python3 Scripts/lunar/generate_fixture.py > Tests/AlmanacICUTests/Fixtures/lunar-hko.txt")
    }
}
