import Foundation

/// Work done on each chunk of an input on the thread that reads it ahead (`CodecInput.readChunks(checking:)`):
/// a check the reader would otherwise make itself before scanning the chunk, such as whether its
/// bytes are UTF-8. It sees the chunks in order and may keep state between them.
public protocol ChunkCheck: Sendable {
    associatedtype Verdict: Sendable
    mutating func check(_ chunk: [UInt8]) -> Verdict
}

extension CodecInput {
    /// A file this large is worth a reading thread (eight chunks).
    static var readAheadMinimum: Int { 8 << 20 }

    /// Chunks read ahead: with `readingAhead`, a file of eight chunks or more is read, and each
    /// chunk checked, on a thread of its own, a few chunks ahead of `body` (so reading and checking use the
    /// second core while the caller scans); other inputs are read and checked on the calling
    /// thread. `body` gets each chunk with `check`'s verdict on it, in order. An error on either
    /// side stops both; the reading thread has ended when this returns.
    public func readChunks<Check: ChunkCheck>(
        checking check: Check, readingAhead: Bool = true, _ body: ([UInt8], Check.Verdict) throws(Diagnostic) -> Void
    ) throws(Diagnostic) {
        let chunkSize = 1 << 20
        guard readingAhead, case .file(let path) = source, let size = FileChunks.size(of: path), size >= Self.readAheadMinimum else {
            var check = check
            try readChunks(chunkSize: chunkSize) { (chunk) throws(Diagnostic) in try body(chunk, check.check(chunk)) }
            return
        }
        let queue = ChunkQueue<Check.Verdict>()
        let thread = Thread {
            var check = check
            do throws(Diagnostic) {
                try FileChunks.read(path, chunkSize: chunkSize) { (chunk) throws(Diagnostic) in
                    let verdict = check.check(chunk)
                    try queue.push(chunk, verdict)
                }
                queue.finish(nil)
            } catch {
                queue.finish(error)
            }
        }
        thread.start()
        do throws(Diagnostic) {
            while let (chunk, verdict) = try queue.next() { try body(chunk, verdict) }
        } catch {
            queue.cancel()
            queue.waitUntilFinished()
            throw error
        }
    }
}

/// The chunks between the reading thread and the caller: at most `depth` waiting (a few
/// megabytes), then the end or the reader's error.
final class ChunkQueue<Verdict: Sendable>: @unchecked Sendable {
    static var depth: Int { 4 }
    private let condition = NSCondition()
    /// Chunks not yet taken, from `head` on (taken ones are released at once).
    private var chunks: [([UInt8], Verdict)?] = []
    private var head = 0
    private var finished = false
    private var failure: Diagnostic?
    private var cancelled = false

    /// Waits while the reader is `depth` chunks ahead; throws when the caller gave up.
    func push(_ chunk: [UInt8], _ verdict: Verdict) throws(Diagnostic) {
        condition.lock()
        defer { condition.unlock() }
        while chunks.count - head >= Self.depth && !cancelled { condition.wait() }
        if cancelled { throw Diagnostic.error("internal.cancelled") }
        chunks.append((chunk, verdict))
        condition.broadcast()
    }

    /// The next chunk; nil at the end; the reader's error once the chunks before it were taken.
    func next() throws(Diagnostic) -> ([UInt8], Verdict)? {
        condition.lock()
        defer { condition.unlock() }
        while head == chunks.count && !finished { condition.wait() }
        guard head < chunks.count else {
            if let failure { throw failure }
            return nil
        }
        let taken = chunks[head]
        chunks[head] = nil
        head += 1
        if head >= Self.depth {
            chunks.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return taken
    }

    func finish(_ error: Diagnostic?) {
        condition.lock()
        finished = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    func waitUntilFinished() {
        condition.lock()
        defer { condition.unlock() }
        while !finished { condition.wait() }
    }
}
