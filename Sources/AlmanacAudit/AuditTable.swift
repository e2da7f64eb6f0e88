public import AlmanacCore
import AlmanacCatalogs
import AlmanacICU
import AlmanacXML
import Foundation

/// A table to audit: one catalog with every locale, and the files it came from.
public struct AuditTable: Sendable {
    public var name: String
    /// The translations: a store for tables read from `.lproj` folders (a few arrays however many
    /// keys), else a catalog.
    public var content: CatalogContent
    public var files: [String]
    /// Problems met while reading (unreadable files, duplicate keys).
    public var diagnostics: [Diagnostic]
    /// The locales that localize the table's interface file itself (`zh_CN.lproj/MainMenu.xib`
    /// beside the base's `MainMenu.strings`, as older Mac apps do), each with that file: their text
    /// is in the file, which the audit does not read.
    public var interfaceFiles: [String: String]
    /// The object ids of the table's own interface file in the base's folder
    /// (`Base.lproj/Main.storyboard` beside `zh-Hans.lproj/Main.strings`), read from its XML; nil
    /// where there is none, or it is compiled. An Interface Builder key whose object is not there
    /// is a dead entry; one whose object is there has its base text in the file.
    public var interfaceObjects: Set<String>?

    /// The translations as a catalog (made from the store, where they are one; changing it in
    /// place makes it once).
    public var catalog: Catalog {
        get { content.catalog }
        set { content.catalog = newValue }
        _modify { yield &content.catalog }
    }

    /// The table with its translations held as a catalog, made once from the store where they
    /// are one: for work that reads `catalog` many times (each read of a store's makes it anew).
    public func holdingCatalog() -> AuditTable {
        guard content.isStore else { return self }
        var table = self
        table.content = CatalogContent(content.catalog)
        return table
    }

    public init(name: String, catalog: Catalog, files: [String], diagnostics: [Diagnostic] = [], interfaceFiles: [String: String] = [:]) {
        self.init(name: name, content: CatalogContent(catalog), files: files, diagnostics: diagnostics, interfaceFiles: interfaceFiles)
    }

    public init(name: String, content: CatalogContent, files: [String], diagnostics: [Diagnostic] = [], interfaceFiles: [String: String] = [:]) {
        self.name = name
        self.content = content
        self.files = files
        self.diagnostics = diagnostics
        self.interfaceFiles = interfaceFiles
    }

    /// The `id` attributes of an interface file's elements (a storyboard's or a xib's objects),
    /// read by the XML reader; nil for a file that is not XML (a compiled nib) or cannot be read.
    static func objectIDs(inInterfaceFile path: String) -> Set<String>? {
        guard let data = FileManager.default.contents(atPath: path),
              let document = try? XMLDocument(parsing: data) else { return nil }
        var ids: Set<String> = []
        var pending = [document.root]
        while let element = pending.popLast() {
            if let id = element.attributes.first(where: { $0.name == "id" })?.value { ids.insert(id) }
            pending += element.children.compactMap(\.element)
        }
        return ids
    }

    /// Interface Builder's files, which a locale may localize whole instead of by a `.strings` table.
    static func isInterfaceFile(_ name: String) -> Bool {
        name.hasSuffix(".xib") || name.hasSuffix(".storyboard") || name.hasSuffix(".nib")
    }

    /// The catalog formats the audit reads when no registry is given.
    public static let catalogFormats = FormatRegistry([StringsCodec(), StringsdictCodec(), XCStringsCodec(), XLIFFCodec()])

    /// Reads `.lproj` folders (anywhere under a directory) and catalog files of any format the
    /// registry reads as a catalog (String Catalogs, XLIFF, a codec plugin's); files of the same
    /// table (`Localizable.strings` in several `.lproj` folders) merge. `only` limits what is read in
    /// folders to the tables it names.
    public static func load(_ paths: [String], registry: FormatRegistry = catalogFormats,
                            context: CodecContext = CodecContext(options: ["layout": "no"]), only: Set<String>? = nil) -> [AuditTable] {
        // A table is one table name in one folder of `.lproj` folders (an app's and its widget's
        // `Localizable` are two tables), or one file of another format (each String Catalog is
        // its own table, whatever its name).
        var tables: [AuditTable] = []
        var identities: [String] = []
        func add(_ table: AuditTable, identity: String) {
            if let index = identities.firstIndex(of: identity) {
                tables[index].catalog.merge(table.catalog, replacing: table.files.allSatisfy { $0.hasSuffix(".stringsdict") })
                tables[index].files += table.files
                tables[index].diagnostics += table.diagnostics
                tables[index].interfaceFiles.merge(table.interfaceFiles) { first, _ in first }
                if tables[index].interfaceObjects == nil { tables[index].interfaceObjects = table.interfaceObjects }
            } else {
                tables.append(table)
                identities.append(identity)
            }
        }
        /// The folder an `.lproj` folder is in, for a file in one.
        func root(of file: String) -> String? {
            let folder = OutputNames.parent(of: file)
            return OutputNames.baseName(folder).hasSuffix(".lproj") ? OutputNames.parent(of: folder) : nil
        }
        let catalogCodecs = registry.codecs.filter { $0.format.model == .catalog && $0.format.canRead }
        func wanted(_ name: String) -> Bool {
            guard catalogCodecs.contains(where: { $0.format.extensionMatch(name) > 0 }) else { return false }
            guard let only else { return true }
            return CatalogPath.table(ofPath: name).map(only.contains) ?? false
        }
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                tables.append(AuditTable(name: path, catalog: Catalog(), files: [path],
                                         diagnostics: [.error(.inputNotFound, at: SourceLocation(file: path))]))
                continue
            }
            if isDirectory.boolValue {
                // `.lproj` folders: each file a catalog codec names by extension, read by the
                // codec the registry picks for it (by name and content); a file that turns out
                // to be no catalog (an XML layout beside the strings) is left out.
                let found = CatalogTree.files(under: path, accepting: { wanted($0) || isInterfaceFile($0) })
                let treeFiles = found.filter { !isInterfaceFile($0) }
                let interfaces = found.filter(isInterfaceFile)
                var roots: [String] = []
                for file in treeFiles { if let root = root(of: file), !roots.contains(root) { roots.append(root) } }
                for folder in roots {
                    let tree = CatalogTree.read(files: treeFiles.filter { root(of: $0) == folder }, context: context, compact: true, readFile: {
                        (file, context) throws(Diagnostic) -> (content: CatalogContent?, diagnostics: [Diagnostic])? in
                        let opened: (codec: any Codec, input: CodecInput)
                        do throws(Diagnostic) { opened = try registry.open(.file(file), codec: nil) } catch {
                            if error.code == .formatUndetected { return nil }
                            throw error
                        }
                        guard opened.codec.format.model == .catalog else { return nil }
                        // `.strings` tables, the large ones, are read straight into a store.
                        if let strings = opened.codec as? StringsCodec {
                            let (store, diagnostics) = try strings.decodeStore(opened.input, context: context)
                            return (CatalogContent(store), diagnostics)
                        }
                        let decoded = try opened.codec.decode(opened.input, context: context)
                        guard case .catalog(let catalog) = decoded.document else { return (nil, decoded.diagnostics) }
                        return (CatalogContent(catalog), decoded.diagnostics)
                    })
                    for table in tree {
                        // A locale's own interface file of this table's name (`zh_CN.lproj/MainMenu.xib`).
                        // A locale with the table's `.strings` as well keeps its text there.
                        var own: [String: String] = [:]
                        let withTable = Set(table.files.compactMap { CatalogPath.locale(ofPath: $0) })
                        for file in interfaces where root(of: file) == folder {
                            let name = OutputNames.baseName(file)
                            guard name.prefix(upTo: name.lastIndex(of: ".") ?? name.endIndex).lowercased() == table.name.lowercased(),
                                  let locale = CatalogPath.locale(ofPath: file), !withTable.contains(locale) else { continue }
                            own[locale] = file
                        }
                        var audited = AuditTable(name: table.name, content: table.content, files: table.files, diagnostics: table.diagnostics,
                                                 interfaceFiles: own)
                        // The base's own interface file of this table's name, where its text is.
                        let baseFolders = ["Base", context.options["source-language"] ?? "en"]
                        if let file = interfaces.first(where: { file in
                            root(of: file) == folder && baseFolders.contains(CatalogPath.folder(ofPath: file) ?? "")
                                && OutputNames.baseName(file).prefix(upTo: OutputNames.baseName(file).lastIndex(of: ".") ?? OutputNames.baseName(file).endIndex)
                                    .lowercased() == table.name.lowercased()
                        }) {
                            audited.interfaceObjects = Self.objectIDs(inInterfaceFile: file)
                        }
                        add(audited, identity: folder + "/" + table.name.lowercased())
                    }
                }
                // Other catalogs in the folder (String Catalogs, XLIFF): files a catalog format
                // names by extension and recognises by content. `.lproj` trees were read above;
                // a loose `.strings` file says no locale. Hidden files and folders are left out,
                // as in the tree (a Mac's `._Localizable.xcstrings` beside the catalog).
                let others = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []).filter { relative in
                    let parts = relative.split(separator: "/")
                    guard !parts.contains(where: { CatalogTree.isHidden(String($0)) }) else { return false }
                    let inTree = parts.count >= 2 && parts[parts.count - 2].hasSuffix(".lproj")
                    return !inTree && !relative.hasSuffix(".strings") && !relative.hasSuffix(".stringsdict") && wanted(relative)
                }.sorted()
                for relative in others {
                    let file = path.hasSuffix("/") ? path + relative : path + "/" + relative
                    if let table = self.file(file, registry: registry, context: context, found: true) { add(table, identity: file) }
                }
            } else if let table = file(path, registry: registry, context: context, found: false) {
                // Files of one `.lproj` table given one by one merge into it.
                add(table, identity: root(of: path).map { $0 + "/" + table.name.lowercased() } ?? path)
            }
        }
        return named(tables, from: paths)
    }

    /// Tables with one name in several places are named by where they are (`Widget/Localizable`,
    /// `Packages/Syntax/Localizable`): the folder above their `.lproj` folders, or the file's path
    /// without its extension, relative to the path given that holds it.
    static func named(_ tables: [AuditTable], from paths: [String]) -> [AuditTable] {
        var count: [String: Int] = [:]
        for table in tables { count[table.name.lowercased(), default: 0] += 1 }
        return tables.map { table in
            guard count[table.name.lowercased(), default: 0] > 1, let file = table.files.first else { return table }
            let folder = OutputNames.parent(of: file)
            let place = OutputNames.baseName(folder).hasSuffix(".lproj") ? OutputNames.parent(of: folder) + "/" + table.name
                : String(file[..<(file.lastIndex(of: ".") ?? file.endIndex)])
            let given = paths.filter { place.hasPrefix($0) }.max { $0.count < $1.count }
            var relative = given.map { String(place.dropFirst($0.count)) } ?? place
            while relative.hasPrefix("/") { relative.removeFirst() }
            var renamed = table
            renamed.name = relative.isEmpty ? table.name : relative
            return renamed
        }
    }

    /// The tables `files` belong to, each whole: a file in an `.lproj` folder brings its table
    /// from every `.lproj` folder beside its own (`Localizable.strings` and `.stringsdict` in each
    /// locale); another catalog file (a String Catalog, an XLIFF file) is whole by itself. What a
    /// pre-commit hook needs, given only the files that changed: one locale's file audited alone
    /// would miss what the others have.
    public static func load(tablesOf files: [String], registry: FormatRegistry = catalogFormats,
                            context: CodecContext = CodecContext(options: ["layout": "no"])) -> [AuditTable] {
        var roots: [(root: String, tables: Set<String>)] = []
        var others: [String] = []
        for file in files {
            let folder = OutputNames.parent(of: file)
            guard OutputNames.baseName(folder).hasSuffix(".lproj"), let table = CatalogPath.table(ofPath: file) else {
                if !others.contains(file) { others.append(file) }
                continue
            }
            let above = OutputNames.parent(of: folder)
            let root = above.isEmpty ? "/" : above
            if let index = roots.firstIndex(where: { $0.root == root }) {
                roots[index].tables.insert(table)
            } else {
                roots.append((root, [table]))
            }
        }
        var tables = roots.flatMap { root, names in load([root], registry: registry, context: context, only: names) }
        tables += load(others, registry: registry, context: context)
        return tables
    }

    /// A catalog file read through the registry. A file found in a folder that is not a catalog
    /// (an XML file of another kind) is left out; one given by name is an error.
    static func file(_ path: String, registry: FormatRegistry, context: CodecContext, found: Bool) -> AuditTable? {
        let name = CatalogPath.table(ofPath: path) ?? path
        do throws(Diagnostic) {
            let (codec, input) = try registry.open(.file(path), codec: nil)
            guard codec.format.model == .catalog else {
                if found { return nil }
                return AuditTable(name: name, catalog: Catalog(), files: [path],
                                  diagnostics: [.error(.auditNotACatalog(format: codec.format.name), at: SourceLocation(file: path))])
            }
            let decoded = try codec.decode(input, context: context)
            guard case .catalog(let catalog) = decoded.document else { return AuditTable(name: name, catalog: Catalog(), files: [path]) }
            return AuditTable(name: name, catalog: catalog, files: [path], diagnostics: decoded.diagnostics.map { $0.inFile(path) })
        } catch {
            if found && error.code == .formatUndetected { return nil }
            return AuditTable(name: name, catalog: Catalog(), files: [path], diagnostics: [error.inFile(path)])
        }
    }
}
