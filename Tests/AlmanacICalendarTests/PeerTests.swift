@testable import AlmanacICalendar
@testable import AlmanacCalendar
import AlmanacCore
import AlmanacICU
import AlmanacTestSupport
import Foundation
import Testing

/// Side by side with libical 3 (through a small C program) and Python's recurring-ical-events.
/// `.ci/run` installs both; elsewhere the tests say what to install.
@Suite(.enabled(if: Peers.available || ProcessInfo.processInfo.environment["ALMANAC_REQUIRE_PEERS"] != nil,
                "needs libical-dev, a C compiler and: pip install icalendar recurring-ical-events"))
struct PeerTests {
    static let window = (from: "2024-01-01", until: "2027-01-01")
    static let comparedFixtures = ["google-export.ics", "outlook-export.ics", "rules-sampler.ics", "bench-300.ics"]

    @Test(arguments: WriterTests.fixtures + ["bench-300.ics", "rules-sampler.ics"])
    func libicalParsesWhatWeWrite(name: String) throws {
        let written = try write(try readFixture(name).agenda)
        let path = NSTemporaryDirectory() + "almanac-\(UUID().uuidString).ics"
        try Data(written).write(to: URL(fileURLWithPath: path))
        let result = ExternalCommand.run([try Peers.libical(), "check", path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.hasPrefix("errors 0 "))
    }

    /// Ours against each peer, for every item where the two peers agree with each other.
    @Test(arguments: comparedFixtures)
    func expansionsAgreeWhereThePeersAgree(name: String) throws {
        let path = fixturePath(name)
        let libical = Peers.group(ExternalCommand.run([try Peers.libical(), "expand", path, "20240101T000000Z", "20270101T000000Z"]).output)
        let python = Peers.group(ExternalCommand.run(["python3", Peers.directory + "/rie-peer.py", path, Self.window.from, Self.window.until]).output)
        let agenda = try readFixture(name, options: ["x-wr-timezone": "ignore"]).agenda
        let expander = OccurrenceExpander(agenda: agenda, definitions: VTimeZoneReader())
        let from = instant("2024-01-01T00:00:00Z"), until = instant("2027-01-01T00:00:00Z")
        let withOverrides = Peers.group(expander.occurrences(from: from, until: until).occurrences.map { Peers.form($0) })
        var mastersOnly: [String: [String]] = [:]
        for (index, item) in agenda.items.enumerated() where item.recurrenceID == nil {
            let occurrences = expander.expand(index, overrides: [], from: from, until: until).occurrences
            if !occurrences.isEmpty { mastersOnly[item.uid, default: []] += occurrences.map { Peers.form($0).1 } }
        }
        var compared = 0
        for uid in Set(libical.keys).union(python.keys) {
            // libical leaves overrides out; compare it only on items that have none.
            let hasOverrides = agenda.items.contains { $0.uid == uid && $0.recurrenceID != nil }
            guard !hasOverrides, libical[uid] == python[uid] else { continue }
            #expect(mastersOnly[uid]?.sorted() == libical[uid], "\(uid)")
            compared += 1
        }
        for (uid, occurrences) in python where agenda.items.contains(where: { $0.uid == uid && $0.recurrenceID != nil }) {
            #expect(withOverrides[uid] == occurrences, "\(uid)")
        }
        #expect(compared > 0)
    }
}

enum Peers {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Peers").path

    static var available: Bool {
        ExternalCommand.run(["pkg-config", "--exists", "libical"]).status == 0
            && ExternalCommand.run(["python3", "-c", "import recurring_ical_events"]).status == 0
    }

    /// Compiles the libical peer once per test run (a static let initializes once, even in parallel).
    static func libical() throws -> String {
        switch compiled {
        case .success(let binary): return binary
        case .failure(let error): throw error
        }
    }

    private static let compiled: Result<String, PeerError> = {
        let binary = NSTemporaryDirectory() + "almanac-libical-peer-\(UUID().uuidString)"
        let flags = ExternalCommand.run(["pkg-config", "--cflags", "--libs", "libical"]).output
            .split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        let result = ExternalCommand.run(["cc", "-O2", "-o", binary, directory + "/libical-peer.c"] + flags)
        return result.status == 0 ? .success(binary) : .failure(PeerError(message: result.output))
    }()

    struct PeerError: Error { let message: String }

    /// "UID<TAB>START" lines grouped by UID, sorted.
    static func group(_ output: String) -> [String: [String]] {
        group(output.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\t")
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        })
    }

    static func group(_ pairs: [(String, String)]) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for (uid, start) in pairs { result[uid, default: []].append(start) }
        return result.mapValues { $0.sorted() }
    }

    /// An occurrence in the peers' notation.
    static func form(_ occurrence: Occurrence) -> (String, String) {
        switch occurrence.start {
        case .date(let date): (occurrence.uid, "D:\(date)")
        case .floating(let time): (occurrence.uid, "F:\(BasicDateTime.basic(time))")
        case .zoned, .utc, .offset:
            (occurrence.uid, "U:\(BasicDateTime.basic(CivilDateTime(secondsSinceEpoch: Int(occurrence.startInstant.timeIntervalSince1970))))Z")
        }
    }
}
