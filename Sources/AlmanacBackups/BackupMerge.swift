public import AlmanacCore
import Foundation

/// Restoring into an existing backup without losing anything: records are matched by id, the one
/// updated last wins (by `updatedAt`), records only one side has are kept, and a summary says
/// what changed.
public enum BackupMerge {
    public struct Summary: Hashable, Sendable {
        public var added = 0
        public var updated = 0
        /// Records the existing backup had newer than the incoming one: left as they were.
        public var keptNewer = 0
        public var unchanged = 0
        /// Records only the existing backup had.
        public var keptExisting = 0
    }

    /// The lists of records with ids, per format, and the lists nested inside their records.
    static let collections: [String: [(name: String, nested: String?)]] = [
        RetireTimeBackup.format: [("categories", nil), ("days", nil)],
        JellySaveBackup.format: [("accounts", nil), ("balanceChanges", nil), ("snapshots", nil), ("goals", nil)],
        ZhiXiBackup.format: [("libraries", "items"), ("studyTasks", nil), ("reviewTasks", nil), ("studyRecords", nil)],
        RemindersBackup.format: [("lists", "reminders")],
    ]

    public static func merge(existing: BackupDocument, incoming: BackupDocument) throws(Diagnostic) -> (BackupDocument, Summary) {
        guard existing.format == incoming.format, let collections = collections[incoming.format],
              let old = existing.content.object, let new = incoming.content.object else {
            throw Diagnostic.error("backup.wrong-format", existing.format, incoming.format)
        }
        var summary = Summary()
        var result = new
        for (name, nested) in collections {
            let merged = mergeRecords(member(old, name)?.array ?? [], member(new, name)?.array ?? [], nested: nested, summary: &summary)
            set(&result, name, .array(merged))
        }
        var document = incoming
        document.content = .object(result)
        return (document, summary)
    }

    static func member(_ object: [(String, JSONValue)], _ key: String) -> JSONValue? { object.first { $0.0 == key }?.1 }

    static func set(_ object: inout [(String, JSONValue)], _ key: String, _ value: JSONValue) {
        if let index = object.firstIndex(where: { $0.0 == key }) { object[index].1 = value } else { object.append((key, value)) }
    }

    static func id(_ record: JSONValue) -> String? { record.object.flatMap { member($0, "id")?.string } }

    static func updated(_ record: JSONValue) -> Date? {
        record.object.flatMap { member($0, "updatedAt")?.string }.flatMap(BackupReader.parseTimestamp)
    }

    static func mergeRecords(_ old: [JSONValue], _ new: [JSONValue], nested: String?, summary: inout Summary) -> [JSONValue] {
        var result = old
        var index: [String: Int] = [:]
        for (position, record) in old.enumerated() { if let id = id(record) { index[id] = position } }
        var seen = Set<String>()
        for record in new {
            guard let id = id(record) else {
                result.append(record)
                summary.added += 1
                continue
            }
            seen.insert(id)
            guard let position = index[id] else {
                index[id] = result.count
                result.append(record)
                summary.added += 1
                continue
            }
            var incoming = record
            if let nested, var fields = record.object, let oldChildren = old[position].object.flatMap({ member($0, nested)?.array }) {
                // Children merge on their own (reminders in a list, items in a library).
                set(&fields, nested, .array(mergeRecords(oldChildren, member(fields, nested)?.array ?? [], nested: nil, summary: &summary)))
                incoming = .object(fields)
            }
            let existing = result[position]
            if existing == incoming {
                summary.unchanged += 1
            } else if let newer = updated(incoming), let older = updated(existing), older > newer {
                summary.keptNewer += 1
            } else {
                result[position] = incoming
                summary.updated += 1
            }
        }
        summary.keptExisting += old.compactMap(id).filter { !seen.contains($0) }.count
        return result
    }
}
