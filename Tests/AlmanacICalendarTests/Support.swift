@testable import AlmanacICalendar
import AlmanacCore
import AlmanacICU
import Foundation

func fixturePath(_ name: String, filePath: String = #filePath) -> String {
    URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path
}

func fixture(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: fixturePath(name))))
}

/// Reads a fixture through the codec, as the CLI does (streamed from the file).
func readFixture(_ name: String, options: CodecOptions = [:]) throws -> (agenda: Agenda, diagnostics: [Diagnostic], encoding: String?) {
    let decoded = try ICalendarCodec().decode(CodecInput(contentsOf: fixturePath(name)), context: CodecContext(options: options))
    guard case .agenda(let agenda) = decoded.document else { fatalError("not an agenda") }
    return (agenda, decoded.diagnostics, decoded.encoding)
}

func write(_ agenda: Agenda) throws -> [UInt8] {
    try ICalendarCodec().encode(.agenda(agenda), context: CodecContext()).bytes
}

func reread(_ bytes: [UInt8]) throws -> Agenda {
    let decoded = try ICalendarCodec().decode(CodecInput(bytes: bytes, fileName: "written.ics"), context: CodecContext())
    guard case .agenda(let agenda) = decoded.document else { fatalError("not an agenda") }
    return agenda
}

func time(_ text: String) -> CivilDateTime {
    guard case .floating(let value) = try! DateValue(parsing: text) else { fatalError(text) }
    return value
}

func instant(_ iso: String) -> Date {
    ISO8601DateFormatter().date(from: iso)!
}
