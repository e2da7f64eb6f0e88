public import AlmanacCore

/// iCalendar (RFC 5545, with RFC 7986 and RFC 7529): what Google, Outlook, Apple and Chinese
/// calendar apps export.
public struct ICalendarCodec: StreamingDecoder, StreamingEncoder, TimeZoneDefinitionReader {
    public init() {}

    public static let description = FormatDescription(
        id: "ics",
        name: "iCalendar",
        summary: "Calendar files (.ics) from Google, Outlook, Apple Calendar and Chinese calendar apps (RFC 5545).",
        aliases: ["ical", "icalendar", "ifb"],
        extensions: [".ics", ".ical", ".icalendar", ".ifb"],
        mediaTypes: ["text/calendar"],
        model: .agenda,
        options: [calendarZoneOption],
        examples: [
            .init(summary: "A lunar birthday with a reminder the day before", input: """
                BEGIN:VCALENDAR\r
                VERSION:2.0\r
                PRODID:-//Example//Lunar//ZH\r
                BEGIN:VEVENT\r
                UID:mom@example.org\r
                DTSTAMP:20250101T000000Z\r
                DTSTART;VALUE=DATE:20251006\r
                RRULE:RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=8;BYMONTHDAY=15\r
                SUMMARY:媽媽生日\r
                BEGIN:VALARM\r
                ACTION:DISPLAY\r
                TRIGGER:-P1D\r
                DESCRIPTION:明天是媽媽生日\r
                END:VALARM\r
                END:VEVENT\r
                END:VCALENDAR\r

                """),
            .init(summary: "A meeting in Outlook's zone names, with an exception", input: """
                BEGIN:VCALENDAR\r
                VERSION:2.0\r
                PRODID:Microsoft Exchange Server 2010\r
                BEGIN:VEVENT\r
                UID:040000008200E00074C5B7101A82E008\r
                DTSTAMP:20250301T000000Z\r
                DTSTART;TZID=Taipei Standard Time:20250303T093000\r
                DTEND;TZID=Taipei Standard Time:20250303T103000\r
                RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=10\r
                EXDATE;TZID=Taipei Standard Time:20250317T093000\r
                SUMMARY:週會\r
                X-MICROSOFT-CDO-BUSYSTATUS:BUSY\r
                END:VEVENT\r
                END:VCALENDAR\r

                """),
        ])

    public var format: FormatDescription { Self.description }

    /// Read by ics, jCal and xCal alike.
    static let calendarZoneOption = FormatDescription.Option(
        name: "x-wr-timezone", summary: "Apply X-WR-TIMEZONE to UTC and floating times, as the x-wr-timezone tool does.",
        values: ["apply", "ignore"], defaultValue: "apply")

    private static let begin = Array("BEGIN:".utf8)

    public func identify(_ probe: Probe) -> Identification {
        // Over the text's bytes when it starts in ASCII (no uppercased copy, once for every file
        // of a batch); the characters otherwise.
        var probeText = probe.text
        let answer: Identification? = probeText.withUTF8 { bytes in
            var index = 0
            while index < bytes.count, bytes[index] == ASCII.space || (ASCII.tab...ASCII.carriageReturn).contains(bytes[index]) { index += 1 }
            guard index < bytes.count, bytes[index] < ASCII.firstNonASCII else { return nil }
            for expected in Self.begin {
                guard index < bytes.count else { return .no }
                let byte = bytes[index]
                guard byte < ASCII.firstNonASCII else { return nil }
                guard ASCII.equalIgnoringCase(byte, expected) else { return .no }
                index += 1
            }
            var name: [UInt8] = []
            while index < bytes.count, name.count < 58, ASCII.isLetter(bytes[index]) {
                name.append(ASCII.uppercased(bytes[index]))
                index += 1
            }
            if index < bytes.count, bytes[index] >= ASCII.firstNonASCII, name.count < 58 { return nil }
            let upper = String(decoding: name, as: UTF8.self)
            return upper == "VCALENDAR" || ICalParser.bareNames.contains(upper) ? .yes : .no
        }
        if let answer { return answer }
        let text = probe.trimmedText.prefix(64).uppercased()
        guard text.hasPrefix("BEGIN:") else { return .no }
        // A calendar, or bare components as a CalDAV server stores them.
        let name = text.dropFirst(6).prefix { $0.isLetter }
        return name == "VCALENDAR" || ICalParser.bareNames.contains(String(name)) ? .yes : .no
    }

    /// The reader `decode` uses, for callers that stream items instead.
    public func reader(_ context: CodecContext) -> ICalendarReader {
        ICalendarReader(options: ICalendarReader.Options(applyCalendarTimeZone: context.options["x-wr-timezone"] != "ignore",
                                                         encoding: context.encoding, itemDetail: context.itemDetail))
    }

    public func decode(_ input: CodecInput, context: CodecContext) throws(Diagnostic) -> Decoded {
        let result = try reader(context).read(input)
        return Decoded(document: .agenda(result.agenda), diagnostics: result.diagnostics, encoding: result.encoding)
    }

    public func decodeItems(_ input: CodecInput, context: CodecContext, into sink: inout some DocumentSink) throws(Diagnostic) -> Decoded {
        var started = false
        let result = try reader(context).stream(input, onFrame: { (frame) throws(Diagnostic) in
            started = true
            try sink.begin(.agenda(frame))
        }, onItem: { (item: consuming CalendarItem) throws(Diagnostic) in try sink.item(.calendarItem(item)) })
        if !started { try sink.begin(.agenda(result.agenda)) }
        return Decoded(document: .agenda(result.agenda), diagnostics: result.diagnostics, encoding: result.encoding)
    }

    public func encode(_ document: Document, context: CodecContext) throws(Diagnostic) -> Encoded {
        guard case .agenda = document else {
            throw Diagnostic.error(.convertModelMismatch(model: document.kind.rawValue, format: format.id, expected: ModelKind.agenda.rawValue))
        }
        return try encodeByItems(document, context: context)
    }

    public func itemWriter(_ frame: Document, context: CodecContext, output: @escaping ByteOutput) throws(Diagnostic) -> any DocumentItemWriter {
        guard case .agenda(let agenda) = frame else {
            throw Diagnostic.error(.convertModelMismatch(model: frame.kind.rawValue, format: format.id, expected: ModelKind.agenda.rawValue))
        }
        return ICalendarItemWriter(agenda, output: output)
    }

    /// Reads a VTIMEZONE's observances (the capability other codecs and the calendar engine use).
    public func observances(of definition: TimeZoneDefinition) throws(Diagnostic) -> [ZoneObservance] {
        try VTimeZoneReader().observances(of: definition)
    }
}
