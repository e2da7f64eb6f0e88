@testable import AlmanacCLI
import AlmanacCore
import Foundation
import Testing

/// Every input file is untrusted: no name from a file's content, and no link planted inside the
/// output folder, makes `almanac convert` create or change anything outside `-o`. One test per
/// vector; each works in a sandbox (`sandbox/work` holds the inputs, `sandbox/out` is `-o`,
/// `sandbox/elsewhere` is the target of a hostile path) and checks that nothing outside `out/`
/// changed, and that no absolute path a name aimed at appeared. See SECURITY.md.
@Suite struct HostileInputTests {
    let sandbox: String = {
        let path = temporaryDirectory() + "/sandbox"
        for folder in ["work", "elsewhere"] { try! FileManager.default.createDirectory(atPath: path + "/" + folder, withIntermediateDirectories: true) }
        try! Data("victim".utf8).write(to: URL(fileURLWithPath: path + "/elsewhere/victim.txt"))
        return path
    }()
    var work: String { sandbox + "/work" }
    var out: String { sandbox + "/out" }
    /// An absolute path hostile names aim at; it must never appear.
    static let absoluteTarget = "/tmp/almanac-hostile-\(UUID().uuidString)"

    /// Every path under the sandbox outside `out/` and `work/`, with file contents.
    func outside() -> [String: String] {
        var result: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: sandbox)!
        while let relative = enumerator.nextObject() as? String {
            guard !["out", "work"].contains(where: { relative == $0 || relative.hasPrefix($0 + "/") }) else { continue }
            result[relative] = read(sandbox + "/" + relative) ?? "<folder>"
        }
        return result
    }

    func written() -> [String] {
        (FileManager.default.enumerator(atPath: out)?.compactMap { $0 as? String } ?? []).sorted()
    }

    func write(_ text: String, _ name: String) throws -> String {
        let path = work + "/" + name
        try FileManager.default.createDirectory(atPath: OutputNames.parent(of: path), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The names a hostile file puts where a locale belongs.
    static let hostileLocales = ["..", "../../elsewhere/pwned", absoluteTarget, "en/../../../elsewhere/pwned", "zh-Hant\u{0}/../../elsewhere",
                                 "", String(repeating: "a", count: 300), "en\\..\\..\\elsewhere"]

    static func json(_ text: String) -> String {
        var quoted: [UInt8] = []
        JSONValue.quote(text, into: &quoted)
        return String(decoding: quoted, as: UTF8.self)
    }

    /// The same hostile locale in every format that names locales, converted to every catalog
    /// format and layout: refused, named, nothing written anywhere.
    @Test(arguments: hostileLocales)
    func hostileLocalesAreRefusedByEveryReader(locale: String) throws {
        let quoted = Self.json(locale)
        let inputs = [
            try write(#"{"sourceLanguage": "en", "strings": {"a": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "A"}}, \#(quoted): {"stringUnit": {"state": "translated", "value": "X"}}}}}, "version": "1.0"}"#,
                      "Locale.xcstrings"),
            try write(#"{"sourceLanguage": \#(quoted), "strings": {"a": {"localizations": {"zh-Hant": {"stringUnit": {"state": "translated", "value": "X"}}}}}, "version": "1.0"}"#,
                      "Source.xcstrings"),
            try write(#"{"model": "catalog", "version": 1, "sourceLanguage": "en", "entries": [{"key": "a", "translations": {"en": {"value": "A"}, \#(quoted): {"value": "X"}}}]}"#,
                      "Model.catalog.json"),
        ] + (locale.contains("\u{0}") ? [] : [  // XML cannot hold a NUL at all
            try write(#"<?xml version="1.0" encoding="UTF-8"?><xliff version="1.2"><file original="L.xcstrings" source-language="en" target-language="\#(locale.replacingOccurrences(of: "&", with: "&amp;"))"><body><trans-unit id="a"><source>A</source><target>X</target></trans-unit></body></file></xliff>"#,
                      "Target.xliff"),
            try write(#"<?xml version="1.0" encoding="UTF-8"?><xliff version="1.2"><file original="L.xcstrings" source-language="\#(locale)" target-language="zh-Hant"><body><trans-unit id="a"><source>A</source><target>X</target></trans-unit></body></file></xliff>"#,
                      "Source.xliff"),
        ])
        let before = outside()
        for input in inputs {
            for (target, output) in [("strings", out + "/"), ("stringsdict", out + "/"), ("xcstrings", out + "/L.xcstrings"), ("xliff", out + "/L.xliff"),
                                     ("csv", out + "/L.csv"), ("catalog-json", out + "/L.catalog.json")] {
                try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
                for force in [false, true] {
                    let run = CLIRun(["convert", input, "--to", target, "-o", output] + (force ? ["--force"] : []))
                    #expect(run.status == 3, "\(input) → \(target): \(run.error)")
                    #expect(run.error.contains("[catalog.locale-not-tag]") && run.error.contains(OutputNames.baseName(input)), "\(run.error)")
                    #expect(!run.error.contains("\u{0}"))
                    #expect(written().isEmpty, "\(input) → \(target): \(written())")
                }
            }
        }
        #expect(outside() == before)
        #expect(!FileManager.default.fileExists(atPath: Self.absoluteTarget) && !FileManager.default.fileExists(atPath: Self.absoluteTarget + ".lproj"))
    }

    /// A `.lproj` folder whose name is no language tag: that file is named and left out; the
    /// rest of the tree converts, and nothing is named after the folder.
    @Test func anLprojFolderThatIsNoTagIsLeftOut() throws {
        _ = try write("\"a\" = \"A\";\n", "tree/en.lproj/Localizable.strings")
        _ = try write("\"a\" = \"甲\";\n", "tree/zh-Hant.lproj/Localizable.strings")
        _ = try write("\"a\" = \"X\";\n", "tree/...lproj/Localizable.strings")
        let run = CLIRun(["convert", work + "/tree", "--to", "xcstrings", "-o", out + "/"])
        #expect(run.error.contains("“..” is not a language tag") && run.error.contains("...lproj/Localizable.strings"), "\(run.error)")
        #expect(run.status == 3)
        let catalog = read(out + "/Localizable.xcstrings") ?? ""
        #expect(!catalog.contains("\"..\"") && !catalog.contains("\"X\""))
    }

    /// A codec plugin's decoded catalog is checked like any reader's.
    @Test func aPluginsCatalogIsChecked() throws {
        let plugins = temporaryDirectory()
        let path = plugins + "/almanac-codec-evil"
        let document = #"{"model": "catalog", "version": 1, "sourceLanguage": "en", "entries": [{"key": "a", "translations": {"en": {"value": "A"}, "../../elsewhere/pwned": {"value": "X"}}}]}"#
        let script = #"""
            #!/bin/sh
            if [ "$1" = "--describe" ]; then printf '{"protocol": 1, "codec": {"id": "evil", "name": "evil", "summary": "test", "aliases": [], "extensions": [".evil"], "mediaTypes": [], "model": "catalog", "canRead": true, "canWrite": false, "options": [], "examples": []}}'; exit 0; fi
            cat >/dev/null
            printf '{"protocol": 1, "document": %s, "diagnostics": []}' '\#(document)'
            """#
        try Data(script.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
        let input = try write("anything\n", "list.evil")
        let before = outside()
        let run = CLIRun(["convert", input, "--to", "strings", "-o", out + "/"], environment: ["ALMANAC_PLUGIN_PATH": plugins])
        #expect(run.status == 3 && run.error.contains("[catalog.locale-not-tag]"), "\(run.error)")
        #expect(written().isEmpty && outside() == before)
    }

    /// A batch into a folder where someone planted links: to a folder outside, to a file outside
    /// (as the output's own name), dangling. Refused each time, with --force too; the other
    /// files of the batch are converted.
    @Test(arguments: [false, true])
    func aBatchNeverWritesThroughALinkInsideTheOutputFolder(force: Bool) throws {
        for name in ["sub/a.ics", "sub/deeper/b.ics", "victim.ics", "dangling.ics", "fine.ics"] {
            _ = try write(BatchTests.calendar(name + "@example.com", name), "in/" + name)
        }
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: out + "/sub", withDestinationPath: sandbox + "/elsewhere")
        try FileManager.default.createSymbolicLink(atPath: out + "/victim.jcal", withDestinationPath: sandbox + "/elsewhere/victim.txt")
        try FileManager.default.createSymbolicLink(atPath: out + "/dangling.jcal", withDestinationPath: sandbox + "/elsewhere/new.jcal")
        let before = outside()
        let run = CLIRun(["convert", work + "/in", "--to", "jcal", "-o", out, "--jobs", "2", "--report", sandbox + "/report-\(force).json"]
                         + (force ? ["--force"] : []))
        #expect(run.status == 4, "\(run.error)")
        #expect(run.error.components(separatedBy: "[output.link-inside]").count - 1 == 4, "\(run.error)")
        #expect(read(out + "/fine.jcal")?.contains("vcalendar") == true)
        var expected = before
        expected["report-\(force).json"] = read(sandbox + "/report-\(force).json")
        #expect(outside() == expected)
        #expect(read(sandbox + "/elsewhere/victim.txt") == "victim")
        #expect(written().filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    /// A catalog written as an `.lproj` tree into a folder where `en.lproj` is a link.
    @Test func aFolderLayoutNeverWritesThroughALink() throws {
        let input = try write(#"{"sourceLanguage": "en", "strings": {"a": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "A"}}, "zh-Hant": {"stringUnit": {"state": "translated", "value": "甲"}}}}}, "version": "1.0"}"#,
                              "Localizable.xcstrings")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: out + "/zh-Hant.lproj", withDestinationPath: sandbox + "/elsewhere")
        let before = outside()
        for force in [false, true] {
            let run = CLIRun(["convert", input, "--to", "strings", "-o", out + "/"] + (force ? ["--force"] : []))
            #expect(run.status == 4 && run.error.contains("[output.link-inside]") && run.error.contains("zh-Hant.lproj"), "\(run.error)")
            // Checked before anything is written: not even the en.lproj file.
            #expect(written() == ["zh-Hant.lproj"])
        }
        #expect(outside() == before)
    }

    /// A manifest's relative output goes beneath -o, without following a link there; one that
    /// climbs is refused as before. The manifest's absolute paths are the user's word.
    @Test func aManifestsRelativeOutputsStayBeneathTheOutputFolder() throws {
        let calendar = try write(BatchTests.calendar("m@example.com", "Manifest"), "m.ics")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: out + "/sub", withDestinationPath: sandbox + "/elsewhere")
        let lines = [
            #"{"input": "\#(calendar)", "output": "sub/linked.jcal"}"#,
            #"{"input": "\#(calendar)", "output": "../climbs.jcal"}"#,
            #"{"input": "\#(calendar)", "output": "a\u0000b/nul.jcal"}"#,
            #"{"input": "\#(calendar)", "output": "./fine//plain.jcal"}"#,
        ]
        let manifest = try write(lines.joined(separator: "\n") + "\n", "list.jsonl")
        let before = outside()
        let run = CLIRun(["convert", "--manifest", manifest, "--to", "jcal", "-o", out])
        #expect(run.status == 4, "\(run.error)")
        #expect(run.error.contains("[output.link-inside]") && run.error.contains("[batch.outside-output]") && run.error.contains("[output.not-plain-name]"))
        #expect(read(out + "/fine/plain.jcal")?.contains("vcalendar") == true)
        #expect(outside() == before)
    }

    /// The output folder itself is the user's word: a link there is followed.
    @Test func theOutputFolderMayBeALink() throws {
        _ = try write(BatchTests.calendar("l@example.com", "Linked"), "in/l.ics")
        try FileManager.default.createSymbolicLink(atPath: out, withDestinationPath: sandbox + "/elsewhere")
        let run = CLIRun(["convert", work + "/in", "--to", "jcal", "-o", out])
        #expect(run.status == 0, "\(run.error)")
        #expect(read(sandbox + "/elsewhere/l.jcal")?.contains("Linked") == true)
    }

    /// `-o /dev/null`, a FIFO or `/dev/fd/N` is written to, not refused as "already exists".
    @Test func devicesAndPipesAreOutputs() throws {
        let calendar = try write(BatchTests.calendar("d@example.com", "Device"), "d.ics")
        for force in [false, true] {
            let run = CLIRun(["convert", calendar, "--to", "jcal", "-o", "/dev/null"] + (force ? ["--force"] : []))
            #expect(run.status == 0, "\(run.error)")
        }
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let run = CLIRun(["convert", calendar, "--to", "ics", "-o", "/dev/fd/\(ends[1])"])
        close(ends[1])
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while case let count = Glibc.read(ends[0], &chunk, 4096), count > 0 { bytes += chunk.prefix(count) }
        close(ends[0])
        #expect(run.status == 0, "\(run.error)")
        #expect(String(decoding: bytes, as: UTF8.self).contains("SUMMARY:Device"))
        // Under --strict a device is written only once nothing was lost (as standard output).
        let strict = CLIRun(["convert", calendar, "--to", "csv", "--strict", "-o", "/dev/null"])
        #expect(strict.status == 0 || strict.error.contains("[convert.strict]"))
    }
}
