/// One record of a document: what codecs that stream read and write one at a time.
public enum DocumentItem: Sendable {
    /// An event, day or to-do of an agenda.
    case calendarItem(CalendarItem)
    /// Rows of a table (each its cells in column order), a batch at a time.
    case rows(TableRows)

    /// The records it holds: its rows, or one calendar item.
    public var records: Int {
        // A switch that binds only the rows: `if case .rows(let rows) = self` copied a whole
        // calendar item (every field retained and released) to look at its case.
        switch self {
        case .calendarItem: 1
        case .rows(let rows): rows.count
        }
    }
}

/// Where a streaming decoder hands a document over: its frame first (the document as known before
/// the first item, with no items), then each item as soon as it is complete.
public protocol DocumentSink {
    mutating func begin(_ frame: Document) throws(Diagnostic)
    mutating func item(_ item: DocumentItem) throws(Diagnostic)
    /// False when the sink only counts items (`almanac inspect`): a decoder may then hand over
    /// rows without their fields.
    var wantsContent: Bool { get }
}

extension DocumentSink {
    public var wantsContent: Bool { true }
}

/// Bytes handed over in pieces (about a megabyte each), in order.
public typealias ByteOutput = ([UInt8]) throws(Diagnostic) -> Void

/// A codec that reads its model as a stream of items, in memory that does not grow with the
/// number of items. The conversion pipeline streams whenever both ends can.
public protocol StreamingDecoder: Codec {
    /// Reads `input`: `sink.begin` once, before any item (also for an input with none), then
    /// `sink.item` for each item in order. Returns the whole frame — with what came after the items
    /// too, such as components at the end of a calendar — and the warnings, as `decode` would.
    func decodeItems(_ input: CodecInput, context: CodecContext, into sink: inout some DocumentSink) throws(Diagnostic) -> Decoded
}

/// A codec that writes its model item by item.
public protocol StreamingEncoder: Codec {
    /// Starts a document of which only the frame is known; the writer takes the items and, at the
    /// end, the whole frame. Bytes go to `output` as they are ready.
    func itemWriter(_ frame: Document, context: CodecContext, output: @escaping ByteOutput) throws(Diagnostic) -> any DocumentItemWriter
}

/// Writes the items of one document, then its end.
public protocol DocumentItemWriter: AnyObject {
    func write(_ item: DocumentItem) throws(Diagnostic)
    /// Writes what follows the items and hands over the last bytes; `frame` is the whole frame
    /// the decoder returned. Returns warnings about what the format could not hold.
    func finish(_ frame: Document) throws(Diagnostic) -> [Diagnostic]
}

/// A writer whose items encode independently of one another: for a large input the pipeline
/// encodes batches on every core, each with an encoder of its own, and this writer writes their
/// bytes in order (with what goes between batches: a separator, an opening bracket).
public protocol ConcurrentItemWriter: DocumentItemWriter {
    /// An encoder for batches on another thread; it writes nothing itself.
    func batchEncoder() throws(Diagnostic) -> any BatchEncoder
    /// Writes a batch an encoder made, in the document's order.
    func write(_ batch: EncodedBatch) throws(Diagnostic)
}

/// Encodes batches of items for a `ConcurrentItemWriter`, on a thread of its own.
public protocol BatchEncoder: AnyObject {
    /// The bytes of `items` as the writer would write them after other items, and what the
    /// writer needs to know of them at the end (the time zones they use).
    func encode(_ items: [DocumentItem]) throws(Diagnostic) -> EncodedBatch
}

/// A batch of items encoded on another thread.
public struct EncodedBatch: Sendable {
    public var bytes: [UInt8]
    /// What the writer needs to know of these items at the end; nil when nothing.
    public var findings: (any Sendable)?

    public init(bytes: [UInt8], findings: (any Sendable)? = nil) {
        self.bytes = bytes
        self.findings = findings
    }
}

/// Converts a stream of one model's items into another's (table rows into days, days into rows
/// for the reader's region), for converters that can work item by item.
public protocol DocumentItemConverter: AnyObject {
    /// Whether every item must be seen once before the first is converted (the columns a
    /// calendar's rows fill): the pipeline then reads the input twice, calling `observe` first.
    var needsFirstPass: Bool { get }
    /// The source's frame, before the items of the first pass.
    func observeFrame(_ frame: Document)
    func observe(_ item: DocumentItem)
    /// The target's frame for the source's.
    func frame(_ frame: Document) throws(Diagnostic) -> Document
    /// The item in the target model, handed to `emit`: once, several times (a batch of rows
    /// becomes days) or not at all (an empty row).
    func convert(_ item: DocumentItem, emit: (DocumentItem) throws(Diagnostic) -> Void) throws(Diagnostic)
    /// The target's whole frame for the source's, and what was dropped or approximated.
    func finish(_ frame: Document) throws(Diagnostic) -> (frame: Document, diagnostics: [Diagnostic])
}

/// A converter whose batches convert independently of one another: for a large input the
/// pipeline converts batches on every core, each with a replica, and writes them in order. What a
/// replica finds (warnings, losses) is handed back batch by batch, in the source's order, so the
/// report is the one converting on one core gives.
public protocol ConcurrentItemConverter: DocumentItemConverter {
    /// A converter set up as this one is after `frame`, with nothing found yet.
    func replica() throws(Diagnostic) -> any ConcurrentItemConverter
    /// The next item handed to `convert` is the source's `index`th (counting rows one by one and
    /// calendar items one each): rows are numbered in messages from it.
    func seek(to index: Int)
    /// What was found since the replica was made or last asked, for `absorb`.
    func takeFindings() -> any Sendable
    /// Adds a replica's findings, in the order of the batches they came from.
    func absorb(_ findings: any Sendable)
}

extension DocumentItemConverter {
    public var needsFirstPass: Bool { false }
    public func observeFrame(_ frame: Document) {}
    public func observe(_ item: DocumentItem) {}
}

extension StreamingEncoder {
    /// Encodes a whole document through the codec's item writer, so that a document written at
    /// once and one written as a stream are the same bytes.
    public func encodeByItems(_ document: Document, context: CodecContext) throws(Diagnostic) -> Encoded {
        var bytes: [UInt8] = []
        let (frame, items) = document.splitItems()
        let writer = try itemWriter(frame, context: context) { (piece) throws(Diagnostic) in bytes += piece }
        for item in items { try writer.write(item) }
        let diagnostics = try writer.finish(frame)
        return Encoded(bytes: bytes, diagnostics: diagnostics)
    }
}

extension StreamingDecoder {
    /// For a format whose tree is parsed whole first (JSON, XML): decodes it, then hands the
    /// items on as `decodeItems` does.
    public func decodeWholeThenItems(_ input: CodecInput, context: CodecContext, into sink: inout some DocumentSink) throws(Diagnostic) -> Decoded {
        var decoded = try decode(input, context: context)
        let (frame, items) = decoded.document.splitItems()
        try sink.begin(frame)
        for item in items { try sink.item(item) }
        decoded.document = frame
        return decoded
    }

    /// Decodes a whole document through the codec's item reader.
    public func decodeByItems(_ input: CodecInput, context: CodecContext) throws(Diagnostic) -> Decoded {
        var collector = DocumentCollector()
        var decoded = try decodeItems(input, context: context, into: &collector)
        decoded.document = decoded.document.withItems(collector.items)
        return decoded
    }
}
