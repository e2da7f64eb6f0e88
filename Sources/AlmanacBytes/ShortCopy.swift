/// Copies of a few bytes (a field, a key, a run between escapes), which is what the writers
/// mostly copy: a call to `memmove` for each cost more than the bytes it moved. Runs of 16 bytes
/// or more still go to `memmove`.
@usableFromInline enum ShortCopy {
    /// The longest run copied here.
    @usableFromInline static var longest: Int { 15 }

    /// Copies `count` bytes from `source` to `target` (regions that do not overlap).
    @inlinable @inline(__always)
    static func copy(_ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count: Int) {
        if count > longest {
            target.update(from: source, count: count)
        } else if count >= 8 {
            // Two words that overlap in the middle cover any length from 8 to 16.
            move(UInt64.self, source, target, 0)
            move(UInt64.self, source, target, count - 8)
        } else if count >= 4 {
            move(UInt32.self, source, target, 0)
            move(UInt32.self, source, target, count - 4)
        } else if count > 0 {
            target[0] = source[0]
            target[count >> 1] = source[count >> 1]
            target[count - 1] = source[count - 1]
        }
    }

    @inlinable @inline(__always)
    static func move<Word: FixedWidthInteger>(_ word: Word.Type, _ source: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<UInt8>, _ offset: Int) {
        let value = UnsafeRawPointer(source + offset).loadUnaligned(as: Word.self)
        UnsafeMutableRawPointer(target + offset).storeBytes(of: value, as: Word.self)
    }
}
