internal import CXMLShim

extension XMLDocument {
    /// Parses a document without network or file access, refusing entity declarations and
    /// documents past `limits`. Errors carry libxml2's line and column.
    public init(parsing bytes: some Collection<UInt8>, limits: XMLLimits = .default) throws(XMLError) {
        let input = Array(bytes)
        var error = AlmXMLError()
        let handle = input.withUnsafeBufferPointer { buffer in
            alm_xml_parse(buffer.baseAddress, Int64(buffer.count), Int32(clamping: limits.maxDepth),
                          Int64(limits.maxBytes), &error)
        }
        guard let handle else { throw XMLError(error) }
        defer { alm_xml_free(handle) }

        var name: UnsafePointer<CChar>?
        var publicID: UnsafePointer<CChar>?
        var systemID: UnsafePointer<CChar>?
        var doctype: Doctype?
        if alm_xml_doctype(handle, &name, &publicID, &systemID) != 0, let name {
            doctype = Doctype(name: String(cString: name), publicID: publicID.map { String(cString: $0) },
                              systemID: systemID.map { String(cString: $0) })
        }
        var version: UnsafePointer<CChar>?
        var encoding: UnsafePointer<CChar>?
        var standalone: Int32 = -1
        alm_xml_declaration(handle, &version, &encoding, &standalone)

        var prolog: [XMLNode] = []
        var root: XMLElement?
        var node = alm_xml_document_first(handle)
        while let current = node {
            if alm_xml_node_type(current) == Int32(ALM_XML_ELEMENT) {
                root = XMLElement(node: current)
            } else if root == nil, let converted = XMLNode(node: current) {
                prolog.append(converted)
            }
            node = alm_xml_node_next(current)
        }
        guard let root else { throw XMLError(.malformed, message: "the document has no root element") }
        self.init(root: root, doctype: doctype, prolog: prolog,
                  version: version.map { String(cString: $0) } ?? "1.0",
                  declaredEncoding: encoding.map { String(cString: $0) },
                  standalone: standalone < 0 ? nil : standalone == 1)
    }
}

extension XMLError {
    init(_ error: AlmXMLError) {
        let kind: Kind = switch Int(error.kind) {
        case Int(ALM_XML_ENTITY_DECLARATION): .entityDeclaration
        case Int(ALM_XML_TOO_DEEP): .tooDeep
        case Int(ALM_XML_TOO_LARGE): .tooLarge
        case Int(ALM_XML_OUT_OF_MEMORY): .outOfMemory
        default: .malformed
        }
        let message = withUnsafeBytes(of: error.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        self.init(kind, message: message, line: Int(error.line), column: Int(error.column))
    }
}

extension XMLNode {
    init?(node: OpaquePointer) {
        switch Int(alm_xml_node_type(node)) {
        case Int(ALM_XML_ELEMENT): self = .element(XMLElement(node: node))
        case Int(ALM_XML_TEXT): self = .text(string(alm_xml_node_content(node)))
        case Int(ALM_XML_CDATA): self = .cdata(string(alm_xml_node_content(node)))
        case Int(ALM_XML_COMMENT): self = .comment(string(alm_xml_node_content(node)))
        case Int(ALM_XML_PROCESSING_INSTRUCTION):
            self = .processingInstruction(target: string(alm_xml_node_name(node)), data: string(alm_xml_node_content(node)))
        case Int(ALM_XML_ENTITY_REFERENCE):
            // Only the predefined and character entities can occur (declarations are refused), and
            // libxml2 expands those into text; anything else was already an error.
            return nil
        default: return nil
        }
    }
}

extension XMLElement {
    init(node: OpaquePointer) {
        let local = string(alm_xml_node_name(node))
        let prefix = alm_xml_node_prefix(node).map { String(cString: $0) }
        var attributes: [XMLAttribute] = []
        var attribute = alm_xml_first_attribute(node)
        while let current = attribute {
            let name = string(alm_xml_attribute_name(current))
            let attributePrefix = alm_xml_attribute_prefix(current).map { String(cString: $0) }
            let raw = alm_xml_attribute_value(current)
            let value = raw.map { String(cString: $0) } ?? ""
            alm_xml_string_free(raw)
            attributes.append(XMLAttribute(name: attributePrefix.map { "\($0):\(name)" } ?? name, value: value,
                                           namespaceURI: alm_xml_attribute_namespace(current).map { String(cString: $0) }))
            attribute = alm_xml_next_attribute(current)
        }
        var declarations: [NamespaceDeclaration] = []
        var namespace = alm_xml_first_namespace(node)
        while let current = namespace {
            declarations.append(NamespaceDeclaration(prefix: alm_xml_namespace_prefix(current).map { String(cString: $0) },
                                                     uri: string(alm_xml_namespace_uri(current))))
            namespace = alm_xml_next_namespace(current)
        }
        var children: [XMLNode] = []
        var child = alm_xml_node_first_child(node)
        while let current = child {
            if let converted = XMLNode(node: current) {
                // libxml2 may split text around entity references; a reader wants one string.
                if case .text(let text) = converted, case .text(let previous)? = children.last {
                    children[children.count - 1] = .text(previous + text)
                } else {
                    children.append(converted)
                }
            }
            child = alm_xml_node_next(current)
        }
        self.init(prefix.map { "\($0):\(local)" } ?? local, attributes: attributes, children: children,
                  namespaceURI: alm_xml_node_namespace(node).map { String(cString: $0) },
                  namespaceDeclarations: declarations, line: Int(alm_xml_node_line(node)),
                  writesEmptyAsPair: false)
    }
}

private func string(_ pointer: UnsafePointer<CChar>?) -> String {
    pointer.map { String(cString: $0) } ?? ""
}
