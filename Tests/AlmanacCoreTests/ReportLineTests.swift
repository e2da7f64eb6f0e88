import AlmanacCore
import Foundation
import Testing

/// The streamed report line, built by hand for speed, is what Foundation's encoder writes.
@Suite struct ReportLineTests {
    @Test func theHandWrittenLineIsFoundationsLine() throws {
        let awkward = "tab\there \"quoted\" back\\slash /path/ 媽媽生日 \u{1}\u{8}\u{C}\u{1F} new\nline\r é 🎉"
        let located = SourceLocation(file: awkward, line: 47, column: 3, keyPath: "/days/1")
        var diagnostics: [Diagnostic] = []
        diagnostics.append(.error(Message(key: "ics.truncated", ["VEVENT", "46", awkward]), at: located))
        diagnostics.append(.warning(.convertDropped(target: "retiretime-backup", field: "end", list: "“Piano lesson” (+7)"), at: SourceLocation(file: "a.ics")))
        diagnostics.append(.note(Message(key: "batch.skipped-exists"), at: SourceLocation(keyPath: "k")))
        diagnostics.append(.note(Message(key: "batch.skipped-unknown")))
        diagnostics.append(.error(.outputFailed(reason: "No space left on device"), at: SourceLocation(line: 1)))
        var reports = [ConversionReport(input: "in/a.ics", output: nil, to: "ics"),
                       ConversionReport(input: awkward, output: awkward, to: "retiretime-backup", status: .failed, diagnostics: diagnostics)]
        reports[0].from = "csv"
        reports[0].records = 12
        reports[0].manifestLine = 3
        reports[0].id = .array([.integer(17), .string(awkward), .bool(true), .null, .number(2.5)])
        reports[1].id = .string("x/y")
        reports[1].records = 0
        for report in reports {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let ours = String(decoding: report.jsonLine(), as: UTF8.self)
            let foundations = String(decoding: try encoder.encode(report), as: UTF8.self) + "\n"
            #expect(ours == foundations)
        }
    }
}
