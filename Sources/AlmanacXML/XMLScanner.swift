internal import AlmanacBytes

/// A streamed reader for the large parts of a workbook (a sheet of a million rows, its shared
/// strings): the same events and protections as libxml2's push parser (the tests' `XMLStreamReader`),
/// read by hand from the bytes.
///
/// Those parts are plain XML: elements, attributes, text, the five predefined entities and
/// character references, CDATA, comments, processing instructions. That is all this reader
/// accepts. A document type declaration is refused outright (so no entity is ever declared,
/// expanded or fetched), the text must be UTF-8 or UTF-16 (read as UTF-8), nesting is limited, and everything else XML 1.0
/// requires of such a document is checked: tags closed in order, one root, quoted and unique
/// attributes, no `<` in a value, no control characters, line ends and attribute whitespace
/// normalised. The document's size is not limited (`limits.maxBytes` is not read): it streams, and
/// memory is that of one construct, at most `maxConstructBytes` (a sheet of a million rows is
/// 400 MB of XML; the zip's entry limit bounds it). libxml2's push parser spent half of a sheet's reading time on generality these
/// parts never use (`Benchmarks/RESULTS.md`); the small parts (workbook, styles, relationships)
/// still go through libxml2. `XMLScannerTests` reads the same documents both ways, cut into
/// pieces anywhere, and compares the events.
package struct XMLScanner {
    private let handler: any XMLStreamHandler
    private let limits: XMLLimits
    /// The start of a construct the last piece ended inside.
    private var carry: [UInt8] = []
    private var utf8 = UTF8Validation.Stream()
    /// Line breaks before the current buffer, and bytes of the current line before it (for the
    /// line and column an error names).
    private var linesBefore = 0
    private var columnBefore = 0
    /// The qualified names of the open elements.
    private var open = ByteStack()
    private var seenRoot = false
    private var seenAnything = false
    /// Resolved text and attribute values, and the current tag's attributes.
    private var scratch: [UInt8] = []
    private var spans: [LentPairs.Span] = []
    private var failure: XMLError?
    /// The document's first bytes, held until there are enough to tell UTF-16 from UTF-8 (XML 1.0
    /// §4.3.3, appendix F); nil once told.
    private var head: [UInt8]? = []
    /// A UTF-16 document is read as the UTF-8 this makes of it, piece by piece.
    private var utf16: UTF16Transcoder?
    /// Bytes enough to tell: a byte order mark, or `<?` as two 16-bit units.
    private static let encodingSignatureLength = 4

    /// Most attributes one tag may have.
    static var maxAttributes: Int { 512 }

    /// Longest tag, comment or text node accepted (a cell holds at most 32,767 characters).
    static var maxConstructBytes: Int { 16 << 20 }

    package init(handler: any XMLStreamHandler, limits: XMLLimits = .default) {
        self.handler = handler
        self.limits = limits
    }

    /// Reads the next piece (pieces may split anywhere, inside a name or a character); `last`
    /// ends the document (an unclosed element is then an error).
    package mutating func feed(_ piece: [UInt8], last: Bool = false) throws(XMLError) {
        if let failure { throw failure }
        do throws(XMLError) {
            var bytes = piece
            if let held = head {
                if !held.isEmpty || piece.count < Self.encodingSignatureLength { bytes = held + piece }
                guard bytes.count >= Self.encodingSignatureLength || last else { head = bytes; return }
                head = nil
                if let form = UTF16Transcoder.detect(bytes) {
                    utf16 = UTF16Transcoder(bigEndian: form.bigEndian)
                    bytes.removeFirst(form.skip)
                }
            }
            if utf16 != nil {
                guard let converted = utf16?.convert(bytes, last: last) else {
                    throw error(.malformed, "the document starts as UTF-16 but its bytes are not UTF-16", ByteView.empty, 0)
                }
                bytes = converted
            }
            try read(bytes, last: last)
        } catch {
            failure = error
            throw error
        }
    }

    private mutating func read(_ piece: [UInt8], last: Bool) throws(XMLError) {
        if !utf8.check(piece) {
            let bytes = carry + piece
            try bytes.withByteView { (view) throws(XMLError) in
                throw error(.malformed, "the bytes are not UTF-8", view, UTF8Validation.validate(view, 0, view.count).invalid ?? 0)
            }
        }
        guard !carry.isEmpty else {
            try piece.withByteView { (view) throws(XMLError) in try keep(view, from: try consume(view, last: last)) }
            return
        }
        // The construct the last piece ended inside is finished with the start of this one:
        // joined with a few kilobytes, more only while it goes on (the piece is not copied whole).
        // A construct already longer than the piece (a long comment or text) takes the whole piece
        // at once: growing the join step by step would copy and rescan it several times a piece.
        var take = carry.count >= piece.count ? piece.count : min(piece.count, 4096)
        while true {
            var joined = carry
            joined.append(contentsOf: piece[0..<take])
            let whole = take == piece.count
            let consumed = try joined.withByteView { (view) throws(XMLError) in try consume(view, last: last && whole) }
            if whole {
                try joined.withByteView { (view) throws(XMLError) in try keep(view, from: consumed) }
                return
            }
            if consumed > 0 {
                // Finished (its end lies past the carried bytes); the rest of the piece as it is.
                let rest = consumed - carry.count
                carry = []
                try piece[rest...].withByteView { (view) throws(XMLError) in try keep(view, from: try consume(view, last: last)) }
                return
            }
            take = min(piece.count, take * 8)
        }
    }

    /// Scans `view` and counts the lines of what it consumed; returns where the first unfinished
    /// construct starts. With `last`, nothing may be unfinished.
    private mutating func consume(_ view: ByteView, last: Bool) throws(XMLError) -> Int {
        let consumed = try scan(view, last: last)
        if last {
            if consumed < view.count { throw error(.malformed, "the document ends inside a tag, comment or section", view, consumed) }
            if utf8.endsInsideCharacter { throw error(.malformed, "the bytes are not UTF-8", view, view.count) }
            if let name = open.top {
                throw error(.malformed, "the document ends before </\(name)>", view, view.count)
            }
            if !seenRoot { throw error(.malformed, "the document has no root element", view, view.count) }
        }
        advance(view, consumed)
        return consumed
    }

    /// Keeps `view[consumed...]`, an unfinished construct, for the next piece.
    private mutating func keep(_ view: ByteView, from consumed: Int) throws(XMLError) {
        carry = consumed < view.count ? view.bytes(consumed, view.count) : []
        guard carry.count <= Self.maxConstructBytes else {
            // (Lines were counted up to `consumed`: offset 0 of the counted position is its start.)
            throw error(.tooLarge, "a tag, comment or text longer than \(Self.maxConstructBytes) bytes", ByteView.empty, 0)
        }
    }

    // MARK: Scanning

    /// Reads every whole construct of `view`; returns where the first unfinished one starts.
    private mutating func scan(_ view: ByteView, last: Bool) throws(XMLError) -> Int {
        let count = view.count
        var index = 0
        if !seenAnything {
            // A UTF-8 byte order mark may come first.
            if count < 3 && !last && Self.byteOrderMark.starts(with: view.array) { return 0 }
            if count >= 3, view[0] == Self.byteOrderMark[0], view[1] == Self.byteOrderMark[1], view[2] == Self.byteOrderMark[2] { index = 3 }
        }
        while index < count {
            if view[index] != ASCII.lessThan {
                let end = view.firstIndex(of: ASCII.lessThan, from: index)
                if end == count && !last { return index }
                seenAnything = true
                try text(view, index, end)
                index = end
                continue
            }
            guard index + 1 < count else { return index }
            let next: Int?
            switch view[index + 1] {
            case ASCII.slash: next = try endTag(view, index)
            case ASCII.question: next = try instruction(view, index)
            case ASCII.exclamation: next = try markup(view, index, last: last)
            default: next = try startTag(view, index)
            }
            guard let next else { return index }
            seenAnything = true
            index = next
        }
        return index
    }

    /// Text up to the next tag: whitespace only outside the root; entities resolved, line ends
    /// normalised, lent to the handler.
    private mutating func text(_ view: ByteView, _ start: Int, _ end: Int) throws(XMLError) {
        if open.isEmpty {
            for index in start..<end where !Self.isSpace(view[index]) {
                throw error(.malformed, seenRoot ? "text after the root element" : "text before the root element", view, index)
            }
            return
        }
        var index = start
        while true {
            index = ByteScan.firstIndex(in: view, from: index, to: end, where: XMLSpecials.text)
            guard index < end else { return handler.text(view[start..<end]) }
            // Tabs and line feeds are text as they are; anything else is resolved in scratch.
            let byte = view[index]
            if byte == ASCII.tab || byte == ASCII.lineFeed { index += 1; continue }
            if byte == ASCII.closeBracket {
                if index + 2 < end, view[index + 1] == ASCII.closeBracket, view[index + 2] == ASCII.greaterThan {
                    throw error(.malformed, "]]> in text (write ]]&gt;)", view, index)
                }
                index += 1
                continue
            }
            break
        }
        scratch.removeAll(keepingCapacity: true)
        try resolve(view, start, end, attribute: false, entities: true)
        let handler = self.handler
        scratch.withByteView { handler.text($0) }
    }

    /// `<name attributes>` or `<name attributes/>`; nil when the piece ends inside it.
    private mutating func startTag(_ view: ByteView, _ start: Int) throws(XMLError) -> Int? {
        let count = view.count
        let nameStart = start + 1
        guard let nameEnd = Self.nameEnd(view, nameStart) else { throw nameError(view, nameStart, what: "an element name") }
        guard nameEnd < count else { return nil }
        if open.isEmpty && seenRoot { throw error(.malformed, "a second root element", view, start) }
        if open.count >= min(limits.maxDepth, 255) {
            throw error(.tooDeep, "elements nested deeper than \(min(limits.maxDepth, 255))", view, start)
        }
        if !scratch.isEmpty { scratch.removeAll(keepingCapacity: true) }
        if !spans.isEmpty { spans.removeAll(keepingCapacity: true) }
        if !previousNames.isEmpty { previousNames.removeAll(keepingCapacity: true) }
        var index = nameEnd
        var selfClosing = false
        while true {
            let afterName = index
            index = Self.skipSpaces(view, index)
            guard index < count else { return nil }
            let byte = view[index]
            if byte == ASCII.greaterThan { index += 1; break }
            if byte == ASCII.slash {
                guard index + 1 < count else { return nil }
                guard view[index + 1] == ASCII.greaterThan else { throw error(.malformed, "expected > after /", view, index + 1) }
                selfClosing = true
                index += 2
                break
            }
            if index == afterName { throw error(.malformed, "expected whitespace, > or /> in a tag", view, index) }
            // name = "value" or 'value'
            let attributeStart = index
            guard let attributeEnd = Self.nameEnd(view, index) else { throw nameError(view, index, what: "an attribute name") }
            index = Self.skipSpaces(view, attributeEnd)
            guard index < count else { return nil }
            guard view[index] == ASCII.equals else { throw error(.malformed, "expected = after an attribute name", view, index) }
            index = Self.skipSpaces(view, index + 1)
            guard index < count else { return nil }
            let quote = view[index]
            guard quote == ASCII.quote || quote == ASCII.apostrophe else { throw error(.malformed, "an attribute value must be quoted", view, index) }
            let valueStart = index + 1
            let valueEnd = view.firstIndex(of: quote, from: valueStart)
            guard valueEnd < count else { return nil }
            index = valueEnd + 1
            try attribute(view, attributeStart, attributeEnd, valueStart, valueEnd)
        }
        let local = Self.localStart(view, nameStart, nameEnd)
        seenRoot = true
        let name = view[local..<nameEnd]
        // The closures see locals only: borrowing `self` in them cost a retain of each buffer a tag.
        if spans.isEmpty {
            // Most tags of a sheet (is, t, v) have no attributes: nothing to lend.
            handler.start(name, LentPairs(pairs: nil, lengths: nil, count: 0))
        } else if scratch.isEmpty {
            let handler = self.handler
            spans.withElementView { handler.start(name, LentPairs(input: view, scratch: .empty, spans: $0)) }
        } else {
            let handler = self.handler
            scratch.withByteView { (scratchView) in
                spans.withElementView { handler.start(name, LentPairs(input: view, scratch: scratchView, spans: $0)) }
            }
        }
        if selfClosing {
            handler.end(name)
        } else {
            open.push(view[nameStart..<nameEnd])
        }
        return index
    }

    /// One attribute: namespace declarations are left out (as libxml2's SAX2 reports them apart),
    /// a prefixed name is given by its local part, a repeated name is an error.
    private mutating func attribute(_ view: ByteView, _ nameStart: Int, _ nameEnd: Int, _ valueStart: Int, _ valueEnd: Int) throws(XMLError) {
        // Checking for a repeated name compares with each earlier one: a tag of millions of
        // attributes would take hours, so a tag may have a few hundred (a sheet's have under ten).
        guard previousNames.count < Self.maxAttributes else {
            throw error(.tooLarge, "more than \(Self.maxAttributes) attributes in one tag", view, nameStart)
        }
        for previous in previousNames where view[previous.start..<previous.end].elementsEqual(view[nameStart..<nameEnd]) {
            throw error(.malformed, "an attribute repeated in one tag", view, nameStart)
        }
        previousNames.append((nameStart, nameEnd))
        var needsResolving = false
        var special = valueStart
        while true {
            special = ByteScan.firstIndex(in: view, from: special, to: valueEnd, where: XMLSpecials.value)
            guard special < valueEnd else { break }
            if view[special] == ASCII.lessThan { throw error(.malformed, "< inside an attribute value", view, special) }
            needsResolving = true
            special += 1
        }
        if view.matches(nameStart, nameEnd, "xmlns") || (nameEnd - nameStart > 6 && view.matches(nameStart, nameStart + 6, "xmlns:")) {
            if needsResolving { try resolve(view, valueStart, valueEnd, attribute: true, entities: true) }  // checked, not kept
            return
        }
        let local = Self.localStart(view, nameStart, nameEnd)
        if !needsResolving {
            spans.append(LentPairs.Span(nameStart: Int32(local), nameEnd: Int32(nameEnd), valueStart: Int32(valueStart),
                                        valueEnd: Int32(valueEnd), valueInScratch: false))
        } else {
            let resolvedStart = scratch.count
            try resolve(view, valueStart, valueEnd, attribute: true, entities: true)
            spans.append(LentPairs.Span(nameStart: Int32(local), nameEnd: Int32(nameEnd), valueStart: Int32(resolvedStart),
                                        valueEnd: Int32(scratch.count), valueInScratch: true))
        }
    }

    /// The qualified names of the current tag's attributes so far.
    private var previousNames: [(start: Int, end: Int)] = []

    /// `</name>`; nil when the piece ends inside it.
    private mutating func endTag(_ view: ByteView, _ start: Int) throws(XMLError) -> Int? {
        let nameStart = start + 2
        guard let nameEnd = Self.nameEnd(view, nameStart) else { throw nameError(view, nameStart, what: "an element name") }
        let close = Self.skipSpaces(view, nameEnd)
        guard close < view.count else { return nil }
        guard view[close] == ASCII.greaterThan else { throw error(.malformed, "expected > to end </…", view, close) }
        guard !open.isEmpty else { throw error(.malformed, "an end tag with no element open", view, start) }
        guard open.topEquals(view[nameStart..<nameEnd]) else {
            throw error(.malformed, "</\(view.string(nameStart, nameEnd))> where </\(open.top ?? "")> was expected", view, start)
        }
        handler.end(view[Self.localStart(view, nameStart, nameEnd)..<nameEnd])
        open.pop()
        return close + 1
    }

    /// `<?target …?>`: skipped; the XML declaration may only come first, and must say UTF-8.
    private mutating func instruction(_ view: ByteView, _ start: Int) throws(XMLError) -> Int? {
        guard let close = Self.find(view, "?>", from: start + 2) else { return nil }
        let targetEnd = try name(view, start + 2, what: "a processing instruction's target")
        try checkCharacters(view, targetEnd, close)
        if targetEnd - (start + 2) == 3, view.matchesIgnoringCase(start + 2, targetEnd, "XML") {
            guard !seenAnything, view.matches(start + 2, targetEnd, "xml") else {
                throw error(.malformed, "the XML declaration must come first, in lower case", view, start)
            }
            try declaration(view, targetEnd, close)
        } else if targetEnd < close, !Self.isSpace(view[targetEnd]) {
            throw error(.malformed, "expected a space after a processing instruction's target", view, targetEnd)
        }
        return close + 2
    }

    /// `<?xml version="1.0" encoding="…" standalone="…"?>`: those pseudo-attributes, in that
    /// order, version first; the encoding must be UTF-8, or UTF-16 for a document in UTF-16.
    private mutating func declaration(_ view: ByteView, _ start: Int, _ close: Int) throws(XMLError) {
        var index = start
        var seen = 0
        let names: [StaticString] = ["version", "encoding", "standalone"]
        while true {
            // A space must follow the version; libxml2 lets it be missing before standalone.
            let afterValue = index
            index = Self.skipSpaces(view, index)
            if index == close { break }
            if seen == 1 && index == afterValue { throw error(.malformed, "a malformed XML declaration", view, index) }
            var nameEnd = index
            while nameEnd < close, ASCII.isLetter(view[nameEnd]) { nameEnd += 1 }
            guard let which = names.indices.first(where: { view.matches(index, nameEnd, names[$0]) }), which >= seen,
                  which > 0 || seen == 0, seen > 0 || which == 0 else {
                throw error(.malformed, "a malformed XML declaration", view, index)
            }
            seen = which + 1
            index = Self.skipSpaces(view, nameEnd)
            guard index < close, view[index] == ASCII.equals else { throw error(.malformed, "a malformed XML declaration", view, index) }
            index = Self.skipSpaces(view, index + 1)
            guard index < close, view[index] == ASCII.quote || view[index] == ASCII.apostrophe else {
                throw error(.malformed, "a malformed XML declaration", view, index)
            }
            let end = view.firstIndex(of: view[index], from: index + 1)
            guard end < close else { throw error(.malformed, "a malformed XML declaration", view, index) }
            switch which {
            case 0:
                // 1.0, or any 1.x (read as 1.0, as XML 1.0's fifth edition says).
                guard end - index >= 3, view[index + 1] == UInt8(ascii: "1"), view[index + 2] == ASCII.period,
                      (index + 3..<end).allSatisfy({ ASCII.isDigit(view[$0]) }) else {
                    throw error(.malformed, "an XML declaration with a version other than 1.x", view, index + 1)
                }
            case 1:
                let utf16Declared = view.matchesIgnoringCase(index + 1, end, "UTF-16") || view.matchesIgnoringCase(index + 1, end, "UTF-16LE")
                    || view.matchesIgnoringCase(index + 1, end, "UTF-16BE")
                if !view.matchesIgnoringCase(index + 1, end, "UTF-8"), !view.matchesIgnoringCase(index + 1, end, "UTF8"), !(utf16 != nil && utf16Declared) {
                    throw error(.malformed, "the part says it is \(view.string(index + 1, end)); workbook parts are read as UTF-8", view, index + 1)
                }
            default:
                guard view.matches(index + 1, end, "yes") || view.matches(index + 1, end, "no") else {
                    throw error(.malformed, "standalone must be yes or no", view, index + 1)
                }
            }
            index = end + 1
        }
        guard seen > 0 else { throw error(.malformed, "an XML declaration without its version", view, start) }
    }

    /// Refuses a control character XML cannot hold in `view[start..<end]` (a comment's text).
    private func checkCharacters(_ view: ByteView, _ start: Int, _ end: Int) throws(XMLError) {
        var index = start
        while true {
            index = ByteScan.firstIndex(in: view, from: index, to: end, where: XMLSpecials.text)
            guard index < end else { return }
            let byte = view[index]
            if byte < ASCII.space, byte != ASCII.tab, byte != ASCII.lineFeed, byte != ASCII.carriageReturn {
                throw error(.invalidCharacter, "a control character (U+\(String(byte, radix: 16, uppercase: true))) XML cannot hold", view, index)
            }
            index += 1
        }
    }

    /// `<!-- … -->`, `<![CDATA[ … ]]>`, or a refused `<!DOCTYPE`.
    private mutating func markup(_ view: ByteView, _ start: Int, last: Bool) throws(XMLError) -> Int? {
        let count = view.count
        if Self.startsWith(view, start, "<!--") {
            guard let close = Self.find(view, "-->", from: start + 4) else { return nil }
            try checkCharacters(view, start + 4, close)
            return close + 3
        }
        if Self.startsWith(view, start, "<![CDATA[") {
            guard let close = Self.find(view, "]]>", from: start + 9) else { return nil }
            guard !open.isEmpty else { throw error(.malformed, "a CDATA section outside the root element", view, start) }
            scratch.removeAll(keepingCapacity: true)
            try resolve(view, start + 9, close, attribute: false, entities: false)
            let handler = self.handler
            scratch.withByteView { handler.text($0) }
            return close + 3
        }
        if Self.startsWith(view, start, "<!DOCTYPE") {
            throw error(.entityDeclaration, "a document type declaration is refused: a workbook's parts have none, and no entity is ever declared or expanded", view, start)
        }
        // Not yet enough bytes to tell which.
        if count - start < 9 && !last { return nil }
        throw error(.malformed, "expected <!-- or <![CDATA[", view, start)
    }

    // MARK: Pieces

    /// The end of the name at `start` (an error when there is none).
    private func name(_ view: ByteView, _ start: Int, what: StaticString) throws(XMLError) -> Int {
        if let end = Self.nameEnd(view, start) { return end }
        throw nameError(view, start, what: what)
    }

    /// Where the name at `start` ends (`view.count` when it may go on in the next piece), or nil
    /// when it is malformed. Static, as the tag readers call it for every name: a method called
    /// from their mutating code was handed a copy of the whole scanner.
    private static func nameEnd(_ view: ByteView, _ start: Int) -> Int? {
        var index = start
        while index < view.count, isNameByte(view[index]) { index += 1 }
        // A name that reaches the end of the piece may go on in the next (the caller waits).
        if index == view.count { return index }
        guard index > start, startsName(view[start]) else { return nil }
        // A name with a prefix (Namespaces in XML): one colon, a name on either side.
        let local = localStart(view, start, index)
        if local > start {
            guard local < index, local - 1 > start, startsName(view[local]), localStart(view, start, local - 1) == start else { return nil }
        }
        return index
    }

    /// What is wrong with the malformed name at `start` (`nameEnd` gave nil): no name at all, or
    /// a name whose prefix is malformed.
    private func nameError(_ view: ByteView, _ start: Int, what: StaticString) -> XMLError {
        let startsWell = start < view.count && Self.isNameByte(view[start]) && Self.startsName(view[start])
        return error(.malformed, startsWell ? "\(what) with a malformed prefix" : "expected \(what)", view, start)
    }

    /// Appends `view[start..<end]` to `scratch` with entities resolved (`entities`), line ends
    /// normalised, and in an attribute (`attribute`) tabs and line breaks as spaces.
    private mutating func resolve(_ view: ByteView, _ start: Int, _ end: Int, attribute: Bool, entities: Bool) throws(XMLError) {
        var segment = start
        var index = start
        while index < end {
            let byte = view[index]
            if byte >= ASCII.space {
                if byte == ASCII.ampersand && entities {
                    view.append(segment, index, to: &scratch)
                    index = try reference(view, index, end)
                    segment = index
                } else if byte == ASCII.closeBracket && entities && !attribute && index + 2 < end
                            && view[index + 1] == ASCII.closeBracket && view[index + 2] == ASCII.greaterThan {
                    throw error(.malformed, "]]> in text (write ]]&gt;)", view, index)
                } else {
                    index += 1
                }
                continue
            }
            switch byte {
            case ASCII.carriageReturn:
                view.append(segment, index, to: &scratch)
                scratch.append(attribute ? ASCII.space : ASCII.lineFeed)
                index += index + 1 < end && view[index + 1] == ASCII.lineFeed ? 2 : 1
                segment = index
            case ASCII.tab, ASCII.lineFeed:
                if attribute {
                    view.append(segment, index, to: &scratch)
                    scratch.append(ASCII.space)
                    segment = index + 1
                }
                index += 1
            default:
                throw error(.invalidCharacter, "a control character (U+\(String(byte, radix: 16, uppercase: true))) XML cannot hold", view, index)
            }
        }
        view.append(segment, end, to: &scratch)
    }

    /// Appends the character `&…;` at `start` stands for; returns the index after the `;`.
    private mutating func reference(_ view: ByteView, _ start: Int, _ end: Int) throws(XMLError) -> Int {
        let limit = min(end, start + 12)
        var close = start + 1
        while close < limit, view[close] != ASCII.semicolon { close += 1 }
        guard close < limit else { throw error(.malformed, "an & that starts no entity (write &amp;)", view, start) }
        let body = start + 1
        if view[body] == ASCII.hash {
            var value: UInt32 = 0
            var index = body + 1
            let hex = index < close && (view[index] == UInt8(ascii: "x"))
            if hex { index += 1 }
            guard index < close else { throw error(.malformed, "an empty character reference", view, start) }
            while index < close {
                let digit: UInt8?
                if hex { digit = ASCII.hexValue(view[index]) } else { digit = ASCII.isDigit(view[index]) ? view[index] - ASCII.zero : nil }
                guard let digit, value < 0x11_0000 else { throw error(.malformed, "a character reference that is not a number", view, start) }
                value = value * (hex ? 16 : 10) + UInt32(digit)
                index += 1
            }
            guard Self.isXMLCharacter(value), let scalar = Unicode.Scalar(value) else {
                throw error(.invalidCharacter, "a character reference to a character XML cannot hold", view, start)
            }
            scratch.append(contentsOf: String(Character(scalar)).utf8)
            return close + 1
        }
        let replacement: UInt8
        if view.matches(body, close, "lt") { replacement = ASCII.lessThan }
        else if view.matches(body, close, "gt") { replacement = ASCII.greaterThan }
        else if view.matches(body, close, "amp") { replacement = ASCII.ampersand }
        else if view.matches(body, close, "quot") { replacement = ASCII.quote }
        else if view.matches(body, close, "apos") { replacement = ASCII.apostrophe }
        else { throw error(.malformed, "the entity &\(view.string(body, close)); is not defined (only XML's five are)", view, start) }
        scratch.append(replacement)
        return close + 1
    }

    // MARK: Positions and errors

    /// Counts the line breaks of the `consumed` bytes that will not be seen again.
    private mutating func advance(_ view: ByteView, _ consumed: Int) {
        var lastBreak = -1
        var index = view.firstIndex(of: ASCII.lineFeed, from: 0)
        while index < consumed {
            linesBefore += 1
            lastBreak = index
            index = view.firstIndex(of: ASCII.lineFeed, from: index + 1)
        }
        columnBefore = lastBreak >= 0 ? consumed - lastBreak - 1 : columnBefore + consumed
    }

    private func error(_ kind: XMLError.Kind, _ message: String, _ view: ByteView, _ offset: Int) -> XMLError {
        var line = linesBefore + 1
        var column = columnBefore + offset + 1
        var index = view.firstIndex(of: ASCII.lineFeed, from: 0)
        while index < min(offset, view.count) {
            line += 1
            column = offset - index
            index = view.firstIndex(of: ASCII.lineFeed, from: index + 1)
        }
        return XMLError(kind, message: message, line: line, column: column)
    }

    // MARK: Bytes

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == ASCII.space || byte == ASCII.tab || byte == ASCII.lineFeed || byte == ASCII.carriageReturn
    }

    private static func skipSpaces(_ view: ByteView, _ start: Int) -> Int {
        var index = start
        while index < view.count, isSpace(view[index]) { index += 1 }
        return index
    }

    /// Letters, digits, `_ : - .` and any non-ASCII byte (XML's name characters beyond ASCII
    /// are left to the text's UTF-8 check).
    private static func isNameByte(_ byte: UInt8) -> Bool {
        byte >= ASCII.firstNonASCII || ASCII.isAlphanumeric(byte) || byte == ASCII.underscore || byte == ASCII.colon
            || byte == ASCII.hyphen || byte == ASCII.period
    }

    /// Whether a name may start with `byte` (not a digit, `-` or `.`; a colon only as a prefix's end).
    private static func startsName(_ byte: UInt8) -> Bool {
        !ASCII.isDigit(byte) && byte != ASCII.hyphen && byte != ASCII.period && byte != ASCII.colon
    }

    /// Where the local part of `view[start..<end]` begins (after its prefix's colon).
    private static func localStart(_ view: ByteView, _ start: Int, _ end: Int) -> Int {
        var index = end
        while index > start, view[index - 1] != ASCII.colon { index -= 1 }
        return index
    }

    private static func startsWith(_ view: ByteView, _ start: Int, _ word: StaticString) -> Bool {
        start + word.utf8CodeUnitCount <= view.count && view.matches(start, start + word.utf8CodeUnitCount, word)
    }

    /// The index of `word` at or after `start`, or nil.
    private static func find(_ view: ByteView, _ word: StaticString, from start: Int) -> Int? {
        let length = word.utf8CodeUnitCount
        var index = view.firstIndex(of: word.utf8Start[0], from: start)
        while index + length <= view.count {
            if view.matches(index, index + length, word) { return index }
            index = view.firstIndex(of: word.utf8Start[0], from: index + 1)
        }
        return nil
    }

    /// XML 1.0's Char production.
    private static func isXMLCharacter(_ value: UInt32) -> Bool {
        value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value) || (0xE000...0xFFFD).contains(value)
            || (0x1_0000...0x10_FFFF).contains(value)
    }
}
