import AlmanacBytes
import AlmanacCore
import AlmanacXML
import AlmanacZip

/// A workbook opened for reading: its zip checked, its parts found through the package's
/// relationships (names are only compared with the parts' names, never used as paths), its XML
/// read with AlmanacXML's protections, large parts streamed.
///
/// Part names are compared as ECMA-376 Part 2 (§9.1.1.1.2) compares them: ASCII case ignored, so
/// `xl/SharedStrings.xml` is the part a relationship to `sharedStrings.xml` names; a name written
/// with backslashes (`xl\workbook.xml`, as some Windows libraries write them) is read as the part
/// with slashes. The workbook and its sheets are wherever the relationships say (at the package's
/// root, for some writers), not at fixed paths.
struct XLSXWorkbook {
    let fileName: String?
    /// The archive with its entries by part name (`partKey`).
    private let package: Package
    var archive: ZipArchive { package.archive }
    /// The workbook part, the folder its relationships are relative to, and those relationships
    /// (read once: the sheets, the styles and the shared strings are found through them).
    private let workbookPath: String
    private let folder: String
    /// Without a workbook part: the worksheets found by their part names, in their numbers' order
    /// (calamine reads such a package so; openpyxl refuses it). Nil when the workbook lists its sheets.
    private let foundSheets: [String]?
    /// What opening the workbook found that the reader should hear (a workbook part missing).
    private(set) var notes: [Diagnostic] = []
    private let workbookRelationships: [Relationship]

    /// The first bytes of an OLE2 compound file: Excel 97–2003 workbooks and password-protected
    /// .xlsx files (whose encrypted package sits inside one).
    static let compoundFileSignature: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]
    static let zipSignature: [UInt8] = [0x50, 0x4B, 0x03, 0x04]
    /// Stream names of a compound file's directory, as it stores them (UTF-16LE): a
    /// password-protected workbook (ECMA-376 part 4's `EncryptedPackage`), an Excel 97–2003 one.
    static let encryptedPackageName = utf16LE("EncryptedPackage")
    static let legacyWorkbookNames = [utf16LE("Workbook"), utf16LE("Book")]

    private static func utf16LE(_ name: String) -> [UInt8] { name.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } }

    /// Whether a compound file's first bytes hold the directory entry of an encrypted package.
    static func isEncryptedPackage(_ start: [UInt8]) -> Bool {
        start.starts(with: compoundFileSignature) && start.firstRange(of: encryptedPackageName) != nil
    }

    /// Whether a compound file's first bytes hold a workbook's stream (encrypted or 97–2003).
    static func isCompoundWorkbook(_ start: [UInt8]) -> Bool {
        start.starts(with: compoundFileSignature)
            && (isEncryptedPackage(start) || legacyWorkbookNames.contains { start.firstRange(of: $0) != nil })
    }
    /// Parts read whole (workbook, relationships, styles) are small; more is not a workbook.
    static let wholePartLimit = 64 << 20

    init(_ input: RandomAccessInput, fileName: String?) throws(Diagnostic) {
        self.fileName = fileName
        let head = try input.read(at: 0, count: Self.compoundFileSignature.count)
        if head.starts(with: Self.compoundFileSignature) {
            var start = try input.read(at: 0, count: Probe.prefixLength)
            // The directory may lie past the first bytes (Numbers writes it near the end): its first
            // sector is where the header says.
            if !Self.isEncryptedPackage(start), start.count >= CompoundFile.headerFields {
                let shift = Int(start[CompoundFile.sectorShift]) | Int(start[CompoundFile.sectorShift + 1]) << 8
                let sector = (0..<4).reduce(0) { $0 | Int(start[CompoundFile.firstDirectorySector + $1]) << (8 * $1) }
                if CompoundFile.sectorShifts.contains(shift), sector <= CompoundFile.lastRegularSector {
                    // Sector n starts after the header, which is one sector long.
                    let offset = (sector + 1) << shift
                    if offset < input.size { start += try input.read(at: offset, count: 1 << shift) }
                }
            }
            throw Diagnostic.error(Self.isEncryptedPackage(start) ? .xlsxEncrypted : .xlsxLegacy, at: SourceLocation(file: fileName))
        }
        guard head.starts(with: Self.zipSignature) else {
            throw Diagnostic.error(.xlsxNotAWorkbook(reason: "no zip signature"), at: SourceLocation(file: fileName))
        }
        let archive: ZipArchive
        do throws(ZipError) { archive = try ZipArchive(source: InputSource(input: input)) } catch { throw Self.diagnostic(error, fileName: fileName) }
        var parts: [String: ZipArchive.Entry] = [:]
        for entry in archive.entries where parts[Self.partKey(entry.name)] == nil { parts[Self.partKey(entry.name)] = entry }
        let package = Package(archive: archive, parts: parts, fileName: fileName)
        self.package = package
        var workbook = "xl/workbook.xml"
        if let target = try package.relationships(Self.relationshipsPart(of: ""))
            .first(where: { $0.type.hasSuffix("/officeDocument") })?.target {
            workbook = Self.resolve(target, from: "")
        }
        workbookPath = workbook
        folder = workbook.split(separator: "/").dropLast().joined(separator: "/")
        guard parts[Self.partKey(workbook)] != nil else {
            // No list of sheets: the worksheets are read by their part names, with a warning; a
            // package with none is no workbook.
            let found = Self.worksheetParts(parts.keys)
            guard !found.isEmpty else {
                throw Diagnostic.error(.xlsxNotAWorkbook(reason: "no \(workbook)"), at: SourceLocation(file: fileName))
            }
            foundSheets = found
            workbookRelationships = []
            notes.append(.warning(.xlsxNoWorkbookPart(part: workbook, sheets: found.joined(separator: ", ")), at: SourceLocation(file: fileName)))
            return
        }
        foundSheets = nil
        workbookRelationships = try package.relationships(Self.relationshipsPart(of: workbook))
    }

    /// Where Excel puts worksheets, and their parts' extension.
    static let worksheetFolder = "xl/worksheets/", partExtension = ".xml"

    /// `xl/worksheets/sheetN.xml` parts, by N.
    static func worksheetParts(_ keys: some Collection<String>) -> [String] {
        let names = keys.filter { $0.hasPrefix(worksheetFolder) && $0.hasSuffix(partExtension) && !$0.dropFirst(worksheetFolder.count).contains("/") }
        func number(_ name: String) -> Int { Int(sheetName(ofPart: name).filter(\.isNumber)) ?? Int.max }
        return names.sorted { (number($0), $0) < (number($1), $1) }
    }

    /// `sheet2` for `xl/worksheets/sheet2.xml`.
    static func sheetName(ofPart part: String) -> String {
        String(part.dropFirst(worksheetFolder.count).dropLast(partExtension.count))
    }

    /// A part name as parts are compared: slashes, no leading one, lower case.
    static func partKey(_ name: String) -> String {
        var key = name.replacing("\\", with: "/")
        while key.hasPrefix("/") { key.removeFirst() }
        return String(key.lowercased())
    }

    /// The relationships part of `part` (`xl/_rels/workbook.xml.rels`; `_rels/.rels` for the package).
    static func relationshipsPart(of part: String) -> String {
        let segments = part.split(separator: "/")
        let folder = segments.dropLast().joined(separator: "/")
        return (folder.isEmpty ? "" : folder + "/") + "_rels/" + (segments.last.map(String.init) ?? "") + ".rels"
    }

    /// The archive's entry for a part, compared as part names are.
    func entry(_ part: String) -> ZipArchive.Entry? { package.parts[Self.partKey(part)] }

    /// A sheet of the workbook: its name, its part, and whether it holds cells (a chart sheet, a
    /// dialog or macro sheet does not).
    struct Sheet: Equatable {
        var name: String
        var part: String
        var hasCells: Bool
    }

    /// The sheets in order, with the parts their rows are in.
    func sheets() throws(Diagnostic) -> (sheets: [Sheet], date1904: Bool) {
        if let foundSheets {
            return (foundSheets.map { Sheet(name: Self.sheetName(ofPart: $0), part: $0, hasCells: true) }, false)
        }
        let document = try package.document(workbookPath)
        let date1904 = document.root.element(named: "workbookPr").flatMap { $0["date1904"] }.map { $0 == "1" || $0 == "true" } ?? false
        var sheets: [Sheet] = []
        for sheet in document.root.element(named: "sheets")?.elements(named: "sheet") ?? [] {
            guard let name = sheet["name"], let id = sheet["r:id"] ?? sheet["id"],
                  let relationship = workbookRelationships.first(where: { $0.id == id }) else { continue }
            sheets.append(Sheet(name: name, part: Self.resolve(relationship.target, from: folder),
                                hasCells: relationship.type.hasSuffix("/worksheet")))
        }
        return (sheets, date1904)
    }

    /// The part a relationship of the workbook of this type names (styles, sharedStrings), if any.
    func workbookPart(_ type: String) -> String? {
        // Without relationships, where Excel puts them.
        if foundSheets != nil { return ["styles": "xl/styles.xml", "sharedStrings": "xl/sharedStrings.xml"][type] }
        return workbookRelationships.first { $0.type.hasSuffix("/" + type) }.map { Self.resolve($0.target, from: folder) }
    }

    /// Which styles show dates and times.
    func styles(date1904: Bool) throws(Diagnostic) -> CellStyles {
        var styles = CellStyles()
        styles.date1904 = date1904
        guard let part = workbookPart("styles"), entry(part) != nil else { return styles }
        let root = try package.document(part).root
        var custom: [Int: String] = [:]
        for format in root.element(named: "numFmts")?.elements(named: "numFmt") ?? [] {
            if let id = format["numFmtId"].flatMap(Int.init), let code = format["formatCode"] { custom[id] = code }
        }
        for xf in root.element(named: "cellXfs")?.elements(named: "xf") ?? [] {
            let id = xf["numFmtId"].flatMap(Int.init) ?? 0
            styles.kinds.append(custom[id].map(CellStyles.kind(of:)) ?? CellStyles.builtIn(id))
        }
        return styles
    }

    /// The shared strings, in order (rich text joined, phonetic runs left out), streamed.
    func sharedStrings(maxBytes: Int = SharedStringsReader.maxBytes) throws(Diagnostic) -> SharedTexts {
        guard let part = workbookPart("sharedStrings"), entry(part) != nil else { return SharedTexts() }
        let reader = SharedStringsReader(maxBytes: maxBytes)
        try stream(part, into: reader)
        // Held whole while the sheet streams: a workbook whose texts pass the limit is refused.
        if reader.overLimit {
            throw Diagnostic.error(.xlsxZipLimit(part: part, limit: "\(maxBytes) bytes of text"), at: SourceLocation(file: fileName))
        }
        return reader.strings
    }

    /// A part's XML through a handler, as it inflates.
    /// `after` runs after each piece (a reader takes the rows the piece completed).
    func stream(_ part: String, into handler: any XMLStreamHandler, after: () throws(Diagnostic) -> Void = {}) throws(Diagnostic) {
        guard let entry = entry(part) else { throw Diagnostic.error(.xlsxMissingPart(part: part), at: SourceLocation(file: fileName)) }
        // Sheets and shared strings are plain XML read by hand; libxml2 reads the small parts.
        var parser = XMLScanner(handler: handler)
        func feed(_ piece: [UInt8], last: Bool) throws(Diagnostic) {
            do throws(XMLError) { try parser.feed(piece, last: last) } catch { throw xmlError(error, part) }
            try after()
        }
        let archive = archive, fileName = fileName
        if entry.size >= Self.inflateAheadMinimum {
            // A large part is inflated on a thread of its own while this one reads its XML.
            try ReadAhead.pieces(madeBy: { (hand) throws(Diagnostic) in
                try Self.inflate(entry, of: archive, fileName: fileName, into: hand)
            }) { (piece) throws(Diagnostic) in try feed(piece, last: false) }
        } else {
            try Self.inflate(entry, of: archive, fileName: fileName) { (piece) throws(Diagnostic) in try feed(piece, last: false) }
        }
        try feed([], last: true)
    }

    /// A part this large (a sheet of some ten thousand rows) is worth a thread to inflate it.
    static var inflateAheadMinimum: Int { 4 << 20 }

    /// Hands out an entry's bytes as they inflate; `body`'s error stops it and is thrown.
    private static func inflate(_ entry: ZipArchive.Entry, of archive: ZipArchive, fileName: String?,
                                into body: ([UInt8]) throws(Diagnostic) -> Void) throws(Diagnostic) {
        var stopped: Diagnostic?
        do throws(ZipError) {
            try archive.read(entry) { (piece) throws(ZipError) in
                do throws(Diagnostic) { try body(piece) } catch {
                    stopped = error
                    throw .output("stopped by its reader")
                }
            }
        } catch {
            throw stopped ?? diagnostic(error, fileName: fileName)
        }
    }

    private func xmlError(_ error: XMLError, _ part: String) -> Diagnostic {
        Self.xmlError(error, part, fileName: fileName)
    }

    private static func xmlError(_ error: XMLError, _ part: String, fileName: String?) -> Diagnostic {
        .error(.xlsxBadXml(part: part, line: String(error.line), column: String(error.column), reason: error.message), at: SourceLocation(file: fileName))
    }

    /// Fields of a compound file's header (MS-CFB 2.2) that say where its directory is.
    private enum CompoundFile {
        static let sectorShift = 30
        static let firstDirectorySector = 48
        static let headerFields = 52
        /// 512- or 4,096-byte sectors in the specification; up to 4,096 accepted from 512.
        static let sectorShifts = 9...12
        /// Higher numbers mark free, end-of-chain and special sectors.
        static let lastRegularSector = 0xFFFF_FFF9
    }

    /// The archive with its parts by name, for reading the small parts whole.
    private struct Package {
        let archive: ZipArchive
        let parts: [String: ZipArchive.Entry]
        let fileName: String?

        /// A small part (workbook, relationships, styles) read whole and parsed.
        func document(_ part: String) throws(Diagnostic) -> XMLDocument {
            guard let entry = parts[XLSXWorkbook.partKey(part)] else {
                throw Diagnostic.error(.xlsxMissingPart(part: part), at: SourceLocation(file: fileName))
            }
            guard entry.size <= XLSXWorkbook.wholePartLimit else {
                throw Diagnostic.error(.xlsxZipLimit(part: part, limit: String(XLSXWorkbook.wholePartLimit)), at: SourceLocation(file: fileName))
            }
            let bytes: [UInt8]
            do throws(ZipError) { bytes = try archive.data(entry) } catch { throw XLSXWorkbook.diagnostic(error, fileName: fileName) }
            do throws(XMLError) { return try XMLDocument(parsing: bytes) } catch { throw XLSXWorkbook.xmlError(error, part, fileName: fileName) }
        }

        /// A relationships part's entries; none when the part is absent.
        func relationships(_ part: String) throws(Diagnostic) -> [Relationship] {
            guard parts[XLSXWorkbook.partKey(part)] != nil else { return [] }
            return try document(part).root.elements(named: "Relationship").compactMap { element in
                guard let id = element["Id"], let type = element["Type"], let target = element["Target"] else { return nil }
                return Relationship(id: id, type: type, target: target)
            }
        }
    }

    private struct Relationship { var id: String; var type: String; var target: String }

    /// A relationship's target as a part name: absolute (`/xl/...`) or relative to `folder`,
    /// `..` and `.` segments resolved as text (the name is only ever looked up among the parts).
    static func resolve(_ target: String, from folder: String) -> String {
        let target = target.replacing("\\", with: "/")
        var segments: [Substring] = target.hasPrefix("/") ? [] : folder.split(separator: "/")
        for segment in target.split(separator: "/") {
            switch segment {
            case ".": continue
            case "..": if !segments.isEmpty { segments.removeLast() }
            default: segments.append(segment)
            }
        }
        return segments.joined(separator: "/")
    }

    static func diagnostic(_ error: ZipError, fileName: String?) -> Diagnostic {
        let location = SourceLocation(file: fileName)
        switch error {
        case .encrypted: return .error(.xlsxLegacy, at: location)
        case .limit(let entry, let limit): return .error(.xlsxZipLimit(part: entry, limit: limit), at: location)
        case .malformed(let what), .checksum(let what): return .error(.xlsxDamaged(reason: what), at: location)
        case .unsupportedMethod(let entry, let method): return .error(.xlsxDamaged(reason: "\(entry): compression method \(method)"), at: location)
        case .compression(let status): return .error(.xlsxDamaged(reason: "\(DeflateLibrary.name) status \(status)"), at: location)
        case .output(let what): return .error(.xlsxDamaged(reason: what), at: location)
        }
    }
}

/// The input as the zip reader reads it.
struct InputSource: ZipSource {
    let input: RandomAccessInput
    var size: Int { input.size }
    func read(at offset: Int, count: Int) throws(ZipError) -> [UInt8] {
        do throws(Diagnostic) { return try input.read(at: offset, count: count) } catch {
            throw .malformed(error.message.rendered())
        }
    }
}
