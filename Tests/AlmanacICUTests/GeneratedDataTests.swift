import AlmanacTestSupport
import Foundation
import Testing

/// The committed lunar table and its reference fixture are what their generators produce today
/// (swift-format's "generated files are valid" check). Needs Python with lunar-python and
/// lunardate, which `.ci/run` installs; elsewhere the test says how to get them.
@Suite struct GeneratedDataTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func run(_ script: String) -> (status: Int32, output: String) {
        ExternalCommand.run(["python3", root.appendingPathComponent(script).path], mergingErrors: false)
    }

    static var pythonHasPeers: Bool { ExternalCommand.run(["python3", "-c", "import lunar_python, lunardate"]).status == 0 }

    @Test(.enabled(if: pythonHasPeers || ProcessInfo.processInfo.environment["ALMANAC_REQUIRE_PEERS"] != nil,
                   "needs: pip install lunar-python==1.4.8 lunardate==0.3.0"))
    func lunarTableAndFixtureAreUpToDate() throws {
        let table = Self.run("Scripts/lunar/generate_table.py")
        #expect(table.status == 0)
        let committedTable = try String(contentsOf: Self.root.appendingPathComponent("Sources/AlmanacICU/Generated/ChineseCalendarTable.swift"), encoding: .utf8)
        #expect(table.output == committedTable, "regenerate: python3 Scripts/lunar/generate_table.py > Sources/AlmanacICU/Generated/ChineseCalendarTable.swift")
        let fixture = Self.run("Scripts/lunar/generate_fixture.py")
        #expect(fixture.status == 0)
        let committedFixture = try String(contentsOf: Self.root.appendingPathComponent("Tests/AlmanacICUTests/Fixtures/lunar-hko.txt"), encoding: .utf8)
        #expect(fixture.output == committedFixture, "regenerate: python3 Scripts/lunar/generate_fixture.py > Tests/AlmanacICUTests/Fixtures/lunar-hko.txt")
    }
}
