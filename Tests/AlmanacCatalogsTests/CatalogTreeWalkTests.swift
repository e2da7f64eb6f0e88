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
        ([".hidden/en.lproj/Main.strings"], true),
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
