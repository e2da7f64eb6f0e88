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
            _ = queue.waitForOutcome()
            throw error
        }
        return try queue.waitForOutcome().get()
    }

    /// Starts the reading thread: `input` decoded into batches of about `batchBytes` on the
    /// returned queue, then the decoder's result (or its error).
    static func startReading(_ decoder: any StreamingDecoder, _ input: CodecInput, context: CodecContext, batchBytes: Int) -> Queue {
        let queue = Queue(depth: depth)
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

    /// Batches between the reading thread and the writing one(s), then the decoder's result.
    typealias Queue = BoundedQueue<Event, Decoded>
}
