internal import CICUShim

/// Sorts text the way a locale's readers expect: Chinese by pinyin (zh-Hans) or by stroke count
/// (zh-Hant, as Taiwan's lists are ordered), English case-insensitively first.
///
/// Not thread-safe for mutation, but comparing is read-only; create one per task.
public final class Collator {
    /// The order for Chinese text.
    public enum Order: String, Sendable {
        /// The locale's own default (pinyin for zh-Hans, stroke for zh-Hant).
        case standard
        /// 拼音 order.
        case pinyin
        /// 筆畫 (stroke count) order.
        case stroke
    }

    private let handle: OpaquePointer
    public let locale: LocaleID

    public init(locale: LocaleID, order: Order = .standard) throws(ICUError) {
        let effective = order == .standard ? locale : locale.setting("collation", to: order.rawValue)
        var status: Int32 = 0
        guard let handle = alm_collator_open(effective.icuIdentifier, &status), alm_icu_failure(status) == 0 else {
            throw ICUError.status(status, .unknownLocale, subject: effective.icuIdentifier)
        }
        self.handle = handle
        self.locale = effective
    }

    deinit { alm_collator_close(handle) }

    public func compare(_ a: String, _ b: String) -> Int {
        a.withUTF16Unchecked { aUnits, aCount in
            b.withUTF16Unchecked { bUnits, bCount in
                Int(alm_collator_compare(handle, aUnits, aCount, bUnits, bCount))
            }
        }
    }

    /// Bytes whose lexicographic order is the collation order: compute once, sort many times.
    public func sortKey(_ text: String) -> [UInt8] {
        text.withUTF16Unchecked { units, count in
            var capacity = Int(count) * 4 + 16
            while true {
                var key = [UInt8](repeating: 0, count: capacity)
                let length = Int(alm_collator_sort_key(handle, units, count, &key, Int32(capacity)))
                if length <= capacity {
                    // The key ends with a NUL byte that is not needed for comparisons.
                    return Array(key[0..<max(0, length - 1)])
                }
                capacity = length
            }
        }
    }

    public func sorted(_ texts: [String]) -> [String] {
        texts.map { (sortKey($0), $0) }
            .sorted { $0.0.lexicographicallyPrecedes($1.0) }
            .map(\.1)
    }
}
