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
        // 知习's own Localizable.strings has about 120 strings; with the seeds' screens it has more.
        #expect((120...170).contains(Self.tables.first { $0.name == "ZhiXi" }!.catalog.entries.count))
    }

    /// The seeds' screens' words are in the catalogs, in the app's first language (Retire Time and
    /// 知习 zh-Hans, JellySave zh-Hant, Reminders en), and so in the other two.
    @Test(arguments: [
        ("RetireTime", "zh-Hans", ["编辑日子", "提前 1 小时", "提醒声音", "当天", "默认提醒", "字体大小", "按日期临近", "正计时", "倒计时"]),
        ("JellySave", "zh-Hant", ["歡迎回來", "進行中的目標", "已完成的目標", "資料管理", "安全設定", "帳戶總覽", "快速操作", "輸入密碼",
                                  "嘗試次數過多，請輸入密碼解鎖。", "每天存一點，積少成多。", "初始餘額", "淺色", "深色", "新增第一個帳戶", "帳戶詳情",
                                  "儲蓄目標", "每月趨勢"]),
        ("Reminders", "en", ["Delete List", "Select Reminders", "Current Location", "Getting in Car", "Getting out of Car", "Custom"]),
        ("ZhiXi", "zh-Hans", ["AI", "学习", "学习记录", "深入提问", "每日思考", "回忆测试", "创建知识库", "间隔重复", "费曼学习法", "已掌握"]),
    ])
    func theSeedsScreensAreTranslated(table name: String, locale: String, texts: [String]) throws {
        // The app's own table, or the strings every app shares.
        let entries = Self.tables.filter { $0.name == name || $0.name == "Shared" }.flatMap(\.catalog.entries)
        for text in texts {
            let entry = entries.first { $0.translations[locale]?.value == text }
            #expect(entry != nil, "\(name) has no \(locale) value “\(text)”")
            for other in Self.locales { #expect(entry?.translations[other]?.value?.isEmpty == false, "\(name): \(text) has no \(other) value") }
        }
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
