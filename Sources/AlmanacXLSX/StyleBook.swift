import AlmanacCore
import AlmanacStrings

/// The cell styles of a workbook: a bold header, the region's date, time, percentage and whole
/// number formats, and one money format per currency met (added as rows bring new currencies,
/// from any thread). Written last, as `xl/styles.xml`, when every currency is known.
final class StyleBook: Sendable {
    let formats: RegionFormats
    private let currencies = Locked<[String: Int]>([:])

    // Fixed cell formats, by their index in `cellXfs`.
    static let plain = 0
    static let header = 1
    static let date = 2
    static let dateTime = 3
    static let time = 4
    static let integer = 5
    static let percent = 6
    /// Money formats follow the fixed ones, in the order their currencies were met.
    static let firstAmount = 7
    /// Custom number formats start here (lower ids are Excel's built-in ones).
    static let firstCustomFormat = 164

    init(formats: RegionFormats) { self.formats = formats }

    /// The style of an amount in `currency`.
    func amount(_ currency: String) -> Int {
        currencies.withLock { known in
            if let index = known[currency] { return index }
            let index = Self.firstAmount + known.count
            known[currency] = index
            return index
        }
    }

    /// `xl/styles.xml`.
    func xml() -> String {
        let money = currencies.withLock { $0 }.sorted { $0.value < $1.value }.map { formats.amount($0.key) }
        let codes = [formats.date, formats.dateTime, formats.time, RegionFormats.integer, RegionFormats.percent] + money
        var xml = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n"
        xml += #"<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">"#
        xml += #"<numFmts count="\#(codes.count)">"#
        for (offset, code) in codes.enumerated() {
            xml += #"<numFmt numFmtId="\#(Self.firstCustomFormat + offset)" formatCode="\#(Self.attribute(code))"/>"#
        }
        xml += "</numFmts>"
        xml += #"<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>"#
        xml += #"<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>"#
        xml += #"<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>"#
        xml += #"<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>"#
        xml += #"<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>"#
        xml += #"<cellXfs count="\#(2 + codes.count)">"#
        xml += #"<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>"#
        xml += #"<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>"#
        for offset in codes.indices {
            xml += #"<xf numFmtId="\#(Self.firstCustomFormat + offset)" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>"#
        }
        xml += "</cellXfs>"
        xml += #"<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>"#
        xml += "</styleSheet>"
        return xml
    }

    /// Text for an attribute value.
    static func attribute(_ text: String) -> String { XMLEscaping.escaped(text) }
}
