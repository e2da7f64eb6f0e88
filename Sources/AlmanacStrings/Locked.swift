#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a POSIX mutex, for state that several threads share (caches, a batch's results).
///
/// Why not `Synchronization.Mutex`: on Linux its lock is implemented inside the prebuilt
/// Synchronization library, where ThreadSanitizer cannot see it, so every access guarded by it is
/// reported as a race. A pthread mutex is intercepted, so the sanitizer run stays meaningful.
/// Guard a value with storage, not `Void`: accesses to a zero-sized value were reported as races
/// under the mutex all the same (seen in 1 of 3 ThreadSanitizer runs of the batch tests).
public final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
