import Foundation

/// Reads a stream on one core while the caller converts and writes it on another: the decoder
/// runs on a thread of its own and hands items over in batches through a bounded queue (a few
/// batches ahead at most, so memory stays constant). For one large file, this is how the
/// conversion uses both cores, as DuckDB does; a batch of many files uses them by file instead.
enum ItemPipeline {
    /// About how many bytes of items go between the threads at once (a calendar item counts
    /// half a kilobyte; rows count their bytes).
    static let batchBytes = 256 * 1024
    /// Batches the reader may run ahead: at most a few megabytes in flight.
    static let depth = 8

    /// Decodes `input` on a reading thread into `sink` on the calling thread; returns what
    /// `decodeItems` returns. A failure on either side stops both.
    static func run<Sink: DocumentSink>(_ decoder: any StreamingDecoder, _ input: CodecInput, context: CodecContext,
                                        batchBytes: Int = batchBytes, into sink: inout Sink) throws(Diagnostic) -> Decoded {
        let queue = startReading(decoder, input, context: context, batchBytes: batchBytes)
        do throws(Diagnostic) {
            while let event = queue.next() {
                switch event {
                case .frame(let frame): try sink.begin(frame)
                case .items(let items, _): for item in items { try sink.item(item) }
                }
            }
        } catch {
            queue.cancel()
            _ = queue.waitForResult()
            throw error
        }
        return try queue.waitForResult().get()
    }

    /// Starts the reading thread: `input` decoded into batches of about `batchBytes` on the
    /// returned queue, then the decoder's result (or its error).
    static func startReading(_ decoder: any StreamingDecoder, _ input: CodecInput, context: CodecContext, batchBytes: Int) -> Queue {
        let queue = Queue()
        var context = context
        context.readsAhead = false  // this thread is the reading one
        let thread = Thread { [context] in
            var producer = Producer(queue: queue, batchBytes: batchBytes)
            do throws(Diagnostic) {
                let decoded = try decoder.decodeItems(input, context: context, into: &producer)
                try producer.flush()
                queue.finish(.success(decoded))
            } catch {
                queue.finish(.failure(error))
            }
        }
        thread.stackSize = 8 << 20
        thread.start()
        return queue
    }

    enum Event {
        case frame(Document)
        /// A batch, and how many records of the source came before it.
        case items([DocumentItem], first: Int)
    }

    /// The reading thread's sink: items go out in batches.
    struct Producer: DocumentSink {
        let queue: Queue
        let batchBytes: Int
        var batch: [DocumentItem] = []
        var weight = 0
        /// Records handed over before `batch`, and in it.
        var first = 0
        var count = 0

        mutating func begin(_ frame: Document) throws(Diagnostic) {
            try queue.push(.frame(frame))
        }

        mutating func item(_ item: DocumentItem) throws(Diagnostic) {
            batch.append(item)
            switch item {
            case .rows(let rows): weight += rows.byteCount + 16 * rows.count
            case .calendarItem: weight += 512
            }
            count += item.records
            if weight >= batchBytes { try flush() }
        }

        mutating func flush() throws(Diagnostic) {
            guard !batch.isEmpty else { return }
            let full = batch
            batch = []
            weight = 0
            try queue.push(.items(full, first: first))
            first += count
            count = 0
        }
    }

    final class Queue: @unchecked Sendable {
        private let condition = NSCondition()
        /// Events not yet taken, from `head` on (taken ones are released at once).
        private var events: [Event?] = []
        private var head = 0
        private var result: Result<Decoded, Diagnostic>?
        private var cancelled = false

        /// Waits while the reader is far enough ahead; throws when the writer gave up.
        func push(_ event: Event) throws(Diagnostic) {
            condition.lock()
            defer { condition.unlock() }
            while events.count - head >= ItemPipeline.depth && !cancelled { condition.wait() }
            if cancelled { throw Diagnostic.error("internal.cancelled") }
            events.append(event)
            condition.broadcast()
        }

        /// Events taken so far.
        private var taken = 0

        /// The next event, or nil when the reader has finished and everything was taken.
        func next() -> Event? { nextNumbered()?.event }

        /// The next event and its number (0 for the first), for several threads taking events.
        func nextNumbered() -> (number: Int, event: Event)? {
            condition.lock()
            defer { condition.unlock() }
            while head == events.count && result == nil { condition.wait() }
            guard head < events.count, let event = events[head] else { return nil }
            events[head] = nil
            head += 1
            let number = taken
            taken += 1
            if head > 64 {
                events.removeFirst(head)
                head = 0
            }
            condition.broadcast()
            return (number, event)
        }

        func finish(_ result: Result<Decoded, Diagnostic>) {
            condition.lock()
            self.result = result
            condition.broadcast()
            condition.unlock()
        }

        func cancel() {
            condition.lock()
            cancelled = true
            condition.broadcast()
            condition.unlock()
        }

        func waitForResult() -> Result<Decoded, Diagnostic> {
            condition.lock()
            defer { condition.unlock() }
            while result == nil { condition.wait() }
            return result!
        }
    }
}
