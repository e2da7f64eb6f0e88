@testable import AlmanacCore
import Foundation
import Synchronization
import Testing

/// The reading thread and the writing thread: items arrive in order and whole, and a failure on
/// either side stops both without hanging.
@Suite struct ItemPipelineTests {
    /// A decoder of `count` one-row batches that fails after `failAfter` items when asked to.
    struct Counting: StreamingDecoder {
        let count: Int
        var failAfter: Int? = nil
        /// A pause after each item, in seconds: a reader slower than the workers.
        var pause: TimeInterval? = nil
        let produced = Counter()

        final class Counter: Sendable {
            let value = Mutex(0)
            func withLock<R>(_ body: (inout Int) -> R) -> R { value.withLock { body(&$0) } }
        }

        var format: FormatDescription { FormatDescription(id: "counting", name: "Counting", summary: "test", model: .table, canWrite: false) }
        func identify(_ probe: Probe) -> Identification { .cannotTell }
        func decode(_ input: CodecInput, context: CodecContext) throws(Diagnostic) -> Decoded { try decodeByItems(input, context: context) }

        func decodeItems(_ input: CodecInput, context: CodecContext, into sink: inout some DocumentSink) throws(Diagnostic) -> Decoded {
            try sink.begin(.table(Table(columns: ["n"])))
            for index in 0..<count {
                if let failAfter, index == failAfter { throw Diagnostic.error(.jsonSyntax(reason: "reader gave up"), at: SourceLocation(line: index)) }
                try sink.item(.rows(TableRows([[String(index)]])))
                produced.withLock { $0 += 1 }
                if let pause { Thread.sleep(forTimeInterval: pause) }
            }
            return Decoded(document: .table(Table(columns: ["n"])))
        }
    }

    struct Collecting: DocumentSink {
        var frames = 0
        var numbers: [Int] = []
        var failAt: Int? = nil

        mutating func begin(_ frame: Document) throws(Diagnostic) { frames += 1 }
        mutating func item(_ item: DocumentItem) throws(Diagnostic) {
            guard case .rows(let rows) = item else { return }
            for row in rows {
                if let failAt, numbers.count == failAt { throw Diagnostic.error(.outputFailed(reason: "writer gave up")) }
                numbers.append(Int(row[0])!)
            }
        }
    }

    @Test func itemsArriveInOrder() throws {
        var sink = Collecting()
        _ = try ItemPipeline.run(Counting(count: 50_000), CodecInput(bytes: []), context: CodecContext(), into: &sink)
        #expect(sink.frames == 1)
        #expect(sink.numbers == Array(0..<50_000))
    }

    @Test func aReaderFailureReachesTheWriter() {
        var sink = Collecting()
        let error = #expect(throws: Diagnostic.self) {
            _ = try ItemPipeline.run(Counting(count: 50_000, failAfter: 30_000), CodecInput(bytes: []), context: CodecContext(), into: &sink)
        }
        #expect(error?.location?.line == 30_000)
        #expect(sink.numbers == Array(0..<sink.numbers.count))
    }

    /// The writer stops early: the reader is told to stop too, and is not left blocked on a full queue.
    @Test func aWriterFailureStopsTheReader() {
        let decoder = Counting(count: 1_000_000)
        var sink = Collecting(failAt: 1_000)
        let started = Date()
        let error = #expect(throws: Diagnostic.self) {
            _ = try ItemPipeline.run(decoder, CodecInput(bytes: []), context: CodecContext(), into: &sink)
        }
        #expect(error?.code == "output.failed")
        #expect(decoder.produced.withLock { $0 } < 1_000_000)
        #expect(Date().timeIntervalSince(started) < 30)
    }

    /// Doubles each number on whichever thread converts its batch; remembers the first index of
    /// each batch it converted and the threads it ran on, and fails at `failAt` when asked to.
    final class Doubling: ConcurrentItemConverter, @unchecked Sendable {
        var failAt: Int? = nil
        var index = 0
        var found: [Int] = []
        let threads: Counting.Counter
        var absorbed: [Int] = []

        init(failAt: Int? = nil, threads: Counting.Counter = .init()) {
            self.failAt = failAt
            self.threads = threads
        }

        func frame(_ frame: Document) throws(Diagnostic) -> Document { frame }
        func convert(_ item: DocumentItem, emit: (DocumentItem) throws(Diagnostic) -> Void) throws(Diagnostic) {
            guard case .rows(let rows) = item else { return }
            found.append(index)
            var doubled: [[String]] = []
            for row in rows {
                if index == failAt { throw Diagnostic.error(Message(key: "csv.bad-value", ["row", "n", row[0], "number"]), at: SourceLocation(line: index)) }
                doubled.append([String(Int(row[0])! * 2)])
                index += 1
            }
            try emit(.rows(TableRows(doubled)))
        }
        func finish(_ frame: Document) throws(Diagnostic) -> (frame: Document, diagnostics: [Diagnostic]) { (frame, []) }
        func replica() throws(Diagnostic) -> any ConcurrentItemConverter {
            threads.withLock { $0 += 1 }
            return Doubling(failAt: failAt, threads: threads)
        }
        func seek(to index: Int) { self.index = index }
        func takeFindings() -> any Sendable {
            defer { found = [] }
            return found
        }
        func absorb(_ findings: any Sendable) { absorbed += findings as! [Int] }
    }

    struct CollectingConverted: ConvertedItemSink {
        var inner = Collecting()
        mutating func begin(_ frame: Document) throws(Diagnostic) { try inner.begin(frame) }
        mutating func item(_ item: DocumentItem) throws(Diagnostic) { Issue.record("items arrive converted") }
        mutating func converted(_ item: DocumentItem) throws(Diagnostic) { try inner.item(item) }
        var concurrentWriter: (any ConcurrentItemWriter)? { nil }
        mutating func encoded(_ batch: EncodedBatch, records: Int) throws(Diagnostic) { Issue.record("no writer encodes") }
    }

    /// Batches converted on several threads arrive in order, each batch's findings absorbed in the
    /// source's order, and every replica is told where its batch starts. Workers start as the
    /// reader gets ahead, never more than asked for or than the cores.
    @Test func batchesConvertedOnSeveralThreadsArriveInOrder() throws {
        let converter = Doubling()
        var sink = CollectingConverted()
        _ = try ItemPipeline.run(Counting(count: 20_000), CodecInput(bytes: []), context: CodecContext(),
                                 converting: converter, workers: 3, batchBytes: 1_000, into: &sink)
        #expect(sink.inner.frames == 1)
        #expect(sink.inner.numbers == (0..<20_000).map { $0 * 2 })
        let started = converter.threads.withLock { $0 }
        #expect(started >= 1 && started <= min(3, ProcessInfo.processInfo.activeProcessorCount))
        #expect(converter.absorbed == Array(0..<20_000))
    }

    /// A reader slower than the work keeps one worker busy: the others are not started (sixteen
    /// started at once woke for every batch and found nothing).
    @Test func aSlowReaderStartsOneWorker() throws {
        let converter = Doubling()
        var sink = CollectingConverted()
        // A batch per item (a row weighs its bytes and 16), 10 ms apart: the worker converts each in
        // microseconds, so two never wait.
        _ = try ItemPipeline.run(Counting(count: 12, pause: 0.01), CodecInput(bytes: []), context: CodecContext(),
                                 converting: converter, workers: 16, batchBytes: 16, into: &sink)
        #expect(sink.inner.numbers == (0..<12).map { $0 * 2 })
        #expect(converter.threads.withLock { $0 } == 1)
    }

    /// A conversion that fails on one thread stops the others and the reader, and its error arrives.
    @Test func aConversionFailureStopsEveryThread() {
        let decoder = Counting(count: 1_000_000)
        var sink = CollectingConverted()
        let error = #expect(throws: Diagnostic.self) {
            _ = try ItemPipeline.run(decoder, CodecInput(bytes: []), context: CodecContext(),
                                     converting: Doubling(failAt: 5_000), workers: 2, batchBytes: 1_000, into: &sink)
        }
        #expect(error?.location?.line == 5_000)
        #expect(sink.inner.numbers == (0..<sink.inner.numbers.count).map { $0 * 2 })
        #expect(sink.inner.numbers.count <= 5_000)
        #expect(decoder.produced.withLock { $0 } < 1_000_000)
    }
}
