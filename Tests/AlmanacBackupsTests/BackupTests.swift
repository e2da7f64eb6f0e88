@testable import AlmanacBackups
import AlmanacCore
import AlmanacICU
import AlmanacTestSupport
import Foundation
import Testing

let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path
let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path
let formats = ["retiretime", "jellysave", "zhixi", "reminders"]

func codec(_ name: String) -> BackupCodec { BackupCodec(id: name + "-backup")! }

func example(_ name: String) -> String { repository + "/Examples/\(name)-backup.json" }

func decode(_ name: String, path: String? = nil) throws -> Decoded {
    try codec(name).decode(CodecInput(contentsOf: path ?? example(name)), context: CodecContext())
}

func backupDocument(_ decoded: Decoded) throws -> BackupDocument {
    guard case .backup(let backup) = decoded.document else { throw Diagnostic(.error, Message(code: "test.not-a-backup", text: "not a backup")) }
    return backup
}

@Suite struct BackupTests {
    /// Backup timestamps carry the offset the zone had at that moment: across a spring-forward
    /// gap, and for both occurrences of a fall-back night's repeated hour (a UTC time in the
    /// second one was written an hour early, as the first).
    @Test func timestampsKeepTheirInstantAcrossClockChanges() throws {
        let newYork = try TimeZoneID("America/New_York")
        func utc(_ month: Int, _ day: Int, _ hour: Int, _ minute: Int) -> DateValue {
            .utc(CivilDateTime(unchecked: CivilDate(unchecked: 2025, month, day), hour, minute, 0))
        }
        #expect(utc(11, 2, 5, 30).timestamp(in: newYork) == "2025-11-02T01:30:00-04:00")
        #expect(utc(11, 2, 6, 30).timestamp(in: newYork) == "2025-11-02T01:30:00-05:00")
        #expect(utc(3, 9, 7, 0).timestamp(in: newYork) == "2025-03-09T03:00:00-04:00")
        let wall = CivilDateTime(unchecked: CivilDate(unchecked: 2025, 3, 9), 2, 30, 0)
        #expect(DateValue.zoned(wall, zone: "America/New_York").timestamp() == "2025-03-09T03:30:00-04:00")
        let repeated = CivilDateTime(unchecked: CivilDate(unchecked: 2025, 11, 2), 1, 30, 0)
        #expect(DateValue.floating(repeated).timestamp(in: newYork) == "2025-11-02T01:30:00-04:00")
        #expect(DateValue.date(CivilDate(unchecked: 2025, 6, 1)).timestamp(in: try TimeZoneID("Asia/Taipei")) == "2025-06-01T00:00:00+08:00")
    }

    @Test(arguments: formats)
    func conforms(name: String) {
        #expect(CodecConformance.problems(of: codec(name)) == [])
    }

    @Test(arguments: formats)
    func examplesRoundTripByteForByte(name: String) throws {
        let decoded = try decode(name)
        #expect(decoded.diagnostics.isEmpty, "\(decoded.diagnostics)")
        let bytes = try codec(name).encode(decoded.document, context: CodecContext()).bytes
        #expect(String(decoding: bytes, as: UTF8.self) == String(decoding: try Data(contentsOf: URL(fileURLWithPath: example(name))), as: UTF8.self))
    }

    /// A Retire Time backup built from its typed form has every object's members in the order
    /// they are written in (code points), with every optional field present: writing it sorts
    /// nothing, and a backup made from a calendar is canonical before it is written.
    @Test func retireTimeJSONIsBuiltInWritingOrder() throws {
        var backup = try RetireTimeBackup.read(backupDocument(try decode("retiretime")))
        backup.settings.language = "zh-Hant"
        backup.settings.timeZone = "Asia/Taipei"
        backup.settings.sortOrder = "date"
        backup.settings.accentColor = "#FF8800"
        backup.settings.backgroundImage = "sky"
        backup.settings.fontSize = "large"
        backup.settings.defaultReminder = .init(offsetDays: 1, time: "09:00")
        backup.categories.append(.init(id: "c-all", name: "全部", color: "#112233", icon: "star"))
        backup.days[0].lunarDate = .init(month: 8, day: 15, leap: false, skip: "backward")
        backup.days[0].reminder = .init(offsetDays: 3, time: "08:30")
        backup.days[0].notes = "note"
        backup.days[0].location = "台北"
        backup.days[0].categoryID = "c-all"
        backup.days[0].icon = "cake"
        backup.days[0].color = "#445566"
        backup.days[0].createdAt = "2025-01-01T08:00:00+08:00"
        backup.days[0].updatedAt = "2025-01-02T08:00:00+08:00"
        let json = backup.json
        #expect(BackupJSON.canonical(json) == json)
        #expect(json.object?.first { $0.0 == "days" }?.1.array?.first?.object?.count == 16)
    }

    /// An independent validator (Python's jsonschema) agrees that the examples follow the schemas,
    /// and that what Almanac writes from other data does too.
    @Test(.enabled(if: ExternalCommand.runs(["python3", "-c", "import jsonschema"]) || ExternalCommand.peersRequired,
                   "needs Python's jsonschema (pip install jsonschema)"), arguments: formats)
    func examplesValidateAgainstTheirSchemas(name: String) throws {
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            for path in sys.argv[2:]:
                jsonschema.Draft202012Validator(schema).validate(json.load(open(path)))
            print("valid")
            """
        var files = [example(name)]
        if name == "retiretime" {
            // A backup made from a calendar, and one migrated from version 1.
            let fromCalendar = NSTemporaryDirectory() + "almanac-\(UUID().uuidString).json"
            let agenda = try RetireTimeBackup.read(backupDocument(try decode(name))).calendar
            let (made, _) = RetireTimeBackup.make(from: agenda, context: CodecContext())
            try Data(BackupJSON.text(made.json).utf8).write(to: URL(fileURLWithPath: fromCalendar))
            let migrated = NSTemporaryDirectory() + "almanac-\(UUID().uuidString).json"
            let decoded = try decode(name, path: fixtures + "/retiretime-v1.json")
            try Data(try codec(name).encode(decoded.document, context: CodecContext()).bytes).write(to: URL(fileURLWithPath: migrated))
            files += [fromCalendar, migrated]
        }
        let result = ExternalCommand.run(["python3", "-c", script, repository + "/Schemas/\(name)-backup.schema.json"] + files)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func olderVersionsMigrate() throws {
        let rt = try decode("retiretime", path: fixtures + "/retiretime-v1.json")
        #expect(rt.diagnostics.map(\.code) == ["backup.migrated"])
        let days = try RetireTimeBackup.read(try backupDocument(rt))
        let mom = try #require(days.days.first)
        #expect(mom.calendar == "lunar")
        #expect(mom.lunarDate == .init(month: 8, day: 15, leap: false))
        #expect(mom.reminder == .init(offsetDays: 1, time: "09:00"))
        #expect(days.categories.map(\.name) == ["家人", "学习"])
        #expect(days.days.map(\.categoryID) == ["category-1", "category-2", "category-1"])

        let jelly = try JellySaveBackup.read(try backupDocument(try decode("jellysave", path: fixtures + "/jellysave-v1.json")))
        #expect(jelly.accounts.map(\.kind) == [.cash, .crypto])
        #expect(jelly.accounts.map(\.balance) == [Decimal(string: "1234567.5")!, Decimal(string: "0.0123")!])
        #expect(jelly.json.object?.first { $0.0 == "accounts" }?.1.array?.first?.object?.first { $0.0 == "balance" }?.1 == .string("1234567.5"))

        // Version 2 reads unchanged, without the version 3 fields; it is written as version 3.
        let two = try decode("jellysave", path: fixtures + "/jellysave-v2.json")
        #expect(two.diagnostics.map(\.code) == ["backup.migrated"])
        let migrated = try JellySaveBackup.read(try backupDocument(two))
        #expect(migrated.accounts.count == 6 && migrated.accounts.allSatisfy { $0.openingBalance == nil })
        #expect(migrated.theme == nil && migrated.snapshots.allSatisfy { $0.byKind == nil })
        #expect(migrated.json.object?.first { $0.0 == "version" }?.1 == .integer(3))
        // The current example has them.
        let three = try JellySaveBackup.read(try backupDocument(try decode("jellysave")))
        #expect(three.theme == "light")
        #expect(three.accounts.first { $0.id == "taishin" }?.openingBalance == Decimal(1_000_000))
        #expect(three.snapshots.last?.byKind?[.crypto] == Decimal(23700))
        // 知习 version 1 reads unchanged; version 2 has the library cards, mastery, weak points,
        // settings and achievements.
        let zhixiOne = try decode("zhixi", path: fixtures + "/zhixi-v1.json")
        #expect(zhixiOne.diagnostics.map(\.code) == ["backup.migrated"])
        let olderZhiXi = try ZhiXiBackup.read(try backupDocument(zhixiOne))
        #expect(olderZhiXi.libraries.allSatisfy { $0.emoji == nil && $0.tags.isEmpty } && olderZhiXi.settings == nil && olderZhiXi.achievements.isEmpty)
        #expect(olderZhiXi.json.object?.first { $0.0 == "version" }?.1 == .integer(2))
        let zhixi = try ZhiXiBackup.read(try backupDocument(try decode("zhixi")))
        let math = try #require(zhixi.libraries.first { $0.id == "math" })
        #expect(math.emoji == "📐" && math.color == "#5B8DEF" && math.progress == 40 && math.tags == ["考研", "数学"])
        #expect(math.items.first { $0.id == "taylor" }?.weakPoint == .init(score: 42, priority: "high"))
        #expect(zhixi.libraries.flatMap(\.items).first { $0.id == "abandon" }?.status == "mastered")
        #expect(zhixi.settings == .init(dailyGoalMinutes: 60, language: "zh-Hans"))
        #expect(zhixi.achievements.map(\.id) == ["streak-7", "first-feynman"])

        // Version 3's fields in a version 2 file are named as fields that version does not have.
        let early = try String(contentsOfFile: example("jellysave"), encoding: .utf8).replacingOccurrences(of: "\"version\": 3", with: "\"version\": 2")
        let refused = try codec("jellysave").decode(CodecInput(bytes: Array(early.utf8), fileName: "early.json"), context: CodecContext())
        let unknown = refused.diagnostics.filter { $0.code == "backup.unknown-field" }.compactMap { $0.location?.keyPath }
        #expect(unknown == ["/theme", "/accounts/0/openingBalance", "/accounts/2/openingBalance", "/accounts/5/openingBalance",
                            "/snapshots/4/byKind", "/snapshots/5/byKind"], "\(refused.diagnostics)")
    }

    /// Truncated, wrong types, a future version, duplicate ids: precise errors with JSON paths.
    @Test func corruptedBackupsAreReportedPrecisely() throws {
        let original = try String(contentsOfFile: example("retiretime"), encoding: .utf8)
        func problems(_ text: String) -> (thrown: Diagnostic?, found: [Diagnostic]) {
            do {
                let decoded = try codec("retiretime").decode(CodecInput(bytes: Array(text.utf8), fileName: "backup.json"), context: CodecContext())
                return (nil, decoded.diagnostics.filter { $0.severity == .error })
            } catch {
                return (error, [])
            }
        }
        let truncated = problems(String(original.prefix(original.count / 2)))
        #expect(truncated.thrown?.location?.file == "backup.json")
        #expect(truncated.thrown?.location?.line != nil)

        let wrongTypes = problems(original.replacingOccurrences(of: "\"date\": \"2019-05-20\"", with: "\"date\": 20190520")
            .replacingOccurrences(of: "\"pinned\": true", with: "\"pinned\": \"yes\"")
            .replacingOccurrences(of: "\"2026-06-13\"", with: "\"2026-02-30\""))
        let paths = wrongTypes.found.map { "\($0.code) \($0.location?.keyPath ?? "")" }
        #expect(paths.contains("backup.type /days/1/date"))
        #expect(paths.contains("backup.type /days/0/pinned"))
        #expect(paths.contains("backup.not-a-date /days/6/date"))

        let future = problems(original.replacingOccurrences(of: "\"version\": 3", with: "\"version\": 7"))
        #expect(future.thrown?.code == "backup.newer-version")
        #expect(future.thrown?.message.arguments == ["retiretime-backup", "7", "3"])

        let duplicate = problems(original.replacingOccurrences(of: "\"id\": \"wedding\"", with: "\"id\": \"mom-birthday\""))
        let duplicateError = try #require(duplicate.found.first { $0.code == "backup.duplicate-id" })
        #expect(duplicateError.location?.keyPath == "/days/1/id")
        #expect(duplicateError.message.arguments == ["mom-birthday", "/days/0/id"])

        let dangling = problems(original.replacingOccurrences(of: "\"categoryId\": \"work\"", with: "\"categoryId\": \"travel\""))
        #expect(dangling.found.map(\.code) == ["backup.unknown-reference"])
        let lunar = problems(original.replacingOccurrences(of: "\"day\": 15,\n        \"leap\": false,\n        \"month\": 8", with: "\"day\": 16,\n        \"leap\": false,\n        \"month\": 8"))
        #expect(lunar.found.map(\.code) == ["backup.lunar-mismatch"])
    }

    /// Every id used again is reported at its path with the first one's, for short lists
    /// (compared pairwise) and long ones (a dictionary) alike.
    @Test(arguments: [1, 5, 32, 33, 40, 200])
    func duplicateIDsNameTheFirstUse(count: Int) {
        var generator = SystemRandomNumberGenerator()
        let ids = (0..<count).map { index in (id: "day-\(Int.random(in: 0..<max(1, count * 2 / 3), using: &generator))", path: "/days/\(index)/id") }
        var expected: [String] = []
        for (index, entry) in ids.enumerated() {
            if let first = ids[..<index].first(where: { $0.id == entry.id }) { expected.append("\(entry.path) \(entry.id) \(first.path)") }
        }
        var reader = BackupReader(file: nil)
        reader.uniqueIDs(ids)
        #expect(reader.problems.map { "\($0.location?.keyPath ?? "") \($0.message.arguments.joined(separator: " "))" } == expected)
        #expect(reader.problems.allSatisfy { $0.code == "backup.duplicate-id" })
    }

    @Test func remindersAndRetireTimeShareDays() throws {
        let reminders = try backupDocument(try decode("reminders"))
        let context = CodecContext(options: ["exported-at": "2025-11-20T08:00:00Z"], targetFormat: RetireTimeBackup.format)
        let (days, warnings) = try BackupConverter().convert(.backup(reminders), to: .backup, context: context)
        let retire = try RetireTimeBackup.read(try backupDocument(Decoded(document: days)))
        #expect(retire.days.count == 4)
        #expect(retire.days.first { $0.id == "trash" }?.repeat == "weekly")
        #expect(retire.days.first { $0.id == "milk" }?.type == "countup")
        #expect(warnings.map(\.code).contains("convert.dropped"))  // locations have no place in Retire Time
        // And back: reminders keep their lists.
        let (back, _) = try BackupConverter().convert(.backup(reminders), to: .agenda, context: CodecContext())
        let (again, _) = try BackupConverter().convert(back, to: .backup,
                                                       context: CodecContext(options: ["exported-at": "2025-11-20T08:00:00Z"], targetFormat: RemindersBackup.format))
        let bytes = try codec("reminders").encode(again, context: CodecContext()).bytes
        #expect(String(decoding: bytes, as: UTF8.self) == String(decoding: try Data(contentsOf: URL(fileURLWithPath: example("reminders"))), as: UTF8.self))
    }

    @Test func jellySaveAsALedgerAndBack() throws {
        let backup = try backupDocument(try decode("jellysave"))
        let (ledger, warnings) = try BackupConverter().convert(.backup(backup), to: .ledger, context: CodecContext())
        #expect(warnings.map(\.code) == ["convert.dropped", "convert.dropped"])  // notification settings, the theme
        guard case .ledger(let books) = ledger else { Issue.record("not a ledger"); return }
        #expect(books.accounts.count == 6)
        #expect(books.accounts.first?.balance == Decimal(string: "1234567.50"))
        let (again, _) = try BackupConverter().convert(ledger, to: .backup, context: CodecContext(options: ["exported-at": "2025-11-20T22:00:00+08:00"]))
        let jelly = try JellySaveBackup.read(try backupDocument(Decoded(document: again)))
        #expect(jelly.goals.map(\.target) == [120000, 300000])
        #expect(jelly.snapshots.count == 6)
    }

    @Test func mergeKeepsTheNewestOfEachRecord() throws {
        var old = try RetireTimeBackup.read(try backupDocument(try decode("retiretime")))
        var new = old
        new.days[0].name = "媽媽生日（新）"
        new.days[0].updatedAt = "2025-11-01T08:00:00+08:00"   // newer than the old one
        old.days[1].notes = "old note"
        old.days[1].updatedAt = "2025-11-15T08:00:00+08:00"   // the existing one is newer
        new.days[1].updatedAt = "2025-01-01T08:00:00+08:00"
        new.days.removeLast()                                 // only in the old backup
        new.days.append(.init(id: "new-day", name: "新的一天", date: try CivilDate(year: 2026, month: 1, day: 1), calendar: "gregorian",
                              lunarDate: nil, type: "countdown", repeat: "none", reminder: nil, notes: nil, categoryID: nil, icon: nil,
                              color: nil, pinned: false, createdAt: nil, updatedAt: nil))
        let (merged, summary) = try BackupMerge.merge(existing: old.document, incoming: new.document)
        #expect(summary.added == 1)
        #expect(summary.updated == 1)
        #expect(summary.keptNewer == 1)
        #expect(summary.keptExisting == 1)
        let result = try RetireTimeBackup.read(merged)
        #expect(result.days.first?.name == "媽媽生日（新）")
        #expect(result.days[1].notes == "old note")
        #expect(result.days.map(\.id).contains("grad"))
        #expect(result.days.last?.id == "new-day")
    }
}

/// Restoring into a backup: what wins when both sides have a record, and how records from another
/// source (other ids) find theirs.
@Suite struct BackupMergeTests {
    /// A reminder restored without `updatedAt` does not replace one edited on 2025-12-01; two
    /// records with no time stamp (or the same) keep what is there.
    @Test func undatedAndTiedRecordsKeepWhatIsThere() throws {
        let old = try RemindersBackup.read(try backupDocument(try decode("reminders")))
        var existing = old
        existing.lists[0].reminders[0].title = "edited on the phone"
        existing.lists[0].reminders[0].updatedAt = "2025-12-01T09:00:00+08:00"
        existing.lists[0].reminders[1].updatedAt = nil
        existing.lists[0].reminders[1].notes = "local note"
        var incoming = old
        incoming.lists[0].reminders[0].updatedAt = nil
        incoming.lists[0].reminders[1].updatedAt = nil
        incoming.lists[0].reminders[1].notes = "restored note"
        let (merged, summary) = try BackupMerge.merge(existing: existing.document, incoming: incoming.document)
        let result = try RemindersBackup.read(merged)
        #expect(result.lists[0].reminders[0].title == "edited on the phone")
        #expect(result.lists[0].reminders[1].notes == "local note")
        #expect(summary.updated == 0)
        #expect(summary.keptNewer == 1)
        #expect(summary.keptTied == 1)
        #expect(summary.added == 0)
        // A dated incoming record does replace an undated one.
        incoming.lists[0].reminders[1].updatedAt = "2025-11-30T09:00:00+08:00"
        let (again, second) = try BackupMerge.merge(existing: existing.document, incoming: incoming.document)
        #expect(try RemindersBackup.read(again).lists[0].reminders[1].notes == "restored note")
        #expect(second.updated == 1)
    }

    /// The same days from another source (other ids: a calendar app's UIDs, its own category ids)
    /// match by name + date + type and category name: nothing is duplicated, the existing ids stay,
    /// and the days point at the existing categories.
    @Test func recordsFromElsewhereMatchByNaturalKey() throws {
        let existing = try RetireTimeBackup.read(try backupDocument(try decode("retiretime")))
        var incoming = existing
        incoming.categories = incoming.categories.enumerated().map { index, category in
            var category = category
            category.id = "category-\(index + 1)"
            return category
        }
        incoming.days = incoming.days.enumerated().map { index, day in
            var day = day
            day.id = "\(index)@google.com"
            day.categoryID = day.categoryID.flatMap { id in existing.categories.firstIndex { $0.id == id }.map { "category-\($0 + 1)" } }
            return day
        }
        incoming.days[0].notes = "from Google"
        incoming.days[0].updatedAt = "2025-12-01T09:00:00+08:00"
        let (merged, summary) = try BackupMerge.merge(existing: existing.document, incoming: incoming.document)
        let result = try RetireTimeBackup.read(merged)
        #expect(result.days.count == existing.days.count)
        #expect(result.categories.map(\.id) == existing.categories.map(\.id))
        #expect(result.days.map(\.id) == existing.days.map(\.id))
        #expect(result.days.map(\.categoryID) == existing.days.map(\.categoryID))
        #expect(result.days[0].notes == "from Google")
        #expect(summary.added == 0)
        #expect(summary.matchedByID == 0)
        #expect(summary.matchedByKey.map(\.collection) == ["/categories", "/days"])
        #expect(summary.matchedByKey.last?.key == ["name", "date", "type"])
        #expect(summary.matchedByKey.last?.names.count == existing.days.count)

        // The note says which rule matched which records.
        let (_, notes) = try BackupCodec(id: "retiretime-backup")!.merge(existing: .backup(existing.document),
                                                                       incoming: .backup(incoming.document), context: CodecContext())
        let byKey = notes.filter { $0.code == "backup.matched-by-key" }.map { $0.rendered() }
        #expect(byKey.last?.contains("/days: 9 record(s) had another id and matched an existing one by name + date + type") == true)
        #expect(byKey.last?.contains("“媽媽生日”") == true)
    }

    /// Accounts match by name + kind; their balance changes follow them and are not duplicated.
    @Test func accountsMatchByNameAndKind() throws {
        let existing = try JellySaveBackup.read(try backupDocument(try decode("jellysave")))
        var incoming = existing
        incoming.accounts = incoming.accounts.map { account in
            var account = account
            account.id = "other-" + account.id
            return account
        }
        incoming.balanceChanges = incoming.balanceChanges.map { change in
            var change = change
            change.id = "other-" + change.id
            change.accountID = "other-" + change.accountID
            return change
        }
        // One account of the same name but another kind is another account.
        incoming.accounts[0].kind = .stock
        let (merged, summary) = try BackupMerge.merge(existing: existing.document, incoming: incoming.document)
        let result = try JellySaveBackup.read(merged)
        #expect(result.accounts.count == existing.accounts.count + 1)
        #expect(result.accounts.last?.id == "other-" + existing.accounts[0].id)
        let changesOfFirst = existing.balanceChanges.filter { $0.accountID == existing.accounts[0].id }.count
        #expect(result.balanceChanges.count == existing.balanceChanges.count + changesOfFirst)
        #expect(summary.matchedByKey.first?.collection == "/accounts")
        #expect(summary.matchedByKey.first?.names.count == existing.accounts.count - 1)
    }
}

/// The hand-written RFC 3339 reader agrees with Foundation's ISO8601DateFormatter (which it
/// replaced for speed) on valid time stamps, random ones included, and refuses what is not one.
@Test func timestampsReadAsFoundationReadsThem() {
    let reference = ISO8601DateFormatter()
    reference.formatOptions = [.withInternetDateTime]
    let fractional = ISO8601DateFormatter()
    fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    var generator = SystemRandomNumberGenerator()
    var samples = ["2024-03-02T10:15:00Z", "2024-03-02T10:15:00+08:00", "2024-02-29T23:59:59-05:30", "1970-01-01T00:00:00Z",
                   "2024-03-02T10:15:00.250Z", "2099-12-31T23:59:59+14:00"]
    for _ in 0..<2000 {
        let zone = ["Z", "+08:00", "-05:00", "+05:45", "-09:30"].randomElement(using: &generator)!
        samples.append(String(format: "%04d-%02d-%02dT%02d:%02d:%02d", Int.random(in: 1900...2100, using: &generator),
                              Int.random(in: 1...12, using: &generator), Int.random(in: 1...28, using: &generator),
                              Int.random(in: 0...23, using: &generator), Int.random(in: 0...59, using: &generator),
                              Int.random(in: 0...59, using: &generator)) + zone)
    }
    for sample in samples {
        let expected = reference.date(from: sample) ?? fractional.date(from: sample)
        #expect(BackupReader.parseTimestamp(sample) == expected, "\(sample)")
    }
    for bad in ["2024-03-02", "2024-03-02T10:15:00", "2024-13-02T10:15:00Z", "2024-02-30T10:15:00Z", "2024-03-02T25:15:00Z",
                "2024-03-02T10:15:00+8:00", "2024-03-02T10:15:00Zjunk", "2024-03-02T10:15:00.Z", "２０２４-03-02T10:15:00Z"] {
        #expect(BackupReader.parseTimestamp(bad) == nil, "\(bad)")
    }
}

/// Backups are written as Python's `json.dumps(indent=2, sort_keys=True, ensure_ascii=False)`
/// writes them: random trees (deeper than the indentation kept ready, numbers from Int.min to
/// Int.max, keys out of order, escapes) give the bytes a plain writer gives.
@Test func backupJSONIsWrittenAsAPlainWriterWritesIt() {
    func plain(_ value: JSONValue, _ indent: Int) -> String {
        let inner = "\n" + String(repeating: "  ", count: indent + 1), outer = "\n" + String(repeating: "  ", count: indent)
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let number): return String(number)
        case .number(let number): return number.isFinite ? "\(number)" : "null"
        case .string(let text):
            var bytes: [UInt8] = []
            JSONValue.quote(text, into: &bytes, escaping: .shortControls)
            return String(decoding: bytes, as: UTF8.self)
        case .array(let items):
            return items.isEmpty ? "[]" : "[" + items.map { inner + plain($0, indent + 1) }.joined(separator: ",") + outer + "]"
        case .object(let members):
            let sorted = members.sorted { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }
            return members.isEmpty ? "{}" : "{" + sorted.map { inner + plain(.string($0.0), 0) + ": " + plain($0.1, indent + 1) }.joined(separator: ",") + outer + "}"
        }
    }
    var generator = SeededGenerator(seed: 8259)
    func random(_ depth: Int) -> JSONValue {
        switch Int.random(in: 0..<(depth > 45 ? 5 : 8), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .integer([0, 1, -1, 42, -907, Int.max, Int.min, Int.random(in: Int.min...Int.max, using: &generator)].randomElement(using: &generator)!)
        case 3: return .number([0.5, -2.25, 1e300, .infinity].randomElement(using: &generator)!)
        case 4: return .string(["", "媽媽生日", "a\"b\\c\n\u{8}", "x"].randomElement(using: &generator)!)
        case 5: return .array((0..<Int.random(in: 0...3, using: &generator)).map { _ in random(depth + 1) })
        default:
            return .object((0..<Int.random(in: 0...3, using: &generator)).map { _ in
                (["id", "name", "date", "a", "é", "Z", "days"].randomElement(using: &generator)!, random(depth + 1))
            })
        }
    }
    for _ in 0..<300 {
        let value = random(0)
        #expect(String(decoding: BackupJSON.bytes(value), as: UTF8.self) == plain(value, 0) + "\n")
    }
    // Deeper than the spaces kept ready (32 levels).
    var deep = JSONValue.integer(Int.min)
    for level in 0..<45 { deep = level.isMultiple(of: 2) ? .array([deep]) : .object([("k", deep)]) }
    #expect(String(decoding: BackupJSON.bytes(deep), as: UTF8.self) == plain(deep, 0) + "\n")
}

/// A backup's times are exactly `HH:MM` on a 24-hour clock, and its dates `YYYY-MM-DD` days
/// that exist: random texts near those shapes are judged as a plain reading of the rule does.
@Test func timesAndDatesAreTheirExactShapes() {
    func isTime(_ text: String) -> Bool {
        let characters = Array(text)
        guard characters.count == 5, characters[2] == ":",
              [0, 1, 3, 4].allSatisfy({ "0123456789".contains(characters[$0]) }),
              let hour = Int(String(characters[0...1])), let minute = Int(String(characters[3...4])) else { return false }
        return hour <= 23 && minute <= 59
    }
    func isDate(_ text: String) -> Bool {
        let characters = Array(text)
        guard characters.count == 10, characters[4] == "-", characters[7] == "-",
              [0, 1, 2, 3, 5, 6, 8, 9].allSatisfy({ "0123456789".contains(characters[$0]) }),
              let year = Int(String(characters[0...3])), let month = Int(String(characters[5...6])),
              let day = Int(String(characters[8...9])) else { return false }
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month, day)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return (1...12).contains(month) && day >= 1 && calendar.date(from: components).map { calendar.component(.day, from: $0) == day } == true
    }
    let pieces = ["0", "1", "2", "3", "5", "9", ":", "-", "+", " ", "２", "é", "\r\n", "24", "60", "2024", "02", "29", "13"]
    var generator = SystemRandomNumberGenerator()
    var samples = ["09:00", "23:59", "00:00", "24:00", "12:60", "12::30", ":12:30", "+1:30", "1:30", "12:30:", "2024-02-29", "2023-02-29",
                   "2024-13-01", "2024-00-10", "2024-04-31", "20240229", "2024-2-29"]
    for _ in 0..<4000 {
        samples.append((0..<Int.random(in: 1...7, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
    }
    for text in samples {
        #expect(BackupReader.isTime(text) == isTime(text), "\(text.debugDescription)")
        var reader = BackupReader(file: nil)
        let read = reader.date([("date", .string(text))], "date", "")
        #expect((read != nil) == isDate(text), "\(text.debugDescription)")
        if let read { #expect(read.description == text) }
    }
}

/// Found by Scripts/fuzz.py: `"\uD800\u0041"` (a high surrogate without its low half) underflowed
/// in the JSON parser every backup reads through.
@Test func fuzzerFindingsStayFixed() {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/fuzz").path
    #expect(CodecConformance.problems(of: BackupCodec.all.first { $0.format.id == "zhixi-backup" }!, regressionInputsIn: directory) == [])
    #expect((try? JSONValue(parsing: Array(#"{"a": "\uD800\u0041"}"#.utf8))) == .object([("a", .string("\u{FFFD}A"))]))
}

/// How a calendar item's kind of day is guessed from its words, in either case and in Chinese.
@Suite struct DayTypeGuessTests {
    @Test(arguments: [
        ("Mom's BIRTHDAY", [String](), false, "birthday"),
        ("媽媽生日", [], false, "birthday"),
        ("Dinner", ["生辰"], false, "birthday"),
        ("Wedding Anniversary", [], false, "anniversary"),
        ("結婚週年", [], false, "anniversary"),
        ("结婚纪念日", [], false, "anniversary"),
        ("Team sync", [], true, "anniversary"),
        ("Trip", ["Travel"], false, "countdown"),
        ("birthda", [], false, "countdown"),
        ("", [], false, "countdown"),
    ])
    func guessesFromTitleAndCategories(title: String, categories: [String], repeats: Bool, type: String) throws {
        let today = try CivilDate(year: 2026, month: 1, day: 1)
        let item = CalendarItem(uid: "x", title: title, categories: categories)
        #expect(RetireTimeBackup.guessType(item, date: try CivilDate(year: 2026, month: 6, day: 1), repeats: repeats, today: today).rawValue == type)
        if type == "countdown" {
            #expect(RetireTimeBackup.guessType(item, date: try CivilDate(year: 2025, month: 6, day: 1), repeats: false, today: today) == .countup)
        }
    }
}
