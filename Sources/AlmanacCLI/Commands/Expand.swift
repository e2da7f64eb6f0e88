import ArgumentParser
import AlmanacBytes
import AlmanacCore
import AlmanacICU
import AlmanacCalendar
import Foundation

struct Expand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "expand", abstract: L("cli.expand.abstract"), discussion: L("cli.expand.discussion"))
    }

    @Argument(help: ArgumentHelp(L("cli.argument.calendar"), valueName: "FILE")) var file: String
    @Option(help: ArgumentHelp(L("cli.option.from-date"), valueName: "YYYY-MM-DD")) var from: String?
    @Option(help: ArgumentHelp(L("cli.option.until-date"), valueName: "YYYY-MM-DD")) var until: String?
    @Option(help: ArgumentHelp(L("cli.option.limit"), valueName: "N")) var limit = 10_000
    @OptionGroup var reading: ReadingOptions
    @Flag(help: ArgumentHelp(L("cli.option.json"))) var json = false
    @OptionGroup var global: GlobalOptions


    func run() throws {
        let session = Session.current!
        var context = try reading.context()
        let locale = context.locale ?? session.language.locale
        let zone = context.readingZone
        let today = zone.wallTime(at: Date()).date
        let fromDate = try from.map(Arguments.date) ?? today
        let untilDate = try until.map(Arguments.date) ?? fromDate.adding(days: 365)
        guard fromDate < untilDate else { throw CommandFailure.usage(.error("expand.empty-window", fromDate.description, untilDate.description)) }
        let window = (from: (try? zone.instant(for: CivilDateTime(date: fromDate))) ?? Date(),
                      until: (try? zone.instant(for: CivilDateTime(date: untilDate))) ?? Date())

        let input = session.input(file)
        let opened: (codec: any Codec, input: CodecInput)
        do { opened = try session.registry.openIdentified(input, codec: nil).opened } catch {
            throw CommandFailure(.inputError, [error.inFile(file)])
        }
        context.sourceFile = input.path
        // Only what places items in time is written: readers may skip the rest (descriptions, alarms).
        context.itemDetail = .schedule
        if context.timeZoneDefinitions == nil { context.timeZoneDefinitions = session.registry.timeZoneDefinitionReader }
        let found: [Found]
        let diagnostics: [Diagnostic]
        do {
            if let decoder = opened.codec as? any StreamingDecoder, opened.codec.format.model == .agenda {
                (found, diagnostics) = try Self.streamed(decoder, opened.input, context: context, window: window, limit: limit,
                                                         definitions: session.registry.timeZoneDefinitionReader)
            } else {
                let decoded = try opened.codec.decode(opened.input, context: context)
                guard case .agenda(let agenda) = decoded.document else {
                    throw CommandFailure(.inputError, [.error("convert.model-mismatch", decoded.document.kind.rawValue, "expand", "agenda")])
                }
                let expander = OccurrenceExpander(agenda: agenda, defaultZone: zone, definitions: session.registry.timeZoneDefinitionReader)
                let (occurrences, expansion) = expander.occurrences(from: window.from, until: window.until, limit: limit)
                found = occurrences.map { Found($0, agenda.items[$0.itemIndex]) }  // sorted by the expander
                diagnostics = decoded.diagnostics + expansion
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch let error as Diagnostic {
            throw CommandFailure(.inputError, [error.inFile(file)])
        }
        for diagnostic in diagnostics { session.report(diagnostic.inFile(file)) }
        // The streamed path found them in the input's order; the whole-calendar path sorted already.
        let order = Found.order(found)

        let script = ChineseScript(locale: locale)
        // The lunar date of an occurrence of a lunar rule (繁/简 as the locale writes them).
        func lunar(_ found: Found) -> String? {
            guard found.lunarRule else { return nil }
            let occurrence = found
            let day = occurrence.isAllDay ? occurrence.start.day : zone.wallTime(at: occurrence.startInstant).date
            return ChineseCalendar.lunarDate(for: day).written(script)
        }
        if json {
            writeJSON(found, order: order, lunar: lunar, to: session)
            return
        }
        let dateFormat = try DateFormat(skeleton: "yMMMEd", locale: locale, timeZone: zone)
        let timeFormat = try DateFormat(skeleton: "jm", locale: locale, timeZone: zone)
        let allDay = session.text("expand.all-day")
        // A day or a time of day is formatted once: occurrences share a few hundred days and times.
        var days: [CivilDate: String] = [:]
        var times: [Int: String] = [:]
        let table = order.map { index -> [String] in
            let found = found[index]
            let occurrence = found
            let when: [String]
            if occurrence.isAllDay {
                let day = occurrence.start.day
                let text = days[day] ?? dateFormat.string(from: day)
                days[day] = text
                when = [text, allDay]
            } else {
                let wall = zone.wallTime(at: occurrence.startInstant)
                let day = days[wall.date] ?? dateFormat.string(from: occurrence.startInstant)
                days[wall.date] = day
                let minute = wall.hour * 60 + wall.minute
                let time = times[minute] ?? timeFormat.string(from: occurrence.startInstant)
                times[minute] = time
                when = [day, time]
            }
            return when + [found.title + (lunar(found).map { "（\($0)）" } ?? "") + (occurrence.isOverridden ? " *" : "")]
        }
        session.printLines(TextTable.render(table).lazy.map { $0.trimmingTrailingSpaces() })
        if found.isEmpty { session.print(session.text("expand.none", fromDate.description, untilDate.description)) }
    }

    /// The occurrences as JSON, written as they are laid out (an array of objects with sorted keys,
    /// Almanac's model layout), a block at a time: `uid`, `title`, `start`, `end`, `startUTC` (the
    /// instant in UTC), `allDay`, `overridden`, and `lunar` for lunar rules.
    func writeJSON(_ occurrences: [Found], order: [Int], lunar: (Found) -> String?, to session: Session) {
        var writer = JSONWriter(layout: .foundation, capacity: Session.block + 4096)
        writer.beginArray()
        for index in order {
            Self.write(occurrences[index], lunar: lunar, to: &writer)
            if writer.byteCount > Session.block { session.write(writer.take()) }
        }
        writer.endArray()
        writer.raw("\n")
        session.write(writer.take())
    }

    /// One occurrence's object, read where it lies in the array (a copy retained and released its strings).
    private static func write(_ found: borrowing Found, lunar: (Found) -> String?, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("allDay")
        writer.bool(found.isAllDay)
        if let end = found.end {
            writer.key("end")
            writer.string(end)
        }
        if found.lunarRule, let lunar = lunar(copy found) {
            writer.key("lunar")
            writer.string(lunar)
        }
        writer.key("overridden")
        writer.bool(found.isOverridden)
        writer.key("start")
        writer.string(found.start)
        writer.key("startUTC")
        writer.string(CivilDateTime(secondsSinceEpoch: Int(found.startSeconds.rounded(.down))), suffix: "Z")
        writer.key("title")
        writer.string(found.title)
        writer.key("uid")
        writer.string(found.uid)
        writer.endObject()
    }
}

/// What the output says of an occurrence, kept for every occurrence in the window until they
/// are sorted: no more than that (not the item, nor the occurrence's RECURRENCE-ID).
struct Found {
    var start: DateValue
    var end: DateValue?
    /// The start as an instant (seconds since 1970), the sort key.
    var startSeconds: Double
    var uid: String
    var title: String
    var isOverridden: Bool
    /// Whether its item repeats by a lunar rule (the output gives the lunar date).
    var lunarRule: Bool

    init(_ occurrence: Occurrence, _ item: CalendarItem) {
        self.init(occurrence, title: item.title, lunarRule: Self.repeatsByLunarRule(item))
    }

    init(_ occurrence: Occurrence, title: String, lunarRule: Bool) {
        start = occurrence.start
        end = occurrence.end
        startSeconds = occurrence.startInstant.timeIntervalSince1970
        uid = occurrence.uid
        self.title = title
        isOverridden = occurrence.isOverridden
        self.lunarRule = lunarRule
    }

    static func repeatsByLunarRule(_ item: CalendarItem) -> Bool {
        item.recurrence?.rules.contains(where: \.isLunar) ?? false
    }

    var isAllDay: Bool { start.isAllDay }
    var startInstant: Date { Date(timeIntervalSince1970: startSeconds) }

    /// The positions of `found` in the expander's order (by start, then UID): the keys are sorted,
    /// not the records (which a sort would copy, strings and all, as it moves them).
    static func order(_ found: [Found]) -> [Int] {
        var keys = found.indices.map { SortKey(found[$0], position: $0) }
        keys.sort { a, b in
            if a.start != b.start { return a.start < b.start }
            if a.isASCII, b.isASCII, a.head != b.head || a.tail != b.tail { return a.head != b.head ? a.head < b.head : a.tail < b.tail }
            return found[a.position].uid < found[b.position].uid
        }
        return keys.map(\.position)
    }

    /// A sort key that settles most ties of start without reaching the record: the first twelve
    /// bytes of an ASCII UID, big-endian, order as the UIDs do (ASCII is the same in every
    /// normalisation, so bytes order as `String` does); equal heads, or a UID that is not ASCII,
    /// compare the UIDs themselves. Looking them up in a million records, for the thousands of
    /// all-day occurrences that share each day's start, had made sorting grow faster than the input.
    /// 24 bytes: the sort's buffer is as large again as the keys.
    struct SortKey {
        let start: Double
        let head: UInt64
        let tail: UInt32
        /// The record's position, or -1 - position when its UID is not ASCII.
        private let tagged: Int32

        var position: Int { tagged >= 0 ? Int(tagged) : Int(-1 - tagged) }
        var isASCII: Bool { tagged >= 0 }

        init(_ found: Found, position: Int) {
            start = found.startSeconds
            var head: UInt64 = 0, tail: UInt32 = 0, count = 0, isASCII = true
            for byte in found.uid.utf8 {
                if byte >= 0x80 { isASCII = false; break }
                if count < 8 { head |= UInt64(byte) << (56 - 8 * count) } else if count < 12 { tail |= UInt32(byte) << (24 - 8 * (count - 8)) }
                count += 1
            }
            self.head = head
            self.tail = tail
            tagged = isASCII ? Int32(position) : -1 - Int32(position)
        }
    }
}

extension Expand {
    /// Expands a calendar as it is read, keeping the occurrences and not the items: each event is
    /// expanded when it is complete, with the overrides (RECURRENCE-ID) of its UID read before it.
    /// An override that comes after its event (Google's order) puts that UID in a second pass over
    /// the input, which expands only those UIDs again with all their overrides.
    static func streamed(_ decoder: any StreamingDecoder, _ input: CodecInput, context: CodecContext,
                         window: (from: Date, until: Date), limit: Int,
                         definitions: (any TimeZoneDefinitionReader)?) throws(Diagnostic) -> ([Found], [Diagnostic]) {
        var sink = ExpansionSink(defaultZone: context.readingZone, definitions: definitions, window: window, limit: limit)
        let decoded = try decoder.decodeItems(input, context: context, into: &sink)
        // Overrides whose event is not in the input still happen.
        for (_, overrides) in sink.pending.sorted(by: { $0.key < $1.key }) {
            for override in overrides { sink.expand(override, overrides: []) }
        }
        // Zones the calendar defines after events that use them (a VTIMEZONE at the end): those
        // events were read in the zone the name resolves to, and are expanded again with the definition.
        var forward: Set<String> = []
        if case .agenda(let whole) = decoded.document {
            forward = sink.undefinedZones.intersection(whole.timeZones.map(\.id))
            if !forward.isEmpty {
                sink.expander = OccurrenceExpander(agenda: whole, defaultZone: context.readingZone, definitions: definitions)
                sink.diagnostics = OccurrenceExpander.withoutUnknownZoneWarnings(sink.diagnostics, for: forward)
            }
        }
        // Events written in several revisions were expanded once per revision, and overrides written
        // twice were taken in the order written: the second pass keeps the newest, read with what
        // tells revisions apart (SEQUENCE, DTSTAMP, LAST-MODIFIED: the first pass skips them).
        let revised = sink.expanded.repeated()
        if !sink.redo.isEmpty || !forward.isEmpty || !revised.isEmpty {
            let again = ExpansionSink.zone
            sink.found.removeAll {
                sink.redo.contains($0.uid) || again($0.start).map(forward.contains) == true
                    || !revised.isEmpty && revised.contains($0.uid.hashValue)
            }
            var pass = RedoSink(uids: sink.redo, uidHashes: revised, zones: forward)
            var whole = context
            if !revised.isEmpty || !sink.revisedOverrides.isEmpty { whole.itemDetail = .complete }
            _ = try decoder.decodeItems(input, context: whole, into: &pass)
            sink.expandedDiagnostics = Set(sink.diagnostics)
            for uid in pass.order {
                let overrides = pass.overrides[uid] ?? []
                if let masters = pass.masters[uid], let newest = Revisions.newest(masters) {
                    sink.expand(newest, overrides: overrides)
                } else {
                    for override in overrides { sink.expand(override, overrides: []) }
                }
            }
        }
        return (sink.found, decoded.diagnostics + sink.diagnostics + (sink.expander?.zoneNotes ?? []))
    }
}

/// Takes the items of a streamed calendar and keeps their occurrences in a window.
struct ExpansionSink: DocumentSink {
    let defaultZone: TimeZoneID
    let definitions: (any TimeZoneDefinitionReader)?
    let window: (from: Date, until: Date)
    let limit: Int
    var expander: OccurrenceExpander?
    var found: [Found] = []
    var diagnostics: [Diagnostic] = []
    /// Diagnostics of the first pass, not repeated by the second.
    var expandedDiagnostics: Set<Diagnostic> = []
    /// Overrides read before their event, by UID.
    var pending: [String: [CalendarItem]] = [:]
    /// The UIDs of the events expanded so far, by hash (a collision costs a second expansion, not a mistake).
    var expanded = SeenHashes()
    /// UIDs whose override came after their event, or came twice for one occurrence (revisions):
    /// expanded again in a second pass.
    var redo: Set<String> = []
    /// The UIDs of overrides written twice for one occurrence, found by the hash of UID and
    /// RECURRENCE-ID of every override.
    var revisedOverrides: Set<String> = []
    private var overrideKeys: Set<Int> = []
    /// The zones the calendar had defined when its first item came.
    var definedZones: Set<String> = []
    /// Zones items started in that were not defined then (a later definition sends them to the second pass).
    var undefinedZones: Set<String> = []

    init(defaultZone: TimeZoneID, definitions: (any TimeZoneDefinitionReader)?, window: (from: Date, until: Date), limit: Int) {
        self.defaultZone = defaultZone
        self.definitions = definitions
        self.window = window
        self.limit = limit
    }

    mutating func begin(_ frame: Document) throws(Diagnostic) {
        guard case .agenda(let agenda) = frame else {
            throw Diagnostic.error("convert.model-mismatch", frame.kind.rawValue, "expand", "agenda")
        }
        expander = OccurrenceExpander(agenda: agenda, defaultZone: defaultZone, definitions: definitions)
        definedZones = Set(agenda.timeZones.map(\.id))
    }

    /// The zone a value names, if it names one.
    static func zone(_ value: DateValue?) -> String? {
        if case .zoned(_, let zone)? = value { return zone }
        return nil
    }

    mutating func item(_ item: DocumentItem) throws(Diagnostic) {
        guard case .calendarItem(let item) = item else { return }
        if item.recurrenceID != nil {
            // An occurrence overridden twice: revisions, told apart in the second pass.
            var key = Hasher()
            key.combine(item.uid)
            key.combine(item.recurrenceID)
            if !overrideKeys.insert(key.finalize()).inserted {
                revisedOverrides.insert(item.uid)
                redo.insert(item.uid)
            }
            if expanded.contains(item.uid.hashValue) { redo.insert(item.uid) } else { pending[item.uid, default: []].append(item) }
            return
        }
        expanded.append(item.uid.hashValue)
        if let zone = Self.zone(item.start ?? item.due), !definedZones.contains(zone) { undefinedZones.insert(zone) }
        expand(item, overrides: pending.isEmpty ? [] : pending.removeValue(forKey: item.uid) ?? [])
    }

    /// The occurrences of an event with its overrides (or of an override alone).
    mutating func expand(_ item: CalendarItem, overrides: [CalendarItem]) {
        // Called in place: `guard let expander` copied the expander (and retained what it holds) per item.
        guard let (occurrences, notes) = expander?.occurrences(of: item, overrides: overrides, from: window.from, until: window.until, limit: limit)
        else { return }
        let lunarRule = Found.repeatsByLunarRule(item)
        for occurrence in occurrences {
            if occurrence.itemIndex == 0 {
                found.append(Found(occurrence, title: item.title, lunarRule: lunarRule))
            } else {
                let override = overrides[occurrence.itemIndex - 1]
                found.append(Found(occurrence, title: override.title, lunarRule: Found.repeatsByLunarRule(override)))
            }
        }
        for note in notes where !expandedDiagnostics.contains(note) { diagnostics.append(note) }
    }
}

/// Hashes kept in the order they came until the first question is asked of them, then in a set:
/// most calendars have no override after its event, and a million inserts into a set that grew
/// past the caches cost more than the rest of expand's bookkeeping.
struct SeenHashes {
    private var list: [Int] = []
    private var set: Set<Int>?
    /// Hashes appended more than once while in the set.
    private var repeatedInSet: Set<Int> = []

    mutating func append(_ hash: Int) {
        if set != nil {
            if !set!.insert(hash).inserted { repeatedInSet.insert(hash) }
        } else {
            list.append(hash)
        }
    }

    mutating func contains(_ hash: Int) -> Bool {
        if set == nil {
            repeatedInSet = Revisions.repeated(list)
            set = Set(list)
            list = []
        }
        return set!.contains(hash)
    }

    /// The hashes appended more than once (an event written in several revisions).
    func repeated() -> Set<Int> {
        set == nil ? Revisions.repeated(list) : repeatedInSet
    }
}

/// The second pass: the events and overrides of the UIDs to expand again, and of the events that
/// start in a zone defined after them.
struct RedoSink: DocumentSink {
    let uids: Set<String>
    /// UIDs by hash (those of events written in several revisions).
    let uidHashes: Set<Int>
    let zones: Set<String>
    var masters: [String: [CalendarItem]] = [:]
    var overrides: [String: [CalendarItem]] = [:]
    /// The UIDs in the order they came.
    var order: [String] = []

    init(uids: Set<String>, uidHashes: Set<Int> = [], zones: Set<String>) {
        self.uids = uids
        self.uidHashes = uidHashes
        self.zones = zones
    }

    mutating func begin(_ frame: Document) throws(Diagnostic) {}

    mutating func item(_ item: DocumentItem) throws(Diagnostic) {
        guard case .calendarItem(let item) = item,
              uids.contains(item.uid) || !uidHashes.isEmpty && uidHashes.contains(item.uid.hashValue)
                || ExpansionSink.zone(item.start ?? item.due).map(zones.contains) == true else { return }
        if masters[item.uid] == nil && overrides[item.uid] == nil { order.append(item.uid) }
        if item.recurrenceID != nil { overrides[item.uid, default: []].append(item) } else { masters[item.uid, default: []].append(item) }
    }
}
