internal import CXMLShim
internal import AlmanacBytes

extension XMLDocument {
    /// Serializes the document as UTF-8 through libxml2's writer. Whitespace is written exactly as
    /// the tree holds it (parsed documents keep theirs; see `XMLElement.indented` for new ones).
    /// Throws `invalidCharacter` for characters XML 1.0 cannot hold.
    public func serialized() throws(XMLError) -> [UInt8] {
        guard let writer = alm_xml_writer_open() else { throw XMLError(.outOfMemory, message: "out of memory") }
        defer { alm_xml_writer_free(writer) }
        let standaloneFlag: Int32 = standalone.map { $0 ? 1 : 0 } ?? -1
        try call(alm_xml_writer_start_document(writer, version, "UTF-8", standaloneFlag))
        if let doctype {
            try call(alm_xml_writer_doctype(writer, doctype.name, doctype.publicID, doctype.systemID))
            try call(alm_xml_writer_raw(writer, "\n"))
        }
        for node in prolog {
            try write(node, to: writer)
            try call(alm_xml_writer_raw(writer, "\n"))
        }
        try write(.element(root), to: writer)
        try call(alm_xml_writer_end_document(writer))
        var length: Int64 = 0
        guard let bytes = alm_xml_writer_bytes(writer, &length) else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(length)))
    }

    fileprivate func write(_ node: XMLNode, to writer: OpaquePointer) throws(XMLError) {
        switch node {
        case .element(let element):
            try checkName(element.name)
            try call(alm_xml_writer_start_element(writer, element.name))
            for declaration in element.namespaceDeclarations {
                try checkText(declaration.uri)
                try call(alm_xml_writer_attribute(writer, declaration.prefix.map { "xmlns:\($0)" } ?? "xmlns", declaration.uri))
            }
            for attribute in element.attributes {
                try checkName(attribute.name)
                try checkText(attribute.value)
                try call(alm_xml_writer_attribute(writer, attribute.name, attribute.value))
            }
            for child in element.children { try write(child, to: writer) }
            try call(alm_xml_writer_end_element(writer, element.writesEmptyAsPair ? 1 : 0))
        case .text(let text):
            try checkText(text)
            try call(alm_xml_writer_text(writer, text))
        case .cdata(let text):
            try checkText(text)
            // "]]>" cannot appear inside CDATA: split it across two sections.
            let parts = text.split(separator: "]]>", omittingEmptySubsequences: false)
            for (index, part) in parts.enumerated() {
                let piece = (index > 0 ? ">" : "") + part + (index < parts.count - 1 ? "]]" : "")
                try call(alm_xml_writer_cdata(writer, piece))
            }
        case .comment(let text):
            try checkText(text)
            guard !text.contains("--"), !text.hasSuffix("-") else {
                throw XMLError(.invalidCharacter, message: "a comment cannot contain \"--\" or end with \"-\"")
            }
            try call(alm_xml_writer_comment(writer, text))
        case .processingInstruction(let target, let data):
            try checkName(target)
            try checkText(data)
            try call(alm_xml_writer_processing_instruction(writer, target, data))
        }
    }

    fileprivate func call(_ result: Int32) throws(XMLError) {
        if result < 0 { throw XMLError(.outOfMemory, message: "libxml2 could not write the document") }
    }

    fileprivate func checkText(_ text: String) throws(XMLError) { try XMLDocument.check(text: text) }

    fileprivate func checkName(_ name: String) throws(XMLError) { try XMLDocument.check(name: name) }

    /// Refuses characters XML 1.0 cannot hold (most controls); text that is all printable ASCII
    /// or ordinary UTF-8 is passed at a glance.
    static func check(text: String) throws(XMLError) {
        let clean = text.utf8.withContiguousStorageIfAvailable { bytes in
            // Bytes below 0x20 other than tab and line breaks, or EF BF BE/BF (U+FFFE, U+FFFF).
            !bytes.contains { $0 < 0x20 && $0 != ASCII.tab && $0 != ASCII.lineFeed && $0 != ASCII.carriageReturn || $0 == 0xEF }
        }
        if clean == true { return }
        for scalar in text.unicodeScalars where !XMLDocument.isAllowed(scalar) {
            let code = String(scalar.value, radix: 16, uppercase: true)
            throw XMLError(.invalidCharacter, message: "U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code) cannot appear in XML 1.0")
        }
    }

    /// Refuses what is not an XML name; ASCII names are checked byte by byte.
    static func check(name: String) throws(XMLError) {
        let ascii = name.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            guard let first = bytes.first, bytes.allSatisfy({ $0 < ASCII.firstNonASCII }) else { return nil }
            let letter = ASCII.isLetter
            guard letter(first) || first == ASCII.underscore || first == ASCII.colon else { return false }
            return bytes.allSatisfy { letter($0) || ASCII.isDigit($0) || $0 == ASCII.underscore || $0 == ASCII.hyphen || $0 == ASCII.period || $0 == ASCII.colon }
        }
        if let ascii = ascii ?? nil {
            if ascii { return }
            throw XMLError(.invalidCharacter, message: "\"\(name)\" is not an XML name")
        }
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first), first != "-", first != ".",
              name.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.:".unicodeScalars.contains($0) })
        else { throw XMLError(.invalidCharacter, message: "\"\(name)\" is not an XML name") }
    }

    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}

extension XMLElement {
    /// A copy with whitespace text between child elements, for writing new documents readably:
    /// each level indented by `unit` (Apple's plists use a tab). Elements holding only text stay on one line.
    public func indented(by unit: String = "  ", level: Int = 0, indentChildren: (XMLElement) -> Bool = { _ in true }) -> XMLElement {
        // Elements, comments and processing instructions each go on their own line; mixed text is left alone.
        let childElementsOnly = children.allSatisfy {
            switch $0 {
            case .element, .comment, .processingInstruction: return true
            case .text, .cdata: return false
            }
        }
        guard !children.isEmpty, childElementsOnly else { return self }
        let inner = indentChildren(self) ? level + 1 : level
        let prefix = "\n" + String(repeating: unit, count: inner)
        var copy = self
        copy.children = []
        for child in children {
            copy.children.append(.text(prefix))
            if case .element(let element) = child {
                copy.children.append(.element(element.indented(by: unit, level: inner, indentChildren: indentChildren)))
            } else {
                copy.children.append(child)
            }
        }
        copy.children.append(.text("\n" + String(repeating: unit, count: level)))
        return copy
    }
}

extension XMLElement {
    /// The element alone, serialized as UTF-8 with no XML declaration: a piece of a document
    /// written in parts (xCal items written as they come). The same checks apply as for a document.
    public func serializedFragment() throws(XMLError) -> [UInt8] {
        guard let writer = alm_xml_writer_open() else { throw XMLError(.outOfMemory, message: "out of memory") }
        defer { alm_xml_writer_free(writer) }
        let document = XMLDocument(root: self)
        try document.write(.element(self), to: writer)
        try document.call(alm_xml_writer_flush(writer))
        var length: Int64 = 0
        guard let bytes = alm_xml_writer_bytes(writer, &length) else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(length)))
    }
}

/// A document written as it goes, through one libxml2 writer: elements, text and whitespace in
/// order, and the bytes taken out whenever the caller wants them (`take()`), so a large document
/// is written in constant memory. The same checks apply as for `XMLDocument.serialized()`.
public final class XMLStreamWriter {
    private let writer: OpaquePointer
    private var open: [String] = []
    /// Names already checked (a document repeats a few dozen names a million times).
    private var checkedNames: Set<String> = []

    public init() throws(XMLError) {
        guard let writer = alm_xml_writer_open() else { throw XMLError(.outOfMemory, message: "out of memory") }
        self.writer = writer
    }

    deinit { alm_xml_writer_free(writer) }

    /// `<?xml version="1.0" encoding="UTF-8"?>` and a line break.
    public func startDocument(version: String = "1.0") throws(XMLError) {
        try call(alm_xml_writer_start_document(writer, version, "UTF-8", -1))
    }

    public func start(_ name: String, namespaces: [XMLElement.NamespaceDeclaration] = []) throws(XMLError) {
        if !checkedNames.contains(name) {
            try XMLDocument.check(name: name)
            if checkedNames.count < 1024 { checkedNames.insert(name) }
        }
        try call(alm_xml_writer_start_element(writer, name))
        for declaration in namespaces {
            try XMLDocument.check(text: declaration.uri)
            try call(alm_xml_writer_attribute(writer, declaration.prefix.map { "xmlns:\($0)" } ?? "xmlns", declaration.uri))
        }
        open.append(name)
    }

    /// Ends the innermost element: `<a/>` when nothing was written in it, unless `full`.
    public func end(full: Bool = false) throws(XMLError) {
        guard open.popLast() != nil else { throw XMLError(.malformed, message: "no element to end") }
        try call(alm_xml_writer_end_element(writer, full ? 1 : 0))
    }

    public func text(_ text: String) throws(XMLError) {
        try XMLDocument.check(text: text)
        try call(alm_xml_writer_text(writer, text))
    }

    /// An element holding only text (`<text>2.0</text>`, `<text></text>` when empty).
    public func element(_ name: String, text: String) throws(XMLError) {
        try start(name)
        if !text.isEmpty { try self.text(text) }
        try end(full: true)
    }

    /// Whitespace between elements (line breaks and indentation), written as it is.
    public func whitespace(_ text: String) throws(XMLError) {
        try call(alm_xml_writer_raw(writer, text))
    }

    public func endDocument() throws(XMLError) {
        try call(alm_xml_writer_end_document(writer))
    }

    /// Bytes another `XMLStreamWriter` made for a part of this document (elements written on
    /// another thread, taken with `take()`), written as they are where this writer stands.
    public func raw(_ bytes: [UInt8]) throws(XMLError) {
        var offset = 0
        // In pieces of at most a gigabyte: libxml2 counts lengths in an int.
        repeat {
            let length = min(bytes.count - offset, 1 << 30)
            let result = bytes.withUnsafeBufferPointer { buffer in
                alm_xml_writer_raw_bytes(writer, buffer.baseAddress.map { $0 + offset }, Int32(length))
            }
            try call(result)
            offset += length
        } while offset < bytes.count
    }

    /// The bytes written since the last `take()`.
    public func take() -> [UInt8] {
        var length: Int64 = 0
        guard let bytes = alm_xml_writer_bytes(writer, &length) else { return [] }
        let result = Array(UnsafeBufferPointer(start: bytes, count: Int(length)))
        alm_xml_writer_clear(writer)
        return result
    }

    private func call(_ result: Int32) throws(XMLError) {
        if result < 0 { throw XMLError(.outOfMemory, message: "libxml2 could not write the document") }
    }
}
