public import AlmanacICU
import Foundation

/// A reader and/or writer of one format, described by data (`format`) so the registry, the CLI's
/// `formats` command, the docs and the conformance tests all read the same description.
///
/// Requirements every codec meets (checked for all registered codecs by `CodecConformance`):
/// - `identify` looks only at the probe, is fast, and never throws or crashes;
/// - `decode` of bad input throws a `Diagnostic` with a location (line/column or key path) and
///   never crashes, whatever the bytes; problems it can recover from come back as warnings;
/// - `encode` of what `decode` produced decodes to the same document (a round trip), and what the
///   format cannot hold is reported as a warning, not dropped silently.
public protocol Codec: Sendable {
    var format: FormatDescription { get }

    /// Whether the bytes look like this format.
    func identify(_ probe: Probe) -> Identification

    /// Reads a whole document.
    func decode(_ input: CodecInput, context: CodecContext) throws(Diagnostic) -> Decoded

    /// Writes a document of the model this codec writes.
    func encode(_ document: Document, context: CodecContext) throws(Diagnostic) -> Encoded
}

extension Codec {
    public func decode(_ input: CodecInput, context: CodecContext) throws(Diagnostic) -> Decoded {
        throw Diagnostic.error(.formatCannotRead(format: format.id))
    }

    public func encode(_ document: Document, context: CodecContext) throws(Diagnostic) -> Encoded {
        throw Diagnostic.error(.formatCannotWrite(format: format.id))
    }
}

/// An answer to "is this your format?" (GDAL's Identify): yes, no, or can't tell from the prefix.
public enum Identification: String, Hashable, Sendable, Codable {
    case yes, no, cannotTell
}

/// What `identify` may look at: the first bytes of a file and its name.
public struct Probe: Sendable {
    public static let prefixLength = 64 * 1024

    public let prefix: [UInt8]
    public let fileName: String?
    /// The prefix as text: without a BOM, decoded as UTF-8 or UTF-16 when it is one of those.
    /// Decoded once here: every registered codec may look at it while a file is identified, and
    /// decoding it per look cost more than the rest of identifying a small file.
    public let text: String
    /// Whether `text` is the prefix as it stands: UTF-8 without a byte order mark, every byte
    /// valid (a file read whole with this true need not be checked again by its reader).
    public let textIsPrefix: Bool

    public init(prefix: some Collection<UInt8>, fileName: String? = nil) {
        let bytes = Array(prefix.prefix(Probe.prefixLength))
        self.prefix = bytes
        self.fileName = fileName
        (text, textIsPrefix) = Probe.decode(bytes)
    }

    private static func decode(_ prefix: [UInt8]) -> (String, Bool) {
        let detection = CharsetDetector.detect(prefix, isComplete: false)
        let body = prefix.dropFirst(detection.byteOrderMarkLength)
        if detection.charset == .utf16LE || detection.charset == .utf16BE {
            return ((try? detection.charset.decode(body.prefix(body.count & ~1))) ?? "", false)
        }
        // Said to be UTF-8 by the detector (readers ask it the same question of the same bytes),
        // without a BOM or a zero byte (with which a reader may ask about other bytes), and valid.
        let hasZero = prefix.withByteView(ByteScan.containsZero)
        if detection.charset == .utf8, detection.byteOrderMarkLength == 0, !hasZero,
           let text = String(validating: prefix, as: UTF8.self) {
            return (text, true)
        }
        return (String(decoding: body, as: UTF8.self), false)
    }

    /// The text with leading whitespace removed, for "starts with" checks.
    public var trimmedText: Substring {
        text.drop { $0.isWhitespace }
    }
}

/// A file to decode: bytes already in memory, or a file read on demand (in chunks by codecs that
/// stream, so a file larger than memory can still be converted).
public struct CodecInput: Sendable {
    enum Source: Sendable {
        case bytes([UInt8])
        case file(String)
    }

    let source: Source
    /// The name diagnostics use (a path, or nil for standard input).
    public let fileName: String?
    /// The bytes are known to be valid UTF-8 without a byte order mark (found while the format
    /// was identified, for a file read whole): a reader need not detect the charset or check the
    /// bytes again.
    public internal(set) var isValidUTF8 = false

    public init(bytes: [UInt8], fileName: String? = nil) {
        self.source = .bytes(bytes)
        self.fileName = fileName
    }

    /// A file that is read when the codec asks for it.
    public init(contentsOf path: String, fileName: String? = nil) {
        self.source = .file(path)
        self.fileName = fileName ?? path
    }

    /// The input's size in bytes, when it is known without reading it.
    public var sizeHint: Int? {
        switch source {
        case .bytes(let bytes): return bytes.count
        case .file(let path): return FileChunks.size(of: path)
        }
    }

    /// The largest input read whole (codecs that stream, like CSV and iCalendar, read any size in
    /// bounded memory): 1 GiB, or `ALMANAC_MAX_INPUT_BYTES`. A 2 GB file of one `.strings` line is
    /// refused with a message instead of taking the machine's memory.
    public static let maxWholeBytes: Int = {
        if let value = ProcessInfo.processInfo.environment["ALMANAC_MAX_INPUT_BYTES"].flatMap(Int.init), value > 0 { return value }
        return 1 << 30
    }()

    /// The whole input.
    public func readAll() throws(Diagnostic) -> [UInt8] {
        if let size = sizeHint, size > Self.maxWholeBytes {
            throw Diagnostic.error(.inputTooLarge(size: String(size), limit: String(Self.maxWholeBytes)), at: SourceLocation(file: fileName))
        }
        switch source {
        case .bytes(let bytes): return bytes
        case .file(let path):
            var all: [UInt8] = []
            try FileChunks.read(path, chunkSize: 1 << 20) { (chunk) throws(Diagnostic) in all.append(contentsOf: chunk) }
            return all
        }
    }

    /// The input in pieces of about `chunkSize` bytes (in memory: one piece), in order.
    /// The input for reading at offsets: a regular file is opened, not read; anything else is
    /// read whole (within `maxWholeBytes`).
    public func randomAccess() throws(Diagnostic) -> RandomAccessInput {
        switch source {
        case .bytes(let bytes): return RandomAccessInput(bytes: bytes)
        case .file(let path):
            if FileChunks.size(of: path) != nil { return try RandomAccessInput(path: path) }
            return RandomAccessInput(bytes: try readAll())
        }
    }

    public func readChunks(chunkSize: Int = 1 << 20, _ body: ([UInt8]) throws(Diagnostic) -> Void) throws(Diagnostic) {
        switch source {
        case .bytes(let bytes): try body(bytes)
        case .file(let path): try FileChunks.read(path, chunkSize: chunkSize, body)
        }
    }
}

/// Choices that apply to a conversion: the reader's locale and zone, an explicit charset, where
/// the input came from and what it becomes, and codec options (`--option name=value`), each
/// declared in a codec's or converter's description.
public struct CodecContext: Sendable {
    public var locale: LocaleID?
    /// The zone the reader asked for (`--time-zone`); nil when none was given.
    public var timeZone: TimeZoneID?
    /// The zone of the machine the reader is on (`TZ`, then `/etc/localtime`), when the caller
    /// knows it better than this process does (the CLI passes its session's `TZ`).
    public var machineZone: TimeZoneID?
    /// A charset that overrides detection (`--encoding`).
    public var encoding: Charset?
    public var options: CodecOptions
    /// The input's path, for messages and for names derived from it (nil for standard input).
    public var sourceFile: String?
    /// The format the document is being converted to (which app's backup, say).
    public var targetFormat: String?
    /// Whether that format stores numbers and dates as such (a spreadsheet): tables made for it
    /// hold machine values with `Table.cellTypes`, headers and words still in the reader's language.
    public var typedCells = false
    /// Whether a streaming decoder may read a large input ahead on a thread of its own (as
    /// `inspect`'s does). The conversion pipeline turns it off: it already decodes on a thread
    /// of its own beside its encoders, and a fifth thread on two cores only cost time.
    public var readsAhead = true
    /// Reads the time zones a calendar file defines (iCalendar's VTIMEZONE), for codecs and
    /// converters that turn wall times into instants. The pipeline sets the registry's.
    public var timeZoneDefinitions: (any TimeZoneDefinitionReader)?
    /// How much of each calendar item the reader must fill in (`expand` asks for `.schedule`).
    public var itemDetail: ItemDetail = .complete

    public init(locale: LocaleID? = nil, timeZone: TimeZoneID? = nil, encoding: Charset? = nil, options: CodecOptions = [:],
                sourceFile: String? = nil, targetFormat: String? = nil,
                timeZoneDefinitions: (any TimeZoneDefinitionReader)? = nil) {
        self.locale = locale
        self.timeZone = timeZone
        self.encoding = encoding
        self.options = options
        self.sourceFile = sourceFile
        self.targetFormat = targetFormat
        self.timeZoneDefinitions = timeZoneDefinitions
    }

    /// The zone floating and UTC times are read and shown in: the one asked for, else the
    /// machine's. Never derived from the locale: `--locale zh-TW` on a machine in New York still
    /// means New York.
    public var readingZone: TimeZoneID { timeZone ?? machineZone ?? .system }
}

/// How much of each calendar item a reader must fill in. A reader may give more than it is asked.
public enum ItemDetail: Sendable {
    /// Every field and everything carried: what a conversion writes.
    case complete
    /// What places an item in time: its UID, title, start, end, due date, duration, recurrence
    /// and RECURRENCE-ID, for a caller that writes nothing else (`expand`). The iCalendar reader
    /// then skips the other properties and the alarms of an item once it has read the item's UID
    /// (an item without one is read whole: its generated UID is made from everything in it), and
    /// gives no warnings about what it skipped.
    case schedule
}

/// `--option name=value` settings. Reading one can be recorded (`recordingReads`), which is how
/// the conformance test checks that a codec reads only options its description declares.
public struct CodecOptions: Sendable, ExpressibleByDictionaryLiteral, Sequence {
    public private(set) var values: [String: String]
    private var reads: OptionReads?

    public init(_ values: [String: String] = [:]) { self.values = values }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    public subscript(name: String) -> String? {
        get {
            reads?.record(name)
            return values[name]
        }
        set { values[name] = newValue }
    }

    public var names: [String] { values.keys.sorted() }
    public var isEmpty: Bool { values.isEmpty }
    public func makeIterator() -> Dictionary<String, String>.Iterator { values.makeIterator() }

    /// A copy that records every name read into `reads`.
    public func recordingReads(into reads: OptionReads) -> CodecOptions {
        var copy = self
        copy.reads = reads
        return copy
    }
}

/// The option names read through `CodecOptions.recordingReads`.
public final class OptionReads: Sendable {
    private let recorded = Locked<Set<String>>([])

    public init() {}

    func record(_ name: String) {
        recorded.withLock { _ = $0.insert(name) }
    }

    public var names: Set<String> { recorded.withLock { $0 } }
}

/// A decoded document with the warnings met on the way and facts about the input.
public struct Decoded: Sendable {
    public var document: Document
    public var diagnostics: [Diagnostic]
    /// The charset the text was read in (`UTF-8`, `Big5`), when the format is text.
    public var encoding: String?

    public init(document: Document, diagnostics: [Diagnostic] = [], encoding: String? = nil) {
        self.document = document
        self.diagnostics = diagnostics
        self.encoding = encoding
    }
}

/// Encoded bytes with warnings about anything the format could not hold.
public struct Encoded: Sendable {
    public var bytes: [UInt8]
    public var diagnostics: [Diagnostic]

    public init(bytes: [UInt8], diagnostics: [Diagnostic] = []) {
        self.bytes = bytes
        self.diagnostics = diagnostics
    }
}
