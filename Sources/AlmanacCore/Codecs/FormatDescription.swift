import Foundation

/// Everything about a format that is not code: names, file types, model, options and examples.
/// The CLI's `formats` command and the docs print it; the conformance test runs its examples.
public struct FormatDescription: Hashable, Sendable, Codable {
    /// The name used with `--from` and `--to` (`ics`, `strings`, `jellysave-backup`).
    public var id: String
    /// A human name (`iCalendar`).
    public var name: String
    /// One sentence on what the format is and who writes it.
    public var summary: String
    /// Other names accepted for `id` (`ical`, `icalendar`).
    public var aliases: [String]
    /// File name endings, with the dot, most specific first (`.ics`, `.agenda.json`).
    public var extensions: [String]
    public var mediaTypes: [String]
    public var model: ModelKind
    public var canRead: Bool
    public var canWrite: Bool
    public var options: [Option]
    /// Small inputs that must decode (and, for writable formats, round-trip).
    public var examples: [Example]
    /// The model a document of another kind goes through on its way here when no `--via` is
    /// given and the registry can convert through it: a JellySave backup is made from a table of
    /// accounts through a ledger, not through days.
    public var via: ModelKind?
    /// Whether the format stores numbers and dates as such (XLSX): tables are made for it with
    /// typed cells (`CodecContext.typedCells`).
    public var typedCells: Bool

    public struct Option: Hashable, Sendable, Codable {
        public var name: String
        public var summary: String
        /// The accepted values, when they are a fixed set.
        public var values: [String]?
        public var defaultValue: String?

        public init(name: String, summary: String, values: [String]? = nil, defaultValue: String? = nil) {
            self.name = name
            self.summary = summary
            self.values = values
            self.defaultValue = defaultValue
        }
    }

    public struct Example: Hashable, Sendable, Codable {
        public var summary: String
        /// The input as text; for a binary format (a workbook), its bytes in Base64.
        public var input: String {
            get {
                switch source {
                case .given(let text): text
                case .made(let make): make()
                }
            }
            set { source = .given(newValue) }
        }
        /// `base64` when `input` holds a binary format's bytes; nil for text.
        public var inputEncoding: String?
        private var source: Source

        /// Where the input comes from: given, or made when it is asked for (a workbook the
        /// writer itself writes is not made at every start-up, only where an example is read:
        /// `formats --json`, the conformance test).
        private enum Source: Sendable {
            case given(String)
            case made(@Sendable () -> String)
        }

        public init(summary: String, input: String, inputEncoding: String? = nil) {
            self.summary = summary
            self.source = .given(input)
            self.inputEncoding = inputEncoding
        }

        /// A binary format's example whose bytes `make` writes when the example is first read.
        public init(summary: String, bytesMadeBy make: @escaping @Sendable () -> [UInt8]) {
            self.summary = summary
            self.source = .made { Data(make()).base64EncodedString() }
            self.inputEncoding = "base64"
        }

        /// The example's bytes.
        public var bytes: [UInt8] {
            guard inputEncoding == "base64" else { return Array(input.utf8) }
            return Data(base64Encoded: input).map(Array.init) ?? []
        }

        private enum CodingKeys: String, CodingKey { case summary, input, inputEncoding }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(summary: try container.decode(String.self, forKey: .summary), input: try container.decode(String.self, forKey: .input),
                      inputEncoding: try container.decodeIfPresent(String.self, forKey: .inputEncoding))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(summary, forKey: .summary)
            try container.encode(input, forKey: .input)
            try container.encodeIfPresent(inputEncoding, forKey: .inputEncoding)
        }

        public static func == (lhs: Example, rhs: Example) -> Bool {
            lhs.summary == rhs.summary && lhs.inputEncoding == rhs.inputEncoding && lhs.input == rhs.input
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(summary)
            hasher.combine(inputEncoding)
            hasher.combine(input)
        }
    }

    public init(
        id: String, name: String, summary: String, aliases: [String] = [], extensions: [String] = [],
        mediaTypes: [String] = [], model: ModelKind, canRead: Bool = true, canWrite: Bool = true,
        options: [Option] = [], examples: [Example] = [], via: ModelKind? = nil, typedCells: Bool = false
    ) {
        self.typedCells = typedCells
        self.id = id
        self.name = name
        self.summary = summary
        self.aliases = aliases
        self.extensions = extensions
        self.mediaTypes = mediaTypes
        self.model = model
        self.canRead = canRead
        self.canWrite = canWrite
        self.options = options
        self.examples = examples
        self.via = via
    }

    /// A description a codec plugin printed: what it leaves out has its default (plugins
    /// written before `typedCells` existed still describe themselves).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id), name: try container.decode(String.self, forKey: .name),
            summary: try container.decode(String.self, forKey: .summary),
            aliases: try container.decodeIfPresent([String].self, forKey: .aliases) ?? [],
            extensions: try container.decodeIfPresent([String].self, forKey: .extensions) ?? [],
            mediaTypes: try container.decodeIfPresent([String].self, forKey: .mediaTypes) ?? [],
            model: try container.decode(ModelKind.self, forKey: .model),
            canRead: try container.decodeIfPresent(Bool.self, forKey: .canRead) ?? true,
            canWrite: try container.decodeIfPresent(Bool.self, forKey: .canWrite) ?? true,
            options: try container.decodeIfPresent([Option].self, forKey: .options) ?? [],
            examples: try container.decodeIfPresent([Example].self, forKey: .examples) ?? [],
            via: try container.decodeIfPresent(ModelKind.self, forKey: .via),
            typedCells: try container.decodeIfPresent(Bool.self, forKey: .typedCells) ?? false)
    }

    /// The extension an output file of this format gets (`.ics`), or `.` + its id.
    public var preferredExtension: String { extensions.first ?? "." + id }

    /// Whether a name is this format's id or one of its aliases (case-insensitive).
    public func isNamed(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return id.lowercased() == lowered || aliases.contains { $0.lowercased() == lowered }
    }

    /// The length of the longest extension a file name ends with, 0 when none matches. A file
    /// whose whole name is an extension without its dot matches too (`todo.txt` for `.todo.txt`).
    public func extensionMatch(_ fileName: String) -> Int {
        // Compared by bytes, ASCII letters in either case (extensions are ASCII): Foundation's
        // case-insensitive search cost more than reading a small file, and lowercasing the name
        // and every extension for each format was most of identifying one. Extensions are
        // literals, compared through their own storage (not a generic `zip` over two collections).
        fileName.withByteView { bytes -> Int in
            let baseStart = Self.baseStart(bytes)
            var best = 0
            for suffix in extensions {
                best = max(best, suffix.withByteView { Self.matchLength(bytes, baseStart: baseStart, $0) })
            }
            return best
        }
    }

    /// Where the base name starts in a path's bytes (after its last `/`).
    static func baseStart(_ bytes: ByteView) -> Int {
        var index = bytes.count
        while index > 0, bytes[index - 1] != ASCII.slash { index -= 1 }
        return index
    }

    /// The length of the extension `wanted` when the name in `bytes` ends with it, or is its
    /// whole base name without the dot (`Makefile`-style); 0 otherwise.
    static func matchLength(_ bytes: ByteView, baseStart: Int, _ wanted: ByteView) -> Int {
        guard let dot = wanted.first else { return 0 }
        let named = bytes.count >= wanted.count && sameIgnoringCase(bytes, from: bytes.count - wanted.count, wanted, from: 0)
        let whole = dot == ASCII.period && bytes.count - baseStart == wanted.count - 1 && sameIgnoringCase(bytes, from: baseStart, wanted, from: 1)
        return named || whole ? wanted.count : 0
    }

    /// Whether `a` from `start` and `b` from `bStart` hold the same bytes to their ends, ASCII
    /// letters in either case (false when the two runs differ in length).
    private static func sameIgnoringCase(_ a: ByteView, from start: Int, _ b: ByteView, from bStart: Int) -> Bool {
        guard a.count - start == b.count - bStart else { return false }
        var i = start, j = bStart
        while i < a.count {
            guard ASCII.equalIgnoringCase(a[i], b[j]) else { return false }
            i += 1
            j += 1
        }
        return true
    }
}
