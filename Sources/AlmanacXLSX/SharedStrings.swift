import AlmanacBytes
import AlmanacCore
import AlmanacXML

/// The workbook's shared strings (`xl/sharedStrings.xml`, ECMA-376 Part 1 §18.4) for the texts
/// that repeat: a text's first cell holds it inline, and from its second it is shared, each cell
/// holding its number, as Excel stores every text. A sheet of categories, day types and template
/// notes is a third smaller before compression, and a reader parses a number instead of a string.
///
/// Bounded whatever the sheet: at most `maxTexts` texts of up to `maxTextBytes` bytes each,
/// `maxBytes` in all, are looked at; past that, new texts stay inline (a text longer than a few
/// lines rarely repeats). A reader holds at most those in memory.
struct SharedStrings {
    static let maxTexts = 65_536
    static let maxBytes = 4 << 20
    static let maxTextBytes = 1_024

    /// Every text looked at, shared or not yet.
    private var seen = ByteStringTable(maxCount: maxTexts, maxBytes: maxBytes)
    /// Each seen text's number in `<sst>`, −1 while it was seen once.
    private var numbers: [Int32] = []
    /// The seen texts in `<sst>`'s order.
    private var shared: [Int32] = []
    /// Cells that refer to a shared text.
    private(set) var references = 0

    var uniqueCount: Int { shared.count }

    /// The number of this text in `<sst>` when its cell should refer to it there; nil when the cell
    /// should hold it inline (its first time, or the table is full).
    mutating func number(_ text: ByteView) -> Int? {
        guard text.count <= Self.maxTextBytes, let (index, added) = seen.insert(text) else { return nil }
        if added {
            numbers.append(-1)
            return nil
        }
        if numbers[index] < 0 {
            numbers[index] = Int32(shared.count)
            shared.append(Int32(index))
        }
        references += 1
        return Int(numbers[index])
    }

    /// `xl/sharedStrings.xml`: each shared text as an `<si>`, spaces at its edges kept.
    func xml() -> [UInt8] {
        var output = ByteWriter(capacity: 4096 + seen.count * 16)
        output.append(WorkbookParts.declaration)
        output.append(#"<sst xmlns=""#)
        output.append(WorkbookParts.main)
        output.append(#"" count=""#)
        output.append(decimal: references)
        output.append(#"" uniqueCount=""#)
        output.append(decimal: shared.count)
        output.append(#"">"#)
        for index in shared {
            seen.withBytes(of: Int(index)) { text in
                output.append("<si>")
                SheetEncoder.appendText(text, to: &output)
                output.append("</si>")
            }
        }
        output.append("</sst>")
        return output.take()
    }
}

// MARK: Reading

/// `<sst>`'s strings: each `<si>`'s text runs joined, phonetic guides (`<rPh>`) left out.
final class SharedStringsReader: XMLStreamHandler {
    /// Most bytes of text the shared strings may hold (a cell refers to them while the sheet
    /// streams, so they are kept in memory): a million distinct texts of a hundred bytes each
    /// are 100 MB.
    static let maxBytes = 256 << 20
    private let maxBytes: Int
    private(set) var strings = SharedTexts()
    private(set) var overLimit = false

    init(maxBytes: Int = SharedStringsReader.maxBytes) { self.maxBytes = maxBytes }
    private var current: [UInt8] = []
    private var capturing = false
    private var inPhonetic = false

    func start(_ name: ByteView, _ attributes: XMLStreamAttributes) {
        if name.matches(0, name.count, "si") { current.removeAll(keepingCapacity: true) }
        else if name.matches(0, name.count, "t") { capturing = !inPhonetic }
        else if name.matches(0, name.count, "rPh") { inPhonetic = true }
    }

    func end(_ name: ByteView) {
        if name.matches(0, name.count, "si") {
            // `text` kept what is held within the limit (resolving escapes only shortens it).
            guard !overLimit else { return }
            current.withByteView { text in
                if text.firstIndex(of: ASCII.underscore) < text.count { strings.append(OOXMLText.text(text)) } else { strings.append(text) }
            }
        }
        else if name.matches(0, name.count, "t") { capturing = false }
        else if name.matches(0, name.count, "rPh") { inPhonetic = false }
    }

    func text(_ bytes: ByteView) {
        guard capturing, !overLimit else { return }
        if strings.byteCount + current.count + bytes.count > maxBytes {
            overLimit = true
            strings = SharedTexts()
            current = []
            return
        }
        bytes.append(0, bytes.count, to: &current)
    }
}
