/// FNV-1a (64 bits): a hash that is the same in every run and on every machine (Swift's `Hasher`
/// is seeded per process), for ids given to records that came without one, baseline
/// fingerprints and seeds. Not for security.
public struct StableHash: Sendable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public mutating func combine(_ byte: UInt8) {
        value ^= UInt64(byte)
        value = value &* 0x100_0000_01b3
    }

    public mutating func combine(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { combine(byte) }
    }

    /// The hash of a text's UTF-8 bytes.
    public static func of(_ text: String) -> UInt64 {
        var hash = StableHash()
        hash.combine(text.utf8)
        return hash.value
    }

    /// The hash in hexadecimal; `padded` writes all sixteen digits.
    public static func hex(_ text: String, padded: Bool = false) -> String {
        let digits = String(of(text), radix: 16)
        return padded ? String(repeating: "0", count: 16 - digits.count) + digits : digits
    }
}
