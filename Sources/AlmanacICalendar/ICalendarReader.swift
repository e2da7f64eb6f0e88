public import AlmanacCore
public import AlmanacICU
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
        var items: [CalendarItem] = []
        var result = try stream(bytes, fileName: fileName) { (item) throws(Diagnostic) in items.append(item) }
        result.agenda.items = items
        return result
    }

    /// Reads a file, handing each item to `onItem` as soon as it is complete (constant memory
    /// apart from the calendar's header, time zones and carried components).
    public func stream(
        _ input: [UInt8], fileName: String?, onItem: (CalendarItem) throws(Diagnostic) -> Void
    ) throws(Diagnostic) -> (agenda: Agenda, diagnostics: [Diagnostic], encoding: String) {
        let (bytes, encoding, charsetNotes) = try Self.utf8(input, fileName: fileName, declared: options.encoding)
        var parser = ICalParser(bytes: bytes, fileName: fileName, limits: options.limits)
        var agenda = Agenda()
        var mapper = ItemMapper(fileName: fileName)
        var calendarZone: TimeZoneID?
        var itemCount = 0
        _ = try parser.parse(
            onProperty: { (property) throws(Diagnostic) in
                switch property.name {
                case "VERSION":
                    if property.value != "2.0" {
                        mapper.diagnostics.append(.warning("ics.version", property.value, at: mapper.location(property.line)))
                    }
                case "PRODID":
                    break
                case "CALSCALE" where property.value.uppercased() == "GREGORIAN":
                    break
                case "X-WR-CALNAME":
                    if agenda.name == nil { agenda.name = ICalText.unescape(property.value) } else { agenda.carried.append(property.carried) }
                case "NAME":
                    let name = ICalText.unescape(property.value)
                    if agenda.name == nil { agenda.name = name } else if agenda.name != name { agenda.carried.append(property.carried) }
                case "X-WR-TIMEZONE":
                    agenda.timeZone = property.value
                    if options.applyCalendarTimeZone {
                        calendarZone = TimeZoneID.resolve(property.value)?.zone
                        if calendarZone == nil {
                            mapper.diagnostics.append(.warning("ics.unknown-timezone", property.value, at: mapper.location(property.line)))
                        }
                    }
                default:
                    agenda.carried.append(property.carried)
                }
            },
            onComponent: { (component) throws(Diagnostic) in
                switch component.name {
                case "VEVENT", "VTODO", "VJOURNAL":
                    var item = mapper.item(from: component)
                    if let calendarZone { item.applyCalendarZone(calendarZone) }
                    itemCount += 1
                    try onItem(item)
                case "VTIMEZONE":
                    if let id = component.property("TZID")?.value, !id.isEmpty {
                        agenda.timeZones.append(TimeZoneDefinition(id: id, definition: component.text))
                    } else {
                        mapper.diagnostics.append(.warning("ics.timezone-without-id", at: mapper.location(component.line)))
                    }
                default:
                    agenda.carriedComponents.append(component.text)
                }
            })
        return (agenda, charsetNotes + parser.diagnostics + mapper.diagnostics, encoding)
    }

    /// The input as UTF-8 without a BOM: UTF-16 and legacy charsets are converted, with a note.
    static func utf8(_ input: [UInt8], fileName: String?, declared: Charset?) throws(Diagnostic) -> ([UInt8], String, [Diagnostic]) {
        let detection = CharsetDetector.detect(input.prefix(CharsetDetector.sampleSize), declared: declared,
                                               isComplete: input.count <= CharsetDetector.sampleSize)
        let body = Array(input.dropFirst(detection.byteOrderMarkLength))
        if detection.charset == .utf8 {
            // Validate once here, so every later decode of a slice is cheap.
            if let offset = UTF8ValidationCheck.firstInvalid(body) {
                // Not UTF-8 after all (the sample looked clean): try the legacy guess on the whole file.
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

/// UTF-8 validity of a whole buffer, quickly: ASCII runs are skipped eight bytes at a time.
enum UTF8ValidationCheck {
    static func firstInvalid(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { buffer -> Int? in
            let count = buffer.count
            var index = 0
            while index < count {
                if index + 8 <= count {
                    let word = UnsafeRawPointer(buffer.baseAddress! + index).loadUnaligned(as: UInt64.self)
                    if word & 0x8080_8080_8080_8080 == 0 {
                        index += 8
                        continue
                    }
                }
                let byte = buffer[index]
                if byte < 0x80 {
                    index += 1
                    continue
                }
                let length: Int
                var low: UInt8 = 0x80
                var high: UInt8 = 0xBF
                switch byte {
                case 0xC2...0xDF: length = 2
                case 0xE0: length = 3; low = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: length = 3
                case 0xED: length = 3; high = 0x9F
                case 0xF0: length = 4; low = 0x90
                case 0xF1...0xF3: length = 4
                case 0xF4: length = 4; high = 0x8F
                default: return index
                }
                guard index + length <= count else { return index }
                let second = buffer[index + 1]
                guard second >= low, second <= high else { return index }
                for next in 2..<length where buffer[index + next] & 0xC0 != 0x80 { return index }
                index += length
            }
            return nil
        }
    }
}

/// Turns VEVENT, VTODO and VJOURNAL components into calendar items.
struct ItemMapper {
    let fileName: String?
    var diagnostics: [Diagnostic] = []

    func location(_ line: Int) -> SourceLocation { SourceLocation(file: fileName, line: line) }

    /// Parameters a mapped property's field already expresses; any other parameter is kept.
    private static let datePropertyParameters: Set<String> = ["VALUE", "TZID"]

    mutating func item(from component: ICalComponent) -> CalendarItem {
        let kind: CalendarItem.Kind = switch component.name {
        case "VTODO": .todo
        case "VJOURNAL": .journal
        default: .event
        }
        var item = CalendarItem(kind: kind, uid: "", title: "")
        var seen = Set<String>()
        for property in component.properties {
            let first = seen.insert(property.name).inserted
            switch property.name {
            case "UID" where first: item.uid = property.value
            case "SUMMARY" where first:
                item.title = ICalText.unescape(property.value)
                keepParameters(property, except: [], in: &item)
            case "DESCRIPTION" where first:
                item.notes = ICalText.unescape(property.value)
                keepParameters(property, except: [], in: &item)
            case "LOCATION" where first:
                item.location = ICalText.unescape(property.value)
                keepParameters(property, except: [], in: &item)
            case "GEO" where first:
                let parts = property.value.split(separator: ";")
                if parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
                   abs(latitude) <= 90, abs(longitude) <= 180 {
                    item.geo = Geo(latitude: latitude, longitude: longitude)
                } else {
                    invalid(property, "GEO (latitude;longitude)", &item)
                }
            case "DTSTART" where first: item.start = date(property, &item)
            case "DTEND" where first: item.end = date(property, &item)
            case "DUE" where first: item.due = date(property, &item)
            case "COMPLETED" where first: item.completedAt = date(property, &item)
            case "CREATED" where first: item.created = date(property, &item)
            case "LAST-MODIFIED" where first: item.lastModified = date(property, &item)
            case "RECURRENCE-ID" where first:
                item.recurrenceID = date(property, &item, except: ["RANGE"])
                item.recurrenceThisAndFuture = property.parameter("RANGE")?.uppercased() == "THISANDFUTURE"
            case "DURATION" where first:
                if (try? ICalDuration(parsing: property.value)) != nil {
                    item.duration = property.value.uppercased()
                } else {
                    invalid(property, "DURATION (P1D, PT1H30M)", &item)
                }
            case "RRULE":
                do {
                    _ = try RecurrenceRule(parsing: property.value)
                    item.recurrence = item.recurrence ?? Recurrence()
                    item.recurrence!.rules.append(property.value)
                } catch {
                    diagnostics.append(.warning("ics.invalid-rrule", error.part, error.reason, at: location(property.line)))
                    item.carried.append(property.carried)
                }
            case "RDATE", "EXDATE":
                guard let values = dateList(property, &item) else { continue }
                item.recurrence = item.recurrence ?? Recurrence()
                if property.name == "RDATE" { item.recurrence!.dates += values } else { item.recurrence!.exceptions += values }
            case "CATEGORIES":
                item.categories += ICalText.splitList(property.value).filter { !$0.isEmpty }
            case "COLOR" where first: item.color = property.value
            case "URL" where first: item.url = property.value
            case "PRIORITY" where first:
                guard let number = Int(property.value.trimmingCharacters(in: " ")), (0...9).contains(number) else {
                    invalid(property, "PRIORITY (0–9)", &item)
                    continue
                }
                item.priority = Priority(iCalendar: number)
                // Keep the exact number when the four levels cannot say it (3 is "high", written back as 3).
                if number != item.priority.iCalendarValue { item.carried.append(property.carried) }
            case "STATUS" where first:
                item.status = property.value.uppercased()
                if item.status == "COMPLETED" { item.isCompleted = true }
            default:
                item.carried.append(property.carried)
            }
        }
        if item.completedAt != nil { item.isCompleted = true }
        for child in component.components {
            if child.name == "VALARM" {
                alarm(from: child).map { item.alarms.append($0) }
            } else {
                item.carriedComponents.append(child.text)
            }
        }
        if item.uid.isEmpty {
            item.uid = "almanac-" + Self.hash(component.text)
            diagnostics.append(.warning("ics.missing-uid", item.uid, at: location(component.line)))
        }
        return item
    }

    private mutating func alarm(from component: ICalComponent) -> Alarm? {
        var alarm = Alarm(trigger: .relative(seconds: 0, fromEnd: false))
        var hasTrigger = false
        for property in component.properties {
            switch property.name {
            case "ACTION":
                if let action = Alarm.Action(rawValue: property.value.lowercased()) {
                    alarm.action = action
                } else {
                    alarm.carried.append(property.carried)
                }
            case "TRIGGER" where !hasTrigger:
                if property.parameter("VALUE")?.uppercased() == "DATE-TIME" || property.value.count >= 15 && !property.value.contains("P") {
                    guard let value = try? ICalDateTime.parse(property.value, tzid: nil) else {
                        diagnostics.append(.warning("ics.invalid-value", "TRIGGER", property.value, at: location(property.line)))
                        return nil
                    }
                    alarm.trigger = .absolute(value)
                } else {
                    guard let duration = try? ICalDuration(parsing: property.value) else {
                        diagnostics.append(.warning("ics.invalid-value", "TRIGGER", property.value, at: location(property.line)))
                        return nil
                    }
                    alarm.trigger = .relative(seconds: duration.totalSeconds,
                                              fromEnd: property.parameter("RELATED")?.uppercased() == "END")
                }
                hasTrigger = true
            case "DESCRIPTION" where alarm.message == nil:
                alarm.message = ICalText.unescape(property.value)
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

    private mutating func date(_ property: ICalProperty, _ item: inout CalendarItem, except: Set<String> = []) -> DateValue? {
        do {
            let value = try ICalDateTime.parse(property.value, tzid: property.parameter("TZID"),
                                               valueType: property.parameter("VALUE")?.uppercased())
            keepParameters(property, except: Self.datePropertyParameters.union(except), in: &item)
            return value
        } catch {
            invalid(property, "a date (20250305) or date-time (20250305T143000, …Z)", &item)
            return nil
        }
    }

    private mutating func dateList(_ property: ICalProperty, _ item: inout CalendarItem) -> [DateValue]? {
        var values: [DateValue] = []
        let tzid = property.parameter("TZID")
        let type = property.parameter("VALUE")?.uppercased()
        for part in property.value.split(separator: ",") {
            // A PERIOD (start/end or start/duration) contributes its start.
            let text = type == "PERIOD" ? String(part.split(separator: "/").first ?? part) : String(part)
            guard let value = try? ICalDateTime.parse(text.trimmingCharacters(in: " "), tzid: tzid, valueType: type == "PERIOD" ? nil : type) else {
                invalid(property, "dates or date-times separated by commas", &item)
                return nil
            }
            values.append(value)
        }
        return values
    }

    private mutating func keepParameters(_ property: ICalProperty, except: Set<String>, in item: inout CalendarItem) {
        let extra = property.parameters.filter { !except.contains($0.name) }
        if !extra.isEmpty { item.parameters[property.name, default: []] += extra }
    }

    /// A value that cannot be read is kept as written (carried) with a located warning.
    private mutating func invalid(_ property: ICalProperty, _ expected: String, _ item: inout CalendarItem) {
        diagnostics.append(.warning("ics.invalid-value", property.name, expected, at: location(property.line)))
        item.carried.append(property.carried)
    }

    /// FNV-1a, for stable ids of items that came without one.
    static func hash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}

extension CalendarItem {
    /// x-wr-timezone's conversion: UTC times become wall times in the zone, floating times get the zone.
    mutating func applyCalendarZone(_ zone: TimeZoneID) {
        func convert(_ value: DateValue?) -> DateValue? {
            guard let value else { return nil }
            switch value {
            case .utc(let time):
                let instant = Date(timeIntervalSince1970: Double(time.secondsSinceEpoch))
                return .zoned(zone.wallTime(at: instant), zone: zone.identifier)
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
        if var recurrence {
            recurrence.dates = recurrence.dates.compactMap(convert)
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

