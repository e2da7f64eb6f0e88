public import AlmanacCore
public import AlmanacICU

/// Reading a delimited file: its charset, its delimiter, its records.
public struct CSVInput {
    public struct Options: Sendable {
        /// The delimiter; nil sniffs one of `,` `;` tab `|` from the first records.
        public var delimiter: UInt8?
        /// A charset that overrides detection (`--encoding`).
        public var encoding: Charset?
        /// Whether the first record names the columns.
        public var hasHeader: Bool
        /// Whether a large file is read ahead, and checked to be UTF-8, on a thread of its own.
        public var readsAhead: Bool

        public init(delimiter: UInt8? = nil, encoding: Charset? = nil, hasHeader: Bool = true, readsAhead: Bool = true) {
            self.delimiter = delimiter
            self.encoding = encoding
            self.hasHeader = hasHeader
            self.readsAhead = readsAhead
        }
    }

    /// What was found about the file before its records.
    public struct Facts: Sendable {
        public var delimiter: UInt8
        public var encoding: Charset
        public var byteOrderMark: Bool
        public var lineEnding: String
        public var detection: CharsetDetection
    }

    public static let candidates: [UInt8] = [ASCII.comma, ASCII.semicolon, ASCII.tab, ASCII.pipe]  // , ; tab |

    /// Streams the records of an input; returns the facts and the warnings met. `onFacts` hears
    /// the facts once, before the first record (also for an empty file).
    public static func read(
        _ input: CodecInput, options: Options = Options(), onFacts: (Facts) throws(Diagnostic) -> Void = { _ in },
        onRecord: (CSVRecord) throws(Diagnostic) -> Void
    ) throws(Diagnostic) -> (facts: Facts, diagnostics: [Diagnostic]) {
        let fileName = input.fileName
        var reader: CSVReader?
        var facts: Facts?
        var legacy = false
        var notes: [Diagnostic] = []
        do throws(Diagnostic) {
            // A large file is read, and checked to be UTF-8, a few chunks ahead on the second core.
            var endsInsideCharacter = false
            try input.readChunks(checking: UTF8Chunks(), readingAhead: options.readsAhead) { (chunk, verdict) throws(Diagnostic) in
                var chunk = chunk
                if facts == nil {
                    let detection = CharsetDetector.detect(chunk.prefix(CharsetDetector.sampleSize), declared: options.encoding,
                                                           isComplete: false)
                    if detection.charset != .utf8 { legacy = true; throw notUTF8 }
                    chunk.removeFirst(detection.byteOrderMarkLength)
                    let delimiter = options.delimiter ?? sniff(Array(chunk.prefix(64 * 1024)))
                    facts = Facts(delimiter: delimiter, encoding: .utf8, byteOrderMark: detection.byteOrderMarkLength > 0,
                                  lineEnding: lineEnding(chunk), detection: detection)
                    try onFacts(facts!)
                    reader = CSVReader(delimiter: delimiter, fileName: fileName)
                }
                if !verdict.isValid { throw notUTF8 }
                endsInsideCharacter = verdict.endsInsideCharacter
                try reader!.feed(chunk, isLast: false, checkedUTF8: true, onRecord: onRecord)
            }
            if !legacy, let facts {
                if endsInsideCharacter { throw notUTF8 }
                try reader!.feed([], isLast: true, checkedUTF8: true, onRecord: onRecord)
                return (facts, reader!.diagnostics)
            }
            if facts == nil, !legacy {
                // An empty file.
                let detection = CharsetDetector.detect([UInt8]())
                let empty = Facts(delimiter: options.delimiter ?? ASCII.comma, encoding: .utf8, byteOrderMark: false, lineEnding: "\r\n",
                                  detection: detection)
                try onFacts(empty)
                return (empty, [])
            }
        } catch let diagnostic where diagnostic.code == .internalNotUTF8 {
            if facts != nil && !legacy {
                // Records were already handed out as UTF-8: name the likely charset instead of
                // starting again behind the caller's back.
                let guess = (try? input.readAll()).map { CharsetDetector.detect($0).charset.description } ?? "?"
                throw Diagnostic.error(.csvMixedEncoding(guess: guess), at: SourceLocation(file: fileName))
            }
        }
        // Not UTF-8: convert the whole file, then read it.
        let all = try input.readAll()
        let detection = CharsetDetector.detect(all, declared: options.encoding)
        if detection.isAmbiguous {
            let names = detection.candidates.prefix(2).map(\.charset.description).joined(separator: ", ")
            throw Diagnostic.error(.csvAmbiguousEncoding(candidates: names), at: SourceLocation(file: fileName))
        }
        let text: String
        do { text = try detection.charset.decode(all.dropFirst(detection.byteOrderMarkLength)) } catch {
            throw Diagnostic.error(.charsetInvalidBytes(charset: detection.charset.description, offset: String((error.offset ?? 0) + detection.byteOrderMarkLength)), at: SourceLocation(file: fileName))
        }
        if !detection.charset.isUnicode {
            notes.append(.note(.charsetConverted(charset: detection.charset.description), at: SourceLocation(file: fileName)))
        }
        let bytes = Array(text.utf8)
        let delimiter = options.delimiter ?? sniff(Array(bytes.prefix(64 * 1024)))
        let found = Facts(delimiter: delimiter, encoding: detection.charset, byteOrderMark: detection.byteOrderMarkLength > 0,
                          lineEnding: lineEnding(bytes), detection: detection)
        try onFacts(found)
        var legacyReader = CSVReader(delimiter: delimiter, fileName: fileName)
        try legacyReader.feed(bytes, isLast: true, onRecord: onRecord)
        return (found, notes + legacyReader.diagnostics)
    }

    static let notUTF8 = CSVReader.invalidUTF8

    /// Whether the chunks so far are UTF-8, checked on the thread that reads them.
    struct UTF8Chunks: ChunkCheck {
        var stream = UTF8Validation.Stream()

        mutating func check(_ chunk: [UInt8]) -> (isValid: Bool, endsInsideCharacter: Bool) {
            (stream.check(chunk), stream.endsInsideCharacter)
        }
    }

    /// The delimiter that splits the first records most consistently into more than one field.
    public static func sniff(_ sample: [UInt8]) -> UInt8 {
        var best: (delimiter: UInt8, score: Double, fields: Int) = (ASCII.comma, 0, 1)
        for candidate in candidates {
            var counts: [Int] = []
            var reader = CSVReader(delimiter: candidate, fileName: nil)
            try? reader.feed(sample, isLast: false) { (record) throws(Diagnostic) in
                if counts.count < 50, record.count > 0 { counts.append(record.count) }
            }
            guard !counts.isEmpty else { continue }
            var frequency: [Int: Int] = [:]
            for count in counts { frequency[count, default: 0] += 1 }
            let (mode, times) = frequency.max { ($0.value, $0.key) < ($1.value, $1.key) }!
            guard mode > 1 else { continue }
            let score = Double(times) / Double(counts.count)
            if score > best.score + 0.01 || (abs(score - best.score) <= 0.01 && mode > best.fields) {
                best = (candidate, score, mode)
            }
        }
        return best.delimiter
    }

    static func lineEnding(_ bytes: [UInt8]) -> String {
        guard let index = bytes.prefix(64 * 1024).firstIndex(where: { $0 == ASCII.lineFeed || $0 == ASCII.carriageReturn }) else { return "\r\n" }
        if bytes[index] == ASCII.lineFeed { return "\n" }
        return index + 1 < bytes.count && bytes[index + 1] == ASCII.lineFeed ? "\r\n" : "\r"
    }
}
