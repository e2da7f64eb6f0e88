import Foundation

/// A value behind a lock, for state that several threads share (caches, a batch's results).
///
/// Why not `Synchronization.Mutex`: on Linux its lock is implemented inside the prebuilt
/// Synchronization library, where ThreadSanitizer cannot see it, so every access guarded by it is
/// reported as a race. `NSLock` is a pthread mutex, which the sanitizer intercepts, so its runs
/// stay meaningful.
/// Guard a value with storage, not `Void`: accesses to a zero-sized value were reported as races
/// under the mutex all the same (seen in 1 of 3 ThreadSanitizer runs of the batch tests).
public final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    public init(_ value: Value) {
        self.value = value
    }

    public func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
