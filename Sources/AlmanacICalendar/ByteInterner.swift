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
        let hash = Self.hash(buffer.baseAddress! + start, length)
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

    /// A quick hash of the bytes, eight at a time (the table's own: nothing outside this process
    /// sees it, so it need not be stable; `StableHash`'s byte-at-a-time loop was slower than
    /// the allocation it saves).
    @inline(__always)
    private static func hash(_ base: UnsafePointer<UInt8>, _ length: Int) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(length)
        var index = 0
        while index + 8 <= length {
            hash = (hash ^ UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 29
            index += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while index < length {
            tail |= UInt64(base[index]) << shift
            shift += 8
            index += 1
        }
        hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
        return hash ^ (hash >> 31)
    }

    private func grow() {
        var larger: [(hash: UInt64, text: String)?] = Array(repeating: nil, count: 4096)
        for case let entry? in slots { larger[Int(entry.hash & 4095)] = entry }
        slots = larger
    }
}
