internal import CXMLShim

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

    private func checkText(_ text: String) throws(XMLError) {
        for scalar in text.unicodeScalars where !XMLDocument.isAllowed(scalar) {
            let code = String(scalar.value, radix: 16, uppercase: true)
            throw XMLError(.invalidCharacter, message: "U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code) cannot appear in XML 1.0")
        }
    }

    private func checkName(_ name: String) throws(XMLError) {
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
