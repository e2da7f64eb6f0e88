import AlmanacAudit
import Foundation
import Testing

/// Code compares checks, not their spellings (#70): a check's spelling appears in the sources only
/// where its rule declares it (`id: "missing-key", severity: …`) and in the examples that name
/// another rule's finding (`alsoFinds:`, read through `AuditCheck(spelling:)` and tested to name
/// a rule there is). A `switch` or comparison over the strings would stop working, silently, the
/// day a rule is renamed: this test names the file and line instead.
@Suite struct CheckSpellingTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    @Test func spellingsAppearOnlyWhereRulesDeclareThem() throws {
        let spellings = AuditRules.checks.map(\.id)
        let files = try FileManager.default.subpathsOfDirectory(atPath: Self.sources.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 100)
        var misplaced: [String] = []
        for file in files {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for spelling in spellings where line.contains("\"\(spelling)\"") {
                    if line.contains("id: \"\(spelling)\", severity") || line.contains("alsoFinds:") { continue }
                    misplaced.append("\(file):\(number + 1): \"\(spelling)\"")
                }
            }
        }
        #expect(misplaced.isEmpty, "a check compared by its spelling: \(misplaced.joined(separator: "; "))")
    }
}
