import AlmanacCore
import ArgumentParser

/// `almanac convert --manifest FILE`: the list of files to convert, one JSON object a line, as an
/// engine that hands out work (Spark, a queue, a shell pipeline) writes it:
///
///     {"input": "in/2024/a.ics", "output": "out/2024/a.json"}
///     {"input": "in/b.csv", "output": "out/", "to": "ics", "id": 17}
///
/// `input` is required; `output` is a file, or a folder ending in `/` where the output is named
/// as a folder batch names it (relative outputs are inside `-o DIRECTORY` when it is given);
/// without `output`, `-o DIRECTORY` is needed. `from` and `to` choose the formats for that line
/// (else `--from`/`--to`); `skip_unknown: true` skips a file no format reads, as a folder walk
/// does; `id` (any JSON value) is echoed in the line's report. Blank lines are ignored.
struct Manifest {
    struct Entry {
        var line: Int
        var input: String
        var output: String?
        var from: String?
        var to: String?
        var skipUnknown = false
        var id: JSONValue?
    }

    /// Every line that is not blank: an entry, or what is wrong with the line (located in `name`).
    static func parse(_ bytes: [UInt8], name: String) -> [(line: Int, entry: Result<Entry, Diagnostic>)] {
        var result: [(line: Int, entry: Result<Entry, Diagnostic>)] = []
        var start = bytes.starts(with: UnicodeForm.utf8.byteOrderMark) ? 3 : 0
        var line = 1
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != ASCII.lineFeed { end += 1 }
            var text = Array(bytes[start..<end])
            if text.last == ASCII.carriageReturn { text.removeLast() }
            if text.contains(where: { $0 != ASCII.space && $0 != ASCII.tab }) {
                result.append((line, entry(text, line: line, name: name)))
            }
            start = end + 1
            line += 1
        }
        return result
    }

    private static let fields = ["input", "output", "from", "to", "skip_unknown", "id"]

    private static func entry(_ text: [UInt8], line: Int, name: String) -> Result<Entry, Diagnostic> {
        let here = SourceLocation(file: name, line: line)
        let value: JSONValue
        do throws(Diagnostic) {
            value = try JSONValue(parsing: text, fileName: name)
        } catch {
            // The parser counts lines within the one line it was given.
            let column = error.location?.column
            return .failure(.error(.manifestNotJson(reason: error.message.rendered()).localizing(error.message), at: SourceLocation(file: name, line: line, column: column)))
        }
        guard case .object(let members) = value else { return .failure(.error(.manifestNotObject, at: here)) }
        var entry = Entry(line: line, input: "")
        var hasInput = false
        for (key, member) in members {
            func string() -> Result<String, Diagnostic> {
                if case .string(let text) = member { return .success(text) }
                return .failure(.error(.manifestWrongType(field: key, expected: "a string"), at: here))
            }
            switch key {
            case "input":
                switch string() {
                case .success(let text): entry.input = text; hasInput = true
                case .failure(let error): return .failure(error)
                }
            case "output", "from", "to":
                if case .null = member { continue }
                switch string() {
                case .success(let text):
                    if key == "output" { entry.output = text } else if key == "from" { entry.from = text } else { entry.to = text }
                case .failure(let error): return .failure(error)
                }
            case "skip_unknown":
                guard case .bool(let flag) = member else { return .failure(.error(.manifestWrongType(field: key, expected: "true or false"), at: here)) }
                entry.skipUnknown = flag
            case "id":
                entry.id = member
            default:
                return .failure(.error(.manifestUnknownField(field: key, fields: fields.joined(separator: ", ")), at: here))
            }
        }
        guard hasInput, !entry.input.isEmpty else { return .failure(.error(.manifestMissingInput, at: here)) }
        if entry.input == "-" || entry.output == "-" { return .failure(.error(.manifestStandardStreams, at: here)) }
        return .success(entry)
    }
}

/// `--shard K/N`: the share K (0 ≤ K < N) of a batch, for engines that give each worker an index
/// (a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX`) rather than a list. A file belongs to the
/// share its output path hashes to (FNV-1a), so the shares do not depend on the order or number
/// of the other files (workers that list a folder at different moments still agree), and inputs
/// that would write one output fall in the same share, where the later fails as in one batch.
struct Shard: ExpressibleByArgument, Hashable {
    let index: UInt64
    let count: UInt64

    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = UInt64(parts[0]), let count = UInt64(parts[1]), count > 0, index < count else { return nil }
        self.index = index
        self.count = count
    }

    func contains(_ key: String) -> Bool {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash % count == index
    }
}
