public import AlmanacCore
import Foundation

/// A small project that shows a rule at work: `.lproj` folders, catalogs and Swift sources, as
/// files. Most examples are a few values per locale (`values`); rules about files and sources
/// give the files (`files`). The tests audit every example (`findings()`): a triggering example
/// must give the rule's finding and, besides, only the findings it names in `alsoFinds`; a
/// non-triggering one must not give the rule's finding.
public struct AuditExample: Sendable {
    public struct File: Sendable, Hashable {
        public let path: String
        public let text: String
    }

    public struct Value: Sendable, Hashable {
        public let key: String
        public let locale: String
        public let text: String
        /// Plural forms by variable and category (`count.one`), for a `.stringsdict` value.
        public var forms: [Form] = []
    }

    public struct Form: Sendable, Hashable {
        public let variable: String
        public let category: String
        public let text: String
    }

    /// The files of the project, by path relative to its folder.
    public let files: [File]
    /// The values the files hold, when the example was written as values (for printing).
    public let values: [Value]
    public let base: String
    /// Other rules' ids the example finds as well (a triggering example is otherwise expected to
    /// find nothing but its rule's problem).
    public let alsoFinds: [String]

    init(files: [File], values: [Value], base: String, alsoFinds: [String]) {
        self.files = files
        self.values = values
        self.base = base
        self.alsoFinds = alsoFinds
    }

    /// Values by key and locale, written as `<locale>.lproj/Localizable.strings`.
    public static func values(_ rows: (key: String, locale: String, text: String)..., base: String = "en",
                              alsoFinds: [String] = []) -> AuditExample {
        values(rows, base: base, alsoFinds: alsoFinds)
    }

    /// Values by key and locale, from a list.
    public static func values(_ rows: [(key: String, locale: String, text: String)], base: String = "en",
                              alsoFinds: [String] = []) -> AuditExample {
        let values = rows.map { Value(key: $0.key, locale: $0.locale, text: $0.text) }
        var locales: [String] = []
        for value in values where !locales.contains(value.locale) { locales.append(value.locale) }
        let files = locales.map { locale in
            File(path: locale + ".lproj/Localizable.strings",
                 text: values.filter { $0.locale == locale }.map { "\(quoted($0.key)) = \(quoted($0.text));\n" }.joined())
        }
        return AuditExample(files: files, values: values, base: base, alsoFinds: alsoFinds)
    }

    /// Plural values by key and locale: the format (`%#@count@ left`) and forms by variable and
    /// category (`count.one`), written as `<locale>.lproj/Localizable.stringsdict`.
    public static func plurals(_ rows: (key: String, locale: String, format: String, forms: KeyValuePairs<String, String>)...,
                               base: String = "en", alsoFinds: [String] = []) -> AuditExample {
        let values = rows.map { row in
            Value(key: row.key, locale: row.locale, text: row.format, forms: row.forms.map { path, text in
                let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
                return Form(variable: parts[0], category: parts.count > 1 ? parts[1] : "other", text: text)
            })
        }
        var locales: [String] = []
        for value in values where !locales.contains(value.locale) { locales.append(value.locale) }
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        }
        let files = locales.map { locale in
            var xml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                <plist version="1.0">
                <dict>

                """
            for value in values where value.locale == locale {
                xml += "\t<key>\(escaped(value.key))</key>\n\t<dict>\n"
                xml += "\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>\(escaped(value.text))</string>\n"
                var variables: [String] = []
                for form in value.forms where !variables.contains(form.variable) { variables.append(form.variable) }
                for variable in variables {
                    xml += "\t\t<key>\(escaped(variable))</key>\n\t\t<dict>\n"
                    xml += "\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n"
                    xml += "\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>d</string>\n"
                    for form in value.forms where form.variable == variable {
                        xml += "\t\t\t<key>\(escaped(form.category))</key>\n\t\t\t<string>\(escaped(form.text))</string>\n"
                    }
                    xml += "\t\t</dict>\n"
                }
                xml += "\t</dict>\n"
            }
            return File(path: locale + ".lproj/Localizable.stringsdict", text: xml + "</dict>\n</plist>\n")
        }
        return AuditExample(files: files, values: values, base: base, alsoFinds: alsoFinds)
    }

    /// Files by path and text.
    public static func files(_ files: (path: String, text: String)..., base: String = "en", alsoFinds: [String] = []) -> AuditExample {
        AuditExample(files: files.map { File(path: $0.path, text: $0.text) }, values: [], base: base, alsoFinds: alsoFinds)
    }

    /// A string as a `.strings` file and Swift write it, escapes shown.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// The example as a person reads it: values key by key, or each file with its text.
    public var listing: String {
        guard values.isEmpty else {
            var keys: [String] = []
            for value in values where !keys.contains(value.key) { keys.append(value.key) }
            let width = values.map(\.locale.count).max() ?? 0
            return keys.map { key in
                Self.quoted(key) + "\n" + values.filter { $0.key == key }.map {
                    "  " + $0.locale.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + Self.quoted($0.text)
                }.joined(separator: "\n")
            }.joined(separator: "\n")
        }
        return files.map { file in
            file.path + "\n" + file.text.split(separator: "\n", omittingEmptySubsequences: false)
                .reversed().drop { $0.isEmpty }.reversed().map { "  " + $0 }.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// Audits the example as `almanac audit` would audit its folder (with the `.swift` files as
    /// `--sources` when it has any), with `options` but the example's base. Locations are relative
    /// to the example's folder.
    public func findings(options: Auditor.Options = Auditor.Options()) throws(Diagnostic) -> [Finding] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-example-" + UUID().uuidString).path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for file in files {
            let path = folder + "/" + file.path
            do {
                try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(file.text.utf8).write(to: URL(fileURLWithPath: path))
            } catch {
                throw Diagnostic.error("output.failed", error.localizedDescription, at: SourceLocation(file: path))
            }
        }
        var options = options
        options.base = base
        if files.contains(where: { $0.path.hasSuffix(".swift") }) { options.usedKeys = SourceScanner.keys(under: [folder]) }
        let report = try Auditor(options: options).audit(AuditTable.load([folder]))
        return report.findings.map { finding in
            var finding = finding
            if let file = finding.location?.file, file.hasPrefix(folder + "/") {
                finding.location?.file = String(file.dropFirst(folder.count + 1))
            }
            return finding
        }
    }
}
