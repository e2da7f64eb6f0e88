import AlmanacCore
import AlmanacICU

/// Parsing of argument values shared by commands, with usage errors that say what is expected.
enum Arguments {
    static func locale(_ text: String) throws(CommandFailure) -> LocaleID {
        do { return try LocaleID(text) } catch { throw .usage(.error("locale.unknown", text)) }
    }

    static func timeZone(_ text: String) throws(CommandFailure) -> TimeZoneID {
        guard let zone = TimeZoneID.resolve(text)?.zone else { throw .usage(.error("timezone.unknown", text)) }
        return zone
    }

    static func format(_ name: String) throws(CommandFailure) -> any Codec {
        do { return try Session.current!.registry.require(name) } catch { throw .usage(error) }
    }

    static func date(_ text: String) throws(CommandFailure) -> CivilDate {
        do { return try CivilDate(iso: text) } catch { throw CommandFailure(.inputError, [.error("date.invalid", text)]) }
    }
}

/// Reads, identifies and decodes one input.
enum Loader {
    struct Loaded {
        let codec: any Codec
        let basis: FormatRegistry.Basis
        let decoded: Decoded
    }

    /// Files are not read whole here: the probe reads their start, and codecs that stream read
    /// the rest in chunks. Standard input can be read only once, so it is read whole.
    static func load(_ path: String, codec forced: (any Codec)?, context: CodecContext, session: Session) throws(Diagnostic) -> Loaded {
        let opened = try open(path, codec: forced, session: session)
        var decoded = try opened.codec.decode(opened.input, context: context)
        decoded.diagnostics = decoded.diagnostics.map { $0.inFile(path) }
        return Loaded(codec: opened.codec, basis: opened.basis, decoded: decoded)
    }

    /// The input and the codec that reads it, before anything past the probe is read.
    static func open(_ path: String, codec forced: (any Codec)?, session: Session) throws(Diagnostic)
        -> (codec: any Codec, basis: FormatRegistry.Basis, input: CodecInput)
    {
        let input: CodecInput
        let prefix: [UInt8]
        if path == "-" {
            let bytes = session.standardInput()
            input = CodecInput(bytes: bytes, fileName: nil)
            prefix = Array(bytes.prefix(Probe.prefixLength))
        } else {
            prefix = try FileChunks.prefix(path, count: Probe.prefixLength)
            input = CodecInput(contentsOf: path)
        }
        let name = path == "-" ? nil : path
        let codec: any Codec
        let basis: FormatRegistry.Basis
        if let forced {
            codec = forced
            basis = .explicit
        } else {
            let identified = try session.registry.identify(Probe(prefix: prefix, fileName: name))
            codec = identified.codec
            basis = identified.basis
        }
        guard codec.format.canRead else { throw Diagnostic.error("format.cannot-read", codec.format.id) }
        return (codec, basis, input)
    }
}
