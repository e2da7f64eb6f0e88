public import AlmanacCore
import AlmanacICU
import Foundation

/// Finds the clock for a zone name: the file's own definition first (used as given, read by the
/// format that wrote it), then ICU for IANA ids, Windows names and vendor-prefixed ids.
public final class ZoneTable: @unchecked Sendable {
    private let definitions: [String: TimeZoneDefinition]
    private let reader: (any TimeZoneDefinitionReader)?
    /// The clocks found so far (nil for a name nothing knows), the notes their definitions gave,
    /// and the names nothing knows.
    private struct Found {
        var clocks: [String: (any WallClock)?] = [:]
        var notes: [Diagnostic] = []
        var unknown: Set<String> = []
    }
    private let found = Locked(Found())

    /// The names looked up that are neither defined nor known.
    public var unknown: Set<String> { found.withLock { $0.unknown } }

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
    public var notes: [Diagnostic] { found.withLock { $0.notes } }

    public func clock(_ name: String) -> (any WallClock)? {
        found.withLock { found in
            if let cached = found.clocks[name] { return cached }
            var clock: (any WallClock)?
            if let definition = definitions[name] {
                do throws(Diagnostic) {
                    guard let reader else { throw Diagnostic.note(.timezoneDefinitionUnread(zone: name)) }
                    let defined = try DefinedWallClock(name: name, observances: reader.observances(of: definition))
                    clock = defined
                    found.notes += defined.notes
                } catch {
                    // Not fatal to the calendar: its times are read in the zone the name resolves to.
                    found.notes.append(error.severity == .error ? Diagnostic(.warning, error.message, at: error.location) : error)
                }
            }
            if clock == nil {
                if let resolved = TimeZoneID.resolve(name) {
                    clock = ICUWallClock.shared(resolved.zone)
                } else {
                    found.unknown.insert(name)
                }
            }
            found.clocks[name] = clock
            return clock
        }
    }
}
