public import AlmanacCore
import Foundation

/// Restoring into an existing backup without losing anything. Records are matched by id, then —
/// for a backup that came from somewhere else, whose ids differ — by what identifies them in the
/// app (a day's name, date and type; an account's name and kind). A matched record is replaced
/// only when the incoming one was updated later (`updatedAt`); one without a time stamp is older
/// than one with, and a tie keeps what is there. Records only one side has are kept, references
/// to a record matched by key follow it to the existing id, and the summary says what changed and
/// by which rule records matched.
public enum BackupMerge {
    public struct Summary: Hashable, Sendable {
        public var added = 0
        public var updated = 0
        /// Records the existing backup had newer than the incoming one (or the incoming one has
        /// no `updatedAt` and the existing one has): left as they were.
        public var keptNewer = 0
        /// Records that differ with neither newer (the same `updatedAt`, or neither has one): left as they were.
        public var keptTied = 0
        public var unchanged = 0
        /// Records only the existing backup had.
        public var keptExisting = 0
        public var matchedByID = 0
        /// Records matched by their natural key, per collection: its path, the key's fields and the names matched.
        public var matchedByKey: [KeyMatch] = []
    }

    public struct KeyMatch: Hashable, Sendable {
        public var collection: String
        public var key: [String]
        public var names: [String]
    }

    /// A list of records with ids: what identifies a record when ids differ, which of its fields
    /// refer to records of another list, and the list nested in each record. Each app lists its
    /// own (`AppBackup.mergeCollections`), referenced lists first.
    struct Collection: Sendable {
        var name: String
        var key: [String]
        var references: [String: String] = [:]
        var nested: [Collection] = []
    }

    public static func merge(existing: BackupDocument, incoming: BackupDocument) throws(Diagnostic) -> (BackupDocument, Summary) {
        guard existing.format == incoming.format, let collections = BackupApps.app(incoming.format)?.mergeCollections,
              let old = existing.content.object, let new = incoming.content.object else {
            throw Diagnostic.error(.backupWrongFormat(format: existing.format, expected: incoming.format))
        }
        var merger = Merger()
        var result = new
        for collection in collections {
            let merged = merger.merge(member(old, collection.name)?.array ?? [], member(new, collection.name)?.array ?? [],
                                      collection, path: "/" + collection.name)
            set(&result, collection.name, .array(merged))
        }
        var document = incoming
        document.content = .object(result)
        document.recordCount = BackupRecords.count(format: document.format, content: document.content)
        return (document, merger.summary)
    }

    static func member(_ object: [(String, JSONValue)], _ key: String) -> JSONValue? { object.first { $0.0 == key }?.1 }

    static func set(_ object: inout [(String, JSONValue)], _ key: String, _ value: JSONValue) {
        if let index = object.firstIndex(where: { $0.0 == key }) { object[index].1 = value } else { object.append((key, value)) }
    }

    static func id(_ record: JSONValue) -> String? { record.object.flatMap { member($0, "id")?.string } }

    static func updated(_ record: JSONValue) -> Date? {
        record.object.flatMap { member($0, "updatedAt")?.string }.flatMap(BackupReader.parseTimestamp)
    }

    /// What the incoming record's key fields say, or nil when one is missing.
    static func key(_ record: JSONValue, _ fields: [String]) -> JSONValue? {
        guard let object = record.object else { return nil }
        var values: [JSONValue] = []
        for field in fields {
            guard let value = member(object, field), value != .null else { return nil }
            values.append(value)
        }
        return .array(values)
    }

    /// Whether the incoming record replaces the existing one it matched.
    enum Verdict { case unchanged, update, keepNewer, keepTied }

    static func verdict(existing: JSONValue, incoming: JSONValue) -> Verdict {
        if existing == incoming { return .unchanged }
        switch (updated(incoming), updated(existing)) {
        case (let new?, let old?): return new > old ? .update : new < old ? .keepNewer : .keepTied
        case (.some, nil): return .update
        case (nil, .some): return .keepNewer
        case (nil, nil): return .keepTied
        }
    }

    struct Merger {
        var summary = Summary()
        /// Incoming ids that matched an existing record by key, per collection: the existing id.
        var renamed: [String: [String: String]] = [:]

        mutating func merge(_ old: [JSONValue], _ new: [JSONValue], _ collection: Collection, path: String) -> [JSONValue] {
            var result = old
            var byID: [String: Int] = [:]
            for (position, record) in old.enumerated() { if let id = id(record) { byID[id] = position } }
            // Natural keys that identify one existing record (a key two records share identifies neither).
            var byKey: [JSONValue: Int] = [:]
            var shared = Set<JSONValue>()
            for (position, record) in old.enumerated() {
                guard let key = key(record, collection.key) else { continue }
                if byKey.updateValue(position, forKey: key) != nil { shared.insert(key) }
            }
            for key in shared { byKey[key] = nil }
            let incomingIDs = Set(new.compactMap(id))
            var matched = Set<Int>()
            var keyMatches: [String] = []
            for var record in new {
                record = remap(record, collection)
                var position = id(record).flatMap { byID[$0] }
                if position != nil {
                    summary.matchedByID += 1
                } else if let key = key(record, collection.key), let found = byKey[key], !matched.contains(found),
                          id(old[found]).map({ !incomingIDs.contains($0) }) ?? true {
                    // The same record under another id: it keeps the existing id, and what refers to it follows.
                    position = found
                    if let from = id(record), let to = id(old[found]) {
                        renamed[collection.name, default: [:]][from] = to
                        record = replacing(record, "id", with: .string(to))
                    }
                    keyMatches.append(name(record))
                }
                guard let position else {
                    if let id = id(record) { byID[id] = result.count }
                    result.append(record)
                    summary.added += 1
                    continue
                }
                matched.insert(position)
                let existing = result[position]
                var children: [(String, JSONValue)] = []
                for child in collection.nested {
                    // Children merge on their own (reminders in a list, items in a library).
                    let merged = merge(field(existing, child.name), field(record, child.name), child,
                                       path: path + "/" + child.name)
                    children.append((child.name, .array(merged)))
                }
                let incoming = children.reduce(record) { replacing($0, $1.0, with: $1.1) }
                switch verdict(existing: existing, incoming: incoming) {
                case .unchanged:
                    summary.unchanged += 1
                case .update:
                    result[position] = incoming
                    summary.updated += 1
                case .keepNewer, .keepTied:
                    let kept = children.reduce(existing) { replacing($0, $1.0, with: $1.1) }
                    let fieldsDiffer = without(kept, collection) != without(incoming, collection)
                    if fieldsDiffer {
                        if verdict(existing: existing, incoming: incoming) == .keepNewer { summary.keptNewer += 1 } else { summary.keptTied += 1 }
                    } else {
                        summary.unchanged += 1
                    }
                    result[position] = kept
                }
            }
            summary.keptExisting += old.indices.filter { !matched.contains($0) }.count
            if !keyMatches.isEmpty {
                summary.matchedByKey.append(KeyMatch(collection: path, key: collection.key, names: keyMatches))
            }
            return result
        }

        /// The record with its references to renamed records pointing at the existing ids.
        func remap(_ record: JSONValue, _ collection: Collection) -> JSONValue {
            var record = record
            for (field, target) in collection.references {
                guard let renames = renamed[target], let value = record.object.flatMap({ member($0, field) }) else { continue }
                switch value {
                case .string(let id): if let to = renames[id] { record = replacing(record, field, with: .string(to)) }
                case .array(let ids): record = replacing(record, field, with: .array(ids.map { $0.string.flatMap { renames[$0] }.map(JSONValue.string) ?? $0 }))
                default: break
                }
            }
            return record
        }

        func field(_ record: JSONValue, _ name: String) -> [JSONValue] { record.object.flatMap { member($0, name)?.array } ?? [] }

        func replacing(_ record: JSONValue, _ name: String, with value: JSONValue) -> JSONValue {
            guard var object = record.object else { return record }
            set(&object, name, value)
            return .object(object)
        }

        /// The record without its nested lists: whether its own fields differ.
        func without(_ record: JSONValue, _ collection: Collection) -> JSONValue {
            guard let object = record.object else { return record }
            return .object(object.filter { field in !collection.nested.contains { $0.name == field.0 } })
        }

        func name(_ record: JSONValue) -> String {
            let object = record.object ?? []
            return ["name", "title", "date", "id"].lazy.compactMap { member(object, $0)?.string }.first ?? "?"
        }
    }
}
