public import AlmanacCore
public import AlmanacICU
import AlmanacCalendar
import Foundation

/// Reads iCalendar files into the Agenda model.
///
/// Everything the model has no field for is carried: X- and unknown properties, unknown
/// parameters of known properties, unknown components, and VTIMEZONE definitions as given.
public struct ICalendarReader: Sendable {
    public struct Options: Sendable {
        /// Apply X-WR-TIMEZONE the way the x-wr-timezone tool does: UTC and floating times of
        /// DTSTART, DTEND, DUE, RDATE, EXDATE and RECURRENCE-ID become wall times in that zone.
        public var applyCalendarTimeZone: Bool = true
        public var limits: ICalLimits = .default
        /// A charset that overrides detection.
        public var encoding: Charset?

        public init(applyCalendarTimeZone: Bool = true, limits: ICalLimits = .default, encoding: Charset? = nil) {
            self.applyCalendarTimeZone = applyCalendarTimeZone
            self.limits = limits
            self.encoding = encoding
        }
    }

    public let options: Options

    public init(options: Options = Options()) { self.options = options }

    /// The calendar-level facts of a file, known before its items.
    public struct Header: Sendable {
        public var agenda: Agenda
        public var encoding: String
    }

    /// Reads a whole file.
    public func read(_ bytes: [UInt8], fileName: String?) throws(Diagnostic) -> (agenda: Agenda, diagnostics: [Diagnostic], encoding: String) {
        try read(CodecInput(bytes: bytes, fileName: fileName))
    }

    /// Reads a whole input, from memory or streamed from its file.
    public func read(_ input: CodecInput) throws(Diagnostic) -> (agenda: Agenda, diagnostics: [Diagnostic], encoding: String) {
        var items: [CalendarItem] = []
        // Exports run about 300 bytes an item; reserving avoids copying the array as it grows.
        items.reserveCapacity(min((input.sizeHint ?? 0) / 300 + 16, 1_000_000))
        var result = try stream(input) { (item) throws(Diagnostic) in items.append(item) }
        result.agenda.items = items
        return result
    }

    /// Reads a calendar already parsed into components (from xCal or jCal).
    public func read(component: ICalComponent, fileName: String?) throws(Diagnostic) -> (agenda: Agenda, diagnostics: [Diagnostic]) {
        var items: [CalendarItem] = []
        var events = ReaderEvents(mapper: ItemMapper(fileName: fileName), applyCalendarZone: options.applyCalendarTimeZone, onFrame: { _ in }) {
            (item) throws(Diagnostic) in items.append(item)
        }
        func walk(_ component: ICalComponent) throws(Diagnostic) {
            try events.begin(component.name, line: component.line)
            for property in component.properties { try events.property(property) }
            for child in component.components { try walk(child) }
            try events.end(component.name, line: component.line)
        }
        try walk(component)
        var agenda = events.agenda
        agenda.items = items
        return (agenda, events.mapper.diagnostics)
    }

    /// Reads an input, handing each item to `onItem` as soon as it is complete. UTF-8 files are
    /// read in chunks, so memory stays constant apart from what `onItem` keeps (plus the
    /// calendar's header, time zones and carried components); other charsets are converted whole.
    /// `onFrame` gets the calendar as read before its first item (its properties and the time
    /// zones defined so far), once, just before that item.
    public func stream(
        _ input: CodecInput, onFrame: (Agenda) throws(Diagnostic) -> Void = { _ in }, onItem: (consuming CalendarItem) throws(Diagnostic) -> Void
    ) throws(Diagnostic) -> (agenda: Agenda, diagnostics: [Diagnostic], encoding: String) {
        let fileName = input.fileName
        let applyZone = options.applyCalendarTimeZone
        let declared = options.encoding
        let limits = options.limits
        return try withoutActuallyEscaping(onItem) { (onItem) throws(Diagnostic) in
          try withoutActuallyEscaping(onFrame) { (onFrame) throws(Diagnostic) in
            var parser = ICalParser(fileName: fileName, limits: limits)
            var events = ReaderEvents(mapper: ItemMapper(fileName: fileName), applyCalendarZone: applyZone, onFrame: onFrame, onItem: onItem)
            var state = ChunkState.start
            var whole: [UInt8] = []     // everything, when the input is not UTF-8
            do throws(Diagnostic) {
                try input.readChunks { (chunk) throws(Diagnostic) in
                    var chunk = chunk
                    if case .start = state, declared == nil, input.isValidUTF8 {
                        // Checked whole while the format was identified.
                        state = .utf8
                    } else if case .start = state {
                        // Folds may split a UTF-8 sequence, so the detector sees the sample
                        // unfolded, unless the sample as it stands is UTF-8 without a zero byte:
                        // unfolding only removes ASCII between whole characters and cannot make
                        // it look like UTF-16, so the answer is the same without the copy.
                        let prefix = chunk.prefix(CharsetDetector.sampleSize)
                        var detection: CharsetDetection?
                        let hasZero = prefix.withByteView(ByteScan.containsZero)
                        if declared == nil, !prefix.isEmpty, !hasZero {
                            detection = CharsetDetector.detect(prefix, isComplete: false)
                            if detection?.charset != .utf8 { detection = nil }
                        }
                        let found = detection ?? CharsetDetector.detect(Self.unfolded(Array(prefix)), declared: declared, isComplete: false)
                        if found.charset == .utf8 {
                            state = .utf8
                            parser.validatesUTF8 = true
                            if found.byteOrderMarkLength > 0 { chunk.removeFirst(found.byteOrderMarkLength) }
                        } else {
                            state = .other
                        }
                    }
                    switch state {
                    case .utf8: try parser.feed(chunk, isLast: false, into: &events)
                    case .other, .start: whole += chunk
                    }
                }
                if case .utf8 = state {
                    try parser.feed([], isLast: true, into: &events)
                    try parser.finish(into: &events)
                    return (events.agenda, parser.diagnostics + events.mapper.diagnostics, "UTF-8")
                }
            } catch let diagnostic where diagnostic.code == .internalNotUTF8 {
                // Looked like UTF-8 at first, but is not: start again with the whole file.
                whole = try input.readAll()
                parser = ICalParser(fileName: fileName, limits: limits)
                events = ReaderEvents(mapper: ItemMapper(fileName: fileName), applyCalendarZone: applyZone, onFrame: onFrame, onItem: onItem)
            }
            let (bytes, encoding, notes) = try Self.utf8(Self.unfolded(whole), fileName: fileName, declared: declared)
            try parser.parse(bytes, into: &events)
            return (events.agenda, notes + parser.diagnostics + events.mapper.diagnostics, encoding)
          }
        }
    }

    /// The bytes with every fold (a line break followed by a space or tab) removed, so that
    /// multi-byte characters split by a fold are whole again before the charset is judged.
    static func unfolded(_ bytes: [UInt8]) -> [UInt8] {
        // Runs between line breaks are copied whole, found eight bytes at a time: a batch of
        // small exports unfolds each one's sample.
        bytes.withByteView { view in
            var result: [UInt8] = []
            result.reserveCapacity(view.count)
            let count = view.count
            var index = 0
            while index < count {
                let end = ICalParser.lineEnd(view, index, count)
                view.append(index, end, to: &result)
                guard end < count else { break }
                var next = end + 1
                if view[end] == ASCII.carriageReturn, next < count, view[next] == ASCII.lineFeed { next += 1 }
                // Blank lines may sit between a line and its continuation (the parser reads them
                // so, as Python's icalendar does): they go with the fold, or a character the fold
                // split stays split and the file looks like another charset.
                var continuation = next
                while continuation < count, view[continuation] == ASCII.lineFeed || view[continuation] == ASCII.carriageReturn { continuation += 1 }
                if continuation < count, view[continuation] == ASCII.space || view[continuation] == ASCII.tab {
                    index = continuation + 1
                } else {
                    // Not a fold: the break itself is kept (CR and LF alike, one byte at a time).
                    result.append(view[end])
                    index = end + 1
                }
            }
            return result
        }
    }

    private enum ChunkState {
        case start, utf8, other
    }

    /// The input as UTF-8 without a BOM: UTF-16 and legacy charsets are converted, with a note.
    static func utf8(_ input: [UInt8], fileName: String?, declared: Charset?) throws(Diagnostic) -> ([UInt8], String, [Diagnostic]) {
        let detection = CharsetDetector.detect(input.prefix(CharsetDetector.sampleSize), declared: declared,
                                               isComplete: input.count <= CharsetDetector.sampleSize)
        // Without a BOM the input is used as is (no copy of a large file).
        let body = detection.byteOrderMarkLength == 0 ? input : Array(input.dropFirst(detection.byteOrderMarkLength))
        if detection.charset == .utf8 {
            if let offset = UTF8Validation.validate(body).invalid {
                // Not UTF-8 after all (the sample looked clean): guess again from the whole file.
                let retry = CharsetDetector.detect(body)
                guard retry.charset != .utf8, let text = try? retry.charset.decode(body) else {
                    throw Diagnostic.error("charset.invalid-bytes", "UTF-8", String(offset + detection.byteOrderMarkLength),
                                           at: SourceLocation(file: fileName))
                }
                return (Array(text.utf8), retry.charset.description,
                        [.note("charset.converted", retry.charset.description, at: SourceLocation(file: fileName))])
            }
            return (body, "UTF-8", [])
        }
        do {
            let text = try detection.charset.decode(body)
            var notes: [Diagnostic] = []
            if !detection.charset.isUnicode {
                notes.append(.note("charset.converted", detection.charset.description, at: SourceLocation(file: fileName)))
            }
            return (Array(text.utf8), detection.charset.description, notes)
        } catch {
            throw Diagnostic.error("charset.invalid-bytes", detection.charset.description,
                                   String((error.offset ?? 0) + detection.byteOrderMarkLength), at: SourceLocation(file: fileName))
        }
    }
}

/// Builds the Agenda from parser events: items are mapped property by property as they are read
/// and handed on when they end; other components are collected whole.
struct ReaderEvents: ICalEvents {
    var agenda = Agenda()
    var mapper: ItemMapper
    let applyCalendarZone: Bool
    let onFrame: (Agenda) throws(Diagnostic) -> Void
    let onItem: (consuming CalendarItem) throws(Diagnostic) -> Void
    private var framed = false
    private var calendarZone: ICUWallClock?
    private var depth = 0
    private var inItem = false
    /// The item being read (nil between items, so that a finished one is handed on, not copied:
    /// a copy retained every field only to release them at the next item's start).
    private var item: CalendarItem?
    private var seen: UInt64 = 0
    private var itemLine = 0
    /// Components being collected whole (VTIMEZONE, VALARM, unknown ones), innermost last.
    private var collecting: [ICalComponent] = []

    init(mapper: ItemMapper, applyCalendarZone: Bool, onFrame: @escaping (Agenda) throws(Diagnostic) -> Void,
         onItem: @escaping (consuming CalendarItem) throws(Diagnostic) -> Void) {
        self.mapper = mapper
        self.applyCalendarZone = applyCalendarZone
        self.onFrame = onFrame
        self.onItem = onItem
    }

    mutating func begin(_ name: String, line: Int) throws(Diagnostic) {
        depth += 1
        if depth == 2, collecting.isEmpty, name == "VEVENT" || name == "VTODO" || name == "VJOURNAL" {
            inItem = true
            item = ItemMapper.start(name)
            seen = 0
            itemLine = line
        } else if depth >= 2 || name != "VCALENDAR" {
            var component = ICalComponent(name: name, line: line)
            // An alarm has three or four properties: one allocation rather than growing 1, 2, 4.
            component.properties.reserveCapacity(4)
            collecting.append(component)
        }
    }

    mutating func property(_ property: ICalProperty) throws(Diagnostic) {
        if !collecting.isEmpty {
            collecting[collecting.count - 1].properties.append(property)
        } else if inItem {
            mapper.apply(property, to: &item!, seen: &seen)
        } else {
            calendarProperty(property)
        }
    }

    mutating func plainProperty(_ kind: PropertyKind, _ value: ByteView, _ parameters: DateParameters) -> Bool {
        guard inItem, collecting.isEmpty else { return false }
        return mapper.applyPlain(kind, value, parameters, to: &item!, seen: &seen)
    }

    mutating func end(_ name: String, line: Int) throws(Diagnostic) {
        defer { depth -= 1 }
        if let finished = collecting.popLast() {
            if !collecting.isEmpty {
                collecting[collecting.count - 1].components.append(finished)
            } else if inItem {
                mapper.child(finished, of: &item!)
            } else if finished.name == "VTIMEZONE" {
                if let id = finished.property("TZID")?.value, !id.isEmpty {
                    // A definition of a well-known location (X-LIC-LOCATION, as libical, Google and
                    // Almanac write them) is ICU's zone: it is regenerated on writing, not carried.
                    if let location = finished.property("X-LIC-LOCATION")?.value,
                       TimeZoneID.resolve(location) != nil, TimeZoneID.resolve(id) != nil {
                        return
                    }
                    agenda.timeZones.append(TimeZoneDefinition(id: id, definition: finished.text))
                } else {
                    mapper.diagnostics.append(.warning("ics.timezone-without-id", at: mapper.location(finished.line)))
                }
            } else {
                agenda.carriedComponents.append(finished.text)
            }
        } else if inItem && depth == 2 {
            inItem = false
            mapper.finish(&item!, line: itemLine)
            if let calendarZone { item!.applyCalendarZone(calendarZone) }
            if !framed {
                framed = true
                try onFrame(agenda)
            }
            try onItem(item.take()!)
        }
    }

    private mutating func calendarProperty(_ property: ICalProperty) {
        switch property.kind {
        case .version:
            if property.value != "2.0" {
                mapper.diagnostics.append(.warning("ics.version", property.value, at: mapper.location(property.line)))
            }
        case .prodid:
            break
        case .calscale where property.value.uppercased() == "GREGORIAN":
            break
        case .xWRCalname, .name:
            // NAME (RFC 7986) and X-WR-CALNAME usually agree; a second, different name is carried.
            let name = PropertyText.unescape(property.value)
            if agenda.name == nil { agenda.name = name } else if agenda.name != name { agenda.carried.append(property.carried) }
        case .xWRTimezone:
            agenda.timeZone = property.value
            if applyCalendarZone {
                calendarZone = TimeZoneID.resolve(property.value).map { ICUWallClock.shared($0.zone) }
                if calendarZone == nil {
                    mapper.diagnostics.append(.warning("ics.unknown-timezone", property.value, at: mapper.location(property.line)))
                }
            }
        default:
            agenda.carried.append(property.carried)
        }
    }
}

/// Turns VEVENT, VTODO and VJOURNAL components into calendar items.
struct ItemMapper {
    let fileName: String?
    var diagnostics: [Diagnostic] = []

    func location(_ line: Int) -> SourceLocation { SourceLocation(file: fileName, line: line) }

    /// Rules already checked, by text (exports repeat the same few rules thousands of times).
    var checkedRules = TextMemo<Result<RecurrenceRule, RecurrenceError>>(limit: 10_000)
    /// CATEGORIES values already split, by text.
    var categoryLists = TextMemo<[String]>(limit: 10_000)

    /// Parameters a mapped property's field already expresses; any other parameter is kept.
    private static let datePropertyParameters = ["VALUE", "TZID"]

    /// Starts an item for a VEVENT, VTODO or VJOURNAL: a copy of an empty one (CalendarItem's
    /// initializer builds its 27 fields into a temporary and copies it).
    static func start(_ componentName: String) -> CalendarItem {
        switch componentName {
        case "VTODO": emptyTodo
        case "VJOURNAL": emptyJournal
        default: emptyEvent
        }
    }

    private static let emptyEvent = CalendarItem(kind: .event, uid: "", title: "")
    private static let emptyTodo = CalendarItem(kind: .todo, uid: "", title: "")
    private static let emptyJournal = CalendarItem(kind: .journal, uid: "", title: "")

    /// Maps one property onto the item; `seen` tracks single-valued properties, which take their
    /// first occurrence (later ones are carried).
    mutating func apply(_ property: ICalProperty, to item: inout CalendarItem, seen: inout UInt64) {
        let bit: UInt64 = 1 << UInt64(property.kind.rawValue)
        let first = seen & bit == 0
        seen |= bit
        switch property.kind {
        case .uid where first: item.uid = property.value
        case .summary where first:
            item.title = PropertyText.unescape(property.value)
            keepParameters(property, except: [], in: &item)
        case .description where first:
            item.notes = PropertyText.unescape(property.value)
            keepParameters(property, except: [], in: &item)
        case .location where first:
            item.location = PropertyText.unescape(property.value)
            keepParameters(property, except: [], in: &item)
        case .geo where first:
            let parts = property.value.split(separator: ";")
            if parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
               abs(latitude) <= 90, abs(longitude) <= 180 {
                item.geo = Geo(latitude: latitude, longitude: longitude)
            } else {
                invalid(property, "GEO (latitude;longitude)", &item)
            }
        case .dtstart where first: item.start = date(property, &item)
        case .dtend where first: item.end = date(property, &item)
        case .due where first: item.due = date(property, &item)
        case .completed where first: item.completedAt = date(property, &item)
        case .created where first: item.created = date(property, &item)
        case .lastModified where first: item.lastModified = date(property, &item)
        case .dtstamp where first: item.stamp = date(property, &item)
        case .recurrenceID where first:
            item.recurrenceID = date(property, &item, except: "RANGE")
            item.recurrenceThisAndFuture = property.parameter("RANGE")?.uppercased() == "THISANDFUTURE"
        case .duration where first:
            if (try? CalendarDuration(parsing: property.value)) != nil {
                item.duration = property.value.uppercased()
            } else {
                invalid(property, "DURATION (P1D, PT1H30M)", &item)
            }
        case .rrule:
            // Exports repeat the same few rules thousands of times: each text is read once.
            let parsed: Result<RecurrenceRule, RecurrenceError>
            if let known = checkedRules[property.value] {
                parsed = known
            } else {
                do throws(RecurrenceError) {
                    parsed = .success(try Self.rule(property.value))
                } catch {
                    // Read what other readers read: a stray `RRULE:` prefix or a part that is
                    // not NAME=VALUE (`RRULE:RRULE:AnythingRandom;FREQ=WEEKLY`, a real Google
                    // export) is dropped with a warning naming it; spaces in lists are ignored.
                    let (repaired, dropped) = Self.repairedRule(property.value)
                    if repaired != property.value, let rule = try? RecurrenceRule(parsing: repaired) {
                        if !dropped.isEmpty {
                            diagnostics.append(.warning("ics.rrule-repaired", dropped.joined(separator: ", "), repaired, at: location(property.line)))
                        }
                        parsed = .success(rule)
                    } else {
                        parsed = .failure(error)
                    }
                }
                checkedRules.remember(parsed, for: property.value)
            }
            switch parsed {
            case .failure(let problem):
                diagnostics.append(.warning("ics.invalid-rrule", problem.part, problem.reason, at: location(property.line)))
                item.carried.append(Self.setAside(property))
            case .success(let rule):
                item.recurrence = item.recurrence ?? Recurrence()
                item.recurrence!.rules.append(rule)
            }
        case .rdate where property.parameter("VALUE")?.uppercased() == "PERIOD":
            guard let periods = periodList(property, &item) else { return }
            item.recurrence = item.recurrence ?? Recurrence()
            item.recurrence!.periods += periods
        case .rdate, .exdate:
            guard let values = dateList(property, &item) else { return }
            item.recurrence = item.recurrence ?? Recurrence()
            if property.kind == .rdate { item.recurrence!.dates += values } else { item.recurrence!.exceptions += values }
        case .categories:
            // Exports repeat a few category lists: each text is split once.
            let categories: [String]
            if let known = categoryLists[property.value] {
                categories = known
            } else {
                categories = PropertyText.splitList(property.value).filter { !$0.isEmpty }
                categoryLists.remember(categories, for: property.value)
            }
            if item.categories.isEmpty { item.categories = categories } else { item.categories += categories }
        case .color where first:
            item.color = property.value
            keepParameters(property, except: [], in: &item)
        case .url where first:
            item.url = property.value
            keepParameters(property, except: [], in: &item)
        case .priority where first:
            guard let number = Int(property.value.trimmingCharacters(in: " ")), (0...9).contains(number) else {
                invalid(property, "PRIORITY (0–9)", &item)
                return
            }
            item.priority = Priority(iCalendar: number)
            // Keep the exact number when the four levels cannot say it (3 is "high", written back as 3).
            if number != item.priority.iCalendarValue { item.carried.append(property.carried) }
        case .status where first:
            item.status = property.value.utf8.contains(where: ASCII.isLowercase) ? property.value.uppercased() : property.value
            if item.status == "COMPLETED" { item.isCompleted = true }
        default:
            // A to-do's length beside its due date (see ICalendarWriter): its duration again.
            if property.name == CarriedName.estimatedDuration, item.kind == .todo, item.duration == nil,
               (try? CalendarDuration(parsing: property.value)) != nil {
                item.duration = property.value.uppercased()
                return
            }
            item.carried.append(property.carried)
        }
    }

    /// `apply` for a property written with no parameters, from its value's bytes, for the kinds
    /// most lines are; false, with nothing done, when it needs the whole property: a later
    /// occurrence of a single-valued one (carried), a date that does not read (a warning), a rule
    /// or category list not met before in this file (read and remembered there).
    mutating func applyPlain(_ kind: PropertyKind, _ value: ByteView, _ parameters: DateParameters,
                             to item: inout CalendarItem, seen: inout UInt64) -> Bool {
        let bit: UInt64 = 1 << UInt64(kind.rawValue)
        let first = seen & bit == 0
        if kind.isDate {
            guard first, let date = Self.date(value, parameters) else { return false }
            switch kind {
            case .dtstart: item.start = date
            case .dtend: item.end = date
            case .due: item.due = date
            case .completed: item.completedAt = date
            case .created: item.created = date
            case .lastModified: item.lastModified = date
            default: item.stamp = date
            }
            seen |= bit
            return true
        }
        switch kind {
        case .uid where first: item.uid = value.string
        case .summary where first: item.title = PropertyText.unescape(value)
        case .description where first: item.notes = PropertyText.unescape(value)
        case .location where first: item.location = PropertyText.unescape(value)
        case .rrule:
            guard case .success(let rule)? = checkedRules[value] else { return false }
            item.recurrence = item.recurrence ?? Recurrence()
            item.recurrence!.rules.append(rule)
        case .categories:
            guard let categories = categoryLists[value] else { return false }
            if item.categories.isEmpty { item.categories = categories } else { item.categories += categories }
        default:
            return false
        }
        seen |= bit
        return true
    }

    /// A date property's value read as `date` reads it, when that gives no warning: it reads, and
    /// VALUE, if written, is DATE or DATE-TIME as its shape is (the rest is `date`'s to say).
    @inline(__always)
    static func date(_ value: ByteView, _ parameters: DateParameters) -> DateValue? {
        guard let date = try? BasicDateTime.parse(value, tzid: parameters.tzid) else { return nil }
        let type = parameters.valueType
        guard !type.isEmpty else { return date }
        let isDate = if case .date = date { true } else { false }
        return type.matchesIgnoringCase(0, type.count, isDate ? "DATE" : "DATE-TIME") ? date : nil
    }

    /// An RRULE's text read as a rule, remembered for the whole process: a batch of exports from
    /// one app repeats the same few rules file after file, and reading one costs more than
    /// converting a small item (each file also remembers its own answers, with the warnings
    /// they gave).
    static func rule(_ text: String) throws(RecurrenceError) -> RecurrenceRule {
        if let known = knownRules.withLock({ $0[text] }) { return try known.get() }
        let parsed: Result<RecurrenceRule, RecurrenceError>
        do throws(RecurrenceError) { parsed = .success(try RecurrenceRule(parsing: text)) } catch { parsed = .failure(error) }
        knownRules.withLock { rules in
            rules.remember(parsed, for: text)
        }
        return try parsed.get()
    }

    private static let knownRules = Locked(TextMemo<Result<RecurrenceRule, RecurrenceError>>(limit: 4_096))

    /// An RRULE value without the parts no reader can use: spaces, a leading `RRULE:`, empty
    /// parts and parts that are not NAME=VALUE (named in `dropped`).
    static func repairedRule(_ text: String) -> (text: String, dropped: [String]) {
        var rest = Substring(text.filter { $0 != " " && $0 != "\t" })
        var dropped: [String] = []
        while rest.uppercased().hasPrefix("RRULE:") {
            dropped.append(String(rest.prefix(6)))
            rest = rest.dropFirst(6)
        }
        var kept: [Substring] = []
        for part in rest.split(separator: ";", omittingEmptySubsequences: true) {
            if part.contains("="), part.first != "=" { kept.append(part) } else { dropped.append(String(part)) }
        }
        return (kept.joined(separator: ";"), dropped)
    }

    /// A sub-component of the item: an alarm, or something carried.
    mutating func child(_ component: ICalComponent, of item: inout CalendarItem) {
        if component.name == "VALARM" {
            // An alarm no field can hold (no TRIGGER, or one that cannot be read) is carried as
            // written, as every component the model has no place for.
            if let alarm = alarm(from: component) { item.alarms.append(alarm) } else { item.carriedComponents.append(component.text) }
        } else {
            item.carriedComponents.append(component.text)
        }
    }

    /// Completes an item: derived fields, and a stable UID for items that came without one.
    mutating func finish(_ item: inout CalendarItem, line: Int) {
        if item.completedAt != nil { item.isCompleted = true }
        if item.uid.isEmpty {
            item.uid = "almanac-" + Self.hash(Self.identityText(item))
            diagnostics.append(.warning("ics.missing-uid", item.uid, at: location(line)))
        }
    }

    /// Maps a whole component (for callers that already have one).
    mutating func item(from component: ICalComponent) -> CalendarItem {
        var item = Self.start(component.name)
        var seen: UInt64 = 0
        for property in component.properties { apply(property, to: &item, seen: &seen) }
        for child in component.components { self.child(child, of: &item) }
        finish(&item, line: component.line)
        return item
    }

    private mutating func alarm(from component: ICalComponent) -> Alarm? {
        var alarm = Alarm(trigger: .relative(seconds: 0, fromEnd: false))
        var hasTrigger = false
        for property in component.properties {
            switch property.kind {
            case .action:
                let action: Alarm.Action? = switch property.value {
                case "DISPLAY": .display
                case "AUDIO": .audio
                case "EMAIL": .email
                default: Alarm.Action(rawValue: property.value.lowercased())
                }
                if let action { alarm.action = action } else { alarm.carried.append(property.carried) }
            case .trigger where !hasTrigger:
                if property.parameter("VALUE")?.uppercased() == "DATE-TIME"
                    || property.value.utf8.count >= 15 && !property.value.utf8.contains(UInt8(ascii: "P")) {
                    guard let value = try? BasicDateTime.parse(property.value, tzid: nil) else {
                        diagnostics.append(.warning("ics.invalid-trigger", property.value, at: location(property.line)))
                        return nil
                    }
                    alarm.trigger = .absolute(value)
                } else {
                    guard let duration = try? CalendarDuration(parsing: property.value) else {
                        diagnostics.append(.warning("ics.invalid-trigger", property.value, at: location(property.line)))
                        return nil
                    }
                    alarm.trigger = .relative(seconds: duration.totalSeconds,
                                              fromEnd: property.parameter("RELATED")?.uppercased() == "END")
                }
                hasTrigger = true
            case .description where alarm.message == nil:
                alarm.message = PropertyText.unescape(property.value)
            default:
                alarm.carried.append(property.carried)
            }
        }
        guard hasTrigger else {
            diagnostics.append(.warning("ics.alarm-without-trigger", at: location(component.line)))
            return nil
        }
        return alarm
    }

    private mutating func date(_ property: ICalProperty, _ item: inout CalendarItem, except: String? = nil) -> DateValue? {
        let type = property.parameter("VALUE")?.uppercased()
        if let value = byShape(property.value, tzid: property.parameter("TZID"), declared: type, property) {
            keepParameters(property, except: Self.datePropertyParameters, also: except, in: &item)
            return value
        }
        invalid(property, "a date (20250305) or date-time (20250305T143000, …Z)", &item)
        return nil
    }

    /// A date or date-time value. One whose VALUE parameter contradicts its shape
    /// (`DTSTART;VALUE=DATE:20110804T120000`, as one exporter writes every event) is read by its
    /// shape, with a warning naming both.
    private mutating func byShape(_ text: String, tzid: String?, declared: String?, _ property: ICalProperty) -> DateValue? {
        guard let value = try? BasicDateTime.parse(text, tzid: tzid, valueType: declared == "DATE" ? nil : declared) else { return nil }
        if let declared, declared == "DATE" || declared == "DATE-TIME" {
            let shape = if case .date = value { "DATE" } else { "DATE-TIME" }
            if shape != declared {
                diagnostics.append(.warning("ics.value-type-mismatch", property.name, declared, text, shape, at: location(property.line)))
            }
        }
        return value
    }

    private mutating func dateList(_ property: ICalProperty, _ item: inout CalendarItem) -> [DateValue]? {
        var values: [DateValue] = []
        let tzid = property.parameter("TZID")
        let type = property.parameter("VALUE")?.uppercased()
        for part in property.value.split(separator: ",") {
            // RDATE periods are read by `periodList`; an EXDATE written as PERIOD (not RFC 5545,
            // tolerated) excludes the period's start.
            let text = type == "PERIOD" ? String(part.split(separator: "/").first ?? part) : String(part)
            let trimmed = text.trimmingCharacters(in: " ")
            let declared = type == "PERIOD" ? nil : type
            guard let value = byShape(trimmed, tzid: tzid, declared: declared, property) else {
                invalid(property, "dates or date-times separated by commas", &item)
                return nil
            }
            values.append(value)
        }
        return values
    }

    /// RDATE;VALUE=PERIOD: each `start/end` or `start/duration`.
    private mutating func periodList(_ property: ICalProperty, _ item: inout CalendarItem) -> [Period]? {
        var periods: [Period] = []
        let tzid = property.parameter("TZID")
        for part in property.value.split(separator: ",") {
            let pieces = String(part).trimmingCharacters(in: " " as Character).split(separator: "/", maxSplits: 1).map(String.init)
            guard pieces.count == 2, let start = try? BasicDateTime.parse(pieces[0], tzid: tzid) else {
                invalid(property, "periods (19970101T180000Z/19970102T070000Z or …/PT5H30M) separated by commas", &item)
                return nil
            }
            if let end = try? BasicDateTime.parse(pieces[1], tzid: tzid) {
                periods.append(Period(start: start, end: end))
            } else if (try? CalendarDuration(parsing: pieces[1])) != nil {
                periods.append(Period(start: start, duration: pieces[1].uppercased()))
            } else {
                invalid(property, "periods (19970101T180000Z/19970102T070000Z or …/PT5H30M) separated by commas", &item)
                return nil
            }
        }
        keepParameters(property, except: Self.datePropertyParameters, in: &item)
        return periods
    }

    /// Carries the parameters of a mapped property that its field does not express (`except` and
    /// `also` name those that it does: a short list compared name by name, as a Set hashed every
    /// name, and building a union cost an allocation, for every date property).
    private mutating func keepParameters(_ property: ICalProperty, except: [String], also: String? = nil, in item: inout CalendarItem) {
        guard !property.parameters.isEmpty else { return }
        if property.parameters.allSatisfy({ except.contains($0.name) || $0.name == also }) { return }
        // VALUE naming the property's default type says nothing (URL;VALUE=URI is URL).
        let defaultType = property.parameters.contains { $0.name == "VALUE" }
            ? ICalValueType.of(property.name, parameters: [], value: property.value).rawValue.uppercased() : ""
        let extra = property.parameters.filter {
            !except.contains($0.name) && $0.name != also && !($0.name == "VALUE" && $0.values.map { $0.uppercased() } == [defaultType])
        }
        if !extra.isEmpty { item.parameters[property.name, default: []] += extra }
    }

    /// A value that cannot be read is kept as written (carried) with a located warning.
    private mutating func invalid(_ property: ICalProperty, _ expected: String, _ item: inout CalendarItem) {
        diagnostics.append(.warning("ics.invalid-value", property.name, expected, at: location(property.line)))
        item.carried.append(Self.setAside(property))
    }

    /// A standard property with an unreadable value is kept as written under an X- name
    /// (`X-ALMANAC-INVALID-DTSTART`): nothing is lost, and what Almanac writes stays valid.
    static func setAside(_ property: ICalProperty) -> CarriedProperty {
        CarriedProperty(name: CarriedName.invalid(property.name), parameters: property.parameters, value: property.value)
    }

    /// A stable id for items that came without one.
    static func hash(_ text: String) -> String { StableHash.hex(text) }

    /// The text an item without a UID is identified by: its description, with the parameters of
    /// its mapped properties in the order of their names (a dictionary describes itself in the
    /// order of its storage, which differs between two equal dictionaries, and from one run to
    /// the next: the id of an item with two such properties changed each time it was read).
    static func identityText(_ item: CalendarItem) -> String {
        guard item.parameters.count > 1 else { return String(describing: item) }
        var withoutParameters = item
        withoutParameters.parameters = [:]
        return String(describing: withoutParameters) + String(describing: item.parameters.sorted { $0.key < $1.key })
    }
}

extension CalendarItem {
    /// x-wr-timezone's conversion: UTC times become wall times in the zone, floating times get the zone.
    mutating func applyCalendarZone(_ clock: ICUWallClock) {
        let zone = clock.zone
        func convert(_ value: DateValue?) -> DateValue? {
            guard let value else { return nil }
            switch value {
            case .utc, .offset:
                let instant = Date(timeIntervalSince1970: Double(value.utcTime!.secondsSinceEpoch))
                return .zoned(clock.wallTime(at: instant), zone: zone.identifier)
            case .floating(let time):
                return .zoned(time, zone: zone.identifier)
            case .date, .zoned:
                return value
            }
        }
        start = convert(start)
        end = convert(end)
        due = convert(due)
        recurrenceID = convert(recurrenceID)
        if var recurrence, !recurrence.dates.isEmpty || !recurrence.periods.isEmpty || !recurrence.exceptions.isEmpty {
            recurrence.dates = recurrence.dates.compactMap(convert)
            recurrence.periods = recurrence.periods.map { Period(start: convert($0.start) ?? $0.start, end: convert($0.end), duration: $0.duration) }
            recurrence.exceptions = recurrence.exceptions.compactMap(convert)
            self.recurrence = recurrence
        }
    }
}

extension String {
    func trimmingCharacters(in set: Character) -> String {
        var text = Substring(self)
        while text.first == set { text = text.dropFirst() }
        while text.last == set { text = text.dropLast() }
        return String(text)
    }
}

