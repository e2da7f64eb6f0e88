import Foundation

/// Pieces handed from a producing thread to the threads that take them, in order: at most
/// `depth` waiting (the producer waits while the takers catch up, so memory stays bounded), then
/// the producer's outcome. A taker that gives up cancels the queue, and the producer's next push
/// throws. Used by `ReadAhead` (chunks read ahead) and `ItemPipeline` (batches of items).
final class BoundedQueue<Piece, Outcome>: @unchecked Sendable {
    private let depth: Int
    private let condition = NSCondition()
    /// Pieces not yet taken, from `head` on (taken ones are released at once).
    private var pieces: [Piece?] = []
    private var head = 0
    /// Pieces taken so far.
    private var taken = 0
    private var outcome: Result<Outcome, Diagnostic>?
    private var cancelled = false

    init(depth: Int) {
        self.depth = depth
    }

    /// Waits while `depth` pieces are waiting; throws when the takers gave up.
    func push(_ piece: Piece) throws(Diagnostic) {
        condition.lock()
        defer { condition.unlock() }
        while pieces.count - head >= depth && !cancelled { condition.wait() }
        if cancelled { throw Diagnostic.internal(.internalCancelled) }
        pieces.append(piece)
        condition.broadcast()
    }

    /// The next piece, or nil when the producer has finished and every piece was taken.
    func next() -> Piece? { nextNumbered()?.piece }

    /// The next piece and its number (0 for the first), for several threads taking pieces.
    func nextNumbered() -> (number: Int, piece: Piece)? {
        condition.lock()
        defer { condition.unlock() }
        while head == pieces.count && outcome == nil { condition.wait() }
        guard head < pieces.count, let piece = pieces[head] else { return nil }
        pieces[head] = nil
        head += 1
        let number = taken
        taken += 1
        if head >= Self.compactAfter {
            pieces.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return (number, piece)
    }

    /// How many pieces wait to be taken: a producer ahead of its takers shows here.
    var waiting: Int {
        condition.lock()
        defer { condition.unlock() }
        return pieces.count - head
    }

    /// Taken slots kept before the array is shifted down.
    private static var compactAfter: Int { 64 }

    /// The producer's last word: what it made of the whole, or its error.
    func finish(_ outcome: Result<Outcome, Diagnostic>) {
        condition.lock()
        self.outcome = outcome
        condition.broadcast()
        condition.unlock()
    }

    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for the producer to finish.
    func waitForOutcome() -> Result<Outcome, Diagnostic> {
        condition.lock()
        defer { condition.unlock() }
        while outcome == nil { condition.wait() }
        return outcome!
    }
}
