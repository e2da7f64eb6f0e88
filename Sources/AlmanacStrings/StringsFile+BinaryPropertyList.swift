import AlmanacBytes
import Foundation

/// Compiled `.strings` files: Xcode writes a target's `.strings` into its bundle as a binary
/// property list (`bplist00…`), one dictionary from key to text, and frameworks vendored from a
/// bundle (Sparkle's, for one) ship them so. Read with Foundation's `PropertyListSerialization`,
/// which reads binary property lists on Linux too.
extension StringsFile {
    /// What a binary property list starts with.
    public static let binaryPropertyListMagic = Array("bplist00".utf8)

    public static func isBinaryPropertyList(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: binaryPropertyListMagic)
    }

    /// The entries of a compiled table. A binary dictionary keeps no order a reader can see, so
    /// the keys come in Unicode order (the same every time); there are no comments to keep. A
    /// value that is not text (a plural table that belongs in a `.stringsdict`) is skipped and said.
    public static func parseBinary(_ bytes: [UInt8], fileName: String?) throws(Diagnostic) -> Parsed {
        let value: Any
        do {
            value = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            let error = error as NSError
            let reason = error.userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
            throw Diagnostic.error(.stringsBinaryUnreadable(reason: reason), at: SourceLocation(file: fileName))
        }
        guard let table = value as? [String: Any] else {
            throw Diagnostic.error(.stringsBinaryNotTable(type: Self.kind(of: value)), at: SourceLocation(file: fileName))
        }
        var parsed = Parsed(entries: [], trailer: "", encoding: .utf8, diagnostics: [])
        parsed.entries.reserveCapacity(table.count)
        for key in table.keys.sorted(by: { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }) {
            guard let text = table[key] as? String else {
                parsed.diagnostics.append(.warning(.stringsBinaryNotString(type: Self.kind(of: table[key] as Any)), at: SourceLocation(file: fileName, keyPath: key)))
                continue
            }
            // No layout to keep: a compiled table is written back as Xcode writes a new one.
            parsed.entries.append(Entry(key: key, value: text, comment: nil, line: 0, column: 0, before: "", commentText: nil, text: ""))
        }
        parsed.trailer = parsed.entries.isEmpty ? "" : "\n"
        return parsed
    }

    /// Whether the bytes are an XML property list (`<?xml …><plist>`), which Apple's `.strings`
    /// reader accepts beside the text form: some translation platforms export tables so.
    public static func isXMLPropertyList(_ bytes: [UInt8]) -> Bool {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, bytes[start] == ASCII.space || bytes[start] == ASCII.lineFeed || bytes[start] == ASCII.tab
                || bytes[start] == ASCII.carriageReturn { start += 1 }
        let head = bytes[start..<min(bytes.count, start + 256)]
        return head.starts(with: Array("<?xml".utf8)) && head.contains(UInt8(ascii: "<")) && String(decoding: head, as: UTF8.self).contains("plist")
            || head.starts(with: Array("<plist".utf8)) || head.starts(with: Array("<!DOCTYPE plist".utf8))
    }

    /// The entries of a table written as an XML property list: a dictionary from key to text, in
    /// document order, each at its line. A value that is not text is skipped and said.
    public static func parseXMLPropertyList(_ bytes: [UInt8], fileName: String?) throws(Diagnostic) -> Parsed {
        guard let members = try StringsdictFile.propertyList(bytes, fileName: fileName).dictionary else {
            throw Diagnostic.error(.stringsBinaryNotTable(type: "property list"), at: SourceLocation(file: fileName))
        }
        var parsed = Parsed(entries: [], trailer: "", encoding: .utf8, diagnostics: [])
        let lines = Dictionary(StringsdictFile.topKeys(bytes), uniquingKeysWith: { first, _ in first })
        for (key, value) in members {
            guard let text = value.string else {
                parsed.diagnostics.append(.warning(.stringsBinaryNotString(type: "property list value"), at: SourceLocation(file: fileName, line: lines[key], keyPath: key)))
                continue
            }
            parsed.entries.append(Entry(key: key, value: text, comment: nil, line: lines[key] ?? 0, column: 0, before: "", commentText: nil, text: ""))
        }
        parsed.trailer = parsed.entries.isEmpty ? "" : "\n"
        return parsed
    }

    /// A compiled table of the catalog's entries in one locale: the same dictionary Xcode's build
    /// writes into a bundle.
    public static func binaryBytes(_ entries: [(key: String, value: String)]) throws(Diagnostic) -> [UInt8] {
        var table: [String: String] = [:]
        for (key, value) in entries where table[key] == nil { table[key] = value }
        do {
            return [UInt8](try PropertyListSerialization.data(fromPropertyList: table, format: .binary, options: 0))
        } catch {
            throw Diagnostic.error(.outputFailed(reason: (error as NSError).localizedDescription))
        }
    }

    private static func kind(of value: Any) -> String {
        switch value {
        case is String: "string"
        case is [String: Any]: "dictionary"
        case is [Any]: "array"
        case is Data: "data"
        case is Date: "date"
        case is Bool, is NSNumber: "number"
        default: "value"
        }
    }
}
