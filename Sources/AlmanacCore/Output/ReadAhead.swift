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
    /// this returns. `produce` waits while `body` is `depth` pieces behind.
    public static func pieces<Piece: Sendable>(
        madeBy produce: @escaping @Sendable (_ hand: (Piece) throws(Diagnostic) -> Void) throws(Diagnostic) -> Void,
        _ body: (Piece) throws(Diagnostic) -> Void
    ) throws(Diagnostic) {
        let queue = BoundedQueue<Piece, Void>(depth: depth)
        let thread = Thread {
            do throws(Diagnostic) {
                try produce { (piece) throws(Diagnostic) in try queue.push(piece) }
                queue.finish(.success(()))
            } catch {
                queue.finish(.failure(error))
            }
        }
        thread.start()
        do throws(Diagnostic) {
            while let piece = queue.next() { try body(piece) }
        } catch {
            queue.cancel()
            _ = queue.waitForOutcome()
            throw error
        }
        // The producer's error, once the pieces before it were taken.
        try queue.waitForOutcome().get()
    }

    /// Pieces the producer may run ahead (chunks of a megabyte, or inflated pieces of 64 KB).
    static var depth: Int { 4 }
}
