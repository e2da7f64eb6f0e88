import AlmanacBytes
@testable import AlmanacXML
import CXMLReference
import CXMLShim

/// A document read as it arrives, in pieces, with the protections of `XMLElement(parsing:)`: no
/// network, no external entities, entity declarations refused, nesting limited; memory stays that
/// of one piece. libxml2's push parser.
///
/// Nothing in the tool reads with it, and no product ships it (it and `CXMLReference` are the
/// tests'): it is the reference `XMLScanner`, which reads a workbook's sheets, is tested against
/// event for event — 1,500 random documents cut anywhere and 3,000 damaged ones
/// (`XMLScannerTests`). A hand-written reader of a format as old as XML earns trust only beside
/// the reader everyone uses. (libxml2's SAX2 hands out `&amp;` in an attribute value as `&#38;`.)
final class XMLStreamReader {
    private let stream: OpaquePointer
    private let box: Box
    private var line = 0

    private final class Box {
        let handler: any XMLStreamHandler
        init(_ handler: any XMLStreamHandler) { self.handler = handler }
    }

    init(handler: any XMLStreamHandler, limits: XMLLimits = .default) throws(XMLError) {
        box = Box(handler)
        let context = Unmanaged.passUnretained(box).toOpaque()
        guard let stream = alm_xml_stream_open(context, { context, name, count, pairs, lengths in
            guard let context, let name else { return }
            // The reader keeps the box alive while it parses: no retain per callback.
            Unmanaged<Box>.fromOpaque(context)._withUnsafeGuaranteedRef {
                $0.handler.start(ByteView.lending(name), LentPairs(pairs: pairs, lengths: lengths, count: Int(count)))
            }
        }, { context, name in
            guard let context, let name else { return }
            Unmanaged<Box>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.handler.end(ByteView.lending(name)) }
        }, { context, bytes, length in
            guard let context, let bytes else { return }
            Unmanaged<Box>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.handler.text(ByteView.lending(bytes, count: Int(length))) }
        }, Int32(clamping: limits.maxDepth)) else {
            throw XMLError(.outOfMemory, message: "out of memory")
        }
        self.stream = stream
    }

    deinit { alm_xml_stream_free(stream) }

    /// Reads the next piece (pieces may split anywhere, inside a name or a character); `last`
    /// ends the document (an unclosed element is then an error).
    func feed(_ bytes: [UInt8], last: Bool = false) throws(XMLError) {
        var error = AlmXMLError()
        let status = bytes.withUnsafeBufferPointer { buffer in
            alm_xml_stream_feed(stream, buffer.baseAddress, Int32(buffer.count), last ? 1 : 0, &error)
        }
        if status != 0 { throw XMLError(error) }
    }
}
