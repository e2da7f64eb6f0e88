import Foundation

/// A property-list value, with dictionaries in document order.
public indirect enum PropertyList: Hashable, Sendable {
    case string(String)
    case integer(Int)
    case real(String)
    case bool(Bool)
    case array([PropertyList])
    case dictionary([(String, PropertyList)], line: Int)
    case other(String)

    public static func == (lhs: PropertyList, rhs: PropertyList) -> Bool { lhs.description == rhs.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }

    public var description: String {
        switch self {
        case .string(let text): "s:" + text
        case .integer(let value): "i:\(value)"
        case .real(let text): "r:" + text
        case .bool(let flag): "b:\(flag)"
        case .array(let items): "[" + items.map(\.description).joined(separator: ",") + "]"
        case .dictionary(let members, _): "{" + members.map { "\($0.0)=\($0.1.description)" }.joined(separator: ",") + "}"
        case .other(let name): "?" + name
        }
    }

    public var string: String? { if case .string(let text) = self { text } else { nil } }

    public var dictionary: [(String, PropertyList)]? { if case .dictionary(let members, _) = self { members } else { nil } }

    public var line: Int? { if case .dictionary(_, let line) = self { line } else { nil } }

    public subscript(key: String) -> PropertyList? { dictionary?.first { $0.0 == key }?.1 }

    /// A value as Foundation's property-list reading gives it.
    public init(foundation value: Any, line: Int) {
        switch value {
        case let text as String: self = .string(text)
        case let dictionary as [String: Any]:
            self = .dictionary(dictionary.keys.sorted().map { ($0, PropertyList(foundation: dictionary[$0]!, line: line)) }, line: line)
        case let items as [Any]: self = .array(items.map { PropertyList(foundation: $0, line: line) })
        case let flag as Bool where "\(type(of: value))".contains("Bool"): self = .bool(flag)
        case let number as Int: self = .integer(number)
        case let number as Double: self = .real(String(number))
        default: self = .other("\(type(of: value))")
        }
    }
}

/// `.stringsdict` files: plural rules (`NSStringPluralRuleType`) with one or several variables
/// (`%#@days@ and %#@hours@`), and device-specific variants (`NSStringDeviceSpecificRuleType`),
/// read from a property list into the catalog model. The StringsdictCodec (AlmanacCatalogs) reads
/// the XML with libxml2 and writes it; the accessor generator reads it through Foundation.
public enum StringsdictFile {
    public static let formatKey = "NSStringLocalizedFormatKey"
    public static let specType = "NSStringFormatSpecTypeKey"
    public static let valueType = "NSStringFormatValueTypeKey"
    public static let pluralRule = "NSStringPluralRuleType"
    public static let deviceRule = "NSStringDeviceSpecificRuleType"
    public static let widthRule = "NSStringVariableWidthRuleType"

    /// The catalog of a `.stringsdict`'s top dictionary, in one locale.
    public static func catalog(_ members: [(String, PropertyList)], locale: String, sourceLanguage: String, fileName file: String?,
                               diagnostics: inout [Diagnostic]) throws(Diagnostic) -> Catalog {
        var catalog = Catalog(sourceLanguage: sourceLanguage)
        catalog.presentation[TableSource.self] = TableSource(table: CatalogPath.table(ofPath: file))
        for (key, value) in members {
            let location = SourceLocation(file: file, line: value.line, keyPath: key)
            var translation = try Self.translation(value, key: key, location: location, diagnostics: &diagnostics)
            translation.presentation.origin = location
            catalog.entries.append(CatalogEntry(key: key, translations: [locale: translation]))
        }
        return catalog
    }

    public static func translation(_ value: PropertyList, key: String, location: SourceLocation, diagnostics: inout [Diagnostic]) throws(Diagnostic) -> Translation {
        guard let members = value.dictionary else {
            // A plain string in a stringsdict is allowed (and read as one value).
            if let text = value.string { return Translation(value: text) }
            throw Diagnostic.error(.stringsdictBadEntry(key: key), at: location)
        }
        if let devices = value[deviceRule]?.dictionary {
            var variants: [String: Translation] = [:]
            for (device, variant) in devices {
                variants[device] = try translation(variant, key: key + "." + device, location: location, diagnostics: &diagnostics)
            }
            return Translation(devices: variants)
        }
        guard let format = value[formatKey]?.string else {
            throw Diagnostic.error(.stringsdictNoFormatKey(key: key), at: location)
        }
        var substitutions: [String: Substitution] = [:]
        for (name, variable) in members where name != formatKey {
            guard let spec = variable[specType]?.string else {
                throw Diagnostic.error(.stringsdictNoSpecType(key: key, variable: name), at: location)
            }
            guard spec == pluralRule else {
                diagnostics.append(.warning(.stringsdictUnsupportedRule(key: key, type: spec), at: location))
                continue
            }
            var forms: [PluralCategory: String] = [:]
            for (category, text) in variable.dictionary ?? [] {
                if let category = PluralCategory(rawValue: category), let text = text.string { forms[category] = text }
            }
            substitutions[name] = Substitution(formatSpecifier: variable[valueType]?.string ?? "d", plural: forms)
        }
        for variable in PlaceholderList(format).variables where substitutions[variable] == nil {
            diagnostics.append(.warning(.stringsdictUndefinedVariable(key: key, variable: variable), at: location))
        }
        return Translation(value: format, substitutions: substitutions.isEmpty ? nil : substitutions)
    }

    /// The value type a plain plural's variable is written with: its `other` form's first placeholder's.
    public static func pluralSpecifier(_ forms: [PluralCategory: String]) -> String {
        PlaceholderList(forms[.other] ?? "").placeholders.first.map { $0.length + String($0.conversion) } ?? "d"
    }

    /// Reads a property list with Foundation (no libxml2): the values through
    /// `PropertyListSerialization`, and the order and line of the top dictionary's keys from the
    /// XML text, which a Foundation dictionary does not keep. AlmanacCatalogs reads with libxml2
    /// instead, for its located XML errors.
    public static func propertyList(_ bytes: [UInt8], fileName: String?) throws(Diagnostic) -> PropertyList {
        let value: Any
        do {
            value = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            // Foundation's reason ("Encountered unknown tag strin on line 2") is in the debug description.
            let error = error as NSError
            var reason = error.userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
            while reason.hasSuffix(".") { reason.removeLast() }
            let line = reason.range(of: #"line \d+"#, options: .regularExpression).flatMap { Int(reason[$0].dropFirst(5)) }
            throw Diagnostic.error(.xmlInvalid(reason: reason), at: SourceLocation(file: fileName, line: line))
        }
        guard let top = value as? [String: Any] else {
            throw Diagnostic.error(.plistExpectedDict, at: SourceLocation(file: fileName))
        }
        var members: [(String, PropertyList)] = []
        var seen: Set<String> = []
        for (key, line) in topKeys(bytes) where !seen.contains(key) {
            guard let member = top[key] else { continue }
            seen.insert(key)
            members.append((key, PropertyList(foundation: member, line: line)))
        }
        // Keys the scan missed (a binary property list has no text): in sorted order.
        for key in top.keys.sorted() where !seen.contains(key) {
            members.append((key, PropertyList(foundation: top[key]!, line: 0)))
        }
        return .dictionary(members, line: 1)
    }

    /// The keys of the top `<dict>` of an XML property list in document order, each with the line
    /// its value starts on (none for a shape `StringsdictLayout` does not follow).
    static func topKeys(_ bytes: [UInt8]) -> [(String, Int)] {
        guard let layout = StringsdictLayout(bytes) else { return [] }
        var line = 1
        var counted = 0
        return layout.entries.map { entry in
            line += bytes[counted..<entry.valueStart].count { $0 == ASCII.lineFeed }
            counted = entry.valueStart
            return (entry.key, line)
        }
    }
}
