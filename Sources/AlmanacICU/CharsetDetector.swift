import AlmanacStrings

internal import CICUShim
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `CharsetDetector` decided about some bytes, and why.
public struct CharsetDetection: Hashable, Sendable {
    public enum Confidence: Int, Hashable, Sendable, Comparable {
        /// Two or more charsets fit about equally well: ask the user for `--encoding`.
        case ambiguous = 0
        /// A guess from the bytes' statistics.
        case likely = 1
        /// The bytes can only be this (BOM, valid UTF-8 with non-ASCII text, or the user said so).
        case certain = 2

        public static func < (lhs: Confidence, rhs: Confidence) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// A charset that was considered, with a score from 0 (impossible) to 1.
    public struct Candidate: Hashable, Sendable {
        public let charset: Charset
        public let score: Double
    }

    /// The best charset (also when ambiguous: check `confidence`).
    public let charset: Charset
    /// Bytes to skip before decoding (a byte order mark).
    public let byteOrderMarkLength: Int
    public let confidence: Confidence
    /// The charsets considered, best first.
    public let candidates: [Candidate]
    /// Why: "byte order mark", "valid UTF-8", "Big5 0.98 vs GB18030 0.45".
    public let reason: String

    public var isAmbiguous: Bool { confidence == .ambiguous }
}

/// Guesses the charset of bytes: BOM first, then UTF-8 validity, then UTF-16 without BOM, then a
/// score for Big5 and GB18030 (the common character ranges of each, with ICU's statistical detector
/// as a tie-breaker), then Windows-1252.
///
/// "Try decoders until one succeeds" is unsafe (Big5 bytes also decode as GB18030), and ICU's own
/// detector calls a typical Excel export with a few Chinese cells ISO-8859-1 (ARCHITECTURE.md).
public enum CharsetDetector {
    /// How many bytes of a file to look at.
    public static let sampleSize = 64 * 1024

    /// Detects the charset of `bytes` (a file's start or all of it). A `declared` charset wins;
    /// only its BOM is still skipped. `isComplete` says whether `bytes` is the whole input (when
    /// false, a multi-byte sequence cut off at the end is not held against a charset).
    public static func detect(_ bytes: some Collection<UInt8>, declared: Charset? = nil, isComplete: Bool = true) -> CharsetDetection {
        // Copied through the bytes' own storage when they have one: this generic function is not
        // specialized across modules, and copying through the collection's witnesses goes a
        // byte at a time.
        let sample = bytes.withContiguousStorageIfAvailable { Array($0.prefix(sampleSize)) } ?? Array(bytes.prefix(sampleSize))
        return detect(sample: sample, declared: declared, complete: isComplete && bytes.count <= sampleSize)
    }

    private static func detect(sample: [UInt8], declared: Charset?, complete: Bool) -> CharsetDetection {

        if let declared {
            let bom = declared.byteOrderMark
            let skip = !bom.isEmpty && sample.starts(with: bom) ? bom.count : 0
            return CharsetDetection(charset: declared, byteOrderMarkLength: skip, confidence: .certain,
                                    candidates: [.init(charset: declared, score: 1)], reason: "declared")
        }
        if let bom = byteOrderMark(sample) {
            return CharsetDetection(charset: bom, byteOrderMarkLength: bom.byteOrderMark.count, confidence: .certain,
                                    candidates: [.init(charset: bom, score: 1)], reason: "byte order mark")
        }
        if let utf16 = utf16WithoutBOM(sample) {
            return CharsetDetection(charset: utf16.charset, byteOrderMarkLength: 0, confidence: .likely,
                                    candidates: [.init(charset: utf16.charset, score: utf16.score)],
                                    reason: "UTF-16 without byte order mark (zero bytes in \(utf16.charset == .utf16LE ? "odd" : "even") positions)")
        }
        if UTF8Validation.firstInvalidOffset(sample, allowTruncatedEnd: !complete) == nil {
            let ascii = isASCII(sample)
            return CharsetDetection(charset: .utf8, byteOrderMarkLength: 0, confidence: ascii ? .likely : .certain,
                                    candidates: [.init(charset: .utf8, score: 1)],
                                    reason: ascii ? "ASCII only" : "valid UTF-8")
        }
        return scoreLegacy(sample, complete: complete)
    }

    /// Whether every byte is ASCII.
    static func isASCII(_ bytes: [UInt8]) -> Bool { bytes.withByteView(ByteScan.isASCII) }

    static func byteOrderMark(_ bytes: [UInt8]) -> Charset? {
        UnicodeDetection.byteOrderMark(bytes).map(Charset.init(unicode:))
    }

    static func utf16WithoutBOM(_ bytes: [UInt8]) -> (charset: Charset, score: Double)? {
        UnicodeDetection.utf16WithoutBOM(bytes).map { ($0.littleEndian ? .utf16LE : .utf16BE, $0.score) }
    }

    // MARK: Big5 vs GB18030

    struct LegacyScore {
        var characters = 0  // double-byte (or four-byte) characters
        var common = 0      // of those, in the charset's range of frequent characters
        var invalid = false
        var fraction: Double { characters == 0 ? 0 : Double(common) / Double(characters) }
    }

    /// Big5's frequent characters are A440–C67E (level 1) plus symbols and punctuation A140–A3BF.
    static func scoreBig5(_ bytes: [UInt8], complete: Bool) -> LegacyScore {
        var score = LegacyScore()
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            if lead < 0x80 { index += 1; continue }
            guard index + 1 < bytes.count else { if complete { score.invalid = true }; break }
            let trail = bytes[index + 1]
            guard (0x81...0xFE).contains(lead), (0x40...0x7E).contains(trail) || (0xA1...0xFE).contains(trail) else {
                score.invalid = true
                break
            }
            score.characters += 1
            if (0xA4...0xC6).contains(lead) || (0xA1...0xA3).contains(lead) { score.common += 1 }
            index += 2
        }
        return score
    }

    /// GB2312's frequent characters are B0A1–D7F9 (level 1) plus punctuation and full-width forms
    /// A1A1–A3FE (A4–A9 are kana, Greek, Cyrillic and box drawing: rare in Chinese text).
    static func scoreGB18030(_ bytes: [UInt8], complete: Bool) -> LegacyScore {
        var score = LegacyScore()
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            if lead < 0x80 { index += 1; continue }
            guard index + 1 < bytes.count else { if complete { score.invalid = true }; break }
            let second = bytes[index + 1]
            guard (0x81...0xFE).contains(lead) else { score.invalid = true; break }
            if (0x30...0x39).contains(second) {
                // Four-byte sequence: valid but rare in Chinese text.
                guard index + 3 < bytes.count else { if complete { score.invalid = true }; break }
                score.characters += 1
                index += 4
                continue
            }
            guard (0x40...0xFE).contains(second), second != ASCII.delete else { score.invalid = true; break }
            score.characters += 1
            if ((0xB0...0xD7).contains(lead) || (0xA1...0xA3).contains(lead)) && second >= 0xA1 { score.common += 1 }
            index += 2
        }
        return score
    }

    static func scoreLegacy(_ sample: [UInt8], complete: Bool) -> CharsetDetection {
        var big5 = scoreBig5(sample, complete: complete)
        var gb = scoreGB18030(sample, complete: complete)
        // Structure is necessary, not sufficient: the bytes must also decode without error.
        let decodable = complete ? sample : Array(sample.prefix(lastSafeCut(sample)))
        if !big5.invalid, (try? Charset.big5.decode(decodable)) == nil { big5.invalid = true }
        if !gb.invalid, (try? Charset.gb18030.decode(decodable)) == nil { gb.invalid = true }

        let big5Score = big5.invalid ? 0 : big5.fraction
        let gbScore = gb.invalid ? 0 : gb.fraction
        var candidates = [CharsetDetection.Candidate(charset: .big5, score: big5Score),
                          .init(charset: .gb18030, score: gbScore)]
            .sorted { $0.score > $1.score }
        let best = candidates[0]
        let runnerUp = candidates[1]
        let characters = best.charset == .big5 ? big5.characters : gb.characters
        let margin = best.score - runnerUp.score
        let reason = "\(candidates[0].charset) \(format(candidates[0].score)) vs \(candidates[1].charset) \(format(candidates[1].score)) over \(characters) characters"

        if best.score < 0.5 {
            // Neither looks like Chinese text: Windows-1252 decodes every byte.
            candidates.insert(.init(charset: .windows1252, score: 0.5), at: 0)
            return CharsetDetection(charset: .windows1252, byteOrderMarkLength: 0,
                                    confidence: best.score == 0 ? .likely : .ambiguous,
                                    candidates: candidates, reason: "not UTF-8 and not Chinese (\(reason))")
        }
        if runnerUp.score == 0 || (margin >= 0.15 && margin * Double(characters) >= 2) {
            return CharsetDetection(charset: best.charset, byteOrderMarkLength: 0, confidence: .likely,
                                    candidates: candidates, reason: reason)
        }
        // Too close to call on structure: ask ICU's frequency-based detector.
        let icu = icuConfidences(sample)
        let big5ICU = icu["Big5"] ?? 0
        let gbICU = icu["GB18030"] ?? 0
        if abs(big5ICU - gbICU) >= 10 {
            let winner: Charset = big5ICU > gbICU ? .big5 : .gb18030
            candidates.sort { ($0.charset == winner ? 1 : 0) > ($1.charset == winner ? 1 : 0) }
            return CharsetDetection(charset: winner, byteOrderMarkLength: 0, confidence: .likely, candidates: candidates,
                                    reason: reason + "; ICU's detector: Big5 \(big5ICU), GB18030 \(gbICU)")
        }
        return CharsetDetection(charset: best.charset, byteOrderMarkLength: 0, confidence: .ambiguous,
                                candidates: candidates, reason: reason)
    }

    /// Drops an incomplete trailing multi-byte character from a prefix.
    private static func lastSafeCut(_ bytes: [UInt8]) -> Int {
        var cut = bytes.count
        while cut > 0 && bytes.count - cut < 4 && bytes[cut - 1] >= 0x80 { cut -= 1 }
        return cut
    }

    private static func icuConfidences(_ bytes: [UInt8]) -> [String: Int] {
        var matches = [AlmCharsetMatch](repeating: AlmCharsetMatch(), count: 32)
        var status: Int32 = 0
        let found = bytes.withUnsafeBufferPointer { buffer in
            alm_charset_detect(buffer.baseAddress, Int32(buffer.count), &matches, Int32(matches.count), &status)
        }
        var result: [String: Int] = [:]
        for match in matches.prefix(Int(found)) {
            let name = withUnsafeBytes(of: match.name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            result[name] = max(result[name] ?? 0, Int(match.confidence))
        }
        return result
    }

    private static func format(_ score: Double) -> String {
        let hundredths = Int((score * 100).rounded())
        return String(hundredths / 100) + "." + pad(hundredths % 100, 2)
    }
}
