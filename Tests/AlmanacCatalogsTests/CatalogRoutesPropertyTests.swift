@testable import AlmanacCatalogs
import AlmanacCore
import AlmanacStrings
import AlmanacTestSupport
import Foundation
import Testing

/// Every field of a String Catalog through every catalog route, over generated catalogs: comments,
/// `extractionState`, `shouldTranslate`, states (per device variant too), plural and device
/// variations, substitutions with `argNum` and `formatSpecifier`. Compared as JSON values of the
/// catalog written as `.xcstrings` again. XLIFF and catalog JSON keep everything; an `.lproj` tree
/// keeps the texts and names every field it cannot hold, entry by entry.
@Suite struct CatalogRoutesPropertyTests {
    static let seeds: [UInt64] = Array(1...40)

    @Test(arguments: seeds)
    func xliffAndCatalogJSONKeepEveryField(seed: UInt64) throws {
        let catalog = Self.generate(seed: seed)
        let expected = try Self.json(catalog)
        #expect(try Self.json(try Self.reread(catalog, XCStringsCodec(), as: "Routes.xcstrings")) == expected, "xcstrings, seed \(seed)")
        #expect(try Self.json(try Self.reread(catalog, ModelJSONCodec(.catalog), as: "Routes.json")) == expected, "catalog-json, seed \(seed)")
        let xliff = try XLIFFCodec().encode(.catalog(catalog), context: CodecContext(options: ["locale": "zh-Hant"]))
        let back = try XLIFFCodec().decode(CodecInput(bytes: xliff.bytes, fileName: "Routes.xliff"), context: CodecContext())
        guard case .catalog(var read) = back.document else { Issue.record("not a catalog"); return }
        read.presentation = catalog.presentation
        let readJSON = try Self.json(read)
        #expect(readJSON == expected, "xliff, seed \(seed)\n\(readJSON)\n----\n\(expected)")
    }

    @Test(arguments: seeds)
    func anLprojTreeKeepsTheTextsAndNamesWhatItCannotHold(seed: UInt64) throws {
        let catalog = Self.generate(seed: seed)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("routes-\(seed)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try CatalogTree.files(of: catalog, table: "Routes")
        for file in files {
            let url = folder.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.bytes).write(to: url)
        }
        let said = files.flatMap(\.diagnostics).filter { $0.code == "convert.dropped" }.map { $0.rendered() }
        let tables = CatalogTree.read(folder.path, context: CodecContext(options: ["source-language": "en"]))
        var read = tables.first?.catalog ?? Catalog(sourceLanguage: "en")
        read.presentation = catalog.presentation
        // What the tree cannot hold, each said of its entry; the rest must come back as it was.
        var held = catalog
        // (A catalog of such entries only has no file to say it in, and is not written as a tree.)
        for entry in held.entries where entry.translations.isEmpty && !files.isEmpty {
            let field = entry.shouldTranslate == false ? "shouldTranslate" : "entry"
            #expect(said.contains { $0.contains("cannot hold \(field);") && $0.contains("“\(entry.key)”") }, "\(entry.key), seed \(seed)")
        }
        held.entries.removeAll { $0.translations.isEmpty }
        for index in held.entries.indices {
            let key = held.entries[index].key
            func mustBeSaid(_ field: String) {
                #expect(said.contains { $0.contains("cannot hold \(field);") && $0.contains("“\(key)”") }, "\(field) of \(key), seed \(seed)")
            }
            let variantsOnly = held.entries[index].translations.values.allSatisfy { $0.value == nil || $0.substitutions != nil || $0.devices != nil || $0.plural != nil }
            if held.entries[index].comment != nil, variantsOnly { mustBeSaid("comment"); held.entries[index].comment = nil }
            if held.entries[index].extractionState != nil { mustBeSaid("extractionState"); held.entries[index].extractionState = nil }
            if held.entries[index].shouldTranslate == false { mustBeSaid("shouldTranslate"); held.entries[index].shouldTranslate = nil }
            for locale in held.entries[index].translations.keys {
                var translation = held.entries[index].translations[locale]!
                if let state = translation.state, state != .translated { mustBeSaid("state") }
                translation.state = .translated
                translation.devices = translation.devices?.mapValues { variant in var variant = variant; variant.state = .translated; return variant }
                // A plain plural is written as a format of one variable (`%#@value@`) and comes back
                // so: the same strings at run time, in a substitution's shape.
                if let plural = translation.plural {
                    translation.plural = nil
                    translation.value = "%#@value@"
                    translation.substitutions = ["value": Substitution(formatSpecifier: StringsdictFile.pluralSpecifier(plural), plural: plural)]
                }
                if translation.substitutions?.values.contains(where: { $0.argument != nil }) == true {
                    mustBeSaid("substitutions.argNum")
                    translation.substitutions = translation.substitutions?.mapValues { substitution in
                        var substitution = substitution
                        substitution.argument = nil
                        return substitution
                    }
                }
                held.entries[index].translations[locale] = translation
            }
        }
        #expect(try Self.json(read) == (try Self.json(held)), "seed \(seed)")
    }

    // MARK: Generated catalogs

    static func reread(_ catalog: Catalog, _ codec: any Codec, as name: String) throws -> Catalog {
        let bytes = try codec.encode(.catalog(catalog), context: CodecContext()).bytes
        guard case .catalog(var read) = try codec.decode(CodecInput(bytes: bytes, fileName: name), context: CodecContext()).document else {
            fatalError("\(codec.format.id) read no catalog")
        }
        read.presentation = catalog.presentation
        return read
    }

    /// The catalog as `.xcstrings` JSON, keys sorted: what "the same catalog" means here.
    static func json(_ catalog: Catalog) throws -> String {
        var plain = catalog
        for index in plain.entries.indices {
            plain.entries[index].presentation = Presentation()
            for locale in plain.entries[index].translations.keys { plain.entries[index].translations[locale]?.presentation = Presentation() }
        }
        plain.presentation = Presentation()
        let bytes = try XCStringsCodec().encode(.catalog(plain), context: CodecContext()).bytes
        return try JSONValue(parsing: bytes).sortingKeys().serialized(pretty: true)
    }

    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    }

    static let states: [Translation.State] = [.translated, .translated, .needsReview, .new]

    static func generate(seed: UInt64) -> Catalog {
        var random = Generator(state: seed)
        var catalog = Catalog(sourceLanguage: "en")
        let count = 1 + random.below(6)
        for number in 0..<count {
            var entry = CatalogEntry(key: random.pick(["Save", "%lld days left", "Tap to continue", "Delete %@?", "%1$@ of %2$lld"]) + " \(number)")
            if random.chance(40) { entry.comment = random.pick(["A button", "Shown on the home screen", "%lld: a count"]) }
            if random.chance(30) { entry.extractionState = random.pick(["manual", "extracted_with_value", "stale"]) }
            if random.chance(10) {
                entry.shouldTranslate = false
                if random.chance(50) { catalog.entries.append(entry); continue }
            }
            // A substitution's argument and value type are the format's, the same in every language.
            let facts = (argument: random.chance(50) ? 1 : nil, specifier: random.pick(["lld", "d", "@"]))
            for locale in ["en", "zh-Hant"] where locale == "en" || random.chance(80) {
                var translation = translation(&random, locale: locale, facts: facts)
                // Source texts are translated (XLIFF has no state for a source; other states are said).
                if locale == "en" {
                    translation.state = .translated
                    translation.devices = translation.devices?.mapValues { variant in var variant = variant; variant.state = .translated; return variant }
                }
                entry.translations[locale] = translation
            }
            catalog.entries.append(entry)
        }
        return catalog
    }

    static func translation(_ random: inout Generator, locale: String, facts: (argument: Int?, specifier: String)) -> Translation {
        let word = locale == "en" ? "items" : "項"
        var translation: Translation
        switch random.below(4) {
        case 0:
            translation = Translation(value: locale == "en" ? "Save" : "儲存")
        case 1:
            translation = Translation(plural: locale == "en" ? [.one: "%lld item", .other: "%lld \(word)"] : [.other: "%lld \(word)"])
        case 2:
            var devices: [String: Translation] = [:]
            for device in ["other", "mac", "ipad", "iphone"].prefix(2 + random.below(3)) {
                var variant = Translation(value: "\(device) \(word)")
                variant.state = random.pick(states)
                devices[device] = variant
            }
            translation = Translation(devices: devices)
        default:
            let forms: [PluralCategory: String] = locale == "en" ? [.one: "%arg item", .other: "%arg \(word)"] : [.other: "%arg \(word)"]
            translation = Translation(value: "%#@count@ / %2$@",
                                      substitutions: ["count": Substitution(argument: facts.argument, formatSpecifier: facts.specifier, plural: forms)])
        }
        translation.state = translation.devices.map { devices in
            devices.values.compactMap(\.state).reduce(Translation.State.translated) { Translation.State.leastAdvanced($0, $1) }
        } ?? random.pick(states)
        return translation
    }
}
