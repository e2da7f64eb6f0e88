public import AlmanacCore
import AlmanacICU

/// Swift accessors for a catalog, the way 知习 uses `ZXStrings`: nested namespaces from dotted
/// keys (`home.title` → `L10n.Home.title`), functions with typed parameters from the placeholders
/// (`%d` → `Int`, `%@` → `String`, positional order respected), plural functions for plural
/// variables, the comment (or the source text) as the doc comment, and names that never collide.
public struct AccessorGenerator {
    public var enumName: String
    /// Where the strings live at run time (`.module` for a package target's resources).
    public var bundle: String
    public var access: String
    public var sourceLanguage: String

    public init(enumName: String = "L10n", bundle: String = ".module", access: String = "public", sourceLanguage: String = "en") {
        self.enumName = enumName
        self.bundle = bundle
        self.access = access
        self.sourceLanguage = sourceLanguage
    }

    /// One accessor.
    struct Accessor {
        var name: String
        var key: String
        var table: String
        var parameters: [(label: String, type: String)]
        var plural: Bool
        var doc: String
    }

    /// A namespace with its accessors and sub-namespaces, in key order.
    final class Namespace {
        var name: String
        var accessors: [Accessor] = []
        var children: [Namespace] = []
        init(name: String) { self.name = name }

        func child(_ name: String) -> Namespace {
            if let existing = children.first(where: { $0.name == name }) { return existing }
            let namespace = Namespace(name: name)
            children.append(namespace)
            return namespace
        }
    }

    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal", "let",
        "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias",
        "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat",
        "return", "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true",
        "try", "Type", "Protocol", "some", "any", "consume", "copy", "borrowing", "consuming", "actor", "async",
    ]

    /// `days-left` → `daysLeft`, `2fa` → `_2fa`; `upper` starts a type name.
    static func identifier(_ part: String, upper: Bool) -> String {
        // Letters of any script are fine in Swift names (`确定`); everything else separates words.
        let words = part.split(whereSeparator: { !($0.isLetter || $0.isNumber) || $0.unicodeScalars.count > 1 }).map(String.init)
        var name = words.enumerated().map { index, word in
            if index == 0 && !upper { return lowercasedPrefix(word) }
            return word.prefix(1).uppercased() + word.dropFirst()
        }.joined()
        if name.isEmpty { name = upper ? "Strings" : "string" }
        if let first = name.first, first.isNumber { name = "_" + name }
        return name
    }

    /// `OK` → `ok`, `URLScheme` → `urlScheme`, `Title` → `title`: the leading capitals become
    /// lower case, except the one that starts the next word.
    static func lowercasedPrefix(_ word: String) -> String {
        let characters = Array(word)
        var run = 0
        while run < characters.count, characters[run].isUppercase { run += 1 }
        if run == 0 { return word }
        if run < characters.count, run > 1, characters[run].isLowercase { run -= 1 }
        return String(characters[..<run]).lowercased() + String(characters[run...])
    }

    /// Swift's type for a placeholder's argument.
    static func type(_ placeholder: Placeholder) -> String {
        switch placeholder.type {
        case .object: "String"
        case .cString: "UnsafePointer<CChar>"
        case .double: "Double"
        case .pointer: "UnsafeRawPointer"
        case .pluralVariable: "Int"
        case .integer:
            switch placeholder.conversion {
            case "u", "U", "x", "X", "o", "O": "UInt"
            case "c": "CChar"
            case "C": "UInt16"
            default: "Int"
            }
        }
    }

    /// Reads catalog files into tables by name (`en.lproj/Localizable.strings` and
    /// `zh-Hant.lproj/Localizable.stringsdict` are both `Localizable`); `.stringsdict` plurals
    /// replace plain values of the same key. Problems come back as located diagnostics.
    public func tables(from files: [String]) -> (tables: [(name: String, catalog: Catalog)], diagnostics: [Diagnostic]) {
        let tables = CatalogTree.read(files: files, context: CodecContext(options: ["source-language": sourceLanguage]))
        return (tables.map { ($0.name, $0.catalog) }, tables.flatMap(\.diagnostics))
    }

    public func generate(tables: [(name: String, catalog: Catalog)]) -> String {
        let root = tree(tables)
        var lines = ["// Generated by almanac-strings-gen from the target's string catalogs. Do not edit.", "",
                     "import Foundation", ""]
        emit(root, indent: "", into: &lines, isRoot: true)
        lines += lookupSupport()
        if hasPlurals(root) {
            lines += pluralSupport(languages: Array(Set(tables.flatMap { $0.catalog.locales })))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Each accessor's full name (`L10n.Memory.Rate.again`, no backticks) and the key it reads, so
    /// that an audit can tell which keys the sources use through the accessors.
    public func accessorPaths(tables: [(name: String, catalog: Catalog)]) -> [String: String] {
        var paths: [String: String] = [:]
        func walk(_ namespace: Namespace, _ prefix: String) {
            for accessor in namespace.accessors { paths[prefix + "." + accessor.name] = accessor.key }
            for child in namespace.children { walk(child, prefix + "." + child.name) }
        }
        walk(tree(tables), enumName)
        return paths
    }

    func tree(_ tables: [(name: String, catalog: Catalog)]) -> Namespace {
        let root = Namespace(name: enumName)
        for (table, catalog) in tables {
            for entry in catalog.entries {
                guard let translation = entry.translations[sourceLanguage] ?? entry.translations.values.first else { continue }
                let parts = entry.key.split(separator: ".").map(String.init).filter { !$0.isEmpty }
                var namespace = root
                for part in parts.dropLast() { namespace = namespace.child(Self.identifier(part, upper: true)) }
                let (parameters, plural) = Self.parameters(translation)
                let doc = (entry.comment.map { [$0, ""] } ?? []) + Self.sourceLines(translation, key: entry.key)
                namespace.accessors.append(Accessor(name: Self.identifier(parts.last ?? entry.key, upper: false), key: entry.key, table: table,
                                                    parameters: parameters, plural: plural, doc: doc.joined(separator: "\n")))
            }
        }
        Self.resolveCollisions(root)
        return root
    }

    /// The source text for the doc comment; a plural shows each of its forms.
    static func sourceLines(_ translation: Translation, key: String) -> [String] {
        func quoted(_ text: String) -> String { "“" + text.replacingOccurrences(of: "\n", with: "\\n") + "”" }
        func forms(_ plural: [PluralCategory: String], _ render: (String) -> String) -> [String] {
            PluralCategory.allCases.compactMap { category in plural[category].map { "- \(category.rawValue): " + quoted(render($0)) } }
        }
        if let value = translation.value {
            guard let substitutions = translation.substitutions, !substitutions.isEmpty else { return [quoted(value)] }
            // `%#@count@` stands for the variable's forms: show the text each form makes, or with
            // several variables, the format and then each variable's forms.
            if substitutions.count == 1, let (name, substitution) = substitutions.first {
                return forms(substitution.plural) { value.replacingOccurrences(of: "%#@\(name)@", with: $0) }
            }
            return [quoted(value)] + substitutions.keys.sorted().flatMap { name in
                ["", "`\(name)`:"] + forms(substitutions[name]!.plural) { $0 }
            }
        }
        if let plural = translation.plural { return forms(plural) { $0 } }
        return [quoted(translation.texts.first?.text ?? key)]
    }

    /// Arguments by position, with their types; a plural value takes its count.
    static func parameters(_ translation: Translation) -> ([(label: String, type: String)], Bool) {
        let text: String
        var plural = false
        if let value = translation.value {
            text = value
            plural = translation.substitutions != nil
        } else if let forms = translation.plural {
            text = forms[.other] ?? forms.values.first ?? ""
            plural = true
        } else {
            text = translation.texts.first?.text ?? ""
        }
        let list = PlaceholderList(text)
        var byPosition: [Int: String] = [:]
        var next = 1
        for placeholder in list.placeholders {
            let position = placeholder.position ?? next
            next = position + 1
            var type = Self.type(placeholder)
            if placeholder.type == .pluralVariable, let substitution = translation.substitutions?[placeholder.variable ?? ""] {
                type = PlaceholderList("%" + substitution.formatSpecifier).placeholders.first.map(Self.type) ?? "Int"
            }
            if byPosition[position] == nil { byPosition[position] = type }
        }
        if plural, byPosition.isEmpty { byPosition[1] = "Int" }
        let count = byPosition.keys.max() ?? 0
        let parameters = (1...max(count, 1)).prefix(count).map { position in
            (label: plural && count == 1 ? "count" : "p\(position)", type: byPosition[position] ?? "String")
        }
        return (parameters, plural)
    }

    /// Accessors whose names collide after case folding (`ok` and `OK`), or exactly with a
    /// sub-namespace or the namespace itself, get `2`, `3`… in key order.
    static func resolveCollisions(_ namespace: Namespace, isRoot: Bool = true) {
        let types = Set(namespace.children.map(\.name)).union([namespace.name])
        // The root's own lookup functions: an accessor `tr(_:_:)` would make their calls ambiguous.
        var used: Set<String> = isRoot ? ["tr", "trp"] : []
        for index in namespace.accessors.indices {
            var name = namespace.accessors[index].name
            var suffix = 2
            while used.contains(name.lowercased()) || types.contains(name) {
                name = namespace.accessors[index].name + String(suffix)
                suffix += 1
            }
            used.insert(name.lowercased())
            namespace.accessors[index].name = name
        }
        for child in namespace.children {
            // A namespace named like its parent would shadow it inside; give it a suffix.
            if child.name == namespace.name { child.name += "Strings" }
            resolveCollisions(child, isRoot: false)
        }
    }

    static func escapedName(_ name: String) -> String { keywords.contains(name) ? "`\(name)`" : name }

    /// Text for a doc comment: control characters, which Swift refuses anywhere in a source file,
    /// written as `\u{1}`.
    static func printable(_ text: some StringProtocol) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar != "\t", scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func literal(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            // Swift refuses other control characters in a literal (a key with U+0001 would not compile).
            case let control where control.value < 0x20 || (0x7F...0x9F).contains(control.value):
                result += "\\u{" + String(control.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    func emit(_ namespace: Namespace, indent: String, into lines: inout [String], isRoot: Bool) {
        lines.append(indent + "\(access) enum \(Self.escapedName(namespace.name)) {")
        let inner = indent + "    "
        var first = true
        for accessor in namespace.accessors {
            if !first { lines.append("") }
            first = false
            for line in accessor.doc.split(separator: "\n", omittingEmptySubsequences: false) {
                lines.append(inner + "///" + (line.isEmpty ? "" : " " + Self.printable(line)))
            }
            let call = "\(enumName).\(accessor.plural ? "trp" : "tr")(\(Self.literal(accessor.table)), \(Self.literal(accessor.key))"
            if accessor.parameters.isEmpty {
                lines.append(inner + "\(access) static var \(Self.escapedName(accessor.name)): String { \(call)) }")
            } else {
                let signature = accessor.parameters.map { "_ \($0.label): \($0.type)" }.joined(separator: ", ")
                // Foundation's `%@` wants an object; a Swift String becomes one through NSString.
                let arguments = accessor.parameters.map { $0.type == "String" ? "\($0.label) as NSString" : $0.label }.joined(separator: ", ")
                lines.append(inner + "\(access) static func \(Self.escapedName(accessor.name))(\(signature)) -> String {")
                lines.append(inner + "    \(call), \(arguments))")
                lines.append(inner + "}")
            }
        }
        for child in namespace.children {
            if !first { lines.append("") }
            first = false
            emit(child, indent: inner, into: &lines, isRoot: false)
        }
        if isRoot {
            if !first { lines.append("") }
            lines += [
                inner + "/// Foundation finds the string on Apple platforms; elsewhere \(enumName)Localization does,",
                inner + "/// as Foundation there misses `.lproj` folders SwiftPM writes in lower case.",
                inner + "private static func tr(_ table: String, _ key: String, _ arguments: any CVarArg...) -> String {",
                inner + "    #if canImport(Darwin)",
                inner + "    let format = Bundle\(bundle).localizedString(forKey: key, value: nil, table: table)",
                inner + "    #else",
                inner + "    let format = \(enumName)Localization.string(table, key, in: Bundle\(bundle)) ?? key",
                inner + "    #endif",
                inner + "    return arguments.isEmpty ? format : String(format: format, locale: Locale.current, arguments: arguments)",
                inner + "}",
            ]
            if hasPlurals(namespace) {
                lines += [
                    "",
                    inner + "/// Plural strings: Foundation reads `.stringsdict` plurals on Apple platforms; elsewhere it",
                    inner + "/// cannot, so \(enumName)Plurals picks the form.",
                    inner + "private static func trp(_ table: String, _ key: String, _ arguments: any CVarArg...) -> String {",
                    inner + "    #if canImport(Darwin)",
                    inner + "    let format = Bundle\(bundle).localizedString(forKey: key, value: nil, table: table)",
                    inner + "    #else",
                    inner + "    let format = \(enumName)Plurals.format(table, key, arguments, in: Bundle\(bundle)) ?? key",
                    inner + "    #endif",
                    inner + "    return String(format: format, locale: Locale.current, arguments: arguments)",
                    inner + "}",
                ]
            }
        }
        lines.append(indent + "}")
    }

    func hasPlurals(_ namespace: Namespace) -> Bool {
        namespace.accessors.contains(where: \.plural) || namespace.children.contains(where: hasPlurals)
    }

    /// How numbers fall into plural categories in each language, as a table small enough to
    /// generate: the category of 0…199 (one letter each, trailing `other`s left off), and of whole
    /// millions. A larger number takes the category of its last two digits plus 100 — CLDR's
    /// integer rules test `n % 10`, `n % 100`, small ranges and (French, Spanish…) millions.
    public static func pluralTable(_ language: String) -> (small: String, million: Character)? {
        guard let locale = try? LocaleID(language), let rules = try? PluralRules(locale: locale) else { return nil }
        func letter(_ n: Int) -> Character {
            switch rules.category(for: n) {
            case .zero: "z"
            case .one: "o"
            case .two: "t"
            case .few: "f"
            case .many: "m"
            case .other: "x"
            }
        }
        var small = String((0..<200).map(letter))
        while small.last == "x" { small.removeLast() }
        return (small, letter(1_000_000))
    }

    /// Finds strings where Foundation cannot (Linux, Windows: SwiftPM writes `.lproj` folders in
    /// lower case there, and a development language such as `zh-Hans` is then not found).
    func lookupSupport() -> [String] {
        [
            "",
            "#if !canImport(Darwin)",
            "/// The user's localization among the bundle's, and its strings, matched without case.",
            "enum \(enumName)Localization {",
            "    /// The bundle's localization for the user's languages (`zh-Hant-TW` → `zh-Hant` → `zh`), else",
            "    /// its development localization, matched without case.",
            "    static func language(of bundle: Bundle) -> String {",
            "        for preferred in Locale.preferredLanguages {",
            "            var candidate = preferred.lowercased().replacingOccurrences(of: \"_\", with: \"-\")",
            "            while true {",
            "                if let match = bundle.localizations.first(where: { $0.lowercased() == candidate }) { return match }",
            "                guard let cut = candidate.lastIndex(of: \"-\") else { break }",
            "                candidate = String(candidate[..<cut])",
            "            }",
            "        }",
            "        let development = (bundle.developmentLocalization ?? \"\(sourceLanguage)\").lowercased()",
            "        return bundle.localizations.first { $0.lowercased() == development } ?? development",
            "    }",
            "",
            "    /// The tables read so far, by file: each is read once, not on every lookup.",
            "    private final class Tables: @unchecked Sendable {",
            "        let lock = NSLock()",
            "        var loaded: [URL: [String: String]] = [:]",
            "    }",
            "    private static let tables = Tables()",
            "",
            "    /// The string of `key` in the table, in `language` (default: the user's), or nil.",
            "    static func string(_ table: String, _ key: String, in bundle: Bundle, language: String? = nil) -> String? {",
            "        let language = language.map { name in bundle.localizations.first { $0.lowercased() == name.lowercased() } ?? name }",
            "            ?? self.language(of: bundle)",
            "        guard let url = bundle.url(forResource: table, withExtension: \"strings\", subdirectory: nil, localization: language) else { return nil }",
            "        tables.lock.lock()",
            "        defer { tables.lock.unlock() }",
            "        if let known = tables.loaded[url] { return known[key] }",
            "        guard let data = try? Data(contentsOf: url),",
            "              let strings = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: String]",
            "        else { return nil }",
            "        tables.loaded[url] = strings",
            "        return strings[key]",
            "    }",
            "}",
            "#endif",
        ]
    }

    /// Reads a `.stringsdict` and picks forms where Foundation cannot (Linux, Windows).
    func pluralSupport(languages: [String]) -> [String] {
        var rules: [String] = []
        for language in languages.sorted() {
            guard let table = Self.pluralTable(language), !(table.small.isEmpty && table.million == "x") else { continue }
            rules.append("        \(Self.literal(language.lowercased())): (\(Self.literal(table.small)), \"\(table.million)\"),")
        }
        return [
            "",
            "#if !canImport(Darwin)",
            "/// Foundation outside Apple platforms cannot read `.stringsdict` plurals, so the accessors pick",
            "/// the form themselves with CLDR's rules for the catalogs' languages (from ICU, at generation).",
            "enum \(enumName)Plurals {",
            "    /// The category of 0…199, one letter each (z zero, o one, t two, f few, m many, x other;",
            "    /// missing letters are x), and of whole millions. Larger numbers go by their last two digits.",
            "    static let rules: [String: (small: String, million: Character)] = [",
        ] + (rules.isEmpty ? ["        :"] : rules) + [
            "    ]",
            "",
            "    static func category(of number: Int, in language: String) -> String {",
            "        let language = language.lowercased()",
            "        let base = String(language.prefix { $0 != \"-\" && $0 != \"_\" })",
            "        guard let rule = rules[language] ?? rules[base] else { return \"other\" }",
            "        let magnitude = number.magnitude",
            "        let letter: Character",
            "        if magnitude != 0 && magnitude % 1_000_000 == 0 {",
            "            letter = rule.million",
            "        } else {",
            "            let index = magnitude < 200 ? Int(magnitude) : Int(magnitude % 100) + 100",
            "            letter = index < rule.small.count ? rule.small[rule.small.index(rule.small.startIndex, offsetBy: index)] : \"x\"",
            "        }",
            "        switch letter {",
            "        case \"z\": return \"zero\"",
            "        case \"o\": return \"one\"",
            "        case \"t\": return \"two\"",
            "        case \"f\": return \"few\"",
            "        case \"m\": return \"many\"",
            "        default: return \"other\"",
            "        }",
            "    }",
            "",
            "    /// The key's format with each `%#@variable@` replaced by the form its argument needs. Every",
            "    /// argument is numbered on the way (`%@ has %#@cards@` → `%1$@ has %2$d cards`), so a form",
            "    /// that leaves the number out (`one` = `a card`) shifts nothing.",
            "    static func format(_ table: String, _ key: String, _ arguments: [any CVarArg], in bundle: Bundle, language: String? = nil) -> String? {",
            "        let language = language ?? \(enumName)Localization.language(of: bundle)",
            "        guard let url = bundle.url(forResource: table, withExtension: \"stringsdict\", subdirectory: nil, localization: language)",
            "                ?? bundle.url(forResource: table, withExtension: \"stringsdict\"),",
            "              let data = try? Data(contentsOf: url),",
            "              let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],",
            "              let entry = plist[key] as? [String: Any],",
            "              let format = entry[\"NSStringLocalizedFormatKey\"] as? String",
            "        else { return nil }",
            "        var result = \"\"",
            "        var rest = Substring(format)",
            "        var next = 1",
            "        while let percent = rest.firstIndex(of: \"%\") {",
            "            result += rest[..<percent]",
            "            rest = rest[rest.index(after: percent)...]",
            "            if rest.first == \"%\" {",
            "                result += \"%%\"",
            "                rest = rest.dropFirst()",
            "                continue",
            "            }",
            "            var position = next",
            "            let digits = rest.prefix { $0.isASCII && $0.isNumber }",
            "            if !digits.isEmpty, rest.dropFirst(digits.count).first == \"$\" {",
            "                position = Int(digits) ?? next",
            "                rest = rest.dropFirst(digits.count + 1)",
            "            }",
            "            next = position + 1",
            "            if rest.hasPrefix(\"#@\"), let end = rest.dropFirst(2).firstIndex(of: \"@\") {",
            "                let name = String(rest[rest.index(rest.startIndex, offsetBy: 2)..<end])",
            "                rest = rest[rest.index(after: end)...]",
            "                guard let variable = entry[name] as? [String: Any] else { return nil }",
            "                let count = position <= arguments.count ? (arguments[position - 1] as? any BinaryInteger).map { Int(clamping: $0) } : nil",
            "                var form = (variable[category(of: count ?? 0, in: language)] ?? variable[\"other\"]) as? String ?? \"\"",
            "                if let type = variable[\"NSStringFormatValueTypeKey\"] as? String {",
            "                    form = form.replacingOccurrences(of: \"%\" + type, with: \"%\\(position)$\" + type)",
            "                }",
            "                result += form",
            "            } else {",
            "                let flags = rest.prefix { !\"diouxXeEfFgGaAcCsSp@\".contains($0) }",
            "                let conversion = rest.dropFirst(flags.count).prefix(1)",
            "                result += conversion.isEmpty ? \"%%\" + flags : \"%\\(position)$\" + flags + conversion",
            "                rest = rest.dropFirst(flags.count + conversion.count)",
            "            }",
            "        }",
            "        return result + rest",
            "    }",
            "}",
            "#endif",
        ]
    }
}
