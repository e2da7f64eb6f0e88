import AlmanacBytes
import AlmanacCore
import AlmanacXML
import AlmanacZip

/// A workbook opened for reading: its zip checked, its parts found through the package's
/// relationships (names are only compared with the parts' names, never used as paths), its XML
/// read with AlmanacXML's protections, large parts streamed.
struct XLSXWorkbook {
    let archive: ZipArchive
    let fileName: String?
    /// The workbook part, the folder its relationships are relative to, and those relationships
    /// (read once: the sheets, the styles and the shared strings are found through them).
    private let workbookPath: String
    private let folder: String
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
            let start = try input.read(at: 0, count: Probe.prefixLength)
            throw Diagnostic.error(Self.isEncryptedPackage(start) ? .xlsxEncrypted : .xlsxLegacy, at: SourceLocation(file: fileName))
        }
        guard head.starts(with: Self.zipSignature) else {
            throw Diagnostic.error(.xlsxNotAWorkbook(reason: "no zip signature"), at: SourceLocation(file: fileName))
        }
        do throws(ZipError) { archive = try ZipArchive(source: InputSource(input: input)) } catch { throw Self.diagnostic(error, fileName: fileName) }
        var workbook = "xl/workbook.xml"
        if let target = try Self.relationships(archive, "_rels/.rels", fileName: fileName)
            .first(where: { $0.type.hasSuffix("/officeDocument") })?.target {
            workbook = Self.resolve(target, from: "")
        }
        guard archive.entry(named: workbook) != nil else {
            throw Diagnostic.error(.xlsxNotAWorkbook(reason: "no \(workbook)"), at: SourceLocation(file: fileName))
        }
        workbookPath = workbook
        let parts = workbook.split(separator: "/")
        folder = parts.dropLast().joined(separator: "/")
        workbookRelationships = try Self.relationships(archive, folder + "/_rels/" + (parts.last.map(String.init) ?? "") + ".rels",
                                                       fileName: fileName)
    }

    /// The sheets in order, with the parts their rows are in.
    func sheets() throws(Diagnostic) -> (sheets: [(name: String, part: String)], date1904: Bool) {
        let document = try Self.document(archive, workbookPath, fileName: fileName)
        let date1904 = document.root.element(named: "workbookPr").flatMap { $0["date1904"] }.map { $0 == "1" || $0 == "true" } ?? false
        var sheets: [(String, String)] = []
        for sheet in document.root.element(named: "sheets")?.elements(named: "sheet") ?? [] {
            guard let name = sheet["name"], let id = sheet["r:id"] ?? sheet["id"],
                  let target = workbookRelationships.first(where: { $0.id == id })?.target else { continue }
            sheets.append((name, Self.resolve(target, from: folder)))
        }
        return (sheets, date1904)
    }

    /// The part a relationship of the workbook of this type names (styles, sharedStrings), if any.
    func workbookPart(_ type: String) -> String? {
        workbookRelationships.first { $0.type.hasSuffix("/" + type) }.map { Self.resolve($0.target, from: folder) }
    }

    /// Which styles show dates and times.
    func styles(date1904: Bool) throws(Diagnostic) -> CellStyles {
        var styles = CellStyles()
        styles.date1904 = date1904
        guard let part = workbookPart("styles"), archive.entry(named: part) != nil else { return styles }
        let root = try Self.document(archive, part, fileName: fileName).root
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
        guard let part = workbookPart("sharedStrings"), archive.entry(named: part) != nil else { return SharedTexts() }
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
        guard let entry = archive.entry(named: part) else { throw Diagnostic.error(.xlsxMissingPart(part: part), at: SourceLocation(file: fileName)) }
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

    /// A small part (workbook, relationships, styles) read whole and parsed.
    private static func document(_ archive: ZipArchive, _ part: String, fileName: String?) throws(Diagnostic) -> XMLDocument {
        guard let entry = archive.entry(named: part) else { throw Diagnostic.error(.xlsxMissingPart(part: part), at: SourceLocation(file: fileName)) }
        guard entry.size <= wholePartLimit else { throw Diagnostic.error(.xlsxZipLimit(part: part, limit: String(wholePartLimit)), at: SourceLocation(file: fileName)) }
        let bytes: [UInt8]
        do throws(ZipError) { bytes = try archive.data(entry) } catch { throw diagnostic(error, fileName: fileName) }
        do throws(XMLError) { return try XMLDocument(parsing: bytes) } catch { throw xmlError(error, part, fileName: fileName) }
    }

    private struct Relationship { var id: String; var type: String; var target: String }

    /// A relationships part's entries; none when the part is absent.
    private static func relationships(_ archive: ZipArchive, _ part: String, fileName: String?) throws(Diagnostic) -> [Relationship] {
        guard archive.entry(named: part) != nil else { return [] }
        return try document(archive, part, fileName: fileName).root.elements(named: "Relationship").compactMap { element in
            guard let id = element["Id"], let type = element["Type"], let target = element["Target"] else { return nil }
            return Relationship(id: id, type: type, target: target)
        }
    }

    /// A relationship's target as a part name: absolute (`/xl/...`) or relative to `folder`,
    /// `..` and `.` segments resolved as text (the name is only ever looked up among the parts).
    static func resolve(_ target: String, from folder: String) -> String {
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
        case .tooLarge(let what), .output(let what): return .error(.xlsxDamaged(reason: what), at: location)
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
