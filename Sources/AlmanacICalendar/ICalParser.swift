import AlmanacCore
import AlmanacICU

/// Reads iCalendar content lines from UTF-8 bytes, tolerating what real exports do: CRLF, LF or
/// CR line ends, folds with a space or a tab (also inside a UTF-8 sequence: lines are joined as
/// bytes before they are decoded, and across blank lines, as Python's icalendar unfolds them),
/// RFC 6868 parameter escapes, property groups (`ITEM1.X-LABEL`), blank space before the first
/// line, bare components with no VCALENDAR around them (as CalDAV servers store them: wrapped,
/// with a warning), a calendar whose END:VCALENDAR is missing after a complete last component
/// (a warning), and broken lines (a located warning; the rest of the file is still read).
/// Reports components and properties as events, so a reader can build its model directly, in
/// constant memory per item.
struct ICalParser {
    let fileName: String?
    let limits: ICalLimits
    var diagnostics: [Diagnostic] = []
    /// Check that each logical line is UTF-8, throwing `notUTF8` when one is not (the reader
    /// then converts the file from its real charset and starts again).
    var validatesUTF8 = false
    static let notUTF8 = Diagnostic.internal(.internalNotUTF8)
    static let componentNames = PackedNameTable([
        "VCALENDAR", "VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE", "VALARM", "STANDARD", "DAYLIGHT",
        "VAVAILABILITY", "AVAILABLE", "VLOCATION", "VRESOURCE", "PARTICIPANT",
    ].map { ($0, ()) })
    /// The components that sit directly in a calendar and never nest.
    static let topLevelNames = ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE"]
    /// Whether `name` is one of `topLevelNames`, asked at every BEGIN: compared by length first,
    /// because two different short strings compare slowly (the standard library checks them for
    /// canonical equivalence before it says they differ), and not hashed.
    @inline(__always)
    static func isTopLevel(_ name: String) -> Bool {
        let length = name.utf8.count
        return topLevelNames.contains { $0.utf8.count == length && $0 == name }
    }
    /// Components a file may hold without a VCALENDAR around them (a CalDAV resource, a fragment
    /// cut out of a calendar): read as if wrapped in one.
    static let bareNames = Set(topLevelNames + ["VALARM", "VAVAILABILITY"])

    private var open: [(name: String, line: Int)] = []
    private var components = 0
    private var sawContent = false
    /// The file began with a bare component: the VCALENDAR around it was supplied.
    private var suppliedCalendar = false
    private var line = 1
    /// The end of the previous chunk that did not yet form a complete logical line.
    private var carry: [UInt8] = []
    private var scratch: [UInt8] = []
    private let lines = PropertyLineReader()

    init(fileName: String?, limits: ICalLimits = .default) {
        self.fileName = fileName
        self.limits = limits
    }

    func location(_ line: Int, _ column: Int? = nil) -> SourceLocation {
        SourceLocation(file: fileName, line: line, column: column)
    }

    /// Parses a whole input in memory.
    mutating func parse<Events: ICalEvents>(_ bytes: [UInt8], into events: inout Events) throws(Diagnostic) {
        try feed(bytes, isLast: true, into: &events)
        try finish(into: &events)
    }

    /// Parses the next piece of the input. Lines that may continue in the next piece (the last
    /// one, or one the next piece might fold onto) wait for it.
    mutating func feed<Events: ICalEvents>(_ chunk: [UInt8], isLast: Bool, into events: inout Events) throws(Diagnostic) {
        // The line carried from the last piece ends at this piece's first logical line boundary:
        // only it is joined with the carry, the rest is read where it is (joining the carry with
        // the whole piece copied every megabyte of a large file once more).
        var start = 0
        if !carry.isEmpty {
            if isLast {
                let joined = carry + chunk
                carry = []
                try scan(joined, from: 0, upTo: joined.count, into: &events)
                return
            }
            guard let first = Self.firstLogicalLineBoundary(chunk, after: carry.last!) else {
                carry += chunk
                if carry.count > limits.maxLineBytes + 8 {
                    throw Diagnostic.error(.icsLineTooLong(limit: String(limits.maxLineBytes)), at: location(line))
                }
                return
            }
            let joined = carry + chunk[0..<first]
            carry = []
            try scan(joined, from: 0, upTo: joined.count, into: &events)
            start = first
        }
        let end = isLast ? chunk.count : max(start, Self.lastLogicalLineBoundary(chunk))
        if !isLast, end < chunk.count {
            carry = Array(chunk[end...])
            if carry.count > limits.maxLineBytes + 8 {
                throw Diagnostic.error(.icsLineTooLong(limit: String(limits.maxLineBytes)), at: location(line))
            }
        }
        try scan(chunk, from: start, upTo: end, into: &events)
    }

    /// Reads the whole logical lines in `bytes[start..<end]`. Bytes that are UTF-8 as they stand
    /// are so once unfolded (a fold only takes out ASCII between whole characters): one pass over
    /// the piece instead of one call a line. Only a piece that is not (a fold inside a character,
    /// or another charset) is checked line by line.
    private mutating func scan<Events: ICalEvents>(_ bytes: [UInt8], from start: Int, upTo end: Int, into events: inout Events) throws(Diagnostic) {
        guard start < end else { return }
        try bytes.withByteView { (buffer) throws(Diagnostic) in
            let piece = buffer[start..<end]
            let linesNeedChecking = validatesUTF8 && !UTF8Validation.isValid(piece)
            try scan(piece, upTo: piece.count, checkingLines: linesNeedChecking, into: &events)
        }
    }

    /// The index just after the first line break in `buffer` that is followed by the start of a
    /// new logical line, the byte before the buffer being `previous` (0 when the buffer starts
    /// one); nil when there is none.
    static func firstLogicalLineBoundary(_ buffer: [UInt8], after previous: UInt8) -> Int? {
        guard let firstByte = buffer.first else { return nil }
        if previous == ASCII.lineFeed || (previous == ASCII.carriageReturn && firstByte != ASCII.lineFeed), startsLine(firstByte) { return 0 }
        var index = 0
        while index + 1 < buffer.count {
            let byte = buffer[index]
            if byte == ASCII.lineFeed || (byte == ASCII.carriageReturn && buffer[index + 1] != ASCII.lineFeed), startsLine(buffer[index + 1]) { return index + 1 }
            index += 1
        }
        return nil
    }

    /// Whether a line starting with `byte` starts a new logical line: not a fold's space or tab,
    /// nor a line break.
    @inline(__always)
    private static func startsLine(_ byte: UInt8) -> Bool {
        byte != ASCII.space && byte != ASCII.tab && byte != ASCII.lineFeed && byte != ASCII.carriageReturn
    }

    /// Ends the input: components left open are closed with a warning.
    mutating func finish<Events: ICalEvents>(into events: inout Events) throws(Diagnostic) {
        if !carry.isEmpty {
            let rest = carry
            carry = []
            try scan(rest, from: 0, upTo: rest.count, into: &events)
        }
        if !sawContent { throw Diagnostic.error(.icsNotIcalendar, at: location(1)) }
        // A calendar that stops inside a component was cut off (a download or attachment that
        // did not finish): how much is missing cannot be known, so it is not converted as if
        // whole. One whose last component is complete but whose END:VCALENDAR is missing lost
        // at most that line (or never had it): its components are kept, with a warning.
        if let calendarIndex = open.firstIndex(where: { $0.name == "VCALENDAR" }) {
            let calendar = open[calendarIndex]
            if let innermost = open.last, open.count > calendarIndex + 1 {
                throw Diagnostic.error(.icsTruncated(component: innermost.name, line: String(innermost.line), calendarLine: String(calendar.line)), at: location(line))
            }
            if !suppliedCalendar {
                diagnostics.append(.warning(.icsCalendarUnclosed(line: String(calendar.line)), at: location(line)))
            }
            open.removeLast()
            try events.end("VCALENDAR", line: line)
        }
        while let unclosed = open.popLast() {
            diagnostics.append(.warning(.icsUnclosedComponent(component: unclosed.name, line: String(unclosed.line)), at: location(line)))
            try events.endUnclosed(unclosed.name, line: line)
        }
    }

    /// The index just after the last line break that is followed by the start of a new logical
    /// line (not a space or tab, which would fold onto it); 0 when there is none.
    static func lastLogicalLineBoundary(_ buffer: [UInt8]) -> Int {
        var index = buffer.count - 2
        while index >= 0 {
            let byte = buffer[index]
            if byte == ASCII.lineFeed || (byte == ASCII.carriageReturn && buffer[index + 1] != ASCII.lineFeed) {
                // A blank line may sit between a line and its continuation (see `foldStart`).
                if startsLine(buffer[index + 1]) { return index + 1 }
            }
            index -= 1
        }
        return 0
    }

    private mutating func scan<Events: ICalEvents>(_ bytes: ByteView, upTo count: Int, checkingLines: Bool,
                                                   into events: inout Events) throws(Diagnostic) {
        let lines = self.lines
        var index = 0
        while index < count {
            // One logical line: a physical line plus the continuation lines that follow it.
            let startLine = line
            let end = Self.lineEnd(bytes, index, count)
            var next = Self.lineBreakEnd(bytes, end, count)
            line += end < count ? 1 : 0
            var folded = false
            if end > index, Self.foldStart(bytes, next, count) != nil {
                folded = true
                scratch.removeAll(keepingCapacity: true)
                bytes.append(index, end, to: &scratch)
                while let start = Self.foldStart(bytes, next, count) {
                    line += start.blankLines
                    let continuationEnd = Self.lineEnd(bytes, start.index + 1, count)
                    bytes.append(start.index + 1, continuationEnd, to: &scratch)
                    if scratch.count > limits.maxLineBytes { break }
                    line += continuationEnd < count ? 1 : 0
                    next = Self.lineBreakEnd(bytes, continuationEnd, count)
                }
            }
            var lineStart = index
            if !sawContent {
                // Blank space before the first line (templates, hand-made files) is not content.
                if folded {
                    let blank = scratch.prefix { $0 == ASCII.space || $0 == ASCII.tab }.count
                    if blank > 0 { scratch.removeFirst(blank) }
                } else {
                    while lineStart < end, bytes[lineStart] == ASCII.space || bytes[lineStart] == ASCII.tab { lineStart += 1 }
                }
            }
            let logicalLength = folded ? scratch.count : end - lineStart
            index = next
            if logicalLength == 0 { continue }
            if logicalLength > limits.maxLineBytes {
                throw Diagnostic.error(.icsLineTooLong(limit: String(limits.maxLineBytes)), at: location(startLine))
            }

            if checkingLines {
                let valid = folded
                    ? scratch.withByteView(UTF8Validation.isValid)
                    : UTF8Validation.isValid(bytes, lineStart, end)
                if !valid { throw Self.notUTF8 }
            }
            // A BEGIN or END of a known component, written plainly (a third of a calendar's
            // lines), is read without making a property: the component's name is the table's.
            let component = folded ? nil : Self.componentLine(bytes, lineStart, end)
            let property: ICalProperty
            let kind: PropertyKind
            let componentName: String
            if let component {
                property = Self.noProperty
                (kind, componentName) = component
            } else {
                let inContent = sawContent && !open.isEmpty
                let (parsed, taken) = folded
                    ? scratch.withByteView { lines.read($0, 0, $0.count, line: startLine, inContent: inContent, into: &events) }
                    : lines.read(bytes, lineStart, end, line: startLine, inContent: inContent, into: &events)
                if taken { continue }
                guard let parsed else {
                    if !sawContent {
                        throw Diagnostic.error(.icsNotIcalendar, at: location(startLine))
                    }
                    let preview = String(decoding: folded ? Array(scratch.prefix(40)) : bytes.bytes(lineStart, min(end, lineStart + 40)), as: UTF8.self)
                    diagnostics.append(.warning(.icsBrokenLine(line: preview), at: location(startLine)))
                    continue
                }
                property = parsed
                kind = parsed.kind
                // A component's name has no spaces: `END:VEVENT ` (a padded line) ends a VEVENT.
                componentName = kind == .begin || kind == .end ? asciiUppercased(parsed.value.trimmingTrailingSpaces()) : ""
            }
            if !sawContent {
                guard kind == .begin else { throw Diagnostic.error(.icsNotIcalendar, at: location(startLine)) }
                let name = componentName
                if name != "VCALENDAR" {
                    guard Self.bareNames.contains(name) else { throw Diagnostic.error(.icsNotIcalendar, at: location(startLine)) }
                    diagnostics.append(.warning(.icsBareComponents(component: name), at: location(startLine)))
                    suppliedCalendar = true
                    open.append(("VCALENDAR", startLine))
                    try events.begin("VCALENDAR", line: startLine)
                }
                sawContent = true
            }

            switch kind {
            case .begin:
                let name = componentName
                if open.isEmpty, name != "VCALENDAR" {
                    diagnostics.append(.warning(.icsOutsideCalendar(component: name), at: location(startLine)))
                }
                guard open.count < limits.maxDepth else {
                    throw Diagnostic.error(.icsTooDeep(limit: String(limits.maxDepth)), at: location(startLine))
                }
                // Calendar components never nest: a BEGIN:VEVENT inside an open VEVENT means the
                // first one was never closed (common in hand-edited and truncated exports).
                if Self.isTopLevel(name), let outer = open.firstIndex(where: { Self.isTopLevel($0.name) }) {
                    while open.count > outer {
                        let unclosed = open.removeLast()
                        diagnostics.append(.warning(.icsUnclosedComponent(component: unclosed.name, line: String(unclosed.line)), at: location(startLine)))
                        try events.endUnclosed(unclosed.name, line: startLine)
                    }
                }
                components += 1
                guard components <= limits.maxComponents else {
                    throw Diagnostic.error(.icsTooManyComponents(limit: String(limits.maxComponents)), at: location(startLine))
                }
                open.append((name, startLine))
                try events.begin(name, line: startLine)
            case .end:
                let name = componentName
                guard let match = open.lastIndex(where: { $0.name == name }) else {
                    diagnostics.append(.warning(.icsUnmatchedEnd(component: name), at: location(startLine)))
                    continue
                }
                // Components left open inside this one are closed here, with a warning each.
                while open.count - 1 > match {
                    let unclosed = open.removeLast()
                    diagnostics.append(.warning(.icsUnclosedComponent(component: unclosed.name, line: String(unclosed.line)), at: location(startLine)))
                    try events.endUnclosed(unclosed.name, line: startLine)
                }
                open.removeLast()
                try events.end(name, line: startLine)
            default:
                if open.isEmpty {
                    diagnostics.append(.warning(.icsOutsideCalendar(component: property.name), at: location(startLine)))
                } else {
                    try events.property(property)
                }
            }
        }
    }

    /// Stands for the property of a line read without one (see `componentLine`).
    private static let noProperty = ICalProperty(name: "", kind: .other, parameters: [], value: "", line: 0)

    /// `BEGIN:NAME` or `END:NAME` (the keyword in any case, no parameters) where NAME is a
    /// known component's name in any case: the kind and the name in uppercase, from the table;
    /// nil for any other line (read as a property, with the same answer for these).
    @inline(__always)
    private static func componentLine(_ bytes: ByteView, _ start: Int, _ end: Int) -> (PropertyKind, String)? {
        guard end - start >= 5 else { return nil }
        let valueStart: Int
        let kind: PropertyKind
        if end - start >= 7, bytes[start + 5] == ASCII.colon, bytes.matchesIgnoringCase(start, start + 5, "BEGIN") {
            (valueStart, kind) = (start + 6, .begin)
        } else if bytes[start + 3] == ASCII.colon, bytes.matchesIgnoringCase(start, start + 3, "END") {
            (valueStart, kind) = (start + 4, .end)
        } else {
            return nil
        }
        guard let (_, name) = componentNames.lookup(bytes, valueStart, end) else { return nil }
        return (kind, name)
    }

    /// Component names are ASCII and almost always written in uppercase already.
    private func asciiUppercased(_ text: String) -> String {
        // Over the contiguous bytes: a name is asked for at every BEGIN and END.
        if !text.withByteView({ $0.firstIndex(where: ASCII.isLowercase) < $0.count }) { return text }
        return String(decoding: text.utf8.map(ASCII.uppercased), as: UTF8.self)
    }

    /// Where the continuation of a folded line starts (its space or tab), when the line that
    /// starts at `next` continues the one before: directly, or after blank lines (which some
    /// writers leave between a line and its continuation; Python's icalendar reads them so).
    @inline(__always)
    private static func foldStart(_ bytes: ByteView, _ next: Int, _ count: Int) -> (index: Int, blankLines: Int)? {
        guard next < count else { return nil }
        let byte = bytes[next]
        if byte == ASCII.space || byte == ASCII.tab { return (next, 0) }
        guard byte == ASCII.lineFeed || byte == ASCII.carriageReturn else { return nil }
        var index = next
        var blankLines = 0
        while index < count, bytes[index] == ASCII.lineFeed || bytes[index] == ASCII.carriageReturn {
            index = lineBreakEnd(bytes, index, count)
            blankLines += 1
        }
        guard index < count, bytes[index] == ASCII.space || bytes[index] == ASCII.tab else { return nil }
        return (index, blankLines)
    }

    /// The index of the first CR or LF in `bytes[from..<count]` (`count` when there is none):
    /// lines average 30–80 bytes, so the scan looks at eight at a time.
    @inline(__always)
    static func lineEnd(_ bytes: ByteView, _ from: Int, _ count: Int) -> Int {
        ByteScan.firstIndex(in: bytes, from: from, to: count, where: AnyOf2.lineBreak)
    }

    /// The index after a line break at `end` (CRLF, LF or CR).
    @inline(__always)
    private static func lineBreakEnd(_ bytes: ByteView, _ end: Int, _ count: Int) -> Int {
        guard end < count else { return end }
        if bytes[end] == ASCII.carriageReturn, end + 1 < count, bytes[end + 1] == ASCII.lineFeed { return end + 2 }
        return end + 1
    }
}

/// Reads one property line (`ICalParser`'s, apart so that reading one copies no parser: a
/// method of the parser called inside `withByteView` of its own scratch copied the
/// whole parser, retaining each of its fields, for every folded line).
struct PropertyLineReader {
    /// Shares strings of values that repeat (see `parseLine`).
    let interner = ByteInterner()

    /// A property line: passed over when `events` skip it (`ICalEvents.skips`), read straight from
    /// its bytes by `events` when it has no parameters and they take it (`ICalEvents.plainProperty`:
    /// no strings made for what they do not keep), otherwise as an `ICalProperty` (nil when the
    /// line is broken). `inContent` says whether the line is inside a component of a file already
    /// known to be iCalendar.
    @inline(__always)
    func read<Events: ICalEvents>(_ buffer: ByteView, _ start: Int, _ end: Int, line: Int, inContent: Bool,
                                          into events: inout Events) -> (property: ICalProperty?, taken: Bool) {
        guard let name = Self.name(buffer, start, end) else { return (nil, false) }
        if inContent, name.kind != .begin, name.kind != .end, events.skips(name.kind, name: buffer[start..<name.end]) {
            return (nil, true)
        }
        if inContent, name.kind.rawValue > PropertyKind.end.rawValue {
            if buffer[name.end] == ASCII.colon {
                if events.plainProperty(name.kind, buffer[(name.end + 1)..<end], .none) { return (nil, true) }
            } else if name.kind.isDate, let (parameters, valueStart) = dateParameters(buffer, name.end, end),
                      events.plainProperty(name.kind, buffer[valueStart..<end], parameters) {
                return (nil, true)
            }
        }
        return (parseLine(buffer, start, end, name, line: line), false)
    }

    /// The parameters of a date property's line, from the `;` at `index`, when they are only TZID
    /// and VALUE (`DTSTART;TZID=America/New_York:…`, `DTSTART;VALUE=DATE:…`), each once and
    /// written plainly; and where the value starts. nil for any other line (read the general way).
    @inline(__always)
    private func dateParameters(_ buffer: ByteView, _ index: Int, _ end: Int) -> (DateParameters, valueStart: Int)? {
        var parameters = DateParameters.none
        var hasType = false
        var index = index
        while index < end, buffer[index] == ASCII.semicolon {
            let nameStart = index + 1
            index = nameStart
            while index < end, buffer[index] != ASCII.equals, buffer[index] != ASCII.colon, buffer[index] != ASCII.semicolon { index += 1 }
            guard index < end, buffer[index] == ASCII.equals else { return nil }
            let nameEnd = index
            index += 1
            let valueStart = index
            while index < end {
                let byte = buffer[index]
                if byte == ASCII.colon || byte == ASCII.semicolon { break }
                // Quotes, escapes and lists are read by `parseLine`.
                if byte == ASCII.quote || byte == ASCII.backslash || byte == ASCII.caret || byte == ASCII.comma { return nil }
                index += 1
            }
            guard index < end else { return nil }
            if buffer.matchesIgnoringCase(nameStart, nameEnd, "TZID"), parameters.tzid == nil {
                parameters.tzid = interner.string(buffer, valueStart, index)
            } else if buffer.matchesIgnoringCase(nameStart, nameEnd, "VALUE"), !hasType {
                hasType = true
                parameters.valueType = buffer[valueStart..<index]
            } else {
                return nil
            }
        }
        guard index < end, buffer[index] == ASCII.colon else { return nil }
        return (parameters, index + 1)
    }

    /// The name that starts a line: letters, digits and dashes, after an optional group
    /// ("ITEM1.", RFC 5545 §3.1's grammar does not have them, but vCard-minded writers do; the
    /// group stays in the name), and its kind (`other` with a group); nil when no `;` or `:`
    /// follows it.
    @inline(__always)
    private static func name(_ buffer: ByteView, _ start: Int, _ end: Int) -> (end: Int, kind: PropertyKind, known: String?)? {
        var index = start
        var nameStart = start
        while index < end {
            let byte = buffer[index]
            if ASCII.isAlphanumeric(byte) || byte == ASCII.hyphen {
                index += 1
            } else if byte == ASCII.period, index > nameStart, nameStart == start {
                nameStart = index + 1
                index += 1
            } else {
                break
            }
        }
        guard index > nameStart, index < end, buffer[index] == ASCII.colon || buffer[index] == ASCII.semicolon else { return nil }
        let (kind, known) = nameStart == start ? PropertyKind.classify(buffer, start, index) : (.other, nil)
        return (index, kind, known)
    }

    /// `NAME *(";" param) ":" value`, its name already read; nil when the line has no colon.
    private func parseLine(_ buffer: ByteView, _ start: Int, _ end: Int,
                           _ lineName: (end: Int, kind: PropertyKind, known: String?), line: Int) -> ICalProperty? {
        var index = lineName.end
        let kind = lineName.kind
        let name = lineName.known ?? asciiUppercase(buffer, start, index)
        var parameters: [CarriedProperty.Parameter] = []
        while index < end, buffer[index] == ASCII.semicolon {
            index += 1
            let nameStart = index
            while index < end, buffer[index] != ASCII.equals, buffer[index] != ASCII.colon, buffer[index] != ASCII.semicolon { index += 1 }
            // An empty parameter (`DTSTART;;VALUE=DATE-TIME:…`) says nothing: skip it.
            if index == nameStart, index < end, buffer[index] == ASCII.semicolon || buffer[index] == ASCII.colon { continue }
            guard index < end, buffer[index] == ASCII.equals, index > nameStart else { return nil }
            let parameterName = asciiUppercase(buffer, nameStart, index)
            index += 1
            var values: [String] = []
            while true {
                if index < end, buffer[index] == ASCII.quote {
                    // Quoted: anything but a quote, with RFC 6868's ^n ^' ^^ escapes.
                    let valueStart = index + 1
                    index = valueStart
                    while index < end, buffer[index] != ASCII.quote { index += 1 }
                    guard index < end else { return nil }
                    values.append(caretDecoded(buffer, valueStart, index, intern: true))
                    index += 1
                } else {
                    // Unquoted. Some writers escape `;` `,` `:` with a backslash as in text
                    // values (`CN=Society\; 2014`), where RFC 5545 wants quotes: read them so.
                    // RFC 5545 has no escapes in parameters, so `CN=X\:mailto:x@example.org` is
                    // the name `X\` and the address `mailto:x@example.org` (ical.js reads it so):
                    // a `\:` that a URI follows ends the parameters.
                    let valueStart = index
                    var escaped = false
                    while index < end, !Self.isParameterDelimiter(buffer[index]) {
                        if buffer[index] == ASCII.backslash, index + 1 < end, Self.isParameterDelimiter(buffer[index + 1]),
                           !(buffer[index + 1] == ASCII.colon && Self.startsWithURIScheme(buffer, index + 2, end)) {
                            escaped = true
                            index += 2
                        } else {
                            index += 1
                        }
                    }
                    values.append(escaped ? backslashDecoded(buffer, valueStart, index) : caretDecoded(buffer, valueStart, index, intern: true))
                }
                if index < end, buffer[index] == ASCII.comma {
                    index += 1
                    continue
                }
                break
            }
            parameters.append(CarriedProperty.Parameter(name: parameterName, values: values))
        }
        guard index < end, buffer[index] == ASCII.colon else { return nil }
        // Values that repeat across items (rules, categories, status words; DTSTAMP, which
        // Google sets to the moment of export on every item: 64 items, one DTSTAMP in the
        // Google exports under Tests/) share one string.
        let value: String
        switch kind {
        case .rrule, .categories, .status, .priority, .action, .trigger, .tzid, .version, .calscale, .dtstamp:
            value = interner.string(buffer, index + 1, end)
        case .begin, .end:
            // A known component's name, in uppercase, without making a string (a quarter of a
            // calendar's lines are BEGIN and END).
            value = ICalParser.componentNames.lookup(buffer, index + 1, end)?.1 ?? buffer.string(index + 1, end)
        default:
            value = buffer.string(index + 1, end)
        }
        return ICalProperty(name: name, kind: kind, parameters: parameters, value: value, line: line)
    }

    private func asciiUppercase(_ buffer: ByteView, _ start: Int, _ end: Int) -> String {
        let part = buffer[start..<end]
        if part.firstIndex(where: ASCII.isLowercase) == part.count { return part.string }
        return String(decoding: part.array.map(ASCII.uppercased), as: UTF8.self)
    }

    @inline(__always)
    private static func isParameterDelimiter(_ byte: UInt8) -> Bool { byte == ASCII.semicolon || byte == ASCII.comma || byte == ASCII.colon }

    /// Whether `scheme ":"` (RFC 3986: a letter, then letters, digits, `+` `-` `.`) starts the bytes.
    private static func startsWithURIScheme(_ buffer: ByteView, _ start: Int, _ end: Int) -> Bool {
        guard start < end, ASCII.isLetter(buffer[start]) else { return false }
        var index = start + 1
        while index < end {
            let byte = buffer[index]
            if byte == ASCII.colon { return true }
            guard ASCII.isAlphanumeric(byte) || byte == ASCII.plus || byte == ASCII.hyphen || byte == ASCII.period else { return false }
            index += 1
        }
        return false
    }

    /// An unquoted parameter value with its `\;` `\,` `\:` escapes undone.
    private func backslashDecoded(_ buffer: ByteView, _ start: Int, _ end: Int) -> String {
        var result: [UInt8] = []
        var index = start
        while index < end {
            if buffer[index] == ASCII.backslash, index + 1 < end, Self.isParameterDelimiter(buffer[index + 1]) { index += 1 }
            result.append(buffer[index])
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }

    private func caretDecoded(_ buffer: ByteView, _ start: Int, _ end: Int, intern: Bool = false) -> String {
        if buffer[start..<end].firstIndex(of: ASCII.caret) == end - start {
            return intern ? interner.string(buffer, start, end) : buffer.string(start, end)
        }
        var result: [UInt8] = []
        var index = start
        while index < end {
            let byte = buffer[index]
            if byte == ASCII.caret, index + 1 < end {
                switch buffer[index + 1] {
                case UInt8(ascii: "n"), UInt8(ascii: "N"): result.append(ASCII.lineFeed); index += 2; continue
                case ASCII.apostrophe: result.append(ASCII.quote); index += 2; continue
                case ASCII.caret: result.append(ASCII.caret); index += 2; continue
                default: break
                }
            }
            result.append(byte)
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }
}
