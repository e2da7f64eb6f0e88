import AlmanacBytes

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
