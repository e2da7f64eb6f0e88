@testable import AlmanacICalendar
import AlmanacCore
import AlmanacICU
import AlmanacTestSupport
import Testing

@Suite struct XCalJCalTests {
    static let codecs: [any Codec] = [XCalCodec(), JCalCodec()]

    @Test(arguments: WriterTests.fixtures)
    func sameModelThroughXCalAndJCal(name: String) throws {
        // ICS → model → ICS gives the reference; xCal and jCal must carry the same model.
        let reference = try reread(try write(try readFixture(name).agenda))
        for codec in Self.codecs {
            let bytes = try codec.encode(.agenda(reference), context: CodecContext()).bytes
            let decoded = try codec.decode(CodecInput(bytes: bytes, fileName: "x"), context: CodecContext())
            #expect(decoded.document == .agenda(reference), "\(codec.format.id)")
            #expect(try codec.encode(decoded.document, context: CodecContext()).bytes == bytes, "\(codec.format.id) deterministic")
        }
    }

    /// The byte writer jCal streams with prints each component exactly as the JSON model of it
    /// pretty-prints (GEO, recurrence parts, lists, parameters with several values).
    @Test(arguments: WriterTests.fixtures + ["rules-sampler.ics"])
    func jcalBytesMatchTheJSONModel(name: String) throws {
        let agenda = try readFixture(name).agenda
        var stream = ComponentStream()
        var components = stream.begin(agenda).components
        for item in agenda.items { components += stream.item(item) }
        components += stream.end(agenda).components
        var property = ICalProperty(name: "GEO", value: "25.033;121.565")
        property.parameters = [.init(name: "X-SOURCE", values: ["a", "b,c"])]
        components.append(ICalComponent(name: "VEVENT", properties: [property]))
        #expect(!components.isEmpty)
        for component in components {
            var writer = JSONWriter(layout: .pretty, level: 2)
            JCalBytes.write(component, into: &writer)
            let bytes = writer.take()
            var expected: [UInt8] = []
            JCalCodec.json(component).write(into: &expected, pretty: true, level: 2)
            #expect(String(decoding: bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self), "\(component.name)")
            #expect(expected == Array(JCalCodec.json(component).serialized(pretty: true).replacingOccurrences(of: "\n", with: "\n    ").utf8))
        }
    }

    /// RFC 7265 §B.1 (abridged): an event with a floating start and a duration.
    @Test func rfc7265Example() throws {
        let text = """
        ["vcalendar", [["calscale", {}, "text", "GREGORIAN"], ["prodid", {}, "text", "-//Example Inc.//Example Calendar//EN"],
          ["version", {}, "text", "2.0"]],
         [["vevent", [["dtstamp", {}, "date-time", "2008-02-05T19:12:24Z"], ["dtstart", {}, "date", "2008-10-06"],
            ["summary", {}, "text", "Planning meeting"], ["uid", {}, "text", "4088E990AD89CB3DBB484909"],
            ["rrule", {}, "recur", {"freq": "MONTHLY", "byday": ["MO", "-1FR"], "until": "2009-12-31"}],
            ["geo", {}, "float", [37.386013, -122.082932]]], []]]]
        """
        let decoded = try JCalCodec().decode(CodecInput(bytes: Array(text.utf8)), context: CodecContext())
        guard case .agenda(let agenda) = decoded.document else { Issue.record("not an agenda"); return }
        let item = try #require(agenda.items.first)
        #expect(item.start == .date(try CivilDate(year: 2008, month: 10, day: 6)))
        #expect(item.recurrence?.rules.map(\.description) == ["FREQ=MONTHLY;BYDAY=MO,-1FR;UNTIL=20091231"])
        #expect(item.geo == Geo(latitude: 37.386013, longitude: -122.082932))
    }

    /// RFC 6321 §B.1 (abridged).
    @Test func rfc6321Example() throws {
        let text = """
        <?xml version="1.0" encoding="utf-8"?>
        <icalendar xmlns="urn:ietf:params:xml:ns:icalendar-2.0">
         <vcalendar>
          <properties>
           <calscale><text>GREGORIAN</text></calscale>
           <prodid><text>-//Example Inc.//Example Calendar//EN</text></prodid>
           <version><text>2.0</text></version>
          </properties>
          <components>
           <vevent>
            <properties>
             <dtstamp><date-time>2008-02-05T19:12:24Z</date-time></dtstamp>
             <dtstart><date>2008-10-06</date></dtstart>
             <summary><text>Planning meeting</text></summary>
             <uid><text>4088E990AD89CB3DBB484909</text></uid>
            </properties>
           </vevent>
          </components>
         </vcalendar>
        </icalendar>
        """
        let decoded = try XCalCodec().decode(CodecInput(bytes: Array(text.utf8)), context: CodecContext())
        guard case .agenda(let agenda) = decoded.document else { Issue.record("not an agenda"); return }
        #expect(agenda.items.map(\.title) == ["Planning meeting"])
        #expect(agenda.items.first?.stamp == .utc(time("2008-02-05T19:12:24")))
    }

    @Test func badInputIsLocated() {
        let jcal = #expect(throws: Diagnostic.self) {
            try JCalCodec().decode(CodecInput(bytes: Array("[\"vcalendar\", [], [[\"vevent\", [[\"uid\"]], []]]]".utf8), fileName: "x.jcal"), context: CodecContext())
        }
        #expect(jcal?.code == "jcal.bad-property")
        #expect(jcal?.location?.keyPath == "/2/0/1/0")
        let json = #expect(throws: Diagnostic.self) {
            try JCalCodec().decode(CodecInput(bytes: Array("[\"vcalendar\",\n [,]]".utf8), fileName: "x.jcal"), context: CodecContext())
        }
        #expect(json?.location?.line == 2)
        let xml = #expect(throws: Diagnostic.self) {
            try XCalCodec().decode(CodecInput(bytes: Array("<icalendar xmlns=\"urn:ietf:params:xml:ns:icalendar-2.0\">\n<vcalendar>".utf8)), context: CodecContext())
        }
        #expect(xml?.code == "xml.invalid")
    }

    @Test(arguments: [0, 1])
    func conformance(index: Int) {
        #expect(CodecConformance.problems(of: Self.codecs[index]) == [])
    }
}

/// Value types jCal and xCal write in their own form (RFC 7265 §3.6, RFC 6321 §3.6): a TIME with
/// colons, an RDATE PERIOD with its end or duration, REQUEST-STATUS as its parts; read back to
/// the same iCalendar text.
@Suite struct DeclaredValueTypesTests {
    static let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//t//t//EN\r
        METHOD:PUBLISH\r
        BEGIN:VEVENT\r
        UID:a\r
        DTSTAMP:20250101T000000Z\r
        DTSTART:19970101T180000Z\r
        RDATE;VALUE=PERIOD:19970102T180000Z/19970103T070000Z,19970109T180000Z/PT5H30M\r
        X-AT;VALUE=TIME:083000\r
        X-COUNT;VALUE=INTEGER:5\r
        REQUEST-STATUS:3.7;Invalid calendar user;ATTENDEE:mailto:jsmith@example.com\r
        REQUEST-STATUS:2.0;Success\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test func jcalAndXCalWriteEachTypeInItsForm() throws {
        let agenda = try ICalendarReader().read(Array(Self.calendar.utf8), fileName: "t.ics").agenda
        #expect(agenda.items[0].recurrence?.periods.count == 2)
        let jcal = String(decoding: try JCalCodec().encode(.agenda(agenda), context: CodecContext()).bytes, as: UTF8.self)
        #expect(jcal.contains(#"["x-at", {}, "time", "08:30:00"]"#))
        // RFC 7265 §3.6.9: a period is [start, end] or [start, duration].
        #expect(jcal.contains(#"["1997-01-02T18:00:00Z", "1997-01-03T07:00:00Z"]"#))
        #expect(jcal.contains(#"["1997-01-09T18:00:00Z", "PT5H30M"]"#))
        #expect(jcal.contains(#"["method", {}, "text", "PUBLISH"]"#))
        #expect(jcal.contains(#"["3.7", "Invalid calendar user", "ATTENDEE:mailto:jsmith@example.com"]"#))
        let xcal = String(decoding: try XCalCodec().encode(.agenda(agenda), context: CodecContext()).bytes, as: UTF8.self)
        #expect(xcal.contains("<time>08:30:00</time>"))
        #expect(xcal.contains("<duration>PT5H30M</duration>"))
        #expect(xcal.contains("<code>2.0</code>"))
        #expect(xcal.contains("<data>ATTENDEE:mailto:jsmith@example.com</data>"))
        for codec in [JCalCodec(), XCalCodec()] as [any Codec] {
            let bytes = try codec.encode(.agenda(agenda), context: CodecContext()).bytes
            let back = try codec.decode(CodecInput(bytes: bytes, fileName: "x"), context: CodecContext())
            let text = String(decoding: try ICalendarCodec().encode(back.document, context: CodecContext()).bytes, as: UTF8.self)
            #expect(text.contains("X-AT;VALUE=TIME:083000\r\n"), "\(codec.format.id)")
            #expect(text.contains("RDATE;VALUE=PERIOD:19970102T180000Z/19970103T070000Z\r\n"), "\(codec.format.id)")
            #expect(text.contains("RDATE;VALUE=PERIOD:19970109T180000Z/PT5H30M\r\n"), "\(codec.format.id)")
            #expect(text.contains("REQUEST-STATUS:3.7;Invalid calendar user;ATTENDEE:mailto:jsmith@example.com\r\nREQUEST-STATUS:2.0;Success\r\n"), "\(codec.format.id)")
        }
    }
}
