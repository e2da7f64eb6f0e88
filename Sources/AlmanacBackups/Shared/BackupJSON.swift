public import AlmanacCore
import AlmanacICU
import Foundation

/// Backups as canonical JSON: keys sorted, two-space indent, `": "` between key and value,
/// text as is (not \u-escaped), a final newline — the bytes Python's
/// `json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False)` writes, so a backup read and
/// written again is the same file, and any tool can produce one.
public enum BackupJSON {
    /// The same value with every object's keys in canonical (code point) order.
    public static func canonical(_ value: JSONValue) -> JSONValue { value.sortingKeys() }

    public static func text(_ value: JSONValue) -> String {
        String(decoding: bytes(value), as: UTF8.self)
    }

    /// The text's UTF-8, as `JSONWriter`'s Python layout writes it, and a final newline.
    public static func bytes(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter(layout: .python, capacity: 16 * 1024)
        writer.value(value)
        writer.raw("\n")
        return writer.take()
    }
}

