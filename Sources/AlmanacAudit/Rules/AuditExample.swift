public import AlmanacCore
import AlmanacCatalogs
import AlmanacICU
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
    /// The checks `alsoFinds` spells (a spelling no rule has is left out: a test asks that none is).
    public var alsoFinding: [AuditCheck] { alsoFinds.compactMap(AuditCheck.init(spelling:)) }

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
        return AuditExample(files: files(of: values), values: values, base: base, alsoFinds: alsoFinds)
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
        return AuditExample(files: files(of: values), values: values, base: base, alsoFinds: alsoFinds)
    }

    /// The `.lproj` files of the values, written by the catalog codecs (`.strings`, and
    /// `.stringsdict` for values with plural forms), as `almanac convert` writes a tree.
    static func files(of values: [Value]) -> [File] {
        var catalog = Catalog()
        for value in values {
            var translation = Translation(value: value.text)
            if !value.forms.isEmpty {
                var substitutions: [String: Substitution] = [:]
                for form in value.forms {
                    guard let category = PluralCategory(rawValue: form.category) else { continue }
                    substitutions[form.variable, default: Substitution(formatSpecifier: "d", plural: [:])].plural[category] = form.text
                }
                translation.substitutions = substitutions
            }
            if let index = catalog.entries.firstIndex(where: { $0.key == value.key }) {
                catalog.entries[index].translations[value.locale] = translation
            } else {
                catalog.entries.append(CatalogEntry(key: value.key, translations: [value.locale: translation]))
            }
        }
        let written = (try? CatalogTree.files(of: catalog, table: "Localizable")) ?? []
        return written.map { File(path: $0.path, text: String(decoding: $0.bytes, as: UTF8.self)) }
    }

    /// Files by path and text.
    public static func files(_ files: (path: String, text: String)..., base: String = "en", alsoFinds: [String] = []) -> AuditExample {
        AuditExample(files: files.map { File(path: $0.path, text: $0.text) }, values: [], base: base, alsoFinds: alsoFinds)
    }

    /// A string as a `.strings` file writes it, escapes shown.
    static func quoted(_ text: String) -> String { "\"" + StringsFile.escape(text) + "\"" }

    /// The example as a person reads it: values key by key, or each file with its text.
    public var listing: String {
        guard values.isEmpty else {
            var keys: [String] = []
            for value in values where !keys.contains(value.key) { keys.append(value.key) }
            let width = values.map(\.locale.count).max() ?? 0
            return keys.map { key in
                Self.quoted(key) + "\n" + values.filter { $0.key == key }.map { value in
                    // A plural value: its format, then each form under it (`count.one  "%d item"`).
                    let formWidth = value.forms.map { $0.variable.count + $0.category.count + 1 }.max() ?? 0
                    return (["  " + value.locale.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + Self.quoted(value.text)]
                        + value.forms.map { form in
                            String(repeating: " ", count: width + 4)
                                + (form.variable + "." + form.category).padding(toLength: formWidth, withPad: " ", startingAt: 0)
                                + "  " + Self.quoted(form.text)
                        }).joined(separator: "\n")
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
                throw Diagnostic.error(.outputFailed(reason: error.localizedDescription), at: SourceLocation(file: path))
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
