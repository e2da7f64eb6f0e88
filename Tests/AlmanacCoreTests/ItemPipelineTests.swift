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
                if let failAfter, index == failAfter { throw Diagnostic.error("json.syntax", "reader gave up", at: SourceLocation(line: index)) }
                try sink.item(.rows(TableRows([[String(index)]])))
                produced.withLock { $0 += 1 }
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
                if let failAt, numbers.count == failAt { throw Diagnostic.error("output.failed", "writer gave up") }
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
}
