import AlmanacTestSupport
import Foundation
import Testing

/// The compiled-in OpenCC tables (`Sources/AlmanacCatalogs/Generated/OpenCCTables.swift`,
/// `TaiwanPhrases.swift`) are what `Scripts/opencc/generate.py` makes today from the dictionaries
/// kept in `Scripts/opencc` (swift-format's "generated files are valid" check). The generator is a
/// Python script: a machine without python3 skips this, CI runs it.
@Suite struct DraftTablesTests {
    @Test(.enabled(if: ExternalCommand.runs(["python3", "--version"]) || ExternalCommand.peersRequired,
                   "Scripts/opencc/generate.py needs python3"))
    func openCCTablesAreUpToDate() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let result = ExternalCommand.run(["python3", root.appendingPathComponent("Scripts/opencc/generate.py").path, "--check"])
        #expect(result.status == 0, "stale: run python3 Scripts/opencc/generate.py (\(result.output))")
    }
}
