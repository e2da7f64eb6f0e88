public import AlmanacCore
import Foundation

/// The checks every registered codec must pass, whatever its format (the idea of swift-log's
/// LogHandler conformance test): a sane description, identification that never crashes, examples
/// that decode and round-trip, deterministic output, and located errors for bad input.
///
/// Returns the problems found, as sentences; an empty list means the codec conforms.
public enum CodecConformance {
    public static func problems(of codec: any Codec, randomInputs: Int = 200, mutatedExamples: Int = 150) -> [String] {
        var problems: [String] = []
        let format = codec.format
        let name = format.id

        // The description.
        if format.id.isEmpty || format.id != format.id.lowercased() || format.id.contains(" ") {
            problems.append("\(name): the id must be lowercase without spaces")
        }
        for ext in format.extensions where !ext.hasPrefix(".") || ext != ext.lowercased() {
            problems.append("\(name): extension \"\(ext)\" must start with a dot and be lowercase")
        }
        if format.canRead && format.examples.isEmpty {
            problems.append("\(name): a readable format needs at least one example")
        }

        // Identification looks at anything without crashing.
        var generator = SeededGenerator(seed: 0x5EED)
        let noise = (0..<randomInputs).map { _ in
            (0..<Int.random(in: 0...512, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
        for bytes in [[]] + noise { _ = codec.identify(Probe(prefix: bytes, fileName: "noise.bin")) }

        // Every option the codec reads while decoding and encoding its examples is one its
        // description declares (`--option` settings are checked against the declarations).
        let reads = OptionReads()
        let recording = CodecContext(options: CodecOptions().recordingReads(into: reads))

        for example in format.examples {
            let bytes = example.bytes
            let file = "example" + (format.extensions.first ?? "")
            if codec.identify(Probe(prefix: bytes, fileName: file)) == .no {
                problems.append("\(name): identify says no to its own example \"\(example.summary)\"")
            }
            guard format.canRead else { continue }
            let decoded: Decoded
            do {
                decoded = try codec.decode(CodecInput(bytes: bytes, fileName: file), context: recording)
            } catch {
                problems.append("\(name): example \"\(example.summary)\" does not decode: \(error)")
                continue
            }
            if decoded.document.kind != format.model {
                problems.append("\(name): decodes to \(decoded.document.kind), but its description says \(format.model)")
            }
            if decoded.diagnostics.hasErrors {
                problems.append("\(name): example \"\(example.summary)\" decodes with errors: \(decoded.diagnostics)")
            }
            problems += streamingProblems(codec, bytes: bytes, file: file, decoded: decoded, context: recording)
            guard format.canWrite else { continue }
            do {
                let first = try codec.encode(decoded.document, context: recording)
                let again = try codec.decode(CodecInput(bytes: first.bytes, fileName: file), context: CodecContext())
                if again.document != decoded.document {
                    problems.append("\(name): example \"\(example.summary)\" changes in a round trip")
                }
                let second = try codec.encode(again.document, context: CodecContext())
                if second.bytes != first.bytes {
                    problems.append("\(name): writing the same document twice gives different bytes")
                }
            } catch {
                problems.append("\(name): example \"\(example.summary)\" does not round-trip: \(error)")
            }

            // Broken versions of the example: every failure must be a located diagnostic.
            let cuts = Set([1, bytes.count / 3, bytes.count / 2, bytes.count - 1].filter { $0 > 0 && $0 < bytes.count })
            for cut in cuts.sorted() {
                problems += located(codec, Array(bytes.prefix(cut)), file: file, what: "the example cut at byte \(cut)")
            }
            // And mutated the way a fuzzer starts (bytes flipped, pieces of structure inserted,
            // ranges dropped or doubled): a deterministic stand-in for the libFuzzer runs in Fuzz/.
            var seed = StableHash()
            seed.combine(bytes)
            var mutations = SeededGenerator(seed: seed.value)
            for round in 0..<mutatedExamples {
                let mutated = mutate(bytes, using: &mutations)
                problems += located(codec, mutated, file: file, what: "mutation \(round) of \"\(example.summary)\" (\(mutated.count) bytes)")
            }
        }
        for (index, bytes) in noise.prefix(50).enumerated() {
            problems += located(codec, bytes, file: "noise.bin", what: "random input #\(index)")
        }
        let declared = Set(format.options.map(\.name))
        for name in reads.names.subtracting(declared).sorted() {
            problems.append("\(name): reads the option \"\(name)\", which its description does not declare")
        }

        // A document of another model is refused with a diagnostic, not a crash.
        if format.canWrite, let other = ModelKind.allCases.first(where: { $0 != format.model }) {
            let document: Document = switch other {
            case .agenda: .agenda(Agenda())
            case .ledger: .ledger(Ledger())
            case .catalog: .catalog(Catalog())
            case .table: .table(Table())
            case .backup: .backup(BackupDocument(format: "none", version: 1, content: .object([]), recordCount: 0))
            }
            if (try? codec.encode(document, context: CodecContext())) != nil {
                problems.append("\(name): encoding a \(other) document should fail with a diagnostic")
            }
        }
        return problems
    }

    /// A codec that streams must hand over the same document item by item as it decodes whole,
    /// with the frame first, and write the same bytes either way.
    static func streamingProblems(_ codec: any Codec, bytes: [UInt8], file: String, decoded: Decoded, context: CodecContext) -> [String] {
        var problems: [String] = []
        let name = codec.format.id
        if let streaming = codec as? any StreamingDecoder {
            var sink = OrderCheckingSink()
            do {
                let frame = try streaming.decodeItems(CodecInput(bytes: bytes, fileName: file), context: context, into: &sink)
                if sink.begins != 1 { problems.append("\(name): decodeItems began \(sink.begins) times (once, before the items)") }
                if sink.itemBeforeBegin { problems.append("\(name): decodeItems handed over an item before the frame") }
                if frame.document.withItems(sink.items) != decoded.document {
                    problems.append("\(name): decoding item by item gives another document than decoding whole")
                }
            } catch {
                problems.append("\(name): decodeItems fails where decode does not: \(error)")
            }
        }
        if let streaming = codec as? any StreamingEncoder, codec.format.canWrite {
            do {
                let whole = try codec.encode(decoded.document, context: context).bytes
                let (frame, items) = decoded.document.splitItems()
                var pieces: [UInt8] = []
                let writer = try streaming.itemWriter(frame, context: context) { (piece) throws(Diagnostic) in pieces += piece }
                for item in items { try writer.write(item) }
                _ = try writer.finish(frame)
                if pieces != whole { problems.append("\(name): writing item by item gives other bytes than encoding whole") }
            } catch {
                problems.append("\(name): the item writer fails where encode does not: \(error)")
            }
        }
        return problems
    }

    /// Inputs that once crashed a decoder (the fuzzer's artifacts, kept in a test's fixtures):
    /// each must now decode, or fail with a located diagnostic.
    public static func problems(of codec: any Codec, regressionInputsIn directory: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory), !names.isEmpty else {
            return ["\(codec.format.id): no regression inputs in \(directory)"]
        }
        return names.sorted().flatMap { name -> [String] in
            guard let data = FileManager.default.contents(atPath: directory + "/" + name) else { return ["cannot read \(name)"] }
            return located(codec, Array(data), file: name, what: "regression input \(name)")
        }
    }

    static let structure: [[UInt8]] = ["\"", "'", "<", ">", "</", "&", "&#0;", "{", "}", "[", "]", ",", ":", ";", "=", "\\", "%", "%@",
                                       "%1$#@x@", "\n", "\r\n", "\r", " ", "\t", "BEGIN:VEVENT\r\n", "END:VCALENDAR\r\n", "RRULE:FREQ=SECONDLY\r\n",
                                       "\u{FEFF}", "\u{0}", "null", "-1", "99999999999999999999", "1e999", "\"\":", "<!--", "]]>", "<![CDATA[",
                                       "<!DOCTYPE x [<!ENTITY a \"b\">]>", "𠀀", "\u{D7FF}"].map { Array($0.utf8) } + [[0xFF], [0xC3], [0xED, 0xA0, 0x80]]

    static func mutate(_ bytes: [UInt8], using generator: inout SeededGenerator) -> [UInt8] {
        var result = bytes
        for _ in 0...Int.random(in: 0...3, using: &generator) {
            let at = result.isEmpty ? 0 : Int.random(in: 0..<result.count, using: &generator)
            switch Int.random(in: 0..<5, using: &generator) {
            case 0 where !result.isEmpty: result[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &generator))
            case 1: result.insert(contentsOf: structure.randomElement(using: &generator)!, at: at)
            case 2 where !result.isEmpty: result.removeSubrange(at..<min(result.count, at + Int.random(in: 1...64, using: &generator)))
            case 3 where !result.isEmpty:
                let piece = result[at..<min(result.count, at + Int.random(in: 1...128, using: &generator))]
                result.insert(contentsOf: Array(piece), at: at)
            default: result.insert(UInt8.random(in: 0...255, using: &generator), at: at)
            }
        }
        return result
    }

    private static func located(_ codec: any Codec, _ bytes: [UInt8], file: String, what: String) -> [String] {
        guard codec.format.canRead else { return [] }
        do {
            _ = try codec.decode(CodecInput(bytes: bytes, fileName: file), context: CodecContext())
            return []
        } catch {
            guard let location = error.location, location.file != nil || location.line != nil || location.keyPath != nil else {
                return ["\(codec.format.id): \(what) fails without a location: \(error)"]
            }
            return []
        }
    }
}

/// A small deterministic random number generator (SplitMix64), so failures reproduce.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Records how a streaming decoder uses its sink.
struct OrderCheckingSink: DocumentSink {
    var begins = 0
    var itemBeforeBegin = false
    var items: [DocumentItem] = []

    mutating func begin(_ frame: Document) throws(Diagnostic) { begins += 1 }

    mutating func item(_ item: DocumentItem) throws(Diagnostic) {
        if begins == 0 { itemBeforeBegin = true }
        items.append(item)
    }
}
