@testable import AlmanacCatalogs
import Foundation
import Testing

/// `isTree` (the quick walk a batch runs on every folder) says yes exactly when `files(under:)`
/// (the walk that reads a tree) finds files.
@Suite struct CatalogTreeWalkTests {
    @Test(arguments: [
        (["a.ics", "b/c.csv"], false),
        (["deep/down/zh_TW.lproj/Localizable.strings"], true),
        (["App/en.lproj/Localizable.stringsdict", "notes.txt"], true),
        ([".hidden/en.lproj/Main.strings"], false),
        (["en.lproj/._Main.strings", "zh_TW.lproj/.Main.strings"], false),
        (["en.lproj/readme.txt", "zh-Hans.lproj/image.png"], false),
        (["en.lproj/sub/Localizable.strings"], false),
        (["Localizable.strings", "strings.lproj.txt"], false),
    ])
    func quickWalkAgreesWithTheFullOne(files: [String], isTree: Bool) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-tree-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for file in files {
            let url = root.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("\"k\" = \"v\";\n".utf8).write(to: url)
        }
        #expect(CatalogTree.isTree(root.path) == isTree)
        #expect(CatalogTree.isTree(root.path + "/") == isTree)
        #expect(!CatalogTree.files(under: root.path).isEmpty == isTree)
    }

    @Test func aFolderThatIsNotThereIsNoTree() {
        #expect(!CatalogTree.isTree("/nonexistent/almanac-\(UUID().uuidString)"))
    }
}

extension CatalogTreeWalkTests {
    /// A Mac writes an AppleDouble file (`._Localizable.strings`, the file's metadata: binary, no
    /// table) beside each file it copies to a disk that is not its own; applescript-ez7z commits
    /// three. The tree is the real files, as a batch's walk takes them.
    @Test func appleDoubleFilesAreNoTables() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-tree-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let appleDouble = Data([0x00, 0x05, 0x16, 0x07, 0x00, 0x02, 0x00, 0x00] + Array("Mac OS X        ".utf8) + [0x00, 0x02, 0xA9, 0xFF])
        for locale in ["English", "zh_TW"] {
            let folder = root.appendingPathComponent("\(locale).lproj")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("\"k\" = \"v\";\n".utf8).write(to: folder.appendingPathComponent("Localizable.strings"))
            try appleDouble.write(to: folder.appendingPathComponent("._Localizable.strings"))
        }
        #expect(CatalogTree.files(under: root.path).map { String($0.dropFirst(root.path.count)) }
                == ["/English.lproj/Localizable.strings", "/zh_TW.lproj/Localizable.strings"])
        let tables = CatalogTree.read(root.path)
        #expect(tables.map(\.name) == ["Localizable"])
        #expect(tables.flatMap(\.diagnostics).isEmpty)
    }

    /// A locale folder reached through a symbolic link is not entered by either walk (FileManager's
    /// enumerator does not follow links to folders, and the quick walk must agree with it).
    @Test func linkedLocaleFolders() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-tree-\(UUID().uuidString)")
        let elsewhere = root.appendingPathComponent("elsewhere/en.lproj")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try Data("\"k\" = \"v\";\n".utf8).write(to: elsewhere.appendingPathComponent("Localizable.strings"))
        let tree = root.appendingPathComponent("tree")
        try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: tree.appendingPathComponent("en.lproj"), withDestinationURL: elsewhere)
        #expect(CatalogTree.files(under: tree.path).isEmpty)
        #expect(!CatalogTree.isTree(tree.path))
    }
}
