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
        try ReadAhead.pieces(madeBy: { (hand) throws(Diagnostic) in
            var check = check
            try FileChunks.read(path, chunkSize: chunkSize) { (chunk) throws(Diagnostic) in try hand((chunk, check.check(chunk))) }
        }) { (piece) throws(Diagnostic) in try body(piece.0, piece.1) }
    }
}

/// Work split between two threads: pieces made (read, inflated, checked) on a thread of their
/// own, a few ahead of the caller, who takes them in order.
public enum ReadAhead {
    /// Runs `produce` on a new thread, handing each piece it makes to `body` on this one. An
    /// error on either side stops both and is thrown here; the producing thread has ended when
    /// this returns. `produce` waits while `body` is `PieceQueue.depth` pieces behind.
    public static func pieces<Piece: Sendable>(
        madeBy produce: @escaping @Sendable (_ hand: (Piece) throws(Diagnostic) -> Void) throws(Diagnostic) -> Void,
        _ body: (Piece) throws(Diagnostic) -> Void
    ) throws(Diagnostic) {
        let queue = PieceQueue<Piece>()
        let thread = Thread {
            do throws(Diagnostic) {
                try produce { (piece) throws(Diagnostic) in try queue.push(piece) }
                queue.finish(nil)
            } catch {
                queue.finish(error)
            }
        }
        thread.start()
        do throws(Diagnostic) {
            while let piece = try queue.next() { try body(piece) }
        } catch {
            queue.cancel()
            queue.waitUntilFinished()
            throw error
        }
    }
}

/// The pieces between the producing thread and the caller: at most `depth` waiting (a few
/// megabytes), then the end or the producer's error.
final class PieceQueue<Piece: Sendable>: @unchecked Sendable {
    static var depth: Int { 4 }
    private let condition = NSCondition()
    /// Pieces not yet taken, from `head` on (taken ones are released at once).
    private var pieces: [Piece?] = []
    private var head = 0
    private var finished = false
    private var failure: Diagnostic?
    private var cancelled = false

    /// Waits while the producer is `depth` pieces ahead; throws when the caller gave up.
    func push(_ piece: Piece) throws(Diagnostic) {
        condition.lock()
        defer { condition.unlock() }
        while pieces.count - head >= Self.depth && !cancelled { condition.wait() }
        if cancelled { throw Diagnostic.error("internal.cancelled") }
        pieces.append(piece)
        condition.broadcast()
    }

    /// The next piece; nil at the end; the producer's error once the pieces before it were taken.
    func next() throws(Diagnostic) -> Piece? {
        condition.lock()
        defer { condition.unlock() }
        while head == pieces.count && !finished { condition.wait() }
        guard head < pieces.count else {
            if let failure { throw failure }
            return nil
        }
        let taken = pieces[head]
        pieces[head] = nil
        head += 1
        if head >= Self.depth {
            pieces.removeFirst(head)
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
