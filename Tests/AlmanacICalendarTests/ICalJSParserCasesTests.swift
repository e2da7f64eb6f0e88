@testable import AlmanacICalendar
import AlmanacCore
import AlmanacStrings
import Foundation
import Testing

/// ical.js's parser cases (`test/parser/*.ics` and the jCal it expects of each, in
/// `Fixtures/real/ical.js/`): each file read as iCalendar and written as jCal means what ical.js
/// reads it to mean.
///
/// Compared by meaning, not bytes: the order of a component's properties says nothing
/// (RFC 5545 §3.6), several VCALENDARs in one file are read as one calendar, and what Almanac adds
/// as the writer of a new object is left out (VERSION and PRODID, which name the writer, and the
/// UID and DTSTAMP an item without them is given, with a warning).
@Suite struct ICalJSParserCasesTests {
    static let cases = [
        "base64", "boolean", "component", "dates", "float", "grouped", "integer", "multiple_root_components",
        "multivalue", "newline_junk", "period", "property_params", "quoted_params", "recur", "rfc",
        "single_empty_vcalendar", "time", "tzid_with_gmt", "unfold_properties", "utc_offset", "values",
    ]

    @Test(arguments: cases)
    func readsAsICalJSDoes(name: String) throws {
        let decoded = try ICalendarCodec().decode(CodecInput(contentsOf: fixturePath("real/ical.js/\(name).ics")), context: CodecContext())
        let written = try JCalCodec().encode(decoded.document, context: CodecContext()).bytes
        let got = try JSONValue(parsing: written)
        var expected = try JSONValue(parsing: try fixture("real/ical.js/\(name).json"))
        // ical.js gives a list of calendars for a file of several; Almanac reads them as one.
        if case .array(let roots) = expected, roots.first?.array != nil {
            expected = .array([.string("vcalendar"),
                               .array(roots.flatMap { $0.array?[1].array ?? [] }),
                               .array(roots.flatMap { $0.array?[2].array ?? [] })])
        }
        #expect(Self.meaning(got, addedBesides: expected) == Self.meaning(expected, addedBesides: expected))
    }

    /// Invalid numbers are 0 in jCal, as ical.js has them, and said so; iCalendar keeps the text.
    @Test func aNumberThatIsNotOneIsSaid() throws {
        let decoded = try ICalendarCodec().decode(CodecInput(contentsOf: fixturePath("real/ical.js/integer.ics")), context: CodecContext())
        let warning = try #require(decoded.diagnostics.first { $0.code == "ics.not-a-number" })
        #expect(warning.location?.line == 3)
        #expect(warning.rendered().contains("\"foobar\""))
        let ics = String(decoding: try ICalendarCodec().encode(decoded.document, context: CodecContext()).bytes, as: UTF8.self)
        #expect(ics.contains("X-INVALID;VALUE=INTEGER:foobar\r\n"))
    }

    /// A period is `[start, end]` in jCal and comes back as the same iCalendar text.
    @Test func periodsRoundTripThroughJCal() throws {
        let decoded = try ICalendarCodec().decode(CodecInput(contentsOf: fixturePath("real/ical.js/period.ics")), context: CodecContext())
        let jcal = try JCalCodec().encode(decoded.document, context: CodecContext()).bytes
        let back = try JCalCodec().decode(CodecInput(bytes: jcal, fileName: "period.jcal"), context: CodecContext())
        guard case .agenda(let agenda) = back.document else { Issue.record("not an agenda"); return }
        #expect(agenda.carried.first { $0.name == "RDATE" }?.value == "19960403T020000Z/19960403T040000Z,19960404T010000/PT3H")
    }

    /// Properties of each component as a sorted list of canonical JSON strings; components in order.
    static func meaning(_ component: JSONValue, addedBesides reference: JSONValue) -> [String] {
        guard let parts = component.array, parts.count == 3, let name = parts[0].string else { return ["not a component"] }
        let referenceParts = reference.array ?? []
        let referenceProperties = Set((referenceParts.count == 3 ? referenceParts[1].array ?? [] : []).compactMap { $0.array?.first?.string })
        let added: Set<String> = name == "vcalendar" ? ["version", "prodid"] : ["uid", "dtstamp"]
        var lines = (parts[1].array ?? []).compactMap { property -> String? in
            guard let propertyName = property.array?.first?.string else { return "not a property" }
            if added.contains(propertyName), !referenceProperties.contains(propertyName) || propertyName == "prodid" { return nil }
            return canonical(property)
        }.sorted()
        lines.insert(name, at: 0)
        let referenceChildren = referenceParts.count == 3 ? referenceParts[2].array ?? [] : []
        for (index, child) in (parts[2].array ?? []).enumerated() {
            lines += meaning(child, addedBesides: index < referenceChildren.count ? referenceChildren[index] : .null).map { "  " + $0 }
        }
        return lines
    }

    /// Keys sorted, numbers as doubles (ical.js writes 0.0 where Almanac writes 0).
    static func canonical(_ value: JSONValue) -> String {
        switch value {
        case .integer(let number): String(Double(number))
        case .number(let number): String(number)
        case .array(let items): "[" + items.map(canonical).joined(separator: ",") + "]"
        case .object(let members): "{" + members.sorted { $0.0 < $1.0 }.map { "\($0.0):\(canonical($0.1))" }.joined(separator: ",") + "}"
        default: value.serialized()
        }
    }
}
