/// The parts of a workbook around its sheets (ECMA-376 Part 1 §12; Part 2 for the package):
/// content types, relationships, the workbook with its sheet names.
enum WorkbookParts {
    static let declaration = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n"
    static let main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    static let relationships = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    static let packageRelationships = "http://schemas.openxmlformats.org/package/2006/relationships"

    static func sheetPath(_ number: Int) -> String { "xl/worksheets/sheet\(number).xml" }
    static let sharedStringsPath = "xl/sharedStrings.xml"

    static func contentTypes(sheets: Int) -> String {
        var xml = declaration + #"<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">"#
        xml += #"<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>"#
        xml += #"<Default Extension="xml" ContentType="application/xml"/>"#
        xml += #"<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>"#
        for number in 1...sheets {
            xml += #"<Override PartName="/\#(sheetPath(number))" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>"#
        }
        xml += #"<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>"#
        xml += #"<Override PartName="/\#(sharedStringsPath)" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>"#
        xml += #"<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>"#
        return xml + "</Types>"
    }

    static let rootRelationships = declaration + #"<Relationships xmlns="\#(packageRelationships)">"#
        + #"<Relationship Id="rId1" Type="\#(relationships)/officeDocument" Target="xl/workbook.xml"/>"#
        + #"<Relationship Id="rId2" Type="\#(relationships)/extended-properties" Target="docProps/app.xml"/>"#
        + "</Relationships>"

    static let application = declaration
        + #"<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>Almanac</Application></Properties>"#

    static func workbookRelationships(sheets: Int) -> String {
        var xml = declaration + #"<Relationships xmlns="\#(packageRelationships)">"#
        for number in 1...sheets {
            xml += #"<Relationship Id="rId\#(number)" Type="\#(relationships)/worksheet" Target="worksheets/sheet\#(number).xml"/>"#
        }
        xml += #"<Relationship Id="rId\#(sheets + 1)" Type="\#(relationships)/styles" Target="styles.xml"/>"#
        xml += #"<Relationship Id="rId\#(sheets + 2)" Type="\#(relationships)/sharedStrings" Target="sharedStrings.xml"/>"#
        return xml + "</Relationships>"
    }

    static func workbook(names: [String]) -> String {
        var xml = declaration + #"<workbook xmlns="\#(main)" xmlns:r="\#(relationships)">"#
        xml += #"<workbookPr/><bookViews><workbookView/></bookViews><sheets>"#
        for (offset, name) in names.enumerated() {
            xml += #"<sheet name="\#(StyleBook.attribute(name))" sheetId="\#(offset + 1)" r:id="rId\#(offset + 1)"/>"#
        }
        return xml + "</sheets></workbook>"
    }

    /// Sheet names as Excel accepts them: at most 31 characters, none of `[]:*?/\`, not empty,
    /// not starting or ending with an apostrophe, unique regardless of case.
    static func sheetNames(_ names: [String]) -> [String] {
        var taken: Set<String> = []
        return names.enumerated().map { offset, name in
            var clean = String(name.map { "[]:*?/\\".contains($0) ? "_" : $0 }).trimmingApostrophes
            if clean.isEmpty { clean = "Sheet\(offset + 1)" }
            clean = String(clean.prefix(31))
            var candidate = clean
            var suffix = 2
            while taken.contains(candidate.lowercased()) {
                let tail = " (\(suffix))"
                candidate = String(clean.prefix(31 - tail.count)) + tail
                suffix += 1
            }
            taken.insert(candidate.lowercased())
            return candidate
        }
    }

    /// A worksheet's start: the header row frozen, the columns' widths, then `<sheetData>`.
    static func sheetStart(widths: [Double]) -> String {
        var xml = declaration + #"<worksheet xmlns="\#(main)" xmlns:r="\#(relationships)">"#
        // Printed landscape, every column on one page's width.
        xml += #"<sheetPr><pageSetUpPr fitToPage="1"/></sheetPr>"#
        xml += #"<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>"#
        xml += #"<selection pane="bottomLeft"/></sheetView></sheetViews>"#
        if !widths.isEmpty {
            xml += "<cols>"
            for (offset, width) in widths.enumerated() {
                xml += #"<col min="\#(offset + 1)" max="\#(offset + 1)" width="\#(width)" customWidth="1"/>"#
            }
            xml += "</cols>"
        }
        return xml + "<sheetData>"
    }

    static let sheetEnd = "</sheetData>"
        + #"<pageMargins left="0.5" right="0.5" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>"#
        + #"<pageSetup orientation="landscape" fitToWidth="1" fitToHeight="0"/></worksheet>"#
}

extension String {
    fileprivate var trimmingApostrophes: String {
        var text = Substring(self)
        while text.first == "'" { text.removeFirst() }
        while text.last == "'" { text.removeLast() }
        return String(text)
    }
}
