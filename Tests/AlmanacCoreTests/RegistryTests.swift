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

    @Test func extensionsMatchInEitherCase() {
        let format = FormatDescription(id: "x", name: "x", summary: "", extensions: [".ics", ".agenda.json", ".todo.txt"], model: .agenda)
        #expect(format.extensionMatch("Calendar.ICS") == 4)
        #expect(format.extensionMatch("/exports/月曆.Ics") == 4)
        #expect(format.extensionMatch("days.AGENDA.json") == 12)
        #expect(format.extensionMatch("plain.json") == 0)
        #expect(format.extensionMatch("dir.ics/notes.csv") == 0)
        #expect(format.extensionMatch("ics") == 4)  // the whole-name rule, as for todo.txt
        // A whole base name that is an extension without its dot.
        #expect(format.extensionMatch("work/TODO.txt") == 9)
        #expect(format.extensionMatch("mytodo.txt") == 0)
        // Letters match in either case, other bytes only as themselves.
        #expect(format.extensionMatch("a.i@s") == 0)
        #expect(format.extensionMatch("") == 0)
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
