import AlmanacCore
import AlmanacICU

/// Reads iCalendar content lines from UTF-8 bytes, tolerating what real exports do: CRLF, LF or
/// CR line ends, folds with a space or a tab (also inside a UTF-8 sequence: lines are joined as
/// bytes before they are decoded), RFC 6868 parameter escapes, and broken lines (a located
/// warning; the rest of the file is still read). Reports components and properties as events,
/// so a reader can build its model directly, in constant memory per item.
struct ICalParser {
    let fileName: String?
    let limits: ICalLimits
    var diagnostics: [Diagnostic] = []
    /// Check that each logical line is UTF-8, throwing `notUTF8` when one is not (the reader
    /// then converts the file from its real charset and starts again).
    var validatesUTF8 = false
    static let notUTF8 = Diagnostic.error("internal.not-utf8")
    static let topLevelNames: Set<String> = ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE"]

    private var open: [(name: String, line: Int)] = []
    private var components = 0
    private var sawContent = false
    private var line = 1
    /// The end of the previous chunk that did not yet form a complete logical line.
    private var carry: [UInt8] = []
    private var scratch: [UInt8] = []
    private let interner = ByteInterner()

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
        let buffer: [UInt8]
        if carry.isEmpty {
            buffer = chunk
        } else {
            buffer = carry + chunk
            carry = []
        }
        let end = isLast ? buffer.count : Self.lastLogicalLineBoundary(buffer)
        if !isLast, end < buffer.count {
            carry = Array(buffer[end...])
            if carry.count > limits.maxLineBytes + 8 {
                throw Diagnostic.error("ics.line-too-long", String(limits.maxLineBytes), at: location(line))
            }
        }
        try scan(buffer, upTo: end, into: &events)
    }

    /// Ends the input: components left open are closed with a warning.
    mutating func finish<Events: ICalEvents>(into events: inout Events) throws(Diagnostic) {
        if !carry.isEmpty {
            let rest = carry
            carry = []
            try scan(rest, upTo: rest.count, into: &events)
        }
        if !sawContent { throw Diagnostic.error("ics.not-icalendar", at: location(1)) }
        // A calendar that stops inside VCALENDAR was cut off (a download or attachment that did
        // not finish): how much is missing cannot be known, so it is not converted as if whole.
        if let calendar = open.first(where: { $0.name == "VCALENDAR" }), let innermost = open.last {
            throw Diagnostic.error("ics.truncated", innermost.name, String(innermost.line), String(calendar.line), at: location(line))
        }
        while let unclosed = open.popLast() {
            diagnostics.append(.warning("ics.unclosed-component", unclosed.name, String(unclosed.line), at: location(line)))
            try events.end(unclosed.name, line: line)
        }
    }

    /// The index just after the last line break that is followed by the start of a new logical
    /// line (not a space or tab, which would fold onto it); 0 when there is none.
    static func lastLogicalLineBoundary(_ buffer: [UInt8]) -> Int {
        var index = buffer.count - 2
        while index >= 0 {
            let byte = buffer[index]
            if byte == 0x0A || (byte == 0x0D && buffer[index + 1] != 0x0A) {
                let next = buffer[index + 1]
                if next != 0x20 && next != 0x09 { return index + 1 }
            }
            index -= 1
        }
        return 0
    }

    private mutating func scan<Events: ICalEvents>(_ bytes: [UInt8], upTo count: Int, into events: inout Events) throws(Diagnostic) {
        var index = 0
        while index < count {
            // One logical line: a physical line plus the continuation lines that follow it.
            let startLine = line
            var end = index
            while end < count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
            var next = Self.lineBreakEnd(bytes, end, count)
            line += end < count ? 1 : 0
            var folded = false
            if next < count, bytes[next] == 0x20 || bytes[next] == 0x09 {
                folded = true
                scratch.removeAll(keepingCapacity: true)
                scratch.append(contentsOf: bytes[index..<end])
                while next < count, bytes[next] == 0x20 || bytes[next] == 0x09 {
                    var continuationEnd = next + 1
                    while continuationEnd < count, bytes[continuationEnd] != 0x0A, bytes[continuationEnd] != 0x0D { continuationEnd += 1 }
                    scratch.append(contentsOf: bytes[(next + 1)..<continuationEnd])
                    if scratch.count > limits.maxLineBytes { break }
                    line += continuationEnd < count ? 1 : 0
                    next = Self.lineBreakEnd(bytes, continuationEnd, count)
                }
            }
            let logicalLength = folded ? scratch.count : end - index
            let lineStart = index
            index = next
            if logicalLength == 0 { continue }
            if logicalLength > limits.maxLineBytes {
                throw Diagnostic.error("ics.line-too-long", String(limits.maxLineBytes), at: location(startLine))
            }

            if validatesUTF8 {
                let valid = folded
                    ? scratch.withUnsafeBufferPointer { UTF8Validation.isValid($0, 0, $0.count) }
                    : bytes.withUnsafeBufferPointer { UTF8Validation.isValid($0, lineStart, end) }
                if !valid { throw Self.notUTF8 }
            }
            let parsed: ICalProperty? = folded
                ? scratch.withUnsafeBufferPointer { parseLine($0, 0, $0.count, line: startLine) }
                : bytes.withUnsafeBufferPointer { parseLine($0, lineStart, end, line: startLine) }
            guard let property = parsed else {
                if !sawContent {
                    throw Diagnostic.error("ics.not-icalendar", at: location(startLine))
                }
                let preview = String(decoding: (folded ? Array(scratch.prefix(40)) : Array(bytes[lineStart..<min(end, lineStart + 40)])), as: UTF8.self)
                diagnostics.append(.warning("ics.broken-line", preview, at: location(startLine)))
                continue
            }
            if !sawContent {
                guard property.kind == .begin, asciiUppercased(property.value) == "VCALENDAR" else {
                    throw Diagnostic.error("ics.not-icalendar", at: location(startLine))
                }
                sawContent = true
            }

            switch property.kind {
            case .begin:
                let name = asciiUppercased(property.value)
                if open.isEmpty, name != "VCALENDAR" {
                    diagnostics.append(.warning("ics.outside-calendar", name, at: location(startLine)))
                }
                guard open.count < limits.maxDepth else {
                    throw Diagnostic.error("ics.too-deep", String(limits.maxDepth), at: location(startLine))
                }
                // Calendar components never nest: a BEGIN:VEVENT inside an open VEVENT means the
                // first one was never closed (common in hand-edited and truncated exports).
                if Self.topLevelNames.contains(name), let outer = open.firstIndex(where: { Self.topLevelNames.contains($0.name) }) {
                    while open.count > outer {
                        let unclosed = open.removeLast()
                        diagnostics.append(.warning("ics.unclosed-component", unclosed.name, String(unclosed.line), at: location(startLine)))
                        try events.end(unclosed.name, line: startLine)
                    }
                }
                components += 1
                guard components <= limits.maxComponents else {
                    throw Diagnostic.error("ics.too-many-components", String(limits.maxComponents), at: location(startLine))
                }
                open.append((name, startLine))
                try events.begin(name, line: startLine)
            case .end:
                let name = asciiUppercased(property.value)
                guard let match = open.lastIndex(where: { $0.name == name }) else {
                    diagnostics.append(.warning("ics.unmatched-end", name, at: location(startLine)))
                    continue
                }
                // Components left open inside this one are closed here, with a warning each.
                while open.count - 1 > match {
                    let unclosed = open.removeLast()
                    diagnostics.append(.warning("ics.unclosed-component", unclosed.name, String(unclosed.line), at: location(startLine)))
                    try events.end(unclosed.name, line: startLine)
                }
                open.removeLast()
                try events.end(name, line: startLine)
            default:
                if open.isEmpty {
                    diagnostics.append(.warning("ics.outside-calendar", property.name, at: location(startLine)))
                } else {
                    try events.property(property)
                }
            }
        }
    }

    /// Component names are ASCII and almost always written in uppercase already.
    private func asciiUppercased(_ text: String) -> String {
        if !text.utf8.contains(where: { $0 >= 0x61 && $0 <= 0x7A }) { return text }
        return String(decoding: text.utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
    }

    /// The index after a line break at `end` (CRLF, LF or CR).
    @inline(__always)
    private static func lineBreakEnd(_ bytes: [UInt8], _ end: Int, _ count: Int) -> Int {
        guard end < count else { return end }
        if bytes[end] == 0x0D, end + 1 < count, bytes[end + 1] == 0x0A { return end + 2 }
        return end + 1
    }

    /// `NAME *(";" param) ":" value`; nil when the line has no name or no colon.
    private func parseLine(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, line: Int) -> ICalProperty? {
        var index = start
        // Name: letters, digits and dashes.
        while index < end {
            let byte = buffer[index]
            let isNameByte = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
            if !isNameByte { break }
            index += 1
        }
        guard index > start, index < end, buffer[index] == 0x3A || buffer[index] == 0x3B else { return nil }
        let (kind, knownName) = PropertyKind.classify(buffer, start, index)
        let name = knownName ?? asciiUppercase(buffer, start, index)
        var parameters: [CarriedProperty.Parameter] = []
        while index < end, buffer[index] == 0x3B {
            index += 1
            let nameStart = index
            while index < end, buffer[index] != 0x3D, buffer[index] != 0x3A, buffer[index] != 0x3B { index += 1 }
            guard index < end, buffer[index] == 0x3D, index > nameStart else { return nil }
            let parameterName = asciiUppercase(buffer, nameStart, index)
            index += 1
            var values: [String] = []
            while true {
                if index < end, buffer[index] == 0x22 {
                    // Quoted: anything but a quote, with RFC 6868's ^n ^' ^^ escapes.
                    let valueStart = index + 1
                    index = valueStart
                    while index < end, buffer[index] != 0x22 { index += 1 }
                    guard index < end else { return nil }
                    values.append(caretDecoded(buffer, valueStart, index, intern: true))
                    index += 1
                } else {
                    let valueStart = index
                    while index < end, buffer[index] != 0x2C, buffer[index] != 0x3B, buffer[index] != 0x3A { index += 1 }
                    values.append(caretDecoded(buffer, valueStart, index, intern: true))
                }
                if index < end, buffer[index] == 0x2C {
                    index += 1
                    continue
                }
                break
            }
            parameters.append(CarriedProperty.Parameter(name: parameterName, values: values))
        }
        guard index < end, buffer[index] == 0x3A else { return nil }
        // Values that repeat across items (rules, categories, status words) share one string.
        let value: String
        switch kind {
        case .rrule, .categories, .status, .priority, .action, .trigger, .tzid, .version, .calscale:
            value = interner.string(buffer, index + 1, end)
        default:
            value = String(decoding: UnsafeBufferPointer(rebasing: buffer[(index + 1)..<end]), as: UTF8.self)
        }
        return ICalProperty(name: name, kind: kind, parameters: parameters, value: value, line: line)
    }

    private func asciiUppercase(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        var needsCase = false
        for index in start..<end where buffer[index] >= 0x61 && buffer[index] <= 0x7A { needsCase = true; break }
        if !needsCase { return String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self) }
        return String(decoding: buffer[start..<end].map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
    }

    private func caretDecoded(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, intern: Bool = false) -> String {
        var hasCaret = false
        for index in start..<end where buffer[index] == 0x5E { hasCaret = true; break }
        if !hasCaret {
            return intern ? interner.string(buffer, start, end) : String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self)
        }
        var result: [UInt8] = []
        var index = start
        while index < end {
            let byte = buffer[index]
            if byte == 0x5E, index + 1 < end {
                switch buffer[index + 1] {
                case 0x6E, 0x4E: result.append(0x0A); index += 2; continue
                case 0x27: result.append(0x22); index += 2; continue
                case 0x5E: result.append(0x5E); index += 2; continue
                default: break
                }
            }
            result.append(byte)
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }
}
