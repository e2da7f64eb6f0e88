import AlmanacBytes
import AlmanacTestSupport
@testable import AlmanacXML
import Testing

/// The events a reader hands out, as lines: adjacent text joined (libxml2 splits text where it
/// likes), attributes in order.
private final class Recorder: XMLStreamHandler {
    var events: [String] = []
    /// libxml2's SAX2, not substituting entities, hands out `&amp;` in an attribute as `&#38;`
    /// (so that a value written back stays escaped); the scanner gives the character.
    var undoesLibxml2Escape = false
    private var text: [UInt8] = []

    func start(_ name: ByteView, _ attributes: XMLStreamAttributes) {
        flush()
        var line = "start " + name.string
        attributes.forEach { key, value in
            let text = undoesLibxml2Escape ? value.string.replacingOccurrences(of: "&#38;", with: "&") : value.string
            line += " \(key.string)=\(text.debugDescription)"
        }
        events.append(line)
    }

    func end(_ name: ByteView) {
        flush()
        events.append("end " + name.string)
    }

    func text(_ bytes: ByteView) { bytes.append(0, bytes.count, to: &text) }

    func flush() {
        if !text.isEmpty { events.append("text " + String(decoding: text, as: UTF8.self).debugDescription) }
        text.removeAll()
    }
}

private enum Reader { case libxml2, scanner }

/// The document's events, fed in `pieces`, or the error.
private func events(_ bytes: [UInt8], _ reader: Reader, pieces: [Int] = [], limits: XMLLimits = .default) -> Result<[String], XMLError> {
    let recorder = Recorder()
    do throws(XMLError) {
        var cuts = pieces.filter { $0 > 0 && $0 < bytes.count }.sorted()
        cuts.append(bytes.count)
        var start = 0
        switch reader {
        case .libxml2:
            recorder.undoesLibxml2Escape = true
            let stream = try XMLStreamReader(handler: recorder, limits: limits)
            for cut in cuts { try stream.feed(Array(bytes[start..<cut])); start = cut }
            try stream.feed([], last: true)
        case .scanner:
            var scanner = XMLScanner(handler: recorder, limits: limits)
            for cut in cuts { try scanner.feed(Array(bytes[start..<cut])); start = cut }
            try scanner.feed([], last: true)
        }
    } catch {
        return .failure(error)
    }
    recorder.flush()
    return .success(recorder.events)
}

/// Random documents shaped like a workbook's parts, with everything XML lets them hold.
private func randomDocument(_ random: inout SeededGenerator) -> String {
    let names = ["c", "v", "t", "is", "row", "r", "rPh", "si", "x:c", "sheetData"]
    let attributeNames = ["r", "s", "t", "ref", "x:id", "xml:space", "spans"]
    let texts = ["46176", "寶寶滿月", "a &amp; b", "&lt;tag&gt;", "&#x6708;&#26376;", "line\r\nbreak\rcr\nlf", "\t tab ", "&quot;&apos;",
                 "<![CDATA[1 < 2 & 3 ]] >]]>", "<!-- note -->", "<?pi data?>", "🎉", "  "]
    let values = ["A1", "1", "inlineStr", "a&amp;b", "tab\there", "cr\r\nlf", "&#20013;", "&lt;&gt;", "'single'", "\"double\""]
    func value() -> String {
        let text = values.randomElement(using: &random)!
        return text.contains("\"") ? "'\(text.replacingOccurrences(of: "'", with: "&apos;"))'" : "\"\(text)\""
    }
    func element(_ depth: Int) -> String {
        let name = names.randomElement(using: &random)!
        var tag = "<" + name
        for attribute in attributeNames.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random)) {
            tag += [" ", "\n  ", "\t"].randomElement(using: &random)! + attribute + ["=", " = "].randomElement(using: &random)! + value()
        }
        if depth > 3 || Int.random(in: 0..<4, using: &random) == 0 { return tag + (Bool.random(using: &random) ? "/>" : " />") }
        var body = ""
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            body += Bool.random(using: &random) ? texts.randomElement(using: &random)! : element(depth + 1)
        }
        return tag + ">" + body + "</" + name + ">"
    }
    var document = ""
    if Bool.random(using: &random) { document += "\u{FEFF}" }
    if Bool.random(using: &random) { document += #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\r\n" }
    if Bool.random(using: &random) { document += "<!-- before -->\n" }
    document += #"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:x="urn:x">"#
    for _ in 0..<Int.random(in: 0...5, using: &random) { document += element(0) }
    document += "</worksheet>" + (Bool.random(using: &random) ? "\n" : "")
    return document
}

@Suite struct XMLScannerTests {
    /// Random workbook-like documents, cut into pieces anywhere: the same events as libxml2's.
    @Test func sameEventsAsLibxml2() {
        var random = SeededGenerator(seed: 20_261_127)
        var failures = 0
        defer { #expect(failures == 0) }
        for _ in 0..<1_500 {
            let bytes = Array(randomDocument(&random).utf8)
            let pieces = (0..<Int.random(in: 0...6, using: &random)).map { _ in Int.random(in: 0...bytes.count, using: &random) }
            let expected = events(bytes, .libxml2)
            guard case .success(let want) = expected else {
                Issue.record("libxml2 refused a generated document: \(expected) \(String(decoding: bytes, as: UTF8.self))")
                continue
            }
            let got = events(bytes, .scanner, pieces: pieces)
            if got != .success(want) {
                failures += 1
                if failures <= 3 { Issue.record("\(String(decoding: bytes, as: UTF8.self).debugDescription) in pieces at \(pieces): \(got) instead of \(want)") }
            }
        }
    }

    /// The same random documents in UTF-16, either byte order, with and without a byte order mark
    /// (and a declaration saying UTF-16), cut into pieces anywhere, even inside a surrogate pair:
    /// the same events as their UTF-8. An unpaired surrogate is an error, never a crash.
    @Test func utf16DocumentsReadAsTheirUTF8() {
        var random = SeededGenerator(seed: 20_261_129)
        for round in 0..<300 {
            let text = randomDocument(&random) + "<!-- 🎂 -->"
            let bigEndian = round % 2 == 0, mark = round % 4 < 2
            let declared = text.replacing(#"encoding="UTF-8""#, with: #"encoding="UTF-16""#)
            var bytes: [UInt8] = mark ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
            for unit in declared.utf16 { bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
            let pieces = (0..<Int.random(in: 0...6, using: &random)).map { _ in Int.random(in: 0...bytes.count, using: &random) }
            let want = events(Array(text.utf8), .scanner)
            #expect(events(bytes, .scanner, pieces: pieces + [1, 3]) == want, "round \(round)")
        }
        let unpaired: [UInt8] = [0xFF, 0xFE] + Array("<a>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } + [0x00, 0xDC]
        guard case .failure = events(unpaired, .scanner) else { Issue.record("an unpaired surrogate was read"); return }
    }

    /// Damaged documents: whatever libxml2 reads, the scanner reads the same way; what neither
    /// reads is an error, never a crash.
    @Test func damagedDocumentsNeverReadDifferently() {
        var random = SeededGenerator(seed: 20_261_128)
        let damage: [UInt8] = Array("<>/&;\"'=!?-[] \r\nx#".utf8) + [0x00, 0x01, 0xE5, 0x80, 0xFF]
        var onlyScannerRead = 0
        var failures = 0
        defer { #expect(failures == 0) }
        for _ in 0..<3_000 {
            var bytes = Array(randomDocument(&random).utf8)
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[at] = damage.randomElement(using: &random)!
                case 1: bytes.remove(at: at)
                default: bytes.insert(damage.randomElement(using: &random)!, at: at)
                }
                if bytes.isEmpty { bytes = [0x3C] }
            }
            let pieces = (0..<Int.random(in: 0...4, using: &random)).map { _ in Int.random(in: 0...bytes.count, using: &random) }
            let got = events(bytes, .scanner, pieces: pieces)
            switch events(bytes, .libxml2) {
            case .success(let want):
                // libxml2 reads a malformed prefixed name (`xmlns:`, `:id`, `x:-y`) with only a
                // namespace warning; the scanner refuses it, as Namespaces in XML does.
                if case .failure(let error) = got, error.message.contains("name") { continue }
                if got != .success(want) {
                    failures += 1
                    if failures <= 3 { Issue.record("\(String(decoding: bytes, as: UTF8.self).debugDescription): \(got) instead of \(want)") }
                }
            case .failure:
                if case .success = got {
                    onlyScannerRead += 1
                    if onlyScannerRead <= 8 { print("only the scanner read:", String(decoding: bytes, as: UTF8.self).debugDescription) }
                }
            }
        }
        // libxml2 is stricter about a few things no workbook writes (`]]>` in text, `--` in a
        // comment, a name's non-ASCII characters); the scanner reads those as written.
        #expect(onlyScannerRead < 100, "\(onlyScannerRead)")
    }

    /// What is refused, and where the message points.
    @Test func refusals() {
        func failure(_ text: String, limits: XMLLimits = .default) -> XMLError? {
            if case .failure(let error) = events(Array(text.utf8), .scanner, limits: limits) { return error }
            return nil
        }
        #expect(failure(#"<!DOCTYPE w [<!ENTITY e "x">]><w>&e;</w>"#)?.kind == .entityDeclaration)
        #expect(failure("<w>&e;</w>")?.message.contains("&e;") == true)
        let mismatched = failure("<w>\n<row><c><v>1</v></c>\n<oops></row></w>")
        #expect(mismatched?.kind == .malformed && mismatched?.line == 3 && mismatched?.column == 7, "\(String(describing: mismatched))")
        #expect(mismatched?.message.contains("</row> where </oops> was expected") == true, "\(String(describing: mismatched))")
        // Names of every length on the open-element stack, checked against their end tags.
        let long = String(repeating: "n", count: 40)
        #expect(failure("<\(long)><x:ab><abc></abc></x:ab></\(long)>") == nil)
        #expect(failure("<\(long)><abc></abd></\(long)>")?.message.contains("</abd> where </abc> was expected") == true)
        #expect(failure("<w><\(long)>")?.message.contains("ends before </\(long)>") == true)
        #expect(failure("<w></\(long)></w>")?.message.contains("where </w> was expected") == true)
        #expect(failure("<w>a\u{1}b</w>")?.kind == .invalidCharacter)
        #expect(failure("<w>&#1;</w>")?.kind == .invalidCharacter)
        #expect(failure("<w/>text")?.line == 1)
        #expect(failure("<w><v>1</v>") != nil)
        #expect(failure("") != nil)
        #expect(failure("<w a='1' a='2'/>") != nil)
        #expect(failure("<w a='<'/>") != nil)
        #expect(failure(#"<?xml version="1.0" encoding="UTF-16"?><w/>"#)?.message.contains("UTF-16") == true)
        #expect(failure(String(repeating: "<a>", count: 30) + String(repeating: "</a>", count: 30), limits: XMLLimits(maxDepth: 20))?.kind == .tooDeep)
        if case .failure(let error) = events([0x3C, 0x77, 0x3E, 0xE5, 0x3C, 0x2F, 0x77, 0x3E], .scanner) {
            #expect(error.message.contains("UTF-8"))
        } else {
            Issue.record("bytes that are not UTF-8 were read")
        }
        // Thousands of attributes in one tag are refused before comparing each with the others.
        let many = "<w " + (0..<2_000).map { "a\($0)='1'" }.joined(separator: " ") + "/>"
        #expect(failure(many)?.kind == .tooLarge)
        #expect(failure("<w " + (0..<500).map { "a\($0)='1'" }.joined(separator: " ") + "/>") == nil)
        // A comment longer than the pieces it arrives in is read once it ends.
        let comment = "<w><!--" + String(repeating: "x", count: 300_000) + "--><v>1</v></w>"
        #expect(events(Array(comment.utf8), .scanner, pieces: Array(stride(from: 1_000, to: 300_000, by: 65_536)))
            == .success(["start w", "start v", "text \"1\"", "end v", "end w"]))
        // A part streams: its size is not limited by `maxBytes` (a million-row sheet is 400 MB).
        let rows = "<w>" + String(repeating: "<row><c><v>1</v></c></row>", count: 1_000) + "</w>"
        #expect(failure(rows, limits: XMLLimits(maxDepth: 20, maxBytes: 1_000)) == nil)
        // A name, a reference or a character split between pieces is whole.
        #expect(events(Array("<worksheet><c r='A1'>&amp;月</c></worksheet>".utf8), .scanner, pieces: Array(1...40))
            == events(Array("<worksheet><c r='A1'>&amp;月</c></worksheet>".utf8), .libxml2))
    }
}
