import AlmanacICU
import Foundation
import Testing

/// Expected values: the IANA tz database (offsets, the 2025 US transitions on 9 March and
/// 2 November), CLDR's windowsZones.xml (Windows names), RFC 5545 §3.3.5 (gap and overlap rules).
@Suite struct TimeZoneTests {
    @Test func canonicalIDsAndAliases() throws {
        #expect(try TimeZoneID("Asia/Taipei").identifier == "Asia/Taipei")
        #expect(try TimeZoneID("ROC").identifier == "Asia/Taipei")
        #expect(try TimeZoneID("Asia/Chongqing").identifier == "Asia/Shanghai")
        #expect(try TimeZoneID("US/Eastern").identifier == "America/New_York")
        let error = #expect(throws: ICUError.self) { try TimeZoneID("Mars/Olympus_Mons") }
        #expect(error?.kind == .unknownTimeZone)
        #expect(TimeZoneID.all.count > 300)
        #expect(TimeZoneID.all.contains(.taipei))
    }

    @Test(arguments: [
        ("Taipei Standard Time", "Asia/Taipei"),
        ("China Standard Time", "Asia/Shanghai"),
        ("Eastern Standard Time", "America/New_York"),
        ("Tokyo Standard Time", "Asia/Tokyo"),
        ("GMT Standard Time", "Europe/London"),
        ("UTC", "Etc/UTC"),
    ])
    func windowsNames(windows: String, iana: String) throws {
        #expect(try TimeZoneID(windowsName: windows).identifier == iana)
    }

    @Test func windowsNameForARegionAndBack() throws {
        #expect(try TimeZoneID(windowsName: "China Standard Time", region: "HK").identifier == "Asia/Hong_Kong")
        #expect(TimeZoneID.taipei.windowsName == "Taipei Standard Time")
        #expect(throws: ICUError.self) { try TimeZoneID(windowsName: "Atlantis Standard Time") }
    }

    @Test(arguments: [
        ("Asia/Taipei", "Asia/Taipei", TimeZoneID.Resolution.iana),
        ("\"Taipei Standard Time\"", "Asia/Taipei", .windows),
        ("(UTC+08:00) Taipei", "Asia/Taipei", .windowsDisplayName),
        ("(UTC+08:00) Beijing, Chongqing, Hong Kong, Urumqi", "Asia/Shanghai", .windowsDisplayName),
        ("(UTC-05:00) Eastern Time (US & Canada)", "America/New_York", .windowsDisplayName),
        ("(GMT+09:00) Osaka, Sapporo, Tokyo", "Asia/Tokyo", .windowsDisplayName),
        ("/freeassociation.sourceforge.net/Tzfile/Asia/Taipei", "Asia/Taipei", .prefixed),
        ("/mozilla.org/20050126_1/America/New_York", "America/New_York", .prefixed),
        ("/softwarestudio.org/Olson_20011030_5/Asia/Shanghai", "Asia/Shanghai", .prefixed),
        ("GMT+08:00", "Etc/GMT-8", .fixedOffset),
        ("UTC-5", "Etc/GMT+5", .fixedOffset),
    ])
    func resolvesRealWorldNames(name: String, iana: String, how: TimeZoneID.Resolution) throws {
        let resolved = try #require(TimeZoneID.resolve(name))
        #expect(resolved.zone.identifier == iana)
        #expect(resolved.resolution == how)
    }

    @Test func unresolvableNames() {
        #expect(TimeZoneID.resolve("Customized Time Zone") == nil)
        #expect(TimeZoneID.resolve("(UTC+03:00) Taipei") == nil)  // the offset contradicts the city
        #expect(TimeZoneID.resolve("") == nil)
    }

    @Test func offsets() throws {
        let july = Date(timeIntervalSince1970: 1_751_328_000)  // 2025-07-01T00:00Z
        #expect(TimeZoneID.taipei.offset(at: july).totalSeconds == 8 * 3600)
        let newYork = TimeZoneID.newYork.offset(at: july)
        #expect(newYork.totalSeconds == -4 * 3600)
        #expect(newYork.isDaylightSaving)
        #expect(newYork.description == "-04:00")
        #expect(newYork.basic == "-0400")
        #expect(try TimeZoneID("Asia/Kathmandu").offset(at: july).description == "+05:45")
    }

    @Test func transitions() throws {
        let start = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01T00:00Z
        let next = try #require(TimeZoneID.newYork.nextTransition(after: start))
        #expect(next == Date(timeIntervalSince1970: 1_741_503_600))  // 2025-03-09T07:00Z = 02:00 EST
        #expect(TimeZoneID.taipei.nextTransition(after: start) == nil)
    }

    @Test func wallTimeInAGap() throws {
        // 2025-03-09 02:30 does not exist in New York.
        let time = try CivilDateTime(date: CivilDate(year: 2025, month: 3, day: 9), hour: 2, minute: 30)
        #expect(TimeZoneID.newYork.wallTimeKind(time) == .skipped)
        // RFC 5545: read with the offset before the gap (EST, -5): 07:30Z, which is 03:30 EDT.
        #expect(try TimeZoneID.newYork.instant(for: time, gap: .shiftForward) == Date(timeIntervalSince1970: 1_741_505_400))
        #expect(try TimeZoneID.newYork.instant(for: time, gap: .nextValidTime) == Date(timeIntervalSince1970: 1_741_503_600))
        #expect(try TimeZoneID.newYork.instant(for: time, gap: .shiftBackward) == Date(timeIntervalSince1970: 1_741_501_800))
        let error = #expect(throws: ICUError.self) { try TimeZoneID.newYork.instant(for: time, gap: .reject) }
        #expect(error?.kind == .nonexistentTime)
    }

    @Test func wallTimeInAnOverlap() throws {
        // 2025-11-02 01:30 happens twice in New York: 05:30Z (EDT) and 06:30Z (EST).
        let time = try CivilDateTime(date: CivilDate(year: 2025, month: 11, day: 2), hour: 1, minute: 30)
        #expect(TimeZoneID.newYork.wallTimeKind(time) == .repeated)
        #expect(try TimeZoneID.newYork.instant(for: time, overlap: .earlier) == Date(timeIntervalSince1970: 1_762_061_400))
        #expect(try TimeZoneID.newYork.instant(for: time, overlap: .later) == Date(timeIntervalSince1970: 1_762_065_000))
        let error = #expect(throws: ICUError.self) { try TimeZoneID.newYork.instant(for: time, overlap: .reject) }
        #expect(error?.kind == .ambiguousTime)
    }

    @Test func ordinaryWallTime() throws {
        let time = try CivilDateTime(date: CivilDate(year: 2025, month: 3, day: 5), hour: 14, minute: 30)
        #expect(TimeZoneID.taipei.wallTimeKind(time) == .normal)
        let instant = try TimeZoneID.taipei.instant(for: time)
        #expect(instant == Date(timeIntervalSince1970: 1_741_156_200))
        #expect(TimeZoneID.taipei.wallTime(at: instant) == time)
    }

    @Test func displayNames() throws {
        #expect(TimeZoneID.taipei.displayName(in: .taiwan) == "台北標準時間")
        #expect(TimeZoneID.shanghai.displayName(in: .english) == "China Standard Time")
    }

    /// The machine's zone, found as POSIX programs find it.
    @Test func systemZone() throws {
        let missing = "/nonexistent/almanac"
        #expect(TimeZoneID.system(environment: "Asia/Taipei", localtime: missing, timezoneFile: missing) == .taipei)
        #expect(TimeZoneID.system(environment: ":Asia/Shanghai", localtime: missing, timezoneFile: missing) == .shanghai)
        #expect(TimeZoneID.system(environment: "/usr/share/zoneinfo/America/New_York", localtime: missing, timezoneFile: missing) == .newYork)
        #expect(TimeZoneID.system(environment: nil, localtime: missing, timezoneFile: missing) == .utc)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-tz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = folder.appendingPathComponent("localtime").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/usr/share/zoneinfo/Asia/Taipei")
        #expect(TimeZoneID.system(environment: nil, localtime: link, timezoneFile: missing) == .taipei)
        // A TZ Almanac cannot read (a POSIX rule) falls back to the link; Debian's /etc/timezone after it.
        #expect(TimeZoneID.system(environment: "CST-8", localtime: link, timezoneFile: missing) == .taipei)
        let file = folder.appendingPathComponent("timezone").path
        try Data("Asia/Shanghai\n".utf8).write(to: URL(fileURLWithPath: file))
        #expect(TimeZoneID.system(environment: "", localtime: missing, timezoneFile: file) == .shanghai)
    }
}
