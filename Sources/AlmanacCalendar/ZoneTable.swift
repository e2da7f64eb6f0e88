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
    /// Definitions of zones ICU knows that begin late (see `BackdatedClock`), to name the ones used before their start.
    private let backdated = Locked<[BackdatedClock]>([])

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
    public var notes: [Diagnostic] {
        found.withLock { $0.notes } + backdated.withLock { clocks in
            clocks.filter(\.used).map { .note(.timezoneDefinitionBackdated(zone: $0.name, date: $0.defined.firstOnset.date.description)) }
        }
    }

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
                    if let resolved = TimeZoneID.resolve(name) {
                        let backdatedClock = BackdatedClock(defined: defined, known: ICUWallClock.shared(resolved.zone))
                        backdated.withLock { $0.append(backdatedClock) }
                        clock = backdatedClock
                    }
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

/// A file's definition of a zone ICU knows by name, read as the file gives it from its first onset
/// on, and as ICU's zone before it. Apple iCal and others wrote definitions of one recent year (two
/// observances from 2006, say): RFC 5545 reads every earlier time at the earliest TZOFFSETFROM,
/// which for Australia/Sydney's was +00:00, so an event of 2003 at 11:15 in Sydney became 11:15
/// UTC. python-icalendar, Google and Apple read such a zone by its name; so does this clock, for
/// the years the definition does not describe, and says so in a note when it did.
final class BackdatedClock: WallClock, @unchecked Sendable {
    let defined: DefinedWallClock
    let known: any WallClock
    private let usedBefore = Locked(false)

    init(defined: DefinedWallClock, known: any WallClock) {
        self.defined = defined
        self.known = known
    }

    var name: String { defined.name }
    var used: Bool { usedBefore.withLock { $0 } }

    func instant(for time: CivilDateTime) -> Date {
        guard time < defined.firstOnset else { return defined.instant(for: time) }
        usedBefore.withLock { $0 = true }
        return known.instant(for: time)
    }

    func offset(at instant: Date) -> Int {
        guard instant < defined.firstOnsetInstant else { return defined.offset(at: instant) }
        usedBefore.withLock { $0 = true }
        return known.offset(at: instant)
    }
}
