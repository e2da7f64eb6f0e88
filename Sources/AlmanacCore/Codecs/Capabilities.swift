/// What a codec can do besides decoding and encoding whole documents. The conversion pipeline
/// asks a codec for these (`codec as? any MergingCodec`) instead of knowing formats by name, so a
/// codec that replaces a built-in one keeps a capability by declaring it.
///
/// Streaming (`StreamingDecoder`, `StreamingEncoder`) and reading zone definitions
/// (`TimeZoneDefinitionReader`) are capabilities too; they are declared where their types are.

/// A format whose files hold records that a restore merges into an existing file instead of
/// replacing it (the apps' backups): `--merge`. A replaced file of such a format is kept as
/// `NAME.bak`.
public protocol MergingCodec: Codec {
    /// `incoming` merged into `existing` (both of this codec's model), with a note saying what
    /// each record became and which rule matched it.
    func merge(existing: Document, incoming: Document, context: CodecContext) throws(Diagnostic) -> (document: Document, diagnostics: [Diagnostic])
}

/// A format whose documents are a folder of files: Xcode's `xx.lproj/Table.strings` tree holds one
/// catalog per table, one file per locale.
public protocol FolderLayoutCodec: Codec {
    /// Whether a folder is laid out this way.
    func isFolderLayout(_ path: String) -> Bool
    /// Every document the folder holds, by name (a table), with what was met reading it.
    func decodeFolder(_ path: String, context: CodecContext) -> [(name: String, decoded: Decoded)]
    /// The files that write `document` named `name` as a folder, or nil when it is written as a
    /// single file (one locale).
    func encodeFolder(_ document: Document, name: String, context: CodecContext) throws(Diagnostic) -> [FolderLayoutFile]?
}

/// One file of a folder layout: its path relative to the output folder, its bytes, and what
/// writing it could not keep (said as a single file's encoding says it).
public struct FolderLayoutFile: Sendable {
    public var path: String
    public var bytes: [UInt8]
    public var diagnostics: [Diagnostic]

    public init(path: String, bytes: [UInt8], diagnostics: [Diagnostic] = []) {
        self.path = path
        self.bytes = bytes
        self.diagnostics = diagnostics
    }
}

/// A change made to a document between reading and writing it (drafting a Chinese script from
/// the other): `--to-locale zh-Hant` is the transform `to-locale` with the argument `zh-Hant`.
public protocol DocumentTransform: Sendable {
    /// The name the pipeline and the CLI know it by.
    var id: String { get }
    /// The errors that say the transform has nothing to work from in this document (a table with
    /// no text in the script to draft from). In a folder of several documents (an .lproj tree) such a
    /// document is written as it is, and one note names every document left so; alone, it fails.
    var nothingToDo: Set<DiagnosticCode> { get }
    func apply(_ document: Document, argument: String, context: CodecContext) throws(Diagnostic) -> (document: Document, diagnostics: [Diagnostic])
    /// In a folder of several documents, what the transform said of each (its notes, in the order
    /// of the documents) said as it is to be said once for all (`Drafted 891 values in zh-Hant
    /// across 33 tables`, at `folder`); nil keeps each document's own.
    func folderNotes(_ notes: [Diagnostic], argument: String, documents: Int, folder: String) -> [Diagnostic]?
    /// The `--option` settings the transform reads.
    var options: [FormatDescription.Option] { get }
}

extension DocumentTransform {
    public var nothingToDo: Set<DiagnosticCode> { [] }
    public func folderNotes(_ notes: [Diagnostic], argument: String, documents: Int, folder: String) -> [Diagnostic]? { nil }
    public var options: [FormatDescription.Option] { [] }
}
