import Foundation

/// Where the parallel pipeline hands items that other threads converted or encoded.
protocol ConvertedItemSink: DocumentSink {
    /// After `begin`: the target's writer, when it can take batches encoded on other threads.
    var concurrentWriter: (any ConcurrentItemWriter)? { get }
    /// An item in the target's model, in the source's order.
    mutating func converted(_ item: DocumentItem) throws(Diagnostic)
    /// A batch the concurrent writer's encoder made, holding `records` records.
    mutating func encoded(_ batch: EncodedBatch, records: Int) throws(Diagnostic)
}

extension ItemPipeline {
    /// Reads `input` on a thread of its own and hands its batches to `workers` threads, which
    /// convert them (each with a replica of `converter`) and encode them (each with an encoder of
    /// the sink's writer, when it has one that can); the calling thread writes the results in the
    /// source's order, and adds what each batch found to `converter` in that order too. For one
    /// large file, this is how conversion and writing use every core. With neither a converter
    /// nor a writer that can work on batches, it reads on one thread and writes on the other.
    static func run<Sink: ConvertedItemSink>(_ decoder: any StreamingDecoder, _ input: CodecInput, context: CodecContext,
                                             converting converter: (any ConcurrentItemConverter)?, workers: Int,
                                             batchBytes: Int = batchBytes, into sink: inout Sink) throws(Diagnostic) -> Decoded {
        let queue = startReading(decoder, input, context: context, batchBytes: batchBytes)
        let results = ConvertedBatches(depth: depth * max(workers, 1))
        do throws(Diagnostic) {
            // The frame comes first: the converter and the writer are set up by it before they
            // are replicated.
            guard let (_, first) = queue.nextNumbered() else { return try queue.waitForOutcome().get() }
            guard case .frame(let frame) = first else { throw Diagnostic.error(.internalStreamWithoutFrame) }
            try sink.begin(frame)
            let writer = sink.concurrentWriter
            guard converter != nil || writer != nil else {
                // Nothing to do on other threads: items are converted and written here.
                while let (_, event) = queue.nextNumbered() {
                    switch event {
                    case .frame: throw Diagnostic.error(.internalStreamWithoutFrame)
                    case .items(let items, _): for item in items { try sink.item(item) }
                    }
                }
                return try queue.waitForOutcome().get()
            }
            // Workers start as the reader gets ahead of them: one to begin with, then one for each
            // batch waiting untaken beyond the first, up to `workers` and no more than the cores (past
            // them the reader only seems ahead: the workers wait for a core). A reader slower than
            // the workers then feeds two or three, not sixteen that wake for every batch and find
            // nothing (on 16 cores a 1M-item calendar took 10.3 s of CPU with one worker and 17.3 s
            // with sixteen started at once, and was no faster).
            let most = max(1, min(workers, ProcessInfo.processInfo.activeProcessorCount))
            var started = 0
            func startWorker() throws(Diagnostic) {
                let worker = Worker(converter: try converter?.replica(), encoder: try writer?.batchEncoder())
                results.workerStarted()
                let thread = Thread { worker.run(queue: queue, results: results) }
                thread.stackSize = 8 << 20
                thread.start()
                started += 1
            }
            try startWorker()
            // Batch numbers follow the frame's (0).
            var number = 1
            while true {
                let wanted = min(most, started + queue.waiting - Self.waitingForAnotherWorker + 1)
                while started < wanted { try startWorker() }
                guard let batch = try results.take(number) else { break }
                if let encoded = batch.encoded {
                    try sink.encoded(encoded, records: batch.records)
                } else {
                    for item in batch.items { try sink.converted(item) }
                }
                if let found = batch.findings { converter?.absorb(found) }
                number += 1
            }
        } catch {
            results.cancel()
            queue.cancel()
            results.waitForWorkers()
            _ = queue.waitForOutcome()
            throw error
        }
        results.waitForWorkers()
        return try queue.waitForOutcome().get()
    }

    /// Batches waiting in the reader's queue that start one more worker: two, as one may be on its
    /// way to a worker already.
    static let waitingForAnotherWorker = 2

    /// One thread's share: takes the next batch, converts and encodes it, hands it over under
    /// its number. Its converter and encoder are used by its thread alone.
    private struct Worker: @unchecked Sendable {
        let converter: (any ConcurrentItemConverter)?
        let encoder: (any BatchEncoder)?

        func run(queue: Queue, results: ConvertedBatches) {
            defer { results.workerFinished() }
            while !results.isCancelled, let (number, event) = queue.nextNumbered() {
                guard case .items(let items, let first) = event else {
                    results.put(number, .failure(Diagnostic.error(.internalStreamWithoutFrame)))
                    return
                }
                do throws(Diagnostic) {
                    results.put(number, .success(try convert(items, first: first)))
                } catch {
                    results.put(number, .failure(error))
                    return
                }
            }
        }

        private func convert(_ items: [DocumentItem], first: Int) throws(Diagnostic) -> ConvertedBatches.Batch {
            var batch = ConvertedBatches.Batch()
            if let converter {
                converter.seek(to: first)
                batch.items.reserveCapacity(items.count)
                for item in items {
                    try converter.convert(item) { (item) throws(Diagnostic) in batch.items.append(item) }
                }
                batch.findings = converter.takeFindings()
            } else {
                batch.items = items
            }
            if let encoder {
                batch.records = batch.items.reduce(0) { $0 + $1.records }
                batch.encoded = try encoder.encode(batch.items)
                batch.items = []
            }
            return batch
        }
    }
}

/// Converted batches waiting to be written in order. A worker may run only a few batches ahead of
/// the writer, so memory stays constant.
final class ConvertedBatches: @unchecked Sendable {
    struct Batch {
        var items: [DocumentItem] = []
        /// The items encoded, when the writer's encoder did it, and how many records they hold.
        var encoded: EncodedBatch?
        var records = 0
        /// What the converter found in these items.
        var findings: (any Sendable)?
    }

    private let condition = NSCondition()
    private let depth: Int
    private var done: [Int: Result<Batch, Diagnostic>] = [:]
    private var written = 1
    private var workers = 0
    private var cancelled = false

    init(depth: Int) { self.depth = depth }

    var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }

    func workerStarted() {
        condition.lock()
        workers += 1
        condition.unlock()
    }

    func workerFinished() {
        condition.lock()
        workers -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Hands over batch `number`; waits while it is too far ahead of the writer.
    func put(_ number: Int, _ result: Result<Batch, Diagnostic>) {
        condition.lock()
        defer { condition.unlock() }
        while number >= written + depth && !cancelled { condition.wait() }
        guard !cancelled else { return }
        done[number] = result
        condition.broadcast()
    }

    /// Batch `number` when it is converted; nil when every worker has finished without it (the
    /// input has no more batches). A batch whose conversion failed throws its error.
    func take(_ number: Int) throws(Diagnostic) -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while done[number] == nil && workers > 0 { condition.wait() }
        guard let result = done.removeValue(forKey: number) else { return nil }
        written = number + 1
        condition.broadcast()
        return try result.get()
    }

    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    func waitForWorkers() {
        condition.lock()
        while workers > 0 { condition.wait() }
        condition.unlock()
    }
}
