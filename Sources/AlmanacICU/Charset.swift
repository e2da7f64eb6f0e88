internal import CICUShim

/// A character encoding, with decoding and encoding that stop at the first bad byte or
/// unmappable character instead of silently substituting `?` or U+FFFD.
public struct Charset: Hashable, Sendable, CustomStringConvertible {
    /// ICU's converter name (`UTF-8`, `windows-950-2000`, `GB18030`).
    public let name: String

    init(icu name: String) { self.name = name }

    public static let utf8 = Charset(icu: "UTF-8")
    public static let utf16LE = Charset(icu: "UTF-16LE")
    public static let utf16BE = Charset(icu: "UTF-16BE")
    public static let utf32LE = Charset(icu: "UTF-32LE")
    public static let utf32BE = Charset(icu: "UTF-32BE")
    /// Big5 as Excel in Taipei writes it: Microsoft's code page 950 (with €), not IBM's `cp950`.
    public static let big5 = Charset(icu: "windows-950-2000")
    /// GB18030, a superset of GBK and GB2312 as Excel in Shanghai writes them.
    public static let gb18030 = Charset(icu: "GB18030")
    /// Western European text from Windows (what "ANSI" means on most English systems).
    public static let windows1252 = Charset(icu: "ibm-5348_P100-1997")

    /// A charset by name or alias, the way users type them (`big5`, `cp950`, `gbk`, `utf-16le`, `latin1`).
    public init(name: String) throws(ICUError) {
        let key = name.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " }
        // Names that must not take ICU's default meaning (see ARCHITECTURE.md fact 6).
        switch key {
        case "big5", "cp950", "windows950", "ms950", "xbig5", "big5tw": self = .big5; return
        case "gbk", "gb2312", "cp936", "windows936", "ms936", "euccn", "gb18030", "hzgb2312": self = .gb18030; return
        case "utf8", "utf8bom", "utf8sig": self = .utf8; return
        case "utf16", "utf16le", "ucs2", "unicode": self = .utf16LE; return
        case "utf16be": self = .utf16BE; return
        case "utf32", "utf32le": self = .utf32LE; return
        case "utf32be": self = .utf32BE; return
        case "latin1", "iso88591", "cp1252", "windows1252", "ansi": self = .windows1252; return
        default: break
        }
        var status: Int32 = 0
        guard let canonical = alm_charset_canonical(name, &status), alm_icu_failure(status) == 0 else {
            throw ICUError(.unknownCharset, subject: name)
        }
        self.name = String(cString: canonical)
    }

    /// The name users know (`Big5`, `GB18030`, `UTF-16LE`).
    public var description: String {
        switch self {
        case .big5: "Big5"
        case .windows1252: "windows-1252"
        default: name
        }
    }

    /// The Unicode form this charset is (nil for legacy charsets).
    public var unicodeForm: UnicodeForm? {
        switch self {
        case .utf8: .utf8
        case .utf16LE: .utf16LE
        case .utf16BE: .utf16BE
        case .utf32LE: .utf32LE
        case .utf32BE: .utf32BE
        default: nil
        }
    }

    public init(unicode form: UnicodeForm) {
        self = switch form {
        case .utf8: .utf8
        case .utf16LE: .utf16LE
        case .utf16BE: .utf16BE
        case .utf32LE: .utf32LE
        case .utf32BE: .utf32BE
        }
    }

    /// The byte order mark of Unicode encodings (empty for others).
    public var byteOrderMark: [UInt8] { unicodeForm?.byteOrderMark ?? [] }

    public var isUnicode: Bool { !byteOrderMark.isEmpty }

    /// Decodes bytes (without a BOM; see `CharsetDetector`) to text. Throws `invalidBytes` with the
    /// byte offset of the first sequence that is not valid in this charset.
    public func decode(_ bytes: some Collection<UInt8>) throws(ICUError) -> String {
        if self == .utf8 {
            let array = Array(bytes)
            if let offset = UTF8Validation.firstInvalidOffset(array) {
                throw ICUError(.invalidBytes, subject: description, detail: Charset.hex(array, at: offset), offset: offset)
            }
            return String(decoding: array, as: UTF8.self)
        }
        let input = Array(bytes)
        if input.isEmpty { return "" }
        var status: Int32 = 0
        guard let converter = alm_charset_open(name, &status), alm_icu_failure(status) == 0 else {
            throw ICUError(.unknownCharset, subject: name)
        }
        defer { alm_charset_close(converter) }
        var output: [UInt16] = []
        output.reserveCapacity(input.count)
        var position = 0
        let chunk = max(1024, input.count + 16)
        var buffer = [UInt16](repeating: 0, count: chunk)
        repeat {
            var consumed: Int32 = 0
            var errorOffset: Int64 = -1
            status = 0
            let written = input.withUnsafeBufferPointer { source in
                alm_charset_decode(converter, source.baseAddress! + position, Int32(input.count - position), 1,
                                   &buffer, Int32(chunk), &consumed, &errorOffset, &status)
            }
            output.append(contentsOf: buffer[0..<Int(written)])
            position += Int(consumed)
            if alm_icu_failure(status) != 0 && status != alm_icu_buffer_overflow_code() {
                let offset = errorOffset >= 0 ? Int(errorOffset) : position
                throw ICUError(.invalidBytes, subject: description, detail: Charset.hex(input, at: offset), offset: offset)
            }
        } while status == alm_icu_buffer_overflow_code() || position < input.count
        return String(decoding: output, as: UTF16.self)
    }

    /// Encodes text. Throws `unmappableCharacter` with the character's position (in UTF-16 units)
    /// when the charset cannot represent it (e.g. 𠀀 or emoji in Big5).
    public func encode(_ text: String, byteOrderMark: Bool = false) throws(ICUError) -> [UInt8] {
        var result = byteOrderMark ? self.byteOrderMark : []
        if self == .utf8 {
            result.append(contentsOf: text.utf8)
            return result
        }
        let input = Array(text.utf16)
        if input.isEmpty { return result }
        var status: Int32 = 0
        guard let converter = alm_charset_open(name, &status), alm_icu_failure(status) == 0 else {
            throw ICUError(.unknownCharset, subject: name)
        }
        defer { alm_charset_close(converter) }
        let chunk = max(1024, input.count * 4 + 16)
        var buffer = [UInt8](repeating: 0, count: chunk)
        var position = 0
        repeat {
            var consumed: Int32 = 0
            var errorOffset: Int64 = -1
            status = 0
            let written = input.withUnsafeBufferPointer { source in
                alm_charset_encode(converter, source.baseAddress! + position,
                                   Int32(input.count - position), 1, &buffer, Int32(chunk), &consumed, &errorOffset,
                                   &status)
            }
            result.append(contentsOf: buffer[0..<Int(written)])
            position += Int(consumed)
            if alm_icu_failure(status) != 0 && status != alm_icu_buffer_overflow_code() {
                let offset = errorOffset >= 0 ? Int(errorOffset) : position
                let character = Charset.character(in: input, at: offset)
                throw ICUError(.unmappableCharacter, subject: description, detail: character, offset: offset)
            }
        } while status == alm_icu_buffer_overflow_code() || position < input.count
        return result
    }

    static func hex(_ bytes: [UInt8], at offset: Int) -> String {
        let end = min(bytes.count, offset + 4)
        guard offset < end else { return "end of input" }
        return bytes[offset..<end].map { "0x" + String($0, radix: 16, uppercase: true) }.joined(separator: " ")
    }

    static func character(in units: [UInt16], at offset: Int) -> String {
        guard offset < units.count else { return "" }
        let end = UTF16.isLeadSurrogate(units[offset]) && offset + 1 < units.count ? offset + 2 : offset + 1
        let scalarText = String(decoding: units[offset..<end], as: UTF16.self)
        let code = scalarText.unicodeScalars.first.map { "U+" + String($0.value, radix: 16, uppercase: true) } ?? ""
        return "\(scalarText) \(code)"
    }
}
