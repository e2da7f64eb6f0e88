import AlmanacCalendar
import AlmanacCore
import AlmanacICU
import AlmanacICalendar
import AlmanacKit
import Foundation
import Testing

/// The fidelity matrix (#15): every format a calendar can be written as, against probes of what
/// calendars hold, compared by meaning — the dates each item falls on over twenty years, and the
/// values of its fields — after a round trip (calendar → format → calendar). Each cell keeps the
/// meaning, or the conversion names the item in a `convert.dropped` / `convert.approximated`
/// warning. A change nobody was told about fails the test. The table this produces is
/// `Sources/AlmanacCore/AlmanacCore.docc/Fidelity.md` (regenerate with `ALMANAC_UPDATE_DOCS=1 swift test --filter Fidelity`).
@Suite struct FidelityMatrixTests {
    /// What a probe's meaning is made of.
    enum Aspect: String, CaseIterable {
        case occurrences, notes, location, geo, priority, completion, categories, alarms, timestamps, id
    }

    struct Probe {
        var name: String
        var component: String
        var aspects: [Aspect]
    }

    /// Probes shaped as real exports write them (Google's UTC times, Apple's lunar rules, Outlook's zones).
    static let probes: [Probe] = [
        Probe(name: "lunar yearly", component: """
            BEGIN:VEVENT\r\nUID:p-lunar\r\nDTSTART;VALUE=DATE:20251006\r\nRRULE:RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=8;BYMONTHDAY=15\r\n\
            SUMMARY:P lunar yearly\r\nEND:VEVENT\r\n
            """, aspects: [.occurrences]),
        Probe(name: "leap month", component: """
            BEGIN:VEVENT\r\nUID:p-leap\r\nDTSTART;VALUE=DATE:20250803\r\nRRULE:RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=6L;BYMONTHDAY=10;SKIP=BACKWARD\r\n\
            SUMMARY:P leap month\r\nEND:VEVENT\r\n
            """, aspects: [.occurrences]),
        Probe(name: "last day of a lunar month", component: """
            BEGIN:VEVENT\r\nUID:p-eve\r\nDTSTART;VALUE=DATE:20260216\r\nRRULE:RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=-1\r\n\
            SUMMARY:P last day of a lunar month\r\nEND:VEVENT\r\n
            """, aspects: [.occurrences]),
        Probe(name: "29 February", component: """
            BEGIN:VEVENT\r\nUID:p-leapday\r\nDTSTART;VALUE=DATE:20240229\r\nRRULE:FREQ=YEARLY\r\nSUMMARY:P 29 February\r\nEND:VEVENT\r\n
            """, aspects: [.occurrences]),
        Probe(name: "all-day", component: """
            BEGIN:VEVENT\r\nUID:p-allday\r\nDTSTART;VALUE=DATE:20251225\r\nSUMMARY:P all-day\r\nEND:VEVENT\r\n
            """, aspects: [.occurrences]),
        Probe(name: "floating time", component: """
            BEGIN:VEVENT\r\nUID:p-floating\r\nDTSTART:20251201T090000\r\nSUMMARY:P floating time\r\nEND:VEVENT\r\n
            """, aspects: [.occurrences]),
        Probe(name: "zoned time", component: """
            BEGIN:VEVENT\r\nUID:p-zoned\r\nDTSTART;TZID=America/New_York:20251201T090000\r\nRRULE:FREQ=WEEKLY;COUNT=10\r\n\
            SUMMARY:P zoned time\r\nEND:VEVENT\r\n
            """, aspects: [.occurrences]),
        Probe(name: "UTC time", component: """
            BEGIN:VEVENT\r\nUID:p-utc\r\nDTSTART:20251125T013000Z\r\nSUMMARY:P UTC time\r\nEND:VEVENT\r\n
            """, aspects: [.occurrences]),
        Probe(name: "RDATE and EXDATE", component: """
            BEGIN:VEVENT\r\nUID:p-rdate\r\nDTSTART;VALUE=DATE:20250106\r\nRRULE:FREQ=MONTHLY;COUNT=6\r\nEXDATE;VALUE=DATE:20250306\r\n\
            RDATE;VALUE=DATE:20250320\r\nSUMMARY:P RDATE and EXDATE\r\nEND:VEVENT\r\n
            """, aspects: [.occurrences]),
        Probe(name: "override", component: """
            BEGIN:VEVENT\r\nUID:p-override\r\nDTSTART;TZID=Asia/Taipei:20250106T100000\r\nRRULE:FREQ=WEEKLY;COUNT=4\r\nSUMMARY:P override\r\nEND:VEVENT\r\n\
            BEGIN:VEVENT\r\nUID:p-override\r\nRECURRENCE-ID;TZID=Asia/Taipei:20250113T100000\r\nDTSTART;TZID=Asia/Taipei:20250114T150000\r\n\
            SUMMARY:P override\r\nEND:VEVENT\r\n
            """, aspects: [.occurrences]),
        Probe(name: "relative alarm", component: """
            BEGIN:VEVENT\r\nUID:p-alarm\r\nDTSTART;VALUE=DATE:20251006\r\nSUMMARY:P relative alarm\r\n\
            BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT15H\r\nDESCRIPTION:P relative alarm\r\nEND:VALARM\r\nEND:VEVENT\r\n
            """, aspects: [.alarms]),
        Probe(name: "absolute alarm", component: """
            BEGIN:VEVENT\r\nUID:p-absolute\r\nDTSTART;VALUE=DATE:20251006\r\nSUMMARY:P absolute alarm\r\n\
            BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER;VALUE=DATE-TIME:20251005T010000Z\r\nDESCRIPTION:P absolute alarm\r\nEND:VALARM\r\nEND:VEVENT\r\n
            """, aspects: [.alarms]),
        Probe(name: "location with geo", component: """
            BEGIN:VEVENT\r\nUID:p-geo\r\nDTSTART;VALUE=DATE:20251006\r\nSUMMARY:P location with geo\r\nLOCATION:台北 101\r\n\
            GEO:25.033964;121.564468\r\nEND:VEVENT\r\n
            """, aspects: [.location, .geo]),
        Probe(name: "priority", component: """
            BEGIN:VTODO\r\nUID:p-priority\r\nDUE;VALUE=DATE:20251201\r\nSUMMARY:P priority\r\nPRIORITY:1\r\nEND:VTODO\r\n
            """, aspects: [.priority]),
        Probe(name: "completion", component: """
            BEGIN:VTODO\r\nUID:p-done\r\nDUE;VALUE=DATE:20251201\r\nSUMMARY:P completion\r\nSTATUS:COMPLETED\r\nCOMPLETED:20251130T020000Z\r\nEND:VTODO\r\n
            """, aspects: [.completion]),
        Probe(name: "notes with \\n ; , \"", component: """
            BEGIN:VEVENT\r\nUID:p-notes\r\nDTSTART;VALUE=DATE:20251006\r\nSUMMARY:P notes\r\n\
            DESCRIPTION:line one\\nline two\\; a\\, b "quoted"\r\nEND:VEVENT\r\n
            """, aspects: [.notes]),
        Probe(name: "categories", component: """
            BEGIN:VEVENT\r\nUID:p-categories\r\nDTSTART;VALUE=DATE:20251006\r\nSUMMARY:P categories\r\nCATEGORIES:家人,節日\r\nEND:VEVENT\r\n
            """, aspects: [.categories]),
        Probe(name: "ids", component: """
            BEGIN:VEVENT\r\nUID:4kq9a1@google.com\r\nDTSTART;VALUE=DATE:20251006\r\nSUMMARY:P ids\r\nEND:VEVENT\r\n
            """, aspects: [.id]),
        Probe(name: "time stamps", component: """
            BEGIN:VEVENT\r\nUID:p-stamps\r\nDTSTART;VALUE=DATE:20251006\r\nSUMMARY:P time stamps\r\nCREATED:20240302T021500Z\r\n\
            LAST-MODIFIED:20250930T000000Z\r\nEND:VEVENT\r\n
            """, aspects: [.timestamps]),
    ]

    /// Every format an agenda can be written as, with the options that change what it keeps.
    static let targets: [(name: String, format: String, options: [String: String])] = [
        ("ics", "ics", [:]), ("xcal", "xcal", [:]), ("jcal", "jcal", [:]), ("agenda-json", "agenda-json", [:]),
        ("csv", "csv", [:]), ("csv style=iso", "csv", ["style": "iso"]), ("tsv", "tsv", [:]), ("json", "json", [:]),
        ("jsonl", "jsonl", [:]), ("table-json", "table-json", [:]), ("xlsx", "xlsx", [:]),
        ("retiretime-backup", "retiretime-backup", [:]), ("reminders-backup", "reminders-backup", [:]), ("zhixi-backup", "zhixi-backup", [:]),
    ]

    enum Outcome: String { case kept = "✓", approximated = "≈", dropped = "✗" }

    static var source: Agenda {
        get throws {
            let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Almanac//Fidelity//EN\r\n" + probes.map(\.component).joined() + "END:VCALENDAR\r\n"
            let decoded = try ICalendarCodec().decode(CodecInput(bytes: Array(text.utf8)), context: CodecContext())
            guard case .agenda(let agenda) = decoded.document else { throw Diagnostic(.error, Message(code: "test.not-an-agenda", text: "not an agenda")) }
            return agenda
        }
    }

    /// One round trip: the agenda that comes back and every warning on the way.
    static func roundTrip(_ agenda: Agenda, format: String, options: [String: String]) throws -> (Agenda, [Diagnostic]) {
        let registry = BuiltInFormats.registry
        let codec = try registry.require(format)
        var context = CodecContext(locale: try LocaleID("en-US"), timeZone: .taipei,
                                   options: CodecOptions(options.merging(["exported-at": "2025-11-20T21:30:00+08:00", "today": "2025-11-20"]) { a, _ in a }))
        context.targetFormat = format
        context.typedCells = codec.format.typedCells
        var warnings: [Diagnostic] = []
        let (converted, notes) = try registry.convert(.agenda(agenda), to: codec.format.model, context: context)
        warnings += notes
        let encoded = try codec.encode(converted, context: context)
        warnings += encoded.diagnostics
        var back = context
        back.targetFormat = "agenda-json"
        let decoded = try codec.decode(CodecInput(bytes: encoded.bytes), context: back)
        warnings += decoded.diagnostics
        let (returned, more) = try registry.convert(decoded.document, to: .agenda, context: back)
        warnings += more
        guard case .agenda(let result) = returned else { throw Diagnostic(.error, Message(code: "test.not-an-agenda", text: "not an agenda")) }
        return (result, warnings)
    }

    static func title(_ probe: Probe) -> String {
        probe.component.components(separatedBy: "SUMMARY:")[1].components(separatedBy: "\r\n")[0]
    }

    /// What a probe means in an agenda: each aspect as text.
    static func meaning(_ probe: Probe, in agenda: Agenda) -> [Aspect: String] {
        let title = title(probe)
        let items = agenda.items.filter { $0.title == title }
        var meaning: [Aspect: String] = [:]
        guard let item = items.first(where: { $0.recurrenceID == nil }) ?? items.first else {
            for aspect in probe.aspects { meaning[aspect] = "(missing)" }
            return meaning
        }
        for aspect in probe.aspects {
            switch aspect {
            case .occurrences:
                var alone = agenda
                alone.items = items
                let expander = OccurrenceExpander(agenda: alone, defaultZone: .taipei)
                let from = Date(timeIntervalSince1970: 1_735_660_800)  // 2025-01-01
                let until = Date(timeIntervalSince1970: 2_398_291_200)  // 2046-01-01
                meaning[aspect] = expander.occurrences(from: from, until: until, limit: 1_000).occurrences.map { occurrence in
                    occurrence.isAllDay ? occurrence.start.day.description : String(Int(occurrence.startInstant.timeIntervalSince1970))
                }.joined(separator: " ")
            case .notes: meaning[aspect] = item.notes ?? ""
            case .location: meaning[aspect] = item.location ?? ""
            case .geo: meaning[aspect] = item.geo.map { "\($0.latitude);\($0.longitude)" } ?? ""
            case .priority: meaning[aspect] = item.priority.rawValue
            case .completion: meaning[aspect] = String(item.isCompleted)
            case .categories: meaning[aspect] = item.categories.joined(separator: ",")
            case .alarms:
                meaning[aspect] = item.alarms.map { alarm in
                    switch alarm.trigger {
                    case .relative(let seconds, let fromEnd): "\(seconds)\(fromEnd ? "E" : "")"
                    case .absolute(let value): instant(value)
                    }
                }.joined(separator: " ")
            case .timestamps: meaning[aspect] = [item.created, item.lastModified].map { $0.map(instant) ?? "-" }.joined(separator: " ")
            case .id: meaning[aspect] = item.uid
            }
        }
        return meaning
    }

    /// A time stamp as the instant it names (floating ones read in Taipei).
    static func instant(_ value: DateValue) -> String {
        switch value {
        case .date(let day): return day.description
        case .utc, .offset:
            return value.utcTime.flatMap { try? TimeZoneID.utc.instant(for: $0) }.map { "\(Int($0.timeIntervalSince1970))" } ?? value.description
        case .floating(let time): return (try? TimeZoneID.taipei.instant(for: time)).map { "\(Int($0.timeIntervalSince1970))" } ?? value.description
        case .zoned(let time, let zone):
            return (try? TimeZoneID(zone).instant(for: time)).map { "\(Int($0.timeIntervalSince1970))" } ?? value.description
        }
    }

    /// The matrix: each target's outcome for each probe, and the cells that changed silently.
    static func matrix() throws -> (cells: [[Outcome]], silent: [String]) {
        let agenda = try source
        var cells: [[Outcome]] = []
        var silent: [String] = []
        for target in targets {
            var row: [Outcome] = []
            for probe in probes {
                // Each probe alone, so that the warnings are about it (a warning lists five items by name).
                var alone = agenda
                alone.items = agenda.items.filter { $0.title == title(probe) }
                let (back, warnings) = try roundTrip(alone, format: target.format, options: target.options)
                let losses = warnings.filter { Losses.codes.contains($0.code) }
                let before = meaning(probe, in: agenda), after = meaning(probe, in: back)
                if before == after {
                    row.append(.kept)
                    continue
                }
                let named = losses.filter { $0.message.arguments.last?.contains("“\(title(probe))”") == true }
                if named.contains(where: { $0.code == "convert.approximated" }) {
                    row.append(.approximated)
                } else if !named.isEmpty {
                    row.append(.dropped)
                } else {
                    row.append(.dropped)
                    let changed = probe.aspects.filter { before[$0] != after[$0] }
                    silent.append("\(target.name) × \(probe.name): " + changed.map { "\($0.rawValue) \(before[$0]!) → \(after[$0]!)" }.joined(separator: "; "))
                }
            }
            cells.append(row)
        }
        return (cells, silent)
    }

    static func table(_ cells: [[Outcome]]) -> String {
        var text = """
        # What each conversion keeps

        Generated by `FidelityMatrixTests` (`ALMANAC_UPDATE_DOCS=1 swift test --filter Fidelity`); a test fails when it is stale.
        Each probe is a calendar item shaped as real exports write it, converted from iCalendar to the format and back,
        and compared by meaning: the dates it falls on from 2025 through 2045, and the values of its fields.

        ✓ kept · ≈ approximated, with a `convert.approximated` warning naming the item · ✗ left out, with a
        `convert.dropped` warning naming the item. `--strict` refuses any conversion with ≈ or ✗.


        """
        text += "| format | " + probes.map(\.name).joined(separator: " | ") + " |\n"
        text += "|---|" + probes.map { _ in ":-:|" }.joined() + "\n"
        for (index, target) in targets.enumerated() {
            text += "| \(target.name) | " + cells[index].map(\.rawValue).joined(separator: " | ") + " |\n"
        }
        text += "\n\(targets.count) formats × \(probes.count) probes = \(targets.count * probes.count) cells.\n"
        return text
    }

    static let docPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/AlmanacCore/AlmanacCore.docc/Fidelity.md").standardized.path

    @Test func noConversionChangesMeaningSilently() throws {
        let (cells, silent) = try Self.matrix()
        #expect(silent.isEmpty, Comment(rawValue: "changed without a warning:\n" + silent.joined(separator: "\n")))
        let table = Self.table(cells)
        if ProcessInfo.processInfo.environment["ALMANAC_UPDATE_DOCS"] == "1" {
            try table.write(toFile: Self.docPath, atomically: true, encoding: .utf8)
        }
        let committed = try? String(contentsOfFile: Self.docPath, encoding: .utf8)
        #expect(committed == table, "AlmanacCore.docc/Fidelity.md is stale: ALMANAC_UPDATE_DOCS=1 swift test --filter Fidelity")
    }

    /// Money through every format a ledger can be written as: cents, a negative balance and
    /// bitcoin's eight decimals come back exactly, or the conversion says what it changed.
    static let moneyProbes: [(name: String, account: Account)] = [
        ("money with cents", Account(id: "cents", name: "P cents", kind: .cash, balance: Decimal(string: "1234567.50")!)),
        ("negative money", Account(id: "negative", name: "P negative", kind: .cash, balance: Decimal(string: "-32000")!)),
        ("BTC", Account(id: "btc", name: "P BTC", kind: .crypto, currency: "BTC", balance: Decimal(string: "0.12345678")!)),
    ]

    static let moneyTargets: [(name: String, format: String, options: [String: String])] = [
        ("ledger-json", "ledger-json", [:]), ("jellysave-backup", "jellysave-backup", [:]), ("csv", "csv", [:]),
        ("csv money=display", "csv", ["money": "display"]), ("json", "json", [:]), ("xlsx", "xlsx", [:]),
    ]

    @Test func moneyKeepsItsValueOrSaysSo() throws {
        let registry = BuiltInFormats.registry
        var silent: [String] = []
        for target in Self.moneyTargets {
            for probe in Self.moneyProbes {
                let codec = try registry.require(target.format)
                var context = CodecContext(locale: try LocaleID("zh-TW"), timeZone: .taipei,
                                           options: CodecOptions(target.options.merging(["exported-at": "2025-11-20T21:30:00+08:00"]) { a, _ in a }))
                context.targetFormat = target.format
                context.typedCells = codec.format.typedCells
                let ledger = Ledger(accounts: [probe.account])
                var warnings: [Diagnostic] = []
                let (converted, notes) = try registry.convert(.ledger(ledger), to: codec.format.model, context: context)
                let encoded = try codec.encode(converted, context: context)
                let decoded = try codec.decode(CodecInput(bytes: encoded.bytes), context: context)
                let (back, more) = try registry.convert(decoded.document, to: .ledger, context: context)
                warnings += notes + encoded.diagnostics + decoded.diagnostics + more
                guard case .ledger(let result) = back else { Issue.record("not a ledger"); continue }
                let returned = result.accounts.first { $0.name == probe.account.name }
                let kept = returned?.balance == probe.account.balance && returned?.currency == probe.account.currency
                let named = warnings.contains { Losses.codes.contains($0.code) && $0.message.arguments.last?.contains(probe.account.name) == true }
                if !kept && !named {
                    silent.append("\(target.name) × \(probe.name): \(probe.account.balance) \(probe.account.currency) → "
                                  + "\(returned.map { "\($0.balance) \($0.currency)" } ?? "(missing)")")
                }
            }
        }
        #expect(silent.isEmpty, Comment(rawValue: "changed without a warning:\n" + silent.joined(separator: "\n")))
    }

    /// A catalog of one locale through every catalog format: plain values with comments,
    /// plural variants and device variants come back, or the conversion says what it changed.
    @Test func catalogsKeepVariantsAndCommentsOrSaySo() throws {
        let registry = BuiltInFormats.registry
        let entries = [
            CatalogEntry(key: "P plain", comment: "Button: save", translations: ["en": Translation(value: "Save \"it\"; now, 100%")]),
            CatalogEntry(key: "P plural", translations: ["en": Translation(plural: [.one: "%d day", .other: "%d days"])]),
            CatalogEntry(key: "P device", translations: ["en": Translation(devices: ["iphone": Translation(value: "Tap"), "mac": Translation(value: "Click")])]),
        ]
        var silent: [String] = []
        for format in ["strings", "stringsdict", "xcstrings", "xliff", "catalog-json", "csv"] {
            for entry in entries {
                let codec = try registry.require(format)
                var context = CodecContext(options: ["locale": "en"])
                context.targetFormat = format
                let catalog = Catalog(sourceLanguage: "en", entries: [entry])
                let (converted, notes) = try registry.convert(.catalog(catalog), to: codec.format.model, context: context)
                let encoded = try codec.encode(converted, context: context)
                let decoded = try codec.decode(CodecInput(bytes: encoded.bytes), context: context)
                let (back, more) = try registry.convert(decoded.document, to: .catalog, context: context)
                let warnings = notes + encoded.diagnostics + decoded.diagnostics + more
                guard case .catalog(let result) = back else { Issue.record("not a catalog"); continue }
                let returned = result.entries.first { $0.key == entry.key }
                let kept = returned?.translations["en"].map(Self.meaning) == entry.translations["en"].map(Self.meaning) && returned?.comment == entry.comment
                let named = warnings.contains { $0.severity == .warning && $0.message.arguments.contains { $0.contains(entry.key) } }
                if !kept && !named {
                    silent.append("\(format) × \(entry.key): \(entry.translations["en"].map { "\($0)" } ?? "") / \(entry.comment ?? "-") → "
                                  + (returned.map { "\($0.translations["en"].map { "\($0)" } ?? "nil") / \($0.comment ?? "-")" } ?? "(missing)"))
                }
            }
        }
        #expect(silent.isEmpty, Comment(rawValue: "changed without a warning:\n" + silent.joined(separator: "\n")))
    }

    /// A translation's meaning: no state is translated, and a stringsdict's one plural variable
    /// (`%#@value@`) is the plural it spells.
    static func meaning(_ translation: Translation) -> Translation {
        var result = translation
        result.presentation = Presentation()
        if result.state == nil { result.state = .translated }
        if let substitutions = result.substitutions, substitutions.count == 1, let only = substitutions.first,
           result.value == "%#@\(only.key)@" {
            result = Translation(plural: only.value.plural, state: result.state)
        }
        result.devices = result.devices?.mapValues(meaning)
        return result
    }

    /// The matrix can fail: a change nobody is told about is found.
    @Test func aSilentChangeIsFound() throws {
        let agenda = try Self.source
        var changed = agenda
        let index = try #require(changed.items.firstIndex { $0.title == "P notes" })
        changed.items[index].notes = "something else"
        let probe = try #require(Self.probes.first { $0.name.hasPrefix("notes") })
        #expect(Self.meaning(probe, in: agenda) != Self.meaning(probe, in: changed))
    }
}
