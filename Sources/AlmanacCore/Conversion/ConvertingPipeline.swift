import Foundation

/// Where the converting pipeline hands items that replicas already converted.
protocol ConvertedItemSink: DocumentSink {
    /// An item in the target's model, in the source's order.
    mutating func converted(_ item: DocumentItem) throws(Diagnostic)
}

extension ItemPipeline {
    /// Reads `input` on a thread of its own, converts its batches on `workers` threads (each with a
    /// replica of `converter`) and hands the converted items to `sink` on the calling thread, in
    /// the source's order, with what each batch found added to `converter` in that order too. For a
    /// large input whose conversion costs more than reading and writing it (rows read as days and
    /// written back for a region), this is how the conversion uses every core.
    static func run<Sink: ConvertedItemSink>(_ decoder: any StreamingDecoder, _ input: CodecInput, context: CodecContext,
                                             converting converter: any ConcurrentItemConverter, workers: Int,
                                             batchBytes: Int = batchBytes, into sink: inout Sink) throws(Diagnostic) -> Decoded {
        let queue = Queue()
        let reader = Thread {
            var producer = Producer(queue: queue, batchBytes: batchBytes)
            do throws(Diagnostic) {
                let decoded = try decoder.decodeItems(input, context: context, into: &producer)
                try producer.flush()
                queue.finish(.success(decoded))
            } catch {
                queue.finish(.failure(error))
            }
        }
        reader.stackSize = 8 << 20
        reader.start()
        let results = ConvertedBatches(depth: depth * max(workers, 1))
        do throws(Diagnostic) {
            // The frame comes first: the converter is set up by it before it is replicated.
            guard let (_, first) = queue.nextNumbered() else { return try queue.waitForResult().get() }
            guard case .frame(let frame) = first else { throw Diagnostic.error("internal.stream-without-frame") }
            try sink.begin(frame)
            for _ in 0..<max(workers, 1) {
                let replica = Replica(converter: try converter.replica())
                results.workerStarted()
                let thread = Thread { Self.convertBatches(queue: queue, results: results, replica: replica.converter) }
                thread.stackSize = 8 << 20
                thread.start()
            }
            // Batch numbers follow the frame's (0).
            var number = 1
            while let batch = try results.take(number) {
                for item in batch.items { try sink.converted(item) }
                converter.absorb(batch.findings)
                number += 1
            }
        } catch {
            results.cancel()
            queue.cancel()
            results.waitForWorkers()
            _ = queue.waitForResult()
            throw error
        }
        results.waitForWorkers()
        return try queue.waitForResult().get()
    }

    /// A replica handed to the thread that alone uses it.
    private struct Replica: @unchecked Sendable {
        let converter: any ConcurrentItemConverter
    }

    /// A worker: takes the next batch, converts it, hands it over under its number.
    private static func convertBatches(queue: Queue, results: ConvertedBatches, replica: any ConcurrentItemConverter) {
        defer { results.workerFinished() }
        while !results.isCancelled, let (number, event) = queue.nextNumbered() {
            guard case .items(let items, let first) = event else {
                results.put(number, .failure(Diagnostic.error("internal.stream-without-frame")))
                return
            }
            replica.seek(to: first)
            var converted: [DocumentItem] = []
            converted.reserveCapacity(items.count)
            do throws(Diagnostic) {
                for item in items {
                    try replica.convert(item) { (item) throws(Diagnostic) in converted.append(item) }
                }
                results.put(number, .success(ConvertedBatches.Batch(items: converted, findings: replica.takeFindings())))
            } catch {
                results.put(number, .failure(error))
                return
            }
        }
    }
}

/// Converted batches waiting to be written in order. A worker may run only a few batches ahead of
/// the writer, so memory stays constant.
final class ConvertedBatches: @unchecked Sendable {
    struct Batch {
        var items: [DocumentItem]
        var findings: any Sendable
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
