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
        /// How much of each item to read (see `ItemDetail`).
        public var itemDetail: ItemDetail

        public init(applyCalendarTimeZone: Bool = true, limits: ICalLimits = .default, encoding: Charset? = nil,
                    itemDetail: ItemDetail = .complete) {
            self.applyCalendarTimeZone = applyCalendarTimeZone
            self.limits = limits
            self.encoding = encoding
            self.itemDetail = itemDetail
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
        return (agenda, events.diagnostics)
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
        let detail = options.itemDetail
        return try withoutActuallyEscaping(onItem) { (onItem) throws(Diagnostic) in
          try withoutActuallyEscaping(onFrame) { (onFrame) throws(Diagnostic) in
            var parser = ICalParser(fileName: fileName, limits: limits)
            var events = ReaderEvents(mapper: ItemMapper(fileName: fileName), applyCalendarZone: applyZone, detail: detail,
                                      onFrame: onFrame, onItem: onItem)
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
                    return (events.agenda, parser.diagnostics + events.diagnostics, "UTF-8")
                }
            } catch let diagnostic where diagnostic.code == .internalNotUTF8 {
                // Looked like UTF-8 at first, but is not: start again with the whole file.
                whole = try input.readAll()
                parser = ICalParser(fileName: fileName, limits: limits)
                events = ReaderEvents(mapper: ItemMapper(fileName: fileName), applyCalendarZone: applyZone, detail: detail,
                                      onFrame: onFrame, onItem: onItem)
            }
            let (bytes, encoding, notes) = try Self.utf8(Self.unfolded(whole), fileName: fileName, declared: declared)
            try parser.parse(bytes, into: &events)
            return (events.agenda, notes + parser.diagnostics + events.diagnostics, encoding)
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
                    throw Diagnostic.error(.charsetInvalidBytes(charset: "UTF-8", offset: String(offset + detection.byteOrderMarkLength)), at: SourceLocation(file: fileName))
                }
                return (Array(text.utf8), retry.charset.description,
                        [.note(.charsetConverted(charset: retry.charset.description), at: SourceLocation(file: fileName))])
            }
            return (body, "UTF-8", [])
        }
        do {
            let text = try detection.charset.decode(body)
            var notes: [Diagnostic] = []
            if !detection.charset.isUnicode {
                notes.append(.note(.charsetConverted(charset: detection.charset.description), at: SourceLocation(file: fileName)))
            }
            return (Array(text.utf8), detection.charset.description, notes)
        } catch {
            throw Diagnostic.error(.charsetInvalidBytes(charset: detection.charset.description, offset: String((error.offset ?? 0) + detection.byteOrderMarkLength)), at: SourceLocation(file: fileName))
        }
    }
}
