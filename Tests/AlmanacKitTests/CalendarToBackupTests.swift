import AlmanacCore
import AlmanacICU
import AlmanacKit
import AlmanacTestSupport
import Foundation
import Testing

/// Calendars into the apps' backups and back: places, times and alarms as the apps mean them,
/// and 知习's plan from any calendar.
@Suite struct CalendarToBackupTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path

    static func json(_ bytes: [UInt8]) throws -> JSONValue { try JSONValue(parsing: bytes) }

    static func member(_ value: JSONValue?, _ path: String...) -> JSONValue? {
        var current = value
        for key in path {
            if let index = Int(key) { current = current?.array.flatMap { index < $0.count ? $0[index] : nil } } else {
                current = current?.object?.first { $0.0 == key }?.1
            }
        }
        return current
    }

    /// iOS writes "remind me when I leave Taipei 101" as a location alarm; the Reminders backup
    /// keeps the place, its coordinates and the proximity, and nothing about it is reported lost.
    @Test func appleLocationAlarmsBecomeTheRemindersPlace() throws {
        let context = CodecContext(timeZone: .taipei, options: ["exported-at": "2025-11-20T08:00:00Z"])
        let result = try ConversionTests.run(.file(Self.fixtures + "/apple-location-reminders.ics"), to: "reminders-backup", context: context)
        let backup = try Self.json(result.bytes)
        let place = Self.member(backup, "lists", "0", "reminders", "0", "location")
        #expect(Self.member(place, "name") == .string("Taipei 101"))
        #expect(Self.member(place, "latitude") == .number(25.033964))
        #expect(Self.member(place, "longitude") == .number(121.564468))
        #expect(Self.member(place, "proximity") == .string("leaving"))
        // The event's coordinates come from Apple's structured location; its text keeps its lines.
        let dinner = Self.member(backup, "lists", "0", "reminders", "1")
        #expect(Self.member(dinner, "location", "latitude") == .number(25.03349))
        #expect(Self.member(dinner, "location", "name") == .string("鼎泰豐 信義店\nNo. 194 Section 2 Xinyi Road, Da'an District"))
        #expect(Self.member(dinner, "time") == .string("18:30"))
        // The half-hour-before alarm and the end of the dinner have no place in a reminder: named.
        let losses = result.report.diagnostics.filter { Losses.codes.contains($0.code) }
        #expect(losses.map { $0.message.arguments[1] } == ["alarms", "end"])
        #expect(losses.allSatisfy { $0.message.arguments.last == "“家庭聚餐”" })
    }

    /// The Reminders example through iCalendar and back: the same file, with the location alarm
    /// and the timed reminder's alert written as Apple writes them.
    @Test func remindersThroughICalendarAndBack() throws {
        let ics = try ConversionTests.run(.file(ConversionTests.examplePath("reminders-backup.json")), to: "ics")
        let text = String(decoding: ics.bytes, as: UTF8.self)
        #expect(text.contains("X-APPLE-PROXIMITY:ARRIVE\r\n"))
        #expect(text.contains("TRIGGER;VALUE=DATE-TIME:19760401T005545Z\r\n"))
        #expect(text.contains("TRIGGER;RELATED=END:PT0S\r\n"))
        #expect(ics.report.diagnostics.isEmpty)
        let original = try Data(contentsOf: URL(fileURLWithPath: ConversionTests.examplePath("reminders-backup.json")))
        let exportedAt = try #require(Self.member(try Self.json(Array(original)), "exportedAt")?.string)
        let back = try ConversionTests.run(.standardInput(ics.bytes), from: "ics", to: "reminders-backup",
                                           context: CodecContext(options: ["exported-at": exportedAt]))
        #expect(back.report.diagnostics.isEmpty, "\(back.report.diagnostics)")
        #expect(String(decoding: back.bytes, as: UTF8.self) == String(decoding: original, as: UTF8.self))
    }

    /// A to-do due at 01:30 UTC is due at 09:30 in Taipei and 20:30 the day before in New York.
    @Test func dueTimesAreTheReadersWallTime() throws {
        let ics = Array("""
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//Test//EN\r
            BEGIN:VTODO\r
            UID:rent\r
            DTSTAMP:20251120T000000Z\r
            SUMMARY:Pay rent\r
            DUE:20251125T013000Z\r
            END:VTODO\r
            END:VCALENDAR\r

            """.utf8)
        for (zone, date, time) in [("Asia/Taipei", "2025-11-25", "09:30"), ("America/New_York", "2025-11-24", "20:30")] {
            let result = try ConversionTests.run(.standardInput(ics), from: "ics", to: "reminders-backup",
                                                 context: CodecContext(timeZone: try TimeZoneID(zone)))
            let reminder = Self.member(try Self.json(result.bytes), "lists", "0", "reminders", "0")
            #expect(Self.member(reminder, "date") == .string(date))
            #expect(Self.member(reminder, "time") == .string(time))
        }
    }

    /// Any calendar becomes 知习's plan; 知习's own backup comes back with its tasks and reviews
    /// whole (the knowledge items' contents are not in a calendar, and that is said on the way out).
    @Test func calendarsBecomeZhiXiPlans() throws {
        let example = ConversionTests.examplePath("zhixi-backup.json")
        let ics = try ConversionTests.run(.file(example), to: "ics")
        #expect(ics.report.diagnostics.map { $0.message.arguments[1] } == ["studyRecords", "libraries.items", "settings", "achievements"])
        let back = try ConversionTests.run(.standardInput(ics.bytes), from: "ics", to: "zhixi-backup",
                                           context: CodecContext(timeZone: .shanghai))
        #expect(back.report.status == .converted)
        #expect(back.report.diagnostics.isEmpty, "\(back.report.diagnostics)")
        let original = try Self.json(Array(try Data(contentsOf: URL(fileURLWithPath: example))))
        let restored = try Self.json(back.bytes)
        for key in ["studyTasks", "reviewTasks"] {
            #expect(Self.member(restored, key) == Self.member(original, key), "\(key)")
        }
        #expect(Self.member(restored, "libraries", "0", "items", "0", "title") == .string("洛必达法则"))

        // Google's export: events become study tasks with their length; what 知习 has no field
        // for is named, item by item.
        let google = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../AlmanacICalendarTests/Fixtures/google-export.ics").standardized.path
        let plan = try ConversionTests.run(.file(google), to: "zhixi-backup", context: CodecContext(timeZone: .taipei))
        #expect(plan.report.status == .converted)
        let tasks = Self.member(try Self.json(plan.bytes), "studyTasks")?.array ?? []
        #expect(!tasks.isEmpty)
        #expect(tasks.allSatisfy { Self.member($0, "date")?.string?.count == 10 })
        let fields = Set(plan.report.diagnostics.filter { Losses.codes.contains($0.code) }.map { $0.message.arguments[1] })
        #expect(fields.isSuperset(of: ["location", "start.time", "recurrence.rules"]))
    }

    /// A calendar cannot become a JellySave backup; the message says what it holds instead.
    @Test func refusalsSayWhy() throws {
        let result = try ConversionTests.run(.file(ConversionTests.examplePath("retiretime-backup.json")), to: "jellysave-backup")
        let error = try #require(result.report.diagnostics.first { $0.severity == .error })
        #expect(error.code == "convert.model-mismatch" || error.code == "backup.not-a-ledger")
        #expect(!error.message.rendered().contains(": ."))
        #expect(!error.message.rendered().contains("%"))
        #expect(!error.message.arguments.contains(""))
    }

    /// ledger-json keeps what JellySave wrote: time stamps with their offsets, goals' creation
    /// times and snapshot ids.
    @Test func ledgersKeepTimesAndIDs() throws {
        let example = ConversionTests.examplePath("jellysave-backup.json")
        let ledger = try ConversionTests.run(.file(example), to: "ledger-json")
        let back = try ConversionTests.run(.standardInput(ledger.bytes), from: "ledger-json", to: "jellysave-backup")
        let original = try Self.json(Array(try Data(contentsOf: URL(fileURLWithPath: example))))
        let restored = try Self.json(back.bytes)
        #expect(Self.member(restored, "snapshots")?.array?.map { Self.member($0, "id") } == Self.member(original, "snapshots")?.array?.map { Self.member($0, "id") })
        #expect(Self.member(restored, "goals")?.array?.map { Self.member($0, "createdAt") }
                == Self.member(original, "goals")?.array?.map { Self.member($0, "createdAt") })
        #expect(Self.member(restored, "accounts")?.array?.map { Self.member($0, "updatedAt") }
                == Self.member(original, "accounts")?.array?.map { Self.member($0, "updatedAt") })
        #expect(Self.member(original, "goals", "0", "createdAt") != nil)
    }
}
