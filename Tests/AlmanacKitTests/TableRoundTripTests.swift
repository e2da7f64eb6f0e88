import AlmanacCore
import AlmanacICU
import AlmanacKit
import Foundation
import Testing

/// Days through spreadsheets and back (#15 item 5): the type a column says is the type; a
/// region-style export imports back to the same export; the iso style keeps every field a day has.
@Suite struct TableRoundTripTests {
    typealias Run = ConversionTests

    static func convert(_ bytes: [UInt8], from: String, to: String, locale: String? = nil, options: [String: String] = [:])
        throws -> (text: String, report: ConversionReport) {
        let context = CodecContext(locale: try locale.map(LocaleID.init), timeZone: .taipei,
                                   options: CodecOptions(options.merging(["exported-at": "2025-11-20T21:30:00+08:00"]) { a, _ in a }))
        let result = try Run.run(.standardInput(bytes), from: from, to: to, context: context)
        return (String(decoding: result.bytes, as: UTF8.self), result.report)
    }

    static var example: [UInt8] { Array(FileManager.default.contents(atPath: Run.examplePath("retiretime-backup.json"))!) }

    /// Explicit types win over guesses: a past countdown stays a countdown, 自訂 stays custom,
    /// in each language's words.
    @Test func typeColumnsAreNotGuessed() throws {
        let csv = """
        名稱,日期,類型
        畢業典禮,2020/6/13,倒數日
        戒菸,2030/1/1,正數日
        繳房貸,2025/3/5,自訂
        媽媽生日,2025/10/6,生日
        结婚纪念日,2019/5/20,纪念日
        Launch,2020/1/1,Countdown
        """
        let (json, report) = try Self.convert(Array(csv.utf8), from: "csv", to: "retiretime-backup", locale: "zh-TW")
        #expect(report.status == .converted)
        let days = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])["days"] as? [[String: Any]]
        #expect(days?.map { $0["type"] as? String } == ["countdown", "countup", "custom", "birthday", "anniversary", "countdown"])
    }

    /// Almanac's own zh-TW export of the example imports back and exports to the same bytes:
    /// types, the lunar column (臘月最後一天 stays the last day, 閏六月 stays leap) and repeats.
    @Test(arguments: ["zh-TW", "zh-CN", "en-US"])
    func regionExportsComeBackTheSame(locale: String) throws {
        let first = try Self.convert(Self.example, from: "retiretime-backup", to: "csv", locale: locale)
        let backup = try Self.convert(Array(first.text.utf8), from: "csv", to: "retiretime-backup", locale: locale)
        #expect(!backup.report.diagnostics.contains { $0.severity == .error })
        let second = try Self.convert(Array(backup.text.utf8), from: "retiretime-backup", to: "csv", locale: locale)
        #expect(second.text == first.text)
        // What the region style left out by design is named (a note each), with the way to keep it.
        let dropped = first.report.diagnostics.filter { $0.code == "convert.left-out" }.map { $0.message.arguments[1] }
        #expect(Set(dropped).isSuperset(of: ["alarms", "color", "pinned", "icon", "created", "categories.color", "settings"]))
        #expect(first.report.diagnostics.contains { $0.code == "csv.iso-keeps" })
    }

    /// The iso style keeps ids, reminders, pinned, icon, colour, categories and time stamps: the
    /// days come back equal, field by field; what a row of days cannot hold (the categories'
    /// colours and icons, the settings) is named.
    @Test func isoExportsKeepEveryFieldOfADay() throws {
        let csv = try Self.convert(Self.example, from: "retiretime-backup", to: "csv", options: ["style": "iso"])
        #expect(Set(csv.report.diagnostics.filter { $0.code == "convert.dropped" }.map { $0.message.arguments[1] })
                == ["settings", "categories.color", "categories.icon"])
        let back = try Self.convert(Array(csv.text.utf8), from: "csv", to: "retiretime-backup")
        #expect(back.report.diagnostics.allSatisfy { $0.severity != .error && $0.severity != .warning }, "\(back.report.diagnostics)")
        let original = try #require(try JSONSerialization.jsonObject(with: Data(Self.example)) as? [String: Any])["days"] as? [NSDictionary]
        let restored = try #require(try JSONSerialization.jsonObject(with: Data(back.text.utf8)) as? [String: Any])["days"] as? [NSDictionary]
        #expect(restored == original)
        // And the iso export of what came back is the same export.
        let again = try Self.convert(Array(back.text.utf8), from: "retiretime-backup", to: "csv", options: ["style": "iso"])
        #expect(again.text == csv.text)
    }

    /// The formula guard's apostrophe comes off on the way back in: a title that starts with a
    /// minus is not changed by a round trip.
    @Test func guardedCellsReadBackAsWritten() throws {
        let csv = "name,date,notes\r\n-5 kg,2025-01-01,=1+1\r\n"
        let exported = try Self.convert(Array(csv.utf8), from: "csv", to: "csv", options: ["style": "iso"])
        #expect(exported.text.contains("'-5 kg"))
        let backup = try Self.convert(Array(exported.text.utf8), from: "csv", to: "retiretime-backup")
        #expect(backup.text.contains("\"name\": \"-5 kg\""))
        #expect(backup.text.contains("\"notes\": \"=1+1\""))
    }

    /// A region table's words and lunar column keep a lunar rule only with the SKIP its reader
    /// gives back (backward for a leap month): another SKIP is named, a plain yearly rule is not.
    @Test func lunarSkipsTheWordsCannotHoldAreNamed() throws {
        func warnings(_ rule: String) throws -> [String] {
            let ics = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART;VALUE=DATE:20250803\r\nRRULE:\(rule)\r\n"
                + "SUMMARY:Baby\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            return try Self.convert(Array(ics.utf8), from: "ics", to: "csv", locale: "zh-TW").report.diagnostics
                .filter { $0.code == "convert.approximated" }.map { $0.message.arguments[1] }
        }
        #expect(try warnings("RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=6L;BYMONTHDAY=10;SKIP=BACKWARD").isEmpty)
        #expect(try warnings("RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=6L;BYMONTHDAY=10;SKIP=OMIT") == ["recurrence.rules"])
        #expect(try warnings("FREQ=YEARLY").isEmpty)
        #expect(try warnings("FREQ=YEARLY;INTERVAL=2") == ["recurrence.rules"])
    }

    /// Words the reader cannot read as a repeat are reported, not guessed at.
    @Test func unreadableRepeatsAreReported() throws {
        let csv = "name,date,repeat,lunar\r\nA,2025-01-01,sometimes,\r\nB,2025-10-06,每年（農曆）,八月三十一\r\n"
        let result = try Self.convert(Array(csv.utf8), from: "csv", to: "ics")
        let bad = result.report.diagnostics.filter { $0.code == "csv.bad-value" }.map { $0.rendered() }
        #expect(bad.count == 2)
        #expect(bad.first?.contains("\"sometimes\"") == true)
        #expect(bad.last?.contains("八月三十一") == true)
    }

    /// An unreadable repeat, lunar day, alert or time stamp stays on the day (X-ALMANAC-INVALID-…,
    /// as unreadable dates do) and goes back into its column: a table read and written again keeps
    /// what was typed. (Until 2026-11, only dates, times and ends were kept; the rest was warned
    /// about and then lost.)
    @Test func unreadableCellsOfEveryRoleAreKept() throws {
        let csv = "name,date,repeat,lunar\r\nA,2025-01-01,sometimes,\r\nB,2025-10-06,每年（農曆）,八月三十一\r\n"
        let ics = try Self.convert(Array(csv.utf8), from: "csv", to: "ics").text
        #expect(ics.contains("X-ALMANAC-INVALID-REPEAT;X-COLUMN=repeat;X-ROLE=repeat:sometimes"))
        #expect(ics.contains("X-ALMANAC-INVALID-LUNAR;X-COLUMN=lunar;X-ROLE=lunar:八月三十一"))
        func viaAgenda(_ csv: String, _ options: [String: String]) throws -> String {
            let result = try Run.run(.standardInput(Array(csv.utf8)), from: "csv", to: "csv", via: .agenda,
                                     context: CodecContext(timeZone: .taipei, options: CodecOptions(options)))
            return String(decoding: result.bytes, as: UTF8.self)
        }
        let again = try viaAgenda(csv, ["style": "iso"])
        #expect(again.contains(",sometimes,"), "\(again)")
        #expect(again.contains(",八月三十一"), "\(again)")
        let iso = "uid,title,date,alert,created\r\nu1,A,2025-01-01,soon,yesterday\r\n"
        let written = try viaAgenda(iso, ["style": "iso"])
        #expect(written.contains("soon") && written.contains("yesterday"), "\(written)")
    }
}
