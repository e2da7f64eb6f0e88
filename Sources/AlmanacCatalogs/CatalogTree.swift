public import AlmanacCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files' readings merged in order by the threads that parse them: the one that parses the next
/// file to merge merges it, and every parsed one after it, while the others go on parsing.
private final class OrderedMerge: @unchecked Sendable {
    private struct State {
        var waiting: [CatalogFiles.Reading?]
        var next = 0
        var merging = false
    }

    private let files: [String]
    private let state: Locked<State>
    // Touched only by the thread that set `merging` (the lock orders the hand-overs).
    private var merger: CatalogFiles.Merger

    init(files: [String], merger: CatalogFiles.Merger) {
        self.files = files
        self.merger = merger
        state = Locked(State(waiting: Array(repeating: nil, count: files.count)))
    }

    /// File `index` is parsed: merges it and the parsed files after it, unless another thread is
    /// merging (it will take them) or an earlier file is still being parsed.
    func parsed(_ index: Int, _ reading: CatalogFiles.Reading) {
        let mine = state.withLock { state -> Bool in
            state.waiting[index] = reading
            guard !state.merging else { return false }
            state.merging = true
            return true
        }
        guard mine else { return }
        while let (next, reading) = state.withLock({ state -> (Int, CatalogFiles.Reading)? in
            guard state.next < state.waiting.count, let reading = state.waiting[state.next] else {
                state.merging = false
                return nil
            }
            state.waiting[state.next] = nil
            state.next += 1
            return (state.next - 1, reading)
        }) {
            merger.add(files[next], reading)
        }
    }

    /// The merger, once every file was parsed.
    var merged: CatalogFiles.Merger { state.withLock { _ in merger } }
}

/// Catalogs kept the way Xcode projects keep them before string catalogs: a folder per locale
/// (`en.lproj`, `zh-Hans.lproj`, `zh-Hant.lproj`) holding `Table.strings` and `Table.stringsdict`.
/// Reading merges each table's files into one catalog with every locale; writing does the
/// reverse.
public enum CatalogTree {
    public typealias Table = CatalogTable

    /// The `.strings` and `.stringsdict` files under `directory` that sit in `.lproj` folders,
    /// sorted. Hidden files and folders are left out, as a batch leaves them out: a Mac writes
    /// `._Localizable.strings` (AppleDouble: the file's metadata, not a table) beside each file it
    /// copies to a disk that is not its own, and they end up committed.
    public static func files(under directory: String) -> [String] {
        files(under: directory, accepting: isStringsFile)
    }

    /// Whether a directory holds `.lproj` folders with catalogs (the walk stops at the first).
    public static func isTree(_ directory: String) -> Bool { containsCatalog(directory, depth: 0) }

    /// `isTree`'s walk, with the C directory calls and stopping at the first catalog file: a
    /// batch asks it of every folder it converts, and FileManager's enumerator makes an object
    /// and a path string for every file it passes. Finds what
    /// `files(under:)` finds: files whose folder is a `.lproj`, at any depth, hidden ones left
    /// out; symbolic links are not followed into.
    private static func containsCatalog(_ directory: String, depth: Int) -> Bool {
        guard depth < 64, let folder = opendir(directory) else { return false }
        defer { closedir(folder) }
        let isLproj = directory.hasSuffix(".lproj")
        var subfolders: [String] = []
        while let entry = readdir(folder) {
            let name = DirectoryEntry.name(entry)
            if name == "." || name == ".." || isHidden(name) { continue }
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            var isDirectory = Int32(entry.pointee.d_type) == Int32(DT_DIR)
            if Int32(entry.pointee.d_type) == Int32(DT_UNKNOWN) {
                var status = stat()
                isDirectory = lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
            }
            if isDirectory {
                subfolders.append(path)
            } else if isLproj, isStringsFile(name) {
                return true
            }
        }
        return subfolders.contains { containsCatalog($0, depth: depth + 1) }
    }

    /// The files under `directory` that sit in `.lproj` folders and that `accepting` takes (a
    /// format registry's catalog codecs, by their file names), sorted; hidden files and folders
    /// left out.
    public static func files(under directory: String, accepting: (String) -> Bool) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
        var result: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let parts = relative.split(separator: "/")
            if let last = parts.last, isHidden(String(last)) {
                if enumerator.fileAttributes?[.type] as? FileAttributeType == .typeDirectory { enumerator.skipDescendants() }
                continue
            }
            guard parts.count >= 2, parts[parts.count - 2].hasSuffix(".lproj"), accepting(relative) else { continue }
            result.append(directory.hasSuffix("/") ? directory + relative : directory + "/" + relative)
        }
        return result.sorted()
    }

    /// A hidden file or folder (`._Localizable.strings`, `.git`), which the walks leave out. A
    /// folder named as a locale folder (`...lproj`) is not hidden: it is read, and its name checked.
    public static func isHidden(_ name: String) -> Bool { name.hasPrefix(".") && !name.hasSuffix(".lproj") }

    static func isStringsFile(_ path: String) -> Bool { path.hasSuffix(".strings") || path.hasSuffix(".stringsdict") }

    /// Every table under `directory`, each merged across its locales. A file that cannot be read
    /// is reported in its table's diagnostics and left out; the others are still read.
    public static func read(_ directory: String, context: CodecContext = CodecContext()) -> [Table] {
        read(files: files(under: directory), context: context)
    }

    /// The tables of these catalog files (`.strings`, `.stringsdict`, `.xcstrings`), by file name
    /// (`en.lproj/Localizable.strings` and `zh-Hant.lproj/Localizable.stringsdict` are both
    /// `Localizable`), each merged across its locales.
    public static func read(files: [String], context: CodecContext = CodecContext()) -> [Table] {
        read(files: files, context: context) { path, context throws(Diagnostic) in
            let codec: any Codec = if path.hasSuffix(".stringsdict") { StringsdictCodec() }
                else if path.hasSuffix(".xcstrings") { XCStringsCodec() } else { StringsCodec() }
            return try codec.decode(CodecInput(contentsOf: path), context: context)
        }
    }

    /// The tables of these files, each read by `decode` (which may pick the codec through a
    /// format registry, and returns nil for a file that is no catalog: it is left out), merged
    /// across locales by table name. `decode` runs on several threads. `compact` holds each table
    /// as a `CatalogStore` (for reading large tables to check them).
    public static func read(files: [String], context: CodecContext, compact: Bool = false,
                            decode: @Sendable (String, CodecContext) throws(Diagnostic) -> Decoded?) -> [Table] {
        read(files: files, context: context, compact: compact, readFile: { (file, context) throws(Diagnostic) -> (content: CatalogContent?, diagnostics: [Diagnostic])? in
            try decode(file, context).map { decoded in
                guard case .catalog(let catalog) = decoded.document else { return (nil, decoded.diagnostics) }
                return (CatalogContent(catalog), decoded.diagnostics)
            }
        })
    }

    /// `read(files:context:compact:decode:)` with files read by `readFile` into a catalog or a
    /// store (a content of nil: a document of another model; nil: no catalog, left out).
    public static func read(files: [String], context: CodecContext, compact: Bool = false,
                            readFile: @Sendable (String, CodecContext) throws(Diagnostic) -> (content: CatalogContent?, diagnostics: [Diagnostic])?) -> [Table] {
        let sourceLanguage = context.options["source-language"] ?? "en"
        let (read, shadowed) = CatalogFiles.applyingBaseRule(files, sourceLanguage: sourceLanguage)
        let files = CatalogFiles.readingOrder(read)
        // Files are parsed side by side (one per core), and merged in reading order as they come:
        // whichever thread finds the next file parsed merges it (one at a time), and the file's
        // catalog is let go. A table of 500,000 keys in three locales is then held once, not once
        // merged and once per file. No thread waits for another to start: this may run on a
        // batch's Dispatch worker, where a block queued elsewhere could wait for a free thread.
        let merging = OrderedMerge(files: files, merger: CatalogFiles.Merger(sourceLanguage: sourceLanguage, compact: compact))
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let reading = CatalogFiles.Reading { () throws(Diagnostic) in try readFile(files[index], context) }
            merging.parsed(index, reading)
        }
        var merger = merging.merged
        for (path, reading) in CatalogFiles.shadowedReadings(shadowed) { merger.add(path, reading) }
        return merger.finish()
    }

    /// The files of a catalog as an `.lproj` tree: `xx.lproj/Table.strings` for every locale, and
    /// `xx.lproj/Table.stringsdict` where values have plural or device variants (`locales`: those
    /// locales only). Paths are relative.
    public static func files(of catalog: Catalog, table: String, locales: [String]? = nil, context: CodecContext = CodecContext())
        throws(Diagnostic) -> [(path: String, bytes: [UInt8], diagnostics: [Diagnostic])]
    {
        var result: [(String, [UInt8], [Diagnostic])] = []
        // A String Catalog's keys without source-language text are that text (`en.lproj` holds them).
        let catalog = catalog.withSourceText()
        // An entry with no text in any locale (a key not to translate, one not localized yet) has
        // no file to be in.
        var unplaced = Losses()
        for entry in catalog.entries where entry.translations.isEmpty {
            unplaced.dropped(entry.shouldTranslate == false ? "shouldTranslate" : "entry", of: entry.key)
        }
        for locale in locales ?? catalog.locales {
            var options = context
            options.options["locale"] = locale
            var plain = catalog
            var variants = catalog
            plain.entries = catalog.entries.filter { $0.translations[locale]?.substitutions == nil && $0.translations[locale]?.plural == nil
                && $0.translations[locale]?.devices == nil && $0.translations[locale] != nil }
            variants.entries = catalog.entries.filter { entry in
                guard let translation = entry.translations[locale] else { return false }
                return translation.substitutions != nil || translation.plural != nil || translation.devices != nil
            }
            if !plain.entries.isEmpty {
                let encoded = try StringsCodec().encode(.catalog(plain), context: options)
                result.append(("\(locale).lproj/\(table).strings", encoded.bytes, encoded.diagnostics))
            }
            if !variants.entries.isEmpty {
                let encoded = try StringsdictCodec().encode(.catalog(variants), context: options)
                result.append(("\(locale).lproj/\(table).stringsdict", encoded.bytes, encoded.diagnostics))
            }
        }
        // Files of comments only, where they were read (of the locales asked for), as they were.
        for (folder, layout) in (catalog.presentation[EntrylessFiles.self]?.layouts ?? [:]).sorted(by: { $0.key < $1.key })
            where locales?.contains(folder) ?? true {
            let path = "\(folder).lproj/\(table).strings"
            guard !result.contains(where: { $0.0 == path }) else { continue }
            var empty = Catalog(sourceLanguage: catalog.sourceLanguage)
            empty.presentation[StringsFile.CatalogLayout.self] = layout
            let encoded = try StringsCodec().encode(.catalog(empty), context: context)
            result.append((path, encoded.bytes, encoded.diagnostics))
        }
        if !result.isEmpty { result[0].2 += unplaced.diagnostics(target: StringsCodec.formatDescription.id) }
        return result
    }
}
