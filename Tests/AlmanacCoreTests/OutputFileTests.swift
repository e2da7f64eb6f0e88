@testable import AlmanacCore
import Foundation
import Testing

@Suite struct OutputFileTests {
    let directory: String = {
        let path = NSTemporaryDirectory() + "almanac-output-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    func leftovers() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".tmp") }) ?? []
    }

    /// A probe says when it saw the whole file (the conversion then does not read it again),
    /// and names what is wrong with a path that is not a readable file.
    @Test func probesSayWhenTheyReadTheWholeFile() throws {
        let small = directory + "/small.ics"
        try OutputFile.write(Array("BEGIN:VCALENDAR".utf8), to: small)
        let read = try FileChunks.prefix(small, count: 64)
        #expect(read.bytes == Array("BEGIN:VCALENDAR".utf8) && read.isWhole)
        let exact = try FileChunks.prefix(small, count: 15)
        #expect(exact.bytes.count == 15 && !exact.isWhole)
        #expect(try !FileChunks.prefix(small, count: 4).isWhole)
        let empty = directory + "/empty.ics"
        try OutputFile.write([], to: empty)
        #expect(try FileChunks.prefix(empty, count: 64) == ([], true))
        // Files that report no size (as /proc's do) are read up to the count.
        let proc = try FileChunks.prefix("/proc/self/status", count: 1 << 16)
        #expect(proc.isWhole && String(decoding: proc.bytes, as: UTF8.self).contains("Name:"))
        #expect((#expect(throws: Diagnostic.self) { try FileChunks.prefix(directory, count: 64) })?.code == "input.is-directory")
        #expect((#expect(throws: Diagnostic.self) { try FileChunks.prefix(directory + "/missing", count: 64) })?.code == "input.not-found")
        var chunks: [[UInt8]] = []
        try FileChunks.read(small, chunkSize: 4) { chunks.append($0) }
        #expect(chunks.joined().elementsEqual("BEGIN:VCALENDAR".utf8))
    }

    @Test func writesNewFiles() throws {
        let path = directory + "/out.txt"
        try OutputFile.write(Array("hello".utf8), to: path)
        #expect(contents(path) == "hello")
        #expect(leftovers().isEmpty)
    }

    @Test func neverReplacesWithoutForce() throws {
        let path = directory + "/keep.txt"
        try OutputFile.write(Array("original".utf8), to: path)
        let error = #expect(throws: Diagnostic.self) { try OutputFile.write(Array("new".utf8), to: path) }
        #expect(error?.code == "output.exists")
        #expect(error?.location?.file == path)
        #expect(contents(path) == "original")
        #expect(leftovers().isEmpty)
    }

    /// A target that appears while its output is being written is refused when the output is
    /// committed, and left as it is: by renameat2's no-replace rename, and by the link a file
    /// system without it falls back to.
    @Test func aTargetThatAppearsMeanwhileIsNotReplaced() throws {
        let path = directory + "/late.json"
        do {
            let stream = try OutputFile.Stream(path)
            try stream.write(Array("ours".utf8))
            try OutputFile.write(Array("theirs".utf8), to: path)
            let error = #expect(throws: Diagnostic.self) { try stream.commit() }
            #expect(error?.code == "output.exists" && error?.location?.file == path)
        }
        // The refused stream, once dropped, leaves nothing behind.
        #expect(contents(path) == "theirs" && leftovers().isEmpty)

        let source = directory + "/.source.tmp"
        try OutputFile.write(Array("linked".utf8), to: source)
        #expect(OutputFile.renameWithoutReplacing(source, path) == EEXIST)
        #expect((#expect(throws: Diagnostic.self) { try OutputFile.linkWithoutReplacing(source, path) })?.code == "output.exists")
        #expect(contents(path) == "theirs" && contents(source) == "linked")
        let fresh = directory + "/fresh.json"
        try OutputFile.linkWithoutReplacing(source, fresh)
        #expect(contents(fresh) == "linked" && contents(source) == nil)
        #expect(leftovers().isEmpty)
    }

    @Test func forceReplacesKeepingPermissionsAndOptionallyABackup() throws {
        let path = directory + "/backup.json"
        try OutputFile.write(Array("v1".utf8), to: path)
        chmod(path, 0o600)
        try OutputFile.write(Array("v2".utf8), to: path, options: .init(overwrite: true, keepBackup: true))
        #expect(contents(path) == "v2")
        #expect(contents(path + ".bak") == "v1")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        try OutputFile.write(Array("v3".utf8), to: path, options: .init(overwrite: true))
        #expect(contents(path) == "v3")
        #expect(contents(path + ".bak") == "v1")
    }

    @Test func missingFoldersAreMade() throws {
        let path = directory + "/values-zh-rTW/nested/strings.xml"
        try OutputFile.write(Array("x".utf8), to: path)
        #expect(contents(path) == "x")
    }

    @Test func failureLeavesNothingBehind() throws {
        // A folder in the path is a file: nothing can be written, nothing is left behind.
        try OutputFile.write(Array("plain".utf8), to: directory + "/file")
        let error = #expect(throws: Diagnostic.self) {
            try OutputFile.write(Array("x".utf8), to: directory + "/file/dir/out.txt")
        }
        #expect(error?.code == "output.failed")
        #expect(error?.location?.file == directory + "/file/dir/out.txt")
        #expect(contents(directory + "/file") == "plain")
        #expect(leftovers().isEmpty)
    }
}
