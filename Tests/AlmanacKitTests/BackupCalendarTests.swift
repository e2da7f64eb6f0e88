@testable import AlmanacBackups
@testable import AlmanacCalendar
import AlmanacCore
import AlmanacICalendar
import AlmanacICU
import AlmanacTestSupport
import Foundation
import Testing

let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path

func backupCodec(_ name: String) -> BackupCodec { BackupCodec(id: name + "-backup")! }

func example(_ name: String) -> String { repository + "/Examples/\(name)-backup.json" }

func backupDocument(_ name: String) throws -> BackupDocument {
    let decoded = try backupCodec(name).decode(CodecInput(contentsOf: example(name)), context: CodecContext())
    guard case .backup(let backup) = decoded.document else { fatalError("not a backup") }
    return backup
}

/// The apps' backups through iCalendar, and what libical makes of it.
@Suite struct BackupCalendarTests {
    /// Retire Time → iCalendar → Retire Time gives the same file.
    @Test func retireTimeThroughICalendar() throws {
        let backup = try backupDocument("retiretime")
        let (agenda, _) = try BackupConverter().convert(.backup(backup), to: .agenda, context: CodecContext())
        guard case .agenda(let calendar) = agenda else { Issue.record("not an agenda"); return }
        let ics = try ICalendarCodec().encode(agenda, context: CodecContext()).bytes
        let text = String(decoding: ics, as: UTF8.self)
        #expect(text.contains("RRULE:RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=8;BYMONTHDAY=15"))
        #expect(text.contains("TRIGGER:-PT15H"))
        let read = try ICalendarCodec().decode(CodecInput(bytes: ics), context: CodecContext())
        let context = CodecContext(options: ["exported-at": "2025-11-20T21:30:00+08:00"], targetFormat: RetireTimeBackup.format)
        let (back, warnings) = try BackupConverter().convert(read.document, to: .backup, context: context)
        #expect(warnings.isEmpty)
        let bytes = try backupCodec("retiretime").encode(back, context: CodecContext()).bytes
        #expect(String(decoding: bytes, as: UTF8.self) == String(decoding: try Data(contentsOf: URL(fileURLWithPath: example("retiretime"))), as: UTF8.self))
        // The next 媽媽生日 is the fifteenth of the eighth lunar month: 2026-09-25.
        let expander = OccurrenceExpander(agenda: calendar, defaultZone: .taipei, definitions: VTimeZoneReader())
        let mom = try #require(calendar.items.firstIndex { $0.uid == "mom-birthday" })
        #expect(expander.nextOccurrence(of: mom, onOrAfter: try CivilDate(year: 2025, month: 10, day: 7))?.start.day
                == (try CivilDate(year: 2026, month: 9, day: 25)))
    }

    @Test(.enabled(if: ExternalCommand.runs(["pkg-config", "--exists", "libical"]) || ExternalCommand.peersRequired, "needs libical-dev"))
    func libicalReadsTheCalendar() throws {
        let peer = repository + "/Tests/AlmanacICalendarTests/Peers/libical-peer.c"
        let binary = NSTemporaryDirectory() + "almanac-libical-\(UUID().uuidString)"
        let flags = ExternalCommand.run(["pkg-config", "--cflags", "--libs", "libical"]).output.split(whereSeparator: \.isWhitespace).map(String.init)
        #expect(ExternalCommand.run(["cc", "-O2", "-o", binary, peer] + flags).status == 0)
        for name in ["retiretime", "reminders", "zhixi"] {
            let (agenda, _) = try BackupConverter().convert(.backup(try backupDocument(name)), to: .agenda, context: CodecContext())
            let path = NSTemporaryDirectory() + "almanac-\(UUID().uuidString).ics"
            try Data(try ICalendarCodec().encode(agenda, context: CodecContext()).bytes).write(to: URL(fileURLWithPath: path))
            let result = ExternalCommand.run([binary, "check", path])
            #expect(result.output.hasPrefix("errors 0 "), "\(name): \(result.output)")
        }
    }

}
