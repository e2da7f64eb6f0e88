@testable import AlmanacICalendar
import AlmanacCore
import AlmanacTestSupport
import Foundation
import Testing

/// Every calendar in the repository (fixtures of every test target, the real calendars, the
/// examples) converted ics → ics, ics → jCal → ics and ics → xCal → ics expands to the same
/// occurrences as the original, as recurring-ical-events (a different reader and expander)
/// sees them. Needs the Python peers `.ci/run` installs.
@Suite(.enabled(if: Peers.available || ProcessInfo.processInfo.environment["ALMANAC_REQUIRE_PEERS"] != nil,
                "needs: pip install icalendar recurring-ical-events"))
struct MeaningTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every `.ics` in the repository's tests and examples.
    static let calendars: [String] = {
        var found: [String] = []
        for folder in ["Tests", "Examples"] {
            let base = root.appendingPathComponent(folder).path
            let names = (FileManager.default.enumerator(atPath: base)?.allObjects as? [String]) ?? []
            found += names.filter { $0.hasSuffix(".ics") && !$0.contains(".build/") }.map { base + "/" + $0 }
        }
        return found.sorted()
    }()

    /// Where the original and the conversions are expected to differ, and why.
    /// Here Almanac reads the original differently from icalendar, so the conversions (which
    /// write what Almanac read) differ from the peer's reading of the original.
    static let differences: [String: String] = [
        // `DTSTART;TZID=Europe/London:20130803T200000Z`: a UTC time with a TZID. RFC 5545 forbids
        // the TZID on a UTC value; Almanac (and libical) read the Z, icalendar reads the wall time.
        "Tests/AlmanacICalendarTests/Fixtures/real/x-wr-timezone/rdate-hackerpublicradio.out.ics": "UTC value with TZID",
        "Tests/AlmanacICalendarTests/Fixtures/real/x-wr-timezone/single-event-x-wr-timezone-not-used.in.ics": "UTC value with TZID",
        // `RRULE:…;COUNT=-1`: not a rule RFC 5545 allows. Almanac keeps it as written
        // (X-ALMANAC-INVALID-RRULE, with ics.invalid-rrule) instead of guessing; icalendar
        // expands it as if COUNT were absent.
        "Tests/AlmanacICalendarTests/Fixtures/real/recurring-ical-events/issue_128_only_first_event.ics": "COUNT=-1",
    ]

    @Test func conversionsKeepTheOccurrences() throws {
        let directory = NSTemporaryDirectory() + "almanac-meaning-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var manifest: [[String: Any]] = []
        var refused = 0
        var unwritable: [String] = []
        for (index, path) in Self.calendars.enumerated() {
            guard let decoded = try? ICalendarCodec().decode(CodecInput(contentsOf: path), context: CodecContext()) else {
                refused += 1
                continue
            }
            var variants: [String: String] = [:]
            func save(_ label: String, _ bytes: [UInt8]) throws {
                let file = directory + "/\(index)-\(label).ics"
                try Data(bytes).write(to: URL(fileURLWithPath: file))
                variants[label] = file
            }
            try save("ics", try ICalendarCodec().encode(decoded.document, context: CodecContext()).bytes)
            for codec in [JCalCodec(), XCalCodec()] as [any Codec] {
                // XML 1.0 cannot hold some control characters (U+000C in icalendar's fuzz case
                // `fuzz_testcase_vtimezone_lone_cr`): refused with xml.unwritable, not converted.
                guard let bytes = try? codec.encode(decoded.document, context: CodecContext()).bytes else {
                    unwritable.append(path)
                    continue
                }
                let back = try codec.decode(CodecInput(bytes: bytes, fileName: "x"), context: CodecContext())
                try save(codec.format.id + "-ics", try ICalendarCodec().encode(back.document, context: CodecContext()).bytes)
            }
            manifest.append(["name": String(path.dropFirst(Self.root.path.count + 1)), "original": path, "variants": variants])
        }
        let manifestPath = directory + "/manifest.json"
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: manifestPath))
        let run = ExternalCommand.run(["python3", Peers.directory + "/rie-meaning.py", manifestPath], mergingErrors: false)
        #expect(run.status == 0, "\(run.output)")
        let results = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: [String: Any]])
        var compared = 0, occurrences = 0
        for (name, result) in results.sorted(by: { $0.key < $1.key }) {
            let status = result["status"] as? String
            if status == "original-unreadable" { continue }
            compared += 1
            occurrences += result["count"] as? Int ?? 0
            if let reason = Self.differences[name] {
                #expect(status == "differs", "\(name) now keeps its meaning; remove it from the list (\(reason))")
            } else {
                #expect(status == "same", "\(name): \(result["detail"] ?? "")")
            }
        }
        // Most calendars are compared, with many occurrences.
        #expect(compared > 200, "compared \(compared), refused \(refused)")
        #expect(occurrences > 5_000)
        #expect(unwritable.map { URL(fileURLWithPath: $0).lastPathComponent } == ["calendars--fuzz_testcase_vtimezone_lone_cr.ics"])
    }
}
