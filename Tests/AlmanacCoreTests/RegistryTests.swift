import AlmanacCore
import Testing
import Foundation

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

/// Plugins are the executables named `almanac-codec-*` in `ALMANAC_PLUGIN_PATH`, then `PATH`:
/// by folder, then by name; a name found twice is the first folder's; folders, files that are not
/// executable and names that only resemble the prefix are not plugins.
@Test func pluginDiscoveryFindsExecutablesByPrefix() throws {
    let manager = FileManager.default
    let root = NSTemporaryDirectory() + "almanac-plugins-\(UUID().uuidString)"
    let first = root + "/first", second = root + "/second"
    for folder in [first, second, first + "/almanac-codec-folder"] { try manager.createDirectory(atPath: folder, withIntermediateDirectories: true) }
    defer { try? manager.removeItem(atPath: root) }
    func file(_ path: String, executable: Bool = true) {
        _ = manager.createFile(atPath: path, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: executable ? 0o755 : 0o644])
    }
    file(first + "/almanac-codec-zeta")
    file(first + "/almanac-codec-alpha")
    file(first + "/almanac-codec-notes", executable: false)
    file(first + "/almanac-codec")
    file(first + "/almanac-codex-typo")
    file(first + "/Almanac-codec-upper")
    file(first + "/其他")
    file(second + "/almanac-codec-alpha")
    file(second + "/almanac-codec-日曆")
    file(second + "/almanac-codec-beta")
    let found = PluginDiscovery.executables(environment: ["ALMANAC_PLUGIN_PATH": first, "PATH": second + "::" + root + "/missing"])
    #expect(found == [first + "/almanac-codec-alpha", first + "/almanac-codec-zeta",
                      second + "/almanac-codec-beta", second + "/almanac-codec-日曆"])
}
