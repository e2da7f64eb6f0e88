@testable import AlmanacCatalogs
import AlmanacCore
import Foundation
import Testing

/// Catalogs written back as Xcode and Apple's readers have them (#15 item 8).
@Suite struct WriteBackTests {
    /// Xcode writes keys in Foundation's sorted-keys order: case ignored (zh-Hans and zh-Hant before zh-HK, where bytes put HK first),
    /// digit runs by value (item2 before item10). A catalog Xcode wrote comes back byte for byte,
    /// and one built elsewhere is written in that order.
    @Test func localizationsAreOrderedAsXcodeOrdersThem() throws {
        let text = """
        {
          "sourceLanguage" : "en",
          "strings" : {
            "apple" : {
              "localizations" : {
                "en" : {
                  "stringUnit" : {
                    "state" : "translated",
                    "value" : "Apple"
                  }
                },
                "zh-Hans" : {
                  "stringUnit" : {
                    "state" : "translated",
                    "value" : "苹果"
                  }
                },
                "zh-Hant" : {
                  "stringUnit" : {
                    "state" : "translated",
                    "value" : "蘋果"
                  }
                }
              }
            },
            "Banana" : {

            },
            "item2" : {

            },
            "item10" : {

            }
          },
          "version" : "1.0"
        }
        """
        let codec = XCStringsCodec()
        let decoded = try codec.decode(CodecInput(bytes: Array(text.utf8)), context: CodecContext())
        #expect(String(decoding: try codec.encode(decoded.document, context: CodecContext()).bytes, as: UTF8.self) == text)
        guard case .catalog(var catalog) = decoded.document else { Issue.record("not a catalog"); return }
        catalog.presentation = Presentation()
        catalog.entries.reverse()
        let written = String(decoding: try codec.encode(.catalog(catalog), context: CodecContext()).bytes, as: UTF8.self)
        #expect(written == text)
        #expect(XcodeKeyOrder.precedes("item2", "item10"))
        #expect(XcodeKeyOrder.precedes("zh-Hans", "zh-HK"))
        #expect(XcodeKeyOrder.precedes("Key", "key") != XcodeKeyOrder.precedes("key", "Key"))
    }

    /// A plain string in a .stringsdict (a key whose value is a string) is written back.
    @Test func plainStringsInStringsdictAreKept() throws {
        let text = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>days.count</key>
        \t<dict>
        \t\t<key>NSStringLocalizedFormatKey</key>
        \t\t<string>%#@value@</string>
        \t\t<key>value</key>
        \t\t<dict>
        \t\t\t<key>NSStringFormatSpecTypeKey</key>
        \t\t\t<string>NSStringPluralRuleType</string>
        \t\t\t<key>NSStringFormatValueTypeKey</key>
        \t\t\t<string>d</string>
        \t\t\t<key>one</key>
        \t\t\t<string>%d day</string>
        \t\t\t<key>other</key>
        \t\t\t<string>%d days</string>
        \t\t</dict>
        \t</dict>
        \t<key>settings.title</key>
        \t<string>Settings</string>
        </dict>
        </plist>

        """
        let codec = StringsdictCodec()
        let decoded = try codec.decode(CodecInput(bytes: Array(text.utf8)), context: CodecContext(options: ["locale": "en"]))
        let written = String(decoding: try codec.encode(decoded.document, context: CodecContext()).bytes, as: UTF8.self)
        #expect(written.contains("<key>settings.title</key>\n\t<string>Settings</string>"))
        let again = try codec.decode(CodecInput(bytes: Array(written.utf8)), context: CodecContext(options: ["locale": "en"]))
        #expect(again.document == decoded.document)
    }

    /// A .strings file with a key twice comes back unchanged (both lines, as the reader reports
    /// both); when the value changes, both lines get the new one, so the file means what the
    /// catalog says whichever line Apple's reader keeps.
    @Test func duplicateKeysKeepBothLines() throws {
        let codec = StringsCodec()
        let bytes = try fixtureBytes("duplicates.strings")
        let decoded = try codec.decode(CodecInput(bytes: bytes, fileName: fixture("duplicates.strings")), context: CodecContext())
        #expect(try codec.encode(decoded.document, context: CodecContext()).bytes == bytes)
        guard case .catalog(var catalog) = decoded.document else { Issue.record("not a catalog"); return }
        let index = try #require(catalog.entries.firstIndex { $0.key == "save" })
        catalog.entries[index].translations["en"]?.value = "存檔"
        let changed = String(decoding: try codec.encode(.catalog(catalog), context: CodecContext()).bytes, as: UTF8.self)
        #expect(changed == "\"save\" = \"存檔\";\n\"cancel\" = \"取消\";\n/* Added again by a merge */\n\"save\" = \"存檔\";\n")
    }

    /// Catalogs Xcode did not write: Python's `json.dump(indent=2)` with `version` first, one
    /// entry a line, four-space indents. Read and written unchanged, each is the same bytes; with
    /// one value changed, only that value changes (the entry is written anew in the file's style);
    /// a new key goes where Xcode's order puts it in a sorted file, after the others otherwise.
    @Test(arguments: ["python", "one-line", "four-spaces"])
    func layoutsNotWrittenByXcode(layout: String) throws {
        let entries = [("a.key", #"{"comment": "A", "localizations": {"en": {"stringUnit": {"state": "translated", "value": "Ay"}}}}"#),
                       ("b.key", #"{"localizations": {"en": {"stringUnit": {"state": "translated", "value": "Bee"}}, "zh-Hans": {"stringUnit": {"state": "translated", "value": "蜜蜂"}}}}"#),
                       ("d.key", #"{"localizations": {"en": {"stringUnit": {"state": "translated", "value": "Dee / slash"}}}}"#)]
        let text: String
        switch layout {
        case "one-line":
            text = "{\"sourceLanguage\": \"en\", \"version\": \"1.0\", \"strings\": {\n"
                + entries.map { "  \"\($0.0)\": \($0.1)" }.joined(separator: ",\n") + "\n}}\n"
        default:
            let indent = layout == "python" ? 2 : 4
            let members = entries.map { key, value in
                ("\"" + key + "\"", try! JSONValue(parsing: Array(value.utf8)))
            }
            var writer = JSONWriter(layout: JSONWriter.Layout(indent: indent, colon: ": ", separator: ","), capacity: 4096)
            writer.value(.object([("version", .string("1.0")), ("sourceLanguage", .string("en")),
                                  ("strings", .object(members.map { (String($0.0.dropFirst().dropLast()), $0.1) }))]))
            text = String(decoding: writer.take(), as: UTF8.self) + (layout == "python" ? "\n" : "")
        }
        let codec = XCStringsCodec()
        let decoded = try codec.decode(CodecInput(bytes: Array(text.utf8)), context: CodecContext())
        #expect(String(decoding: try codec.encode(decoded.document, context: CodecContext()).bytes, as: UTF8.self) == text)

        guard case .catalog(var catalog) = decoded.document else { Issue.record("not a catalog"); return }
        let b = try #require(catalog.entries.firstIndex { $0.key == "b.key" })
        catalog.entries[b].translations["en"]?.value = "Bees"
        let changed = String(decoding: try codec.encode(.catalog(catalog), context: CodecContext()).bytes, as: UTF8.self)
        #expect(changed != text)
        #expect(changed.replacingOccurrences(of: "\"Bees\"", with: "\"Bee\"") == text)

        catalog.entries.append(CatalogEntry(key: "c.key", translations: ["en": Translation(value: "Cee", state: .translated)]))
        let added = String(decoding: try codec.encode(.catalog(catalog), context: CodecContext()).bytes, as: UTF8.self)
        let again = try codec.decode(CodecInput(bytes: Array(added.utf8)), context: CodecContext())
        guard case .catalog(let reread) = again.document else { Issue.record("not a catalog"); return }
        #expect(reread.entries.map(\.key) == ["a.key", "b.key", "c.key", "d.key"])
        #expect(reread["c.key"]?.translations["en"]?.value == "Cee")
        #expect(added.contains(layout == "one-line" ? #""c.key": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "Cee"}}}}"# : "\"c.key\": {"))
    }

    /// A `.stringsdict` not laid out as Apple writes it (four spaces, a comment, variables not in
    /// the format's order, a rule type Almanac does not model) comes back byte for byte; a changed
    /// entry is written in the file's indentation and the others stay as they were.
    @Test func stringsdictKeepsItsLayout() throws {
        let text = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
            <!-- Review screen -->
            <key>cards-in-decks</key>
            <dict>
                <key>NSStringLocalizedFormatKey</key>
                <string>%2$#@decks@ hold %1$#@cards@</string>
                <key>cards</key>
                <dict>
                    <key>NSStringFormatSpecTypeKey</key>
                    <string>NSStringPluralRuleType</string>
                    <key>NSStringFormatValueTypeKey</key>
                    <string>ld</string>
                    <key>one</key>
                    <string>%ld card</string>
                    <key>other</key>
                    <string>%ld cards</string>
                </dict>
                <key>decks</key>
                <dict>
                    <key>NSStringFormatSpecTypeKey</key>
                    <string>NSStringPluralRuleType</string>
                    <key>NSStringFormatValueTypeKey</key>
                    <string>ld</string>
                    <key>one</key>
                    <string>%ld deck</string>
                    <key>other</key>
                    <string>%ld decks</string>
                </dict>
            </dict>
            <key>days</key>
            <dict>
                <key>NSStringLocalizedFormatKey</key>
                <string>%#@days@</string>
                <key>days</key>
                <dict>
                    <key>NSStringFormatSpecTypeKey</key>
                    <string>NSStringPluralRuleType</string>
                    <key>NSStringFormatValueTypeKey</key>
                    <string>d</string>
                    <key>one</key>
                    <string>%d day</string>
                    <key>other</key>
                    <string>%d days</string>
                </dict>
            </dict>
        </dict>
        </plist>

        """
        let codec = StringsdictCodec()
        let context = CodecContext(options: ["locale": "en"])
        let decoded = try codec.decode(CodecInput(bytes: Array(text.utf8)), context: context)
        #expect(String(decoding: try codec.encode(decoded.document, context: context).bytes, as: UTF8.self) == text)

        guard case .catalog(var catalog) = decoded.document else { Issue.record("not a catalog"); return }
        let days = try #require(catalog.entries.firstIndex { $0.key == "days" })
        catalog.entries[days].translations["en"]?.substitutions?["days"]?.plural[.other] = "%d days to go"
        let changed = String(decoding: try codec.encode(.catalog(catalog), context: context).bytes, as: UTF8.self)
        #expect(changed.replacingOccurrences(of: "%d days to go", with: "%d days") == text)

        catalog.entries.append(CatalogEntry(key: "weeks", translations: ["en": Translation(plural: [.one: "%d week", .other: "%d weeks"])]))
        let added = String(decoding: try codec.encode(.catalog(catalog), context: context).bytes, as: UTF8.self)
        #expect(added.hasPrefix(changed.components(separatedBy: "\n</dict>\n</plist>")[0]))
        #expect(added.contains("\n    <key>weeks</key>\n    <dict>\n        <key>NSStringLocalizedFormatKey</key>"))
        let reread = try codec.decode(CodecInput(bytes: Array(added.utf8)), context: context)
        guard case .catalog(let again) = reread.document else { Issue.record("not a catalog"); return }
        #expect(again.entries.map(\.key) == ["cards-in-decks", "days", "weeks"])
    }
}
