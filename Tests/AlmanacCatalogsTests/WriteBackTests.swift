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
}
