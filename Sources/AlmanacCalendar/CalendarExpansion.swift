public import AlmanacCore
public import AlmanacICU
public import Foundation

/// The occurrences of a calendar file in a window, read from any agenda format — what
/// `almanac expand` lists.
///
/// A format that streams (iCalendar, jCal, xCal) is expanded as it is read: the items are not
/// kept, only what each occurrence needs, so a calendar of a million events takes the memory of
/// its occurrences in the window. Events are expanded when they are complete, with the overrides
/// (RECURRENCE-ID) read before them; an override that comes after its event (Google's order), an
/// event written in several revisions, or an event in a zone the calendar defines only at its end
/// sends that UID to a second pass over the input. Other formats are read whole and expanded by
/// ``OccurrenceExpander``. Either way the result is the same, sorted by start, then UID.
///
/// ```swift
/// var context = CodecContext(timeZone: .taipei)
/// context.timeZoneDefinitions = ICalendarCodec()   // the file's own VTIMEZONEs
/// let expansion = CalendarExpansion(from: start, until: end)
/// let calendar = try expansion.occurrences(in: CodecInput(contentsOf: "holidays.ics"), codec: ICalendarCodec(), context: context)
/// for occurrence in calendar { print(occurrence.start, occurrence.title) }
/// calendar.diagnostics   // unknown zones, rules capped at `limit`…
/// ```
public struct CalendarExpansion: Sendable {
    /// The window: occurrences that overlap `from..<until`.
    public var from: Date
    public var until: Date
    /// The most occurrences one rule without an end gives (a warning names the rule when it stops there).
    public var limit: Int

    public init(from: Date, until: Date, limit: Int = 10_000) {
        self.from = from
        self.until = until
        self.limit = limit
    }

    /// Reads `input` with `codec` and expands it. The context's reading zone is the zone of
    /// floating times and all-day dates (a calendar's X-WR-TIMEZONE comes first); its
    /// `timeZoneDefinitions` read the VTIMEZONEs the file defines. Only what places items in
    /// time is read (descriptions and alarms are skipped).
    ///
    /// Throws the reader's error, or `convert.model-mismatch` when the format holds no calendar.
    public func occurrences(in input: CodecInput, codec: any Codec, context: CodecContext) throws(Diagnostic) -> ExpandedCalendar {
        var context = context
        context.itemDetail = .schedule
        let definitions = context.timeZoneDefinitions
        if let decoder = codec as? any StreamingDecoder, codec.format.model == .agenda {
            return try streamed(decoder, input, context: context, definitions: definitions)
        }
        let decoded = try codec.decode(input, context: context)
        guard case .agenda(let agenda) = decoded.document else {
            throw Self.notACalendar(decoded.document)
        }
        var calendar = occurrences(of: agenda, defaultZone: context.readingZone, definitions: definitions)
        calendar.diagnostics = decoded.diagnostics + calendar.diagnostics
        return calendar
    }

    /// Expands a calendar already read.
    public func occurrences(of agenda: Agenda, defaultZone: TimeZoneID = .utc,
                            definitions: (any TimeZoneDefinitionReader)? = nil) -> ExpandedCalendar {
        let expander = OccurrenceExpander(agenda: agenda, defaultZone: defaultZone, definitions: definitions)
        let (occurrences, diagnostics) = expander.occurrences(from: from, until: until, limit: limit)
        // Sorted by the expander already.
        let records = occurrences.map { ExpandedOccurrence($0, agenda.items[$0.itemIndex]) }
        return ExpandedCalendar(records: records, order: Array(records.indices), diagnostics: diagnostics)
    }

    static func notACalendar(_ document: Document) -> Diagnostic {
        .error(.convertModelMismatch(model: document.kind.rawValue, format: "expand", expected: "agenda"))
    }

    /// The streamed expansion: a first pass expands each event as it completes; a second pass,
    /// when needed, expands again the UIDs the first could not settle.
    private func streamed(_ decoder: any StreamingDecoder, _ input: CodecInput, context: CodecContext,
                          definitions: (any TimeZoneDefinitionReader)?) throws(Diagnostic) -> ExpandedCalendar {
        var sink = ExpansionSink(defaultZone: context.readingZone, definitions: definitions, window: (from, until), limit: limit)
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
        // Found in the input's order: sorted here.
        return ExpandedCalendar(records: sink.found, order: ExpandedOccurrence.order(sink.found),
                                diagnostics: decoded.diagnostics + sink.diagnostics + (sink.expander?.zoneNotes ?? []))
    }
}

/// A calendar's occurrences in a window, sorted by start, then UID, and what expanding them found
/// (``CalendarExpansion``).
public struct ExpandedCalendar: RandomAccessCollection, Sendable {
    /// The records in the order they were found, and their positions in sorted order: the
    /// positions are sorted, not the records (which a sort would copy, strings and all, as it moves them).
    private let records: [ExpandedOccurrence]
    private let order: [Int]
    /// The reader's warnings, then the expansion's (rules capped at the limit, unknown zones…).
    public internal(set) var diagnostics: [Diagnostic]

    init(records: [ExpandedOccurrence], order: [Int], diagnostics: [Diagnostic]) {
        self.records = records
        self.order = order
        self.diagnostics = diagnostics
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { order.count }

    /// Read where it lies (a copy would retain and release its strings).
    public subscript(position: Int) -> ExpandedOccurrence {
        _read { yield records[order[position]] }
    }
}

/// What a listing says of an occurrence: no more than that (not the item, nor the occurrence's
/// RECURRENCE-ID), kept for every occurrence in the window until they are sorted.
public struct ExpandedOccurrence: Sendable {
    public var start: DateValue
    public var end: DateValue?
    /// The start as an instant (seconds since 1970), the sort key.
    public var startSeconds: Double
    public var uid: String
    /// The item's title, or its override's.
    public var title: String
    /// Whether a RECURRENCE-ID override changed this occurrence.
    public var isOverridden: Bool
    /// Whether its item repeats by a lunar rule (RSCALE=CHINESE), so a listing can give the lunar date.
    public var repeatsByLunarRule: Bool

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
        repeatsByLunarRule = lunarRule
    }

    static func repeatsByLunarRule(_ item: CalendarItem) -> Bool {
        item.recurrence?.rules.contains(where: \.isLunar) ?? false
    }

    public var isAllDay: Bool { start.isAllDay }
    public var startInstant: Date { Date(timeIntervalSince1970: startSeconds) }

    /// The positions of `found` in the expander's order (by start, then UID).
    static func order(_ found: [ExpandedOccurrence]) -> [Int] {
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

        init(_ found: ExpandedOccurrence, position: Int) {
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

/// Takes the items of a streamed calendar and keeps their occurrences in a window.
struct ExpansionSink: DocumentSink {
    let defaultZone: TimeZoneID
    let definitions: (any TimeZoneDefinitionReader)?
    let window: (from: Date, until: Date)
    let limit: Int
    var expander: OccurrenceExpander?
    var found: [ExpandedOccurrence] = []
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
        guard case .agenda(let agenda) = frame else { throw CalendarExpansion.notACalendar(frame) }
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
        let lunarRule = ExpandedOccurrence.repeatsByLunarRule(item)
        for occurrence in occurrences {
            if occurrence.itemIndex == 0 {
                found.append(ExpandedOccurrence(occurrence, title: item.title, lunarRule: lunarRule))
            } else {
                let override = overrides[occurrence.itemIndex - 1]
                found.append(ExpandedOccurrence(occurrence, title: override.title, lunarRule: ExpandedOccurrence.repeatsByLunarRule(override)))
            }
        }
        for note in notes where !expandedDiagnostics.contains(note) { diagnostics.append(note) }
    }
}

/// Hashes kept in the order they came until the first question is asked of them, then in a set:
/// most calendars have no override after its event, and a million inserts into a set that grew
/// past the caches cost more than the rest of the expansion's bookkeeping.
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
