@testable import AlmanacCatalogs
@testable import AlmanacStrings
import AlmanacCore
import AlmanacICU
import AlmanacTestSupport
import Foundation
import Testing

@Suite struct AccessorTests {
    let files = [
        "en.lproj/Localizable.strings", "en.lproj/Localizable.stringsdict", "zh-Hant.lproj/Localizable.strings",
    ].map { fixture("Accessors/" + $0) }

    func generated(_ generator: AccessorGenerator = AccessorGenerator()) throws -> String {
        let (tables, diagnostics) = generator.tables(from: files)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        return generator.generate(tables: tables)
    }

    /// The whole generated file, as a golden file: a change to the output shows up in review.
    /// `ALMANAC_UPDATE_GOLDEN=1 swift test --filter AccessorTests` rewrites it.
    @Test func matchesTheGoldenFile() throws {
        let text = try generated()
        let golden = fixture("Accessors/L10n.swift.golden")
        if ProcessInfo.processInfo.environment["ALMANAC_UPDATE_GOLDEN"] == "1" {
            try text.write(toFile: golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOfFile: golden, encoding: .utf8)
        #expect(text == expected, "regenerate with ALMANAC_UPDATE_GOLDEN=1 if the change is intended")
    }

    /// The generated code and a caller compile under Swift 6 with warnings as errors.
    @Test func compilesWarningFreeUnderSwift6() throws {
        // `swift test` runs with the toolchain, swiftc included, on PATH.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-accessors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try generated(AccessorGenerator(bundle: ".main")).write(to: directory.appendingPathComponent("L10n.swift"), atomically: true, encoding: .utf8)
        let caller = """
            let texts: [String] = [
                L10n.Tab.home, L10n.Home.greeting("Lin"), L10n.Home.progressToday(1, 2), L10n.Feedback.summary(92, "Biology"),
                L10n.Memory.rate, L10n.Memory.Rate.again, L10n.Settings.default, L10n.Settings._2fa, L10n.Review.ok, L10n.Review.ok2,
                L10n.Review.urlScheme("x"), L10n.Share.hours(2.5), L10n.Share.bytes(3, 65), L10n.App.name, L10n.L10nStrings.title,
                L10n.quote, L10n.tr2("a", "b"), L10n.确定, L10n.Streak.days(3), L10n.Files.inFolders(2, 3), L10n.control,
            ]
            print(texts)
            """
        try caller.write(to: directory.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        let result = ExternalCommand.run(["swiftc", "-typecheck", "-swift-version", "6", "-warnings-as-errors",
                                          directory.appendingPathComponent("L10n.swift").path, directory.appendingPathComponent("main.swift").path])
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func namesReadLikeHandWrittenSwift() {
        #expect(AccessorGenerator.identifier("days-left", upper: false) == "daysLeft")
        #expect(AccessorGenerator.identifier("progress_today", upper: true) == "ProgressToday")
        #expect(AccessorGenerator.identifier("2fa", upper: false) == "_2fa")
        #expect(AccessorGenerator.identifier("OK", upper: false) == "ok")
        #expect(AccessorGenerator.identifier("URLScheme", upper: false) == "urlScheme")
        #expect(AccessorGenerator.identifier("Title", upper: false) == "title")
        #expect(AccessorGenerator.identifier("确定", upper: false) == "确定")
        #expect(AccessorGenerator.identifier("🙂", upper: false) == "string")
        #expect(AccessorGenerator.escapedName("default") == "`default`")
        #expect(AccessorGenerator.escapedName("title") == "title")
        // Swift refuses raw control characters anywhere in a source file.
        #expect(AccessorGenerator.literal("a\u{1}\"\n") == #""a\u{1}\"\n""#)
        #expect(AccessorGenerator.printable("A\u{1}B\u{7F}") == #"A\u{1}B\u{7F}"#)
    }

    @Test func parametersFollowPositionsAndTypes() {
        func parameters(_ value: String) -> [String] {
            AccessorGenerator.parameters(Translation(value: value)).0.map { "\($0.label): \($0.type)" }
        }
        #expect(parameters("%2$@: scored %1$d") == ["p1: Int", "p2: String"])
        #expect(parameters("%s, %c, %C, %lu, %x, %.1f, %p") == ["p1: UnsafePointer<CChar>", "p2: CChar", "p3: UInt16", "p4: UInt",
                                                                "p5: UInt", "p6: Double", "p7: UnsafeRawPointer"])
        #expect(parameters("100%% sure") == [])
        let plural = Translation(value: "%#@count@", substitutions: ["count": Substitution(formatSpecifier: "ld", plural: [.one: "%ld day", .other: "%ld days"])])
        #expect(AccessorGenerator.parameters(plural).0.map(\.label) == ["count"])
        #expect(AccessorGenerator.parameters(plural).1)
    }

    @Test func everyAccessorHasAPathForTheAudit() throws {
        let generator = AccessorGenerator()
        let paths = generator.accessorPaths(tables: generator.tables(from: files).tables)
        #expect(paths["L10n.Memory.Rate.again"] == "memory.rate.again")
        #expect(paths["L10n.Memory.rate"] == "memory.rate")
        #expect(paths["L10n.Review.ok2"] == "review.ok")
        #expect(paths["L10n.Settings.default"] == "settings.default")
        #expect(paths["L10n.L10nStrings.title"] == "L10n.title")
        #expect(paths["L10n.tr2"] == "tr")
        #expect(paths["L10n.Streak.days"] == "streak.days")
    }

    @Test func brokenCatalogsAreReportedWithTheirFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-accessors-\(UUID().uuidString)/en.lproj")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let broken = directory.appendingPathComponent("Localizable.strings").path
        try Data("\"a\" = \"A\";\n\"b\" = \"B\"\n\"c\" = \"C\";\n".utf8).write(to: URL(fileURLWithPath: broken))
        let missing = directory.appendingPathComponent("Other.strings").path
        let (_, diagnostics) = AccessorGenerator().tables(from: [broken, missing])
        #expect(diagnostics.hasErrors)
        #expect(diagnostics.contains { $0.location?.file == broken && [2, 3].contains($0.location?.line) })
        #expect(diagnostics.contains { $0.location?.file == missing })
    }

    /// The generator reads catalogs with Foundation only (AlmanacStrings' CatalogFiles); the codecs
    /// read them with ICU and libxml2. Both must see the same catalogs: every catalog file in the
    /// repository's tests, examples and Almanac's own catalogs (UTF-16 with and without a byte
    /// order mark, escapes, duplicates, Interface Builder tables, legacy folder names, plurals with
    /// several variables, an Xcode string catalog), with the same diagnostics.
    @Test func theGeneratorReadsCatalogsAsTheCodecsDo() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var files: [String] = []
        for folder in ["Tests", "Examples", "Locales"] {
            let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
            while let path = enumerator?.nextObject() as? String {
                if [".strings", ".stringsdict", ".xcstrings"].contains(where: path.hasSuffix), !path.contains("/.build/") {
                    files.append(root.appendingPathComponent(folder).appendingPathComponent(path).path)
                }
            }
        }
        #expect(files.count > 30)
        for file in files {
            let foundation = CatalogFiles.read(files: [file], sourceLanguage: "en")
            let codecs = CatalogTree.read(files: [file], context: CodecContext(options: ["source-language": "en", "layout": "no"]))
            #expect(foundation.map(\.name) == codecs.map(\.name), "\(file)")
            for (read, expected) in zip(foundation, codecs) {
                #expect(read.catalog.entries.map(\.key) == expected.catalog.entries.map(\.key), "\(file)")
                #expect(read.catalog == expected.catalog, "\(file)")
                #expect(read.diagnostics.map { "\($0.code) \($0.location?.line ?? 0)" } == expected.diagnostics.map { "\($0.code) \($0.location?.line ?? 0)" },
                        "\(file)")
            }
        }
    }

    /// Foundation's property lists do not keep key order; the generator takes it from the text, past
    /// comments, CDATA, entities, empty dictionaries and nested arrays, as libxml2 reads it.
    @Test func stringsdictKeysKeepTheirOrder() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-accessors-\(UUID().uuidString)/en.lproj")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("Localizable.stringsdict").path
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            	<!-- <key>not.a.key</key> -->
            	<key>zeta</key>
            	<string>plain</string>
            	<key>tom &amp; jerry &#x263A;</key>
            	<dict>
            		<key>NSStringLocalizedFormatKey</key><string><![CDATA[%#@n@ <b>]]></string>
            		<key>n</key>
            		<dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
            		<key>NSStringFormatValueTypeKey</key><string>d</string><key>one</key><string>%d cat</string><key>other</key><string>%d cats</string>
            		<key>extra</key><array><dict/><array><string>x</string></array></array></dict>
            	</dict>
            	<key>alpha</key><string>first?</string>
            </dict>
            </plist>
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let foundation = CatalogFiles.read(files: [path], sourceLanguage: "en")
        let codecs = CatalogTree.read(files: [path], context: CodecContext(options: ["source-language": "en", "layout": "no"]))
        #expect(foundation.first?.catalog.entries.map(\.key) == ["zeta", "tom & jerry ☺", "alpha"])
        #expect(foundation.first?.catalog == codecs.first?.catalog)
    }

    /// The plural table (AlmanacStrings' PluralTableData, which the generator reads without ICU)
    /// is ICU's, for every locale ICU knows and the legacy codes catalogs still use (`iw`, `in`):
    /// the file is generated here, and `ALMANAC_UPDATE_GOLDEN=1` rewrites it after an ICU update.
    @Test func pluralTableIsICUs() throws {
        func icuTable(_ locale: LocaleID) throws -> (small: String, million: Character) {
            let rules = try PluralRules(locale: locale)
            var small = String((0..<200).map { PluralTable.letter(rules.category(for: $0)) })
            while small.last == "x" { small.removeLast() }
            return (small, PluralTable.letter(rules.category(for: 1_000_000)))
        }
        var icu: [String: (small: String, million: Character)] = [:]
        for locale in LocaleID.available {
            icu[locale.bcp47.lowercased()] = try icuTable(locale)
        }
        for alias in ["iw", "in", "ji", "jw", "mo", "no", "tl", "sh"] {
            guard let locale = try? LocaleID(alias) else { continue }
            icu[alias] = try icuTable(locale)
        }
        #expect(icu.count > 500, "ICU lists \(icu.count) locales")
        // An entry for a tag only where the lookup through its parents would not find its rules.
        var entries: [String: (small: String, million: Character)] = [:]
        func lookup(_ tag: String) -> (small: String, million: Character)? {
            var tag = tag
            while true {
                if let found = entries[tag] { return found }
                guard let cut = tag.lastIndex(of: "-") else { return nil }
                tag = String(tag[..<cut])
            }
        }
        for tag in icu.keys.sorted(by: { ($0.split(separator: "-").count, $0) < ($1.split(separator: "-").count, $1) }) {
            let rules = icu[tag]!
            let found = lookup(tag) ?? ("", "x")
            if found.small != rules.small || found.million != rules.million { entries[tag] = rules }
        }
        let text = entries.keys.sorted().map { "        \($0) \(entries[$0]!.small.isEmpty ? "-" : entries[$0]!.small) \(entries[$0]!.million)" }
        let file = """
            // Generated by AccessorTests.pluralTableIsICUs (ALMANAC_UPDATE_GOLDEN=1) from ICU's plural rules. Do not edit.

            enum PluralTableData {
                /// `tag small million` a line (see PluralTable); a tag not here takes its parent's rules.
                static let text = \"\"\"
            \(text.joined(separator: "\n"))
                    \"\"\"
            }

            """
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/AlmanacStrings/Generated/PluralTableData.swift").path
        if ProcessInfo.processInfo.environment["ALMANAC_UPDATE_GOLDEN"] == "1" {
            try file.write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == file, "regenerate with ALMANAC_UPDATE_GOLDEN=1 after an ICU update")
        // What the lookup in AlmanacStrings gives is ICU's, tag by tag.
        for (tag, rules) in icu {
            let table = PluralTable.rules(for: tag) ?? ("", "x")
            #expect(table.small == rules.small && table.million == rules.million, "\(tag)")
        }
    }

    /// The table's scheme (0…199, then the last two digits plus 100, and whole millions) against
    /// ICU's rules over many numbers, for languages whose integer rules use every trick CLDR has:
    /// n % 10, n % 100, ranges, and whole millions.
    @Test(arguments: ["en", "fr", "es", "pt", "pt-PT", "it", "de", "ru", "uk", "pl", "cs", "ar", "he", "iw", "cy", "ga", "gd", "lt", "lv",
                      "mt", "sl", "br", "gv", "ro", "is", "mk", "be", "zh-Hans", "zh_TW", "ja", "ko"])
    func pluralTableMatchesICU(language: String) throws {
        let table = AccessorGenerator.pluralTable(language) ?? ("", "x")
        let rules = try PluralRules(locale: LocaleID(language))
        let numbers = Array(0..<3000) + [10_001, 100_011, 1_000_000, 2_000_000, 1_000_001, 1_000_100, 21_000_000, 123_456_789]
        for number in numbers {
            #expect(PluralTable.category(of: number, small: table.small, million: table.million) == rules.category(for: number),
                    "\(language) \(number)")
        }
    }
}
