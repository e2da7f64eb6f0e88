@testable import AlmanacCatalogs
import AlmanacCore
import AlmanacICU
import Foundation
import Testing

/// The catalogs the four apps and Almanac share, in Locales/.
@Suite struct LocalesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Locales").standardized.path
    static let tables = CatalogTree.read(root)
    static let locales = ["en", "zh-Hans", "zh-Hant"]

    @Test func everyTableIsThere() {
        #expect(Set(Self.tables.map(\.name)) == ["Almanac", "Shared", "RetireTime", "JellySave", "ZhiXi", "Reminders"])
        #expect(Self.tables.allSatisfy { $0.diagnostics.isEmpty })
        // 知习 ships about 120 strings.
        #expect((120...140).contains(Self.tables.first { $0.name == "ZhiXi" }!.catalog.entries.count))
    }

    @Test func everyKeyInEveryLocale() {
        for table in Self.tables {
            for entry in table.catalog.entries {
                for locale in Self.locales {
                    let translation = entry.translations[locale]
                    #expect(translation?.isEmpty == false, "\(table.name): \(entry.key) has no \(locale) value")
                }
            }
        }
    }

    @Test func placeholdersMeanTheSameInEveryLocale() {
        for table in Self.tables {
            for entry in table.catalog.entries {
                guard let english = entry.translations["en"] else { continue }
                var expected: [String: [Int: Placeholder.ArgumentType]] = [:]
                for (path, text) in english.texts { expected[path] = PlaceholderList(text).arguments }
                for locale in Self.locales {
                    for (path, text) in entry.translations[locale]?.texts ?? [] {
                        let list = PlaceholderList(text)
                        // Plural forms compare with English's "other" form of the same variable.
                        let other = path.split(separator: ".").dropLast().joined(separator: ".") + ".other"
                        #expect(list.stray.isEmpty, "\(table.name): \(entry.key) \(locale) \(path) has a stray %")
                        #expect(list.arguments == (expected[path] ?? expected[other]), "\(table.name): \(entry.key) \(locale) \(path): \(text)")
                    }
                }
            }
        }
    }

    @Test func plurals() {
        for table in Self.tables {
            for entry in table.catalog.entries {
                guard let substitutions = entry.translations["en"]?.substitutions else { continue }
                for substitution in substitutions.values { #expect(Set(substitution.plural.keys) == [.one, .other], "\(entry.key)") }
                for locale in ["zh-Hans", "zh-Hant"] {
                    for substitution in entry.translations[locale]?.substitutions?.values.map({ $0 }) ?? [] {
                        #expect(Set(substitution.plural.keys) == [.other], "\(entry.key) \(locale)")
                    }
                }
            }
        }
    }

    @Test func traditionalChineseReadsAsTaiwan() {
        let vocabulary = MainlandVocabulary()
        for table in Self.tables {
            for entry in table.catalog.entries {
                for (_, text) in entry.translations["zh-Hant"]?.texts ?? [] {
                    #expect(vocabulary.find(in: text).isEmpty, "\(table.name): \(entry.key): \(vocabulary.find(in: text))")
                    #expect(!text.contains("“") && !text.contains("”"), "\(table.name): \(entry.key) uses “” instead of 「」")
                }
                for (_, text) in entry.translations["zh-Hans"]?.texts ?? [] {
                    #expect(!text.contains("「") && !text.contains("」"), "\(table.name): \(entry.key) uses 「」 in zh-Hans")
                }
            }
        }
    }

    @Test func filesAreWrittenBackUnchanged() throws {
        for path in CatalogTree.files(under: Self.root) {
            let codec: any Codec = path.hasSuffix(".stringsdict") ? StringsdictCodec() : StringsCodec()
            let input = CodecInput(contentsOf: path)
            let decoded = try codec.decode(input, context: CodecContext())
            let bytes = try codec.encode(decoded.document, context: CodecContext())
            #expect(bytes.bytes == (try input.readAll()), "\(path)")
        }
    }
}
