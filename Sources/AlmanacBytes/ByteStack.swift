/// Byte strings pushed and popped in order (the names of an XML reader's open elements), kept
/// one after another in a buffer that only grows: a push is a short copy, a pop a subtraction, a
/// comparison with the top a loop over a few bytes (an array's `append(contentsOf:)`,
/// `removeSubrange` and `memcmp` for a name of one to three bytes cost more than the bytes).
///
/// Its operations are inlinable: called a few times per tag from another module, each was a call.
package struct ByteStack {
    @usableFromInline var bytes: [UInt8] = []
    /// Where each string ends in `bytes`.
    @usableFromInline var ends: [Int] = []

    package init() {}

    @inlinable package var count: Int { ends.count }
    @inlinable package var isEmpty: Bool { ends.isEmpty }

    @inlinable var topStart: Int { ends.count > 1 ? ends[ends.count - 2] : 0 }

    @inlinable
    package mutating func push(_ view: ByteView) {
        let start = ends.last ?? 0
        let end = start + view.count
        if end > bytes.count { bytes.makeRoom(Swift.max(end, bytes.count * 2, 64)) }
        bytes.overwrite(at: start, with: view)
        ends.append(end)
    }

    /// Removes the top string (there is one).
    @inlinable
    package mutating func pop() {
        ends.removeLast()
    }

    /// Whether the top string's bytes are `view`'s (false when the stack is empty).
    @inlinable
    package func topEquals(_ view: ByteView) -> Bool {
        guard let end = ends.last else { return false }
        let start = topStart
        guard end - start == view.count else { return false }
        return bytes.withByteView { stored in
            var index = 0
            while index < view.count {
                if stored[start + index] != view[index] { return false }
                index += 1
            }
            return true
        }
    }

    /// The top string as text (for messages), or nil.
    package var top: String? {
        guard let end = ends.last else { return nil }
        return String(decoding: bytes[topStart..<end], as: UTF8.self)
    }
}
