public import AlmanacCore
import AlmanacICU
import Foundation

/// Finds the clock for a zone name: the file's own definition first (used as given, read by the
/// format that wrote it), then ICU for IANA ids, Windows names and vendor-prefixed ids.
public final class ZoneTable: @unchecked Sendable {
    private var clocks: [String: (any WallClock)?] = [:]
    private let definitions: [String: TimeZoneDefinition]
    private let reader: (any TimeZoneDefinitionReader)?
    private let lock = NSLock()
    public private(set) var unknown: Set<String> = []

    /// `reader` reads the definitions' observances; without one, a defined zone is looked up by
    /// its name as if the file had not defined it (with a note saying so).
    public init(definitions: [TimeZoneDefinition], reader: (any TimeZoneDefinitionReader)?) {
        var table: [String: TimeZoneDefinition] = [:]
        for definition in definitions where table[definition.id] == nil { table[definition.id] = definition }
        self.definitions = table
        self.reader = reader
    }

    /// What the definitions read so far had that no time zone has (rules that were ignored), and
    /// definitions no reader could read.
    public var notes: [Diagnostic] {
        lock.lock()
        defer { lock.unlock() }
        return collectedNotes
    }
    private var collectedNotes: [Diagnostic] = []

    public func clock(_ name: String) -> (any WallClock)? {
        lock.lock()
        defer { lock.unlock() }
        if let cached = clocks[name] { return cached }
        var clock: (any WallClock)?
        if let definition = definitions[name] {
            do throws(Diagnostic) {
                guard let reader else { throw Diagnostic.note(.timezoneDefinitionUnread(zone: name)) }
                let defined = try DefinedWallClock(name: name, observances: reader.observances(of: definition))
                clock = defined
                collectedNotes += defined.notes
            } catch {
                // Not fatal to the calendar: its times are read in the zone the name resolves to.
                collectedNotes.append(error.severity == .error ? Diagnostic(.warning, error.message, at: error.location) : error)
            }
        }
        if clock == nil {
            if let resolved = TimeZoneID.resolve(name) {
                clock = ICUWallClock.shared(resolved.zone)
            } else {
                unknown.insert(name)
            }
        }
        clocks[name] = clock
        return clock
    }
}
