import AlmanacCore
import Testing

@Suite struct FormatRegistryTests {
    /// A stand-in codec whose identification is scripted.
    struct Stub: Codec {
        let id: String
        let extensions: [String]
        let answer: Identification
        var format: FormatDescription {
            FormatDescription(id: id, name: id, summary: "stub", aliases: [id + "-alias"], extensions: extensions, model: .agenda)
        }
        func identify(_ probe: Probe) -> Identification { answer }
    }

    @Test func lookupByIdAndAlias() throws {
        let registry = FormatRegistry([Stub(id: "ics", extensions: [".ics"], answer: .yes)])
        #expect(registry.codec(named: "ICS")?.format.id == "ics")
        #expect(registry.codec(named: "ics-alias")?.format.id == "ics")
        let error = #expect(throws: Diagnostic.self) { try registry.require("vcs") }
        #expect(error?.code == "format.unknown")
        #expect(error?.message.arguments.last == "ics")
    }

    @Test func laterRegistrationWins() throws {
        var registry = FormatRegistry([Stub(id: "ics", extensions: [".ics"], answer: .yes)])
        registry.register(Stub(id: "ics", extensions: [".ics", ".ical"], answer: .yes))
        #expect(registry.codecs.count == 1)
        #expect(registry.codec(named: "ics")?.format.extensions == [".ics", ".ical"])
    }

    @Test func theMostSpecificExtensionIsTriedFirst() throws {
        let registry = FormatRegistry([
            Stub(id: "json", extensions: [".json"], answer: .cannotTell),
            Stub(id: "agenda-json", extensions: [".agenda.json"], answer: .cannotTell),
        ])
        let identified = try registry.identify(Probe(prefix: [], fileName: "days.agenda.json"))
        #expect(identified.codec.format.id == "agenda-json")
        #expect(identified.basis == .fileExtension)
    }

    @Test func contentBeatsAMisleadingName() throws {
        let registry = FormatRegistry([
            Stub(id: "csv", extensions: [".csv"], answer: .no),
            Stub(id: "ics", extensions: [".ics"], answer: .yes),
        ])
        let identified = try registry.identify(Probe(prefix: Array("BEGIN:VCALENDAR".utf8), fileName: "export.csv"))
        #expect(identified.codec.format.id == "ics")
        #expect(identified.basis == .content)
    }

    @Test func nothingMatchesIsAClearError() {
        let registry = FormatRegistry([Stub(id: "ics", extensions: [".ics"], answer: .no)])
        let error = #expect(throws: Diagnostic.self) { try registry.identify(Probe(prefix: [1, 2, 3], fileName: "mystery.bin")) }
        #expect(error?.code == "format.undetected")
        #expect(error?.message.rendered().contains("--from") == true)
    }
}
