internal import CICUShim

/// ICU's word boundaries. For Chinese, ICU segments by its dictionary (改變|量子|位元, 少數|組織), which
/// tells a phrase list's match that crosses two words (變量 in 改變量子) from one that is a word.
/// Not thread-safe: create one per task.
public final class WordBreaker {
    private let handle: OpaquePointer
    public let locale: String

    public init(locale: String) throws(ICUError) {
        var status: Int32 = 0
        let handle = alm_words_open(locale, &status)
        guard let handle, alm_icu_failure(status) == 0 else {
            throw ICUError.status(status, .icuFailure, subject: locale)
        }
        self.handle = handle
        self.locale = locale
    }

    deinit { alm_words_close(handle) }

    /// Where words start and end in `scalars`, as indices into it: 0 and `scalars.count` included,
    /// ascending.
    public func boundaries(of scalars: [Unicode.Scalar]) -> [Int] {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars)
        // The scalar index that each UTF-16 offset starts, for mapping ICU's offsets back.
        var scalarAt: [Int32] = []
        scalarAt.reserveCapacity(scalars.count + 1)
        for (index, scalar) in scalars.enumerated() {
            for _ in 0..<scalar.utf16.count { scalarAt.append(Int32(index)) }
        }
        scalarAt.append(Int32(scalars.count))
        var offsets = [Int32](repeating: 0, count: scalars.count + 2)
        for _ in 0..<2 {
            var status: Int32 = 0
            let capacity = Int32(offsets.count)
            let count = Int(String(text).withUTF16Unchecked { units, length in
                alm_words_boundaries(handle, units, length, &offsets, capacity, &status)
            })
            guard alm_icu_failure(status) == 0 else { break }
            if count <= offsets.count {
                return offsets[0..<count].map { Int(scalarAt[Int($0)]) }
            }
            offsets = [Int32](repeating: 0, count: count)
        }
        // Without ICU's words every scalar is one.
        return Array(0...scalars.count)
    }
}
