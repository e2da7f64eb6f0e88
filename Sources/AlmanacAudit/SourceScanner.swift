public import AlmanacCore
import Foundation

/// Finds the localization keys Swift sources use: `NSLocalizedString("key", …)`,
/// `String(localized: "key")`, `LocalizedStringKey("key")`, `LocalizedStringResource("key")`,
/// `Text("key")` and SwiftGen-style `tr("Table", "key")`. Keys built with interpolation are
/// skipped (they cannot be checked statically).
public enum SourceScanner {
    static let calls = ["NSLocalizedString(", "String(localized:", "LocalizedStringKey(", "LocalizedStringResource(", "Text(",
                        "localizedString(forKey:", ".tr("]

    /// Every key with the first place it is used, as a literal or, when `accessors` maps the full
    /// names of generated accessors (`L10n.Memory.Rate.again`) to keys, through an accessor. Each
    /// file is read once.
    public static func keys(under paths: [String], accessors: [String: String] = [:]) -> [String: SourceLocation] {
        let roots = Set(accessors.keys.compactMap { $0.split(separator: ".").first.map(String.init) })
        var result: [String: SourceLocation] = [:]
        for path in paths {
            for file in swiftFiles(path) {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                let text = String(decoding: data, as: UTF8.self)
                for (key, line, column) in keys(in: text) + accessorKeys(in: text, accessors: accessors, roots: roots) where result[key] == nil {
                    result[key] = SourceLocation(file: file, line: line, column: column)
                }
            }
        }
        return result
    }

    /// Keys used through generated accessors in one file's text: a reference counts wherever the
    /// accessor's name is written out (the longest name that is an accessor wins).
    static func accessorKeys(in text: String, accessors: [String: String], roots: Set<String>) -> [(String, Int, Int)] {
        guard !roots.isEmpty else { return [] }
        var result: [(String, Int, Int)] = []
        for (lineIndex, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("//") { continue }
            for root in roots {
                var searchStart = line.startIndex
                while let range = line.range(of: root + ".", range: searchStart..<line.endIndex) {
                    searchStart = range.upperBound
                    if range.lowerBound > line.startIndex, isIdentifier(line[line.index(before: range.lowerBound)]) { continue }
                    // The written chain, without backticks: L10n.Settings.`default` → L10n.Settings.default.
                    let chain = line[range.lowerBound...].prefix { isIdentifier($0) || $0 == "." || $0 == "`" }.filter { $0 != "`" }
                    var parts = chain.split(separator: ".", omittingEmptySubsequences: false)
                    while parts.count > 1 {
                        if let key = accessors[parts.joined(separator: ".")] {
                            result.append((key, lineIndex + 1, line.distance(from: line.startIndex, to: range.lowerBound) + 1))
                            break
                        }
                        parts.removeLast()
                    }
                }
            }
        }
        return result
    }

    static func isIdentifier(_ character: Character) -> Bool { character.isLetter || character.isNumber || character == "_" }

    static func swiftFiles(_ path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return path.hasSuffix(".swift") ? [path] : [] }
        let files = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []).filter {
            $0.hasSuffix(".swift") && !$0.contains(".build/") && !$0.hasPrefix(".build")
        }
        return files.sorted().map { (path.hasSuffix("/") ? path : path + "/") + $0 }
    }

    /// Keys in one file's text, with their line and column.
    static func keys(in text: String) -> [(String, Int, Int)] {
        var result: [(String, Int, Int)] = []
        for (lineIndex, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("//") { continue }
            for call in calls {
                var searchStart = line.startIndex
                while let range = line.range(of: call, range: searchStart..<line.endIndex) {
                    searchStart = range.upperBound
                    var rest = line[range.upperBound...].drop { $0 == " " }
                    // tr("Table", "key"): the key is the second literal.
                    if call == ".tr(", let first = literal(rest) {
                        rest = rest.dropFirst(first.consumed).drop { $0 == " " || $0 == "," }
                    }
                    guard let found = literal(rest), !found.text.contains("\\(") else { continue }
                    let column = line.distance(from: line.startIndex, to: rest.startIndex) + 1
                    result.append((found.text, lineIndex + 1, column))
                }
            }
        }
        return result
    }

    /// A string literal at the start of `text`: its value (escapes undone) and its length.
    static func literal(_ text: Substring) -> (text: String, consumed: Int)? {
        guard text.first == "\"", !text.hasPrefix("\"\"\"") else { return nil }
        var value = ""
        var index = text.index(after: text.startIndex)
        var consumed = 1
        while index < text.endIndex {
            let character = text[index]
            consumed += 1
            if character == "\"" { return (value, consumed) }
            if character == "\\" {
                let next = text.index(after: index)
                guard next < text.endIndex else { return nil }
                switch text[next] {
                case "n": value.append("\n")
                case "t": value.append("\t")
                case "(": value += "\\("
                default: value.append(text[next])
                }
                index = text.index(after: next)
                consumed += 1
                continue
            }
            value.append(character)
            index = text.index(after: index)
        }
        return nil
    }
}
