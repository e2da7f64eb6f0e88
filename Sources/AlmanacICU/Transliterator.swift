internal import CICUShim

/// An ICU transform such as `Hans-Hant` (Simplified → Traditional) or `Han-Latin` (pinyin).
///
/// ICU's Hans-Hant works character by character (软件 → 軟件, while Taiwan writes 軟體): good for
/// finding Simplified-only characters, not for vocabulary (that needs a phrase table).
/// Not thread-safe: create one per task.
public final class Transliterator {
    private let handle: OpaquePointer
    public let id: String

    public init(id: String) throws(ICUError) {
        var status: Int32 = 0
        let handle = id.withUTF16Unchecked { units, count in alm_translit_open(units, count, &status) }
        guard let handle, alm_icu_failure(status) == 0 else {
            throw ICUError.status(status, .invalidPattern, subject: id)
        }
        self.handle = handle
        self.id = id
    }

    deinit { alm_translit_close(handle) }

    /// Simplified → Traditional, character by character.
    public static func simplifiedToTraditional() throws(ICUError) -> Transliterator { try Transliterator(id: "Hans-Hant") }
    /// Traditional → Simplified, character by character.
    public static func traditionalToSimplified() throws(ICUError) -> Transliterator { try Transliterator(id: "Hant-Hans") }

    public func apply(_ text: String) -> String {
        let source = Array(text.utf16)
        var capacity = source.count * 2 + 16
        for _ in 0..<4 {
            var buffer = source + [UInt16](repeating: 0, count: capacity - source.count)
            var status: Int32 = 0
            let length = alm_translit_apply(handle, &buffer, Int32(source.count), Int32(capacity), &status)
            if alm_icu_failure(status) == 0 {
                return String(decoding: buffer[0..<Int(length)], as: UTF16.self)
            }
            if status != alm_icu_buffer_overflow_code() { return text }
            capacity = max(capacity * 2, Int(length) + 16)
        }
        return text
    }
}
