import Foundation

/// A value behind a lock, for state that several threads share (caches, a batch's results): the
/// one lock type of the package. (Waiting for a change — a queue's takers, a pipeline's slots —
/// needs a condition variable, `NSCondition`, which is a lock and a wait in one.)
///
/// Why not `Synchronization.Mutex`: on Linux its lock is implemented inside the prebuilt
/// Synchronization library, where ThreadSanitizer cannot see it, so every access guarded by it is
/// reported as a race. `NSLock` is a pthread mutex, which the sanitizer intercepts, so its runs
/// stay meaningful.
/// Guard a value with storage, not `Void`: accesses to a zero-sized value were reported as races
/// under the mutex all the same (seen in 1 of 3 ThreadSanitizer runs of the batch tests).
public final class Locked<Value>: @unchecked Sendable {
    @usableFromInline var value: Value
    @usableFromInline let lock = NSLock()

    public init(_ value: Value) {
        self.value = value
    }

    /// Inlinable: clocks ask their transition tables under it for every date they convert.
    @inlinable
    public func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
