/// A node of an XML document as Almanac's formats see it.
public enum XMLNode: Hashable, Sendable {
    case element(XMLElement)
    case text(String)
    case cdata(String)
    case comment(String)
    case processingInstruction(target: String, data: String)

    /// The element, if this node is one.
    public var element: XMLElement? {
        if case .element(let element) = self { return element }
        return nil
    }
}

/// An attribute in document order.
public struct XMLAttribute: Hashable, Sendable {
    /// The qualified name as written (`xml:lang`, `id`).
    public var name: String
    public var namespaceURI: String?
    public var value: String

    public init(name: String, value: String, namespaceURI: String? = nil) {
        self.name = name
        self.value = value
        self.namespaceURI = namespaceURI
    }

    public var localName: String { name.split(separator: ":").last.map(String.init) ?? name }
}

/// An element with its attributes and children in document order.
public struct XMLElement: Hashable, Sendable {
    /// The qualified name as written (`xliff`, `x:file`).
    public var name: String
    public var namespaceURI: String?
    public var attributes: [XMLAttribute]
    /// Namespace declarations made on this element: prefix (nil for the default namespace) and URI.
    public var namespaceDeclarations: [NamespaceDeclaration]
    public var children: [XMLNode]
    /// Where the element starts in its file (1-based), 0 for elements built in code.
    public var line: Int
    /// How an element without children is written: `<true/>` or `<string></string>`.
    public var writesEmptyAsPair: Bool

    public struct NamespaceDeclaration: Hashable, Sendable {
        public var prefix: String?
        public var uri: String
        public init(prefix: String?, uri: String) {
            self.prefix = prefix
            self.uri = uri
        }
    }

    public init(
        _ name: String, attributes: [XMLAttribute] = [], children: [XMLNode] = [], namespaceURI: String? = nil,
        namespaceDeclarations: [NamespaceDeclaration] = [], line: Int = 0, writesEmptyAsPair: Bool = false
    ) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.namespaceURI = namespaceURI
        self.namespaceDeclarations = namespaceDeclarations
        self.line = line
        self.writesEmptyAsPair = writesEmptyAsPair
    }

    /// An element holding only text: `XMLElement("key", text: "CFBundleName")`.
    public init(_ name: String, text: String, attributes: [XMLAttribute] = []) {
        self.init(name, attributes: attributes, children: text.isEmpty ? [] : [.text(text)], writesEmptyAsPair: true)
    }

    /// The name without its prefix.
    public var localName: String { name.split(separator: ":").last.map(String.init) ?? name }

    /// The value of the first attribute with this qualified or local name.
    public subscript(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value ?? attributes.first { $0.localName == name }?.value
    }

    /// Child elements, in order.
    public var elements: [XMLElement] { children.compactMap(\.element) }

    /// Child elements with a local name.
    public func elements(named localName: String) -> [XMLElement] {
        elements.filter { $0.localName == localName }
    }

    /// The first child element with a local name.
    public func element(named localName: String) -> XMLElement? {
        for child in children { if case .element(let element) = child, element.localName == localName { return element } }
        return nil
    }

    /// All text inside the element (text and CDATA, descendants included), as a reader sees it.
    public var text: String {
        var result = ""
        appendText(to: &result)
        return result
    }

    private func appendText(to result: inout String) {
        for child in children {
            switch child {
            case .text(let text), .cdata(let text): result += text
            case .element(let element): element.appendText(to: &result)
            case .comment, .processingInstruction: break
            }
        }
    }

    /// Children without whitespace-only text between elements (what most formats mean).
    public var significantChildren: [XMLNode] {
        children.filter {
            if case .text(let text) = $0 { return !text.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" } }
            return true
        }
    }
}

/// A parsed XML document.
public struct XMLDocument: Hashable, Sendable {
    public struct Doctype: Hashable, Sendable {
        public var name: String
        public var publicID: String?
        public var systemID: String?
        public init(name: String, publicID: String? = nil, systemID: String? = nil) {
            self.name = name
            self.publicID = publicID
            self.systemID = systemID
        }

        /// Apple's property-list DOCTYPE.
        public static let propertyList = Doctype(
            name: "plist", publicID: "-//Apple//DTD PLIST 1.0//EN",
            systemID: "http://www.apple.com/DTDs/PropertyList-1.0.dtd")
    }

    public var root: XMLElement
    public var doctype: Doctype?
    /// Comments and processing instructions before the root element.
    public var prolog: [XMLNode]
    public var version: String
    /// The encoding the document declared (it is always read and written as UTF-8).
    public var declaredEncoding: String?
    public var standalone: Bool?

    public init(root: XMLElement, doctype: Doctype? = nil, prolog: [XMLNode] = [], version: String = "1.0",
                declaredEncoding: String? = "UTF-8", standalone: Bool? = nil) {
        self.root = root
        self.doctype = doctype
        self.prolog = prolog
        self.version = version
        self.declaredEncoding = declaredEncoding
        self.standalone = standalone
    }
}
