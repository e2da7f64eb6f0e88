import AlmanacCore
import AlmanacICU

/// Parsing of argument values shared by commands, with usage errors that say what is expected.
enum Arguments {
    static func locale(_ text: String) throws(CommandFailure) -> LocaleID {
        do { return try LocaleID(text) } catch { throw .usage(.error(.localeUnknown(tag: text))) }
    }

    static func timeZone(_ text: String) throws(CommandFailure) -> TimeZoneID {
        guard let zone = TimeZoneID.resolve(text)?.zone else { throw .usage(.error(.timezoneUnknown(text: text))) }
        return zone
    }

    static func format(_ name: String) throws(CommandFailure) -> any Codec {
        do { return try Session.current!.registry.require(name) } catch { throw .usage(error) }
    }

    static func date(_ text: String) throws(CommandFailure) -> CivilDate {
        do { return try CivilDate(iso: text) } catch { throw CommandFailure(.inputError, [.error(.dateInvalid(text: text))]) }
    }
}

extension Session {
    /// A path as a conversion input: `-` is standard input, read whole (it can be read only once).
    func input(_ path: String) -> ConversionInput {
        path == "-" ? .standardInput(standardInput()) : .file(path)
    }
}
