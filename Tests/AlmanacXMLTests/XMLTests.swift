import AlmanacXML
import Foundation
import Testing

func fixture(_ name: String, filePath: String = #filePath) throws -> [UInt8] {
    let url = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
    return Array(try Data(contentsOf: url))
}

@Suite struct XMLReadingTests {
    @Test func plist() throws {
        let document = try XMLDocument(parsing: try fixture("Info.plist"))
        #expect(document.doctype == .propertyList)
        #expect(document.root.name == "plist")
        #expect(document.root["version"] == "1.0")
        let dict = try #require(document.root.element(named: "dict"))
        #expect(dict.elements(named: "key").map(\.text) == ["CFBundleDisplayName", "NSHumanReadableCopyright", "UIRequiresFullScreen", "Empty"])
        #expect(dict.elements(named: "string").map(\.text) == ["果凍存錢", "© 2025 JellySave & friends <team>", ""])
        #expect(dict.elements(named: "true").count == 1)
        #expect(dict.line == 4)
    }

    @Test func xliffWithNamespacesAndCDATA() throws {
        let document = try XMLDocument(parsing: try fixture("Xcode-export.xliff"))
        #expect(document.root.namespaceURI == "urn:oasis:names:tc:xliff:document:1.2")
        #expect(document.root["xsi:schemaLocation"]?.hasPrefix("urn:oasis") == true)
        let units = document.root.element(named: "file")?.element(named: "body")?.elements(named: "trans-unit") ?? []
        #expect(units.count == 2)
        #expect(units[0]["id"] == "days_left")
        #expect(units[0]["xml:space"] == "preserve")
        #expect(units[0].element(named: "target")?.text == "還有 %d 天")
        #expect(units[1].element(named: "source")?.text == "Use <b>bold</b> & more")
        #expect(units[1].element(named: "target")?.text == "使用 <b>粗體</b> 等")
        #expect(units[1].element(named: "target")?["state"] == "needs-review-translation")
    }

    @Test func malformedDocumentsNameTheLine() {
        let error = #expect(throws: XMLError.self) { try XMLDocument(parsing: try fixture("mismatched-tag.xml")) }
        #expect(error?.kind == .malformed)
        #expect(error?.line == 5)
        #expect(error?.message.contains("mismatch") == true)
    }

    @Test func notXMLAtAll() {
        let error = #expect(throws: XMLError.self) { try XMLDocument(parsing: Array("BEGIN:VCALENDAR\r\n".utf8)) }
        #expect(error?.kind == .malformed)
        #expect(throws: XMLError.self) { try XMLDocument(parsing: [UInt8]()) }
    }
}

@Suite struct XMLSafetyTests {
    @Test(.timeLimit(.minutes(1))) func billionLaughsIsRefusedQuickly() throws {
        let start = ContinuousClock.now
        let error = #expect(throws: XMLError.self) { try XMLDocument(parsing: try fixture("billion-laughs.xml")) }
        #expect(error?.kind == .entityDeclaration)
        #expect(error?.line == 3)
        #expect(ContinuousClock.now - start < .seconds(1))
    }

    @Test func externalEntitiesAreNeverRead() throws {
        let error = #expect(throws: XMLError.self) { try XMLDocument(parsing: try fixture("xxe.xml")) }
        #expect(error?.kind == .entityDeclaration)
        #expect(error?.message.contains("secret") == true)
        let parameter = #expect(throws: XMLError.self) { try XMLDocument(parsing: try fixture("xxe-parameter.xml")) }
        #expect(parameter?.kind == .entityDeclaration)
    }

    @Test func undeclaredEntityIsMalformedNotFetched() {
        let bytes = Array("<!DOCTYPE a SYSTEM \"file:///etc/passwd\"><a>&passwd;</a>".utf8)
        let error = #expect(throws: XMLError.self) { try XMLDocument(parsing: bytes) }
        #expect(error?.kind == .malformed)
        #expect(error?.message.contains("&passwd;") == true)
    }

    @Test func deepNestingIsRefusedQuickly() {
        let depth = 10_000
        let bytes = Array((String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)).utf8)
        let start = ContinuousClock.now
        let error = #expect(throws: XMLError.self) { try XMLDocument(parsing: bytes) }
        #expect(error?.kind == .tooDeep)
        #expect(error?.message == "elements are nested more than 200 deep")
        #expect(error?.line == 1)
        #expect(ContinuousClock.now - start < .seconds(1))
        // A tighter limit is honoured too.
        let shallow = Array((String(repeating: "<a>", count: 30) + String(repeating: "</a>", count: 30)).utf8)
        let limited = #expect(throws: XMLError.self) { try XMLDocument(parsing: shallow, limits: XMLLimits(maxDepth: 20)) }
        #expect(limited?.kind == .tooDeep)
        #expect((try? XMLDocument(parsing: shallow)) != nil)
    }

    @Test func sizeLimit() {
        let bytes = Array("<a>\(String(repeating: "x", count: 2000))</a>".utf8)
        let error = #expect(throws: XMLError.self) { try XMLDocument(parsing: bytes, limits: XMLLimits(maxBytes: 1000)) }
        #expect(error?.kind == .tooLarge)
    }
}

@Suite struct XMLWritingTests {
    @Test func parsedPlistRoundTripsByteForByte() throws {
        let bytes = try fixture("Info.plist")
        var document = try XMLDocument(parsing: bytes)
        // The empty <string></string> keeps its form when the writer is told to.
        document.root = mark(document.root)
        #expect(String(decoding: try document.serialized(), as: UTF8.self) == String(decoding: bytes, as: UTF8.self))
    }

    private func mark(_ element: XMLElement) -> XMLElement {
        var copy = element
        copy.writesEmptyAsPair = element.name == "string"
        copy.children = element.children.map { child in
            if case .element(let inner) = child { return .element(mark(inner)) }
            return child
        }
        return copy
    }

    @Test func buildsAndEscapes() throws {
        let root = XMLElement("note", attributes: [XMLAttribute(name: "title", value: "a \"quoted\" <b> & c")], children: [
            .element(XMLElement("body", text: "1 < 2 && 3 > 2")),
            .element(XMLElement("code", children: [.cdata("if a]]>b { }")])),
            .comment(" 註解 "),
        ]).indented()
        let text = String(decoding: try XMLDocument(root: root).serialized(), as: UTF8.self)
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<note title=\"a &quot;quoted&quot; &lt;b&gt; &amp; c\">"))
        #expect(text.contains("<body>1 &lt; 2 &amp;&amp; 3 &gt; 2</body>"))
        let reread = try XMLDocument(parsing: Array(text.utf8))
        #expect(reread.root["title"] == "a \"quoted\" <b> & c")
        #expect(reread.root.element(named: "body")?.text == "1 < 2 && 3 > 2")
        #expect(reread.root.element(named: "code")?.text == "if a]]>b { }")
    }

    @Test func refusesCharactersXMLCannotHold() {
        let root = XMLElement("a", text: "bell \u{07}")
        let error = #expect(throws: XMLError.self) { try XMLDocument(root: root).serialized() }
        #expect(error?.kind == .invalidCharacter)
        #expect(error?.message.contains("U+0007") == true)
    }
}
