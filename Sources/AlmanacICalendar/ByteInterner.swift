import AlmanacCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hands out one shared string for byte sequences that repeat (TZIDs, rules, categories), found
/// by a hash of the bytes, so a repeat costs a comparison instead of an allocation.
final class ByteInterner {
    /// A small table first (a batch parses thousands of 4 KB files, and making and freeing 4,096
    /// slots for each cost more than the parse); it grows once a file has many strings to share.
    private var slots: [(hash: UInt64, text: String)?] = Array(repeating: nil, count: 256)
    private var stored = 0

    func string(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        let length = end - start
        guard length > 15, length <= 256 else {
            // Short strings are stored inline anyway; long ones rarely repeat.
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self)
        }
        var hasher = StableHash()
        hasher.combine(UnsafeBufferPointer(rebasing: buffer[start..<end]))
        let hash = hasher.value
        let slot = Int(hash & UInt64(slots.count - 1))
        if let entry = slots[slot], entry.hash == hash {
            var text = entry.text
            let same = text.withUTF8 { stored in
                stored.count == length && memcmp(stored.baseAddress!, buffer.baseAddress! + start, length) == 0
            }
            if same { return entry.text }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self)
        slots[slot] = (hash, text)
        stored += 1
        if stored == 512 { grow() }
        return text
    }

    private func grow() {
        var larger: [(hash: UInt64, text: String)?] = Array(repeating: nil, count: 4096)
        for case let entry? in slots { larger[Int(entry.hash & 4095)] = entry }
        slots = larger
    }
}
