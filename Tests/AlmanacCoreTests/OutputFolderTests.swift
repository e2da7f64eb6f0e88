@testable import AlmanacCore
import Foundation
import Testing

/// Writing beneath an output folder: paths made of an input's names never leave it, and a link
/// inside it is refused, never followed. Each test works in a sandbox and checks that nothing
/// outside the output folder changed.
@Suite struct OutputFolderTests {
    /// `sandbox/out` is the output folder; `sandbox/elsewhere` is what a hostile path aims at.
    let sandbox: String = {
        let path = NSTemporaryDirectory() + "almanac-beneath-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path + "/elsewhere", withIntermediateDirectories: true)
        try! Data("victim".utf8).write(to: URL(fileURLWithPath: path + "/elsewhere/victim.txt"))
        return path
    }()
    var out: String { sandbox + "/out" }

    /// Every path under the sandbox outside `out/`, with the contents of files.
    func outside() -> [String: String] {
        var result: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: sandbox)!
        while let relative = enumerator.nextObject() as? String {
            guard relative != "out", !relative.hasPrefix("out/") else { continue }
            result[relative] = FileManager.default.contents(atPath: sandbox + "/" + relative).map { String(decoding: $0, as: UTF8.self) } ?? "<folder>"
        }
        return result
    }

    func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func plainPathsAreWrittenBeneathTheFolder() throws {
        let folder = try OutputFolder(out)
        try OutputFile.write(Array("a".utf8), to: "a.json", in: folder)
        try OutputFile.write(Array("b".utf8), to: "zh-Hant.lproj/nested/B.strings", in: folder)
        #expect(contents(out + "/a.json") == "a" && contents(out + "/zh-Hant.lproj/nested/B.strings") == "b")
        #expect(try folder.contains("a.json") && !folder.contains("missing.json") && !folder.contains("no/such/folder.json"))
        // Refused without --force, replaced with it, as for a path the user names.
        #expect((#expect(throws: Diagnostic.self) { try OutputFile.write(Array("x".utf8), to: "a.json", in: folder) })?.code == "output.exists")
        try OutputFile.write(Array("a2".utf8), to: "a.json", in: folder, options: .init(overwrite: true, keepBackup: true))
        #expect(contents(out + "/a.json") == "a2" && contents(out + "/a.json.bak") == "a")
        #expect(folder.display("a.json") == out + "/a.json")
    }

    /// Names that are not plain: nothing is written anywhere, and the error names the path and
    /// the part that is wrong.
    @Test(arguments: ["..", "../escaped.json", "../elsewhere/victim.txt", "/abs.json", "a/../../escaped.json", "a//b.json", "./a.json",
                      "", "a/", "en\u{0}/../../escaped.json", "a/..", "."])
    func namesThatAreNotPlainAreRefused(relative: String) throws {
        let before = outside()
        let folder = try OutputFolder(out)
        let error = #expect(throws: Diagnostic.self) { try OutputFile.write(Array("x".utf8), to: relative, in: folder, options: .init(overwrite: true)) }
        #expect(error?.code == "output.not-plain-name")
        #expect(error?.message.arguments.first?.contains("\u{0}") == false)
        #expect(outside() == before)
        #expect((try FileManager.default.subpathsOfDirectory(atPath: out)).isEmpty)
    }

    @Test func aVeryLongNameFailsWithTheSystemsReason() throws {
        let folder = try OutputFolder(out)
        let error = #expect(throws: Diagnostic.self) { try OutputFile.write([], to: String(repeating: "a", count: 300) + ".json", in: folder) }
        #expect(error?.code == "output.failed" && error?.message.arguments.first == String(cString: strerror(ENAMETOOLONG)))
        #expect((try FileManager.default.subpathsOfDirectory(atPath: out)).isEmpty)
    }

    /// A link inside the folder — to a folder outside, to a file outside, dangling — is refused
    /// on the way and in the target's place, with or without --force, and nothing outside changes.
    @Test(arguments: [false, true])
    func linksInsideTheFolderAreNeverFollowed(force: Bool) throws {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: out + "/sub", withDestinationPath: sandbox + "/elsewhere")
        try FileManager.default.createSymbolicLink(atPath: out + "/victim.txt", withDestinationPath: sandbox + "/elsewhere/victim.txt")
        try FileManager.default.createSymbolicLink(atPath: out + "/dangling.txt", withDestinationPath: sandbox + "/elsewhere/new.txt")
        try FileManager.default.createDirectory(atPath: out + "/real", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: out + "/real/up", withDestinationPath: "..")
        let before = outside()
        let folder = try OutputFolder(out)
        let options = OutputFile.Options(overwrite: force, keepBackup: force)
        for relative in ["sub/a.json", "sub/deeper/a.json", "victim.txt", "dangling.txt", "real/up/sub/a.json"] {
            let error = #expect(throws: Diagnostic.self, "\(relative)") { try OutputFile.write(Array("pwned".utf8), to: relative, in: folder, options: options) }
            #expect(error?.code == "output.link-inside", "\(relative): \(String(describing: error))")
            #expect(error?.message.arguments.last == out)
            // A stream checks first, and says the same.
            let early = #expect(throws: Diagnostic.self) { try OutputFile.Stream(relative, in: folder, options: .init(overwrite: false)) }
            #expect(early?.code == "output.link-inside")
        }
        #expect(throws: Diagnostic.self) { try folder.contains("sub/a.json") }
        #expect(outside() == before)
        #expect(contents(sandbox + "/elsewhere/victim.txt") == "victim")
        // No temporary file is left beside any target.
        let left = try FileManager.default.subpathsOfDirectory(atPath: out).filter { $0.hasSuffix(".tmp") }
        #expect(left.isEmpty)
    }

    /// The folder itself is the user's word: a link there is followed.
    @Test func theFolderItselfMayBeALink() throws {
        try FileManager.default.createSymbolicLink(atPath: out, withDestinationPath: sandbox + "/elsewhere")
        let folder = try OutputFolder(out)
        try OutputFile.write(Array("mine".utf8), to: "sub/mine.json", in: folder)
        #expect(contents(sandbox + "/elsewhere/sub/mine.json") == "mine")
    }

    /// A folder layout's paths come from the input: a codec (a user's, a plugin's) that builds
    /// one from a hostile name is refused before anything is written, not even the good files.
    @Test func aFolderLayoutWithAPathThatClimbsWritesNothing() throws {
        struct Layout: FolderLayoutCodec {
            let paths: [String]
            var format: FormatDescription {
                FormatDescription(id: "layout", name: "layout", summary: "test", extensions: [".layout"], model: .table)
            }
            func identify(_ probe: Probe) -> Identification { .no }
            func decode(_ input: CodecInput, context: CodecContext) throws(Diagnostic) -> Decoded {
                Decoded(document: .table(Table(columns: ["a"], rows: [["1"]])))
            }
            func encode(_ document: Document, context: CodecContext) throws(Diagnostic) -> Encoded { Encoded(bytes: []) }
            func isFolderLayout(_ path: String) -> Bool { false }
            func decodeFolder(_ path: String, context: CodecContext) -> [(name: String, decoded: Decoded)] { [] }
            func encodeFolder(_ document: Document, name: String, context: CodecContext) throws(Diagnostic) -> [FolderLayoutFile]? {
                paths.map { FolderLayoutFile(path: $0, bytes: Array("x".utf8)) }
            }
        }
        let input = sandbox + "/in.layout"
        try Data("x".utf8).write(to: URL(fileURLWithPath: input))
        for hostile in ["../escaped.strings", "en.lproj/../../escaped.strings", "/tmp/almanac-escaped-\(UUID().uuidString)", "x\u{0}/../y"] {
            let before = outside()
            let layout = Layout(paths: ["en.lproj/T.strings", hostile])
            let conversion = Conversion(registry: FormatRegistry([layout]), target: layout, source: layout)
            let report = conversion.run(.file(input), to: .file(out + "/T.layout", folder: out))
            #expect(report.status == .failed && report.diagnostics.last?.code == "output.not-plain-name", "\(report.diagnostics)")
            #expect(outside() == before)
            #expect(!FileManager.default.fileExists(atPath: out + "/en.lproj/T.strings"))
            #expect(!FileManager.default.fileExists(atPath: hostile))
        }
    }

    /// Devices and FIFOs the user names are written to as they are, not refused as existing.
    @Test func devicesAndFIFOsAreWrittenTo() throws {
        try OutputFile.write(Array("gone".utf8), to: "/dev/null")
        try OutputFile.write(Array("gone".utf8), to: "/dev/null", options: .init(overwrite: true, keepBackup: true))
        #expect(OutputFile.isWrittenInPlace("/dev/null") && OutputFile.isWrittenInPlace("/dev/stdout") && !OutputFile.isWrittenInPlace(sandbox))

        // A pipe named as /dev/fd/N: the bytes arrive through the descriptor, at its offset.
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        try OutputFile.write(Array("through the pipe".utf8), to: "/dev/fd/\(ends[1])")
        close(ends[1])
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(ends[0], &buffer, 64)
        close(ends[0])
        #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self) == "through the pipe")

        // A FIFO in the file system, read by another thread.
        let fifo = sandbox + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = Locked<[UInt8]>([])
        let reader = Thread {
            let fd = open(fifo, O_RDONLY)
            var chunk = [UInt8](repeating: 0, count: 256)
            while true {
                let count = read(fd, &chunk, 256)
                if count <= 0 { break }
                received.withLock { $0 += chunk.prefix(count) }
            }
            close(fd)
        }
        reader.start()
        try OutputFile.write(Array("into the fifo".utf8), to: fifo)
        for _ in 0..<200 where received.withLock({ $0.count }) < 13 { usleep(10_000) }
        #expect(received.withLock { String(decoding: $0, as: UTF8.self) } == "into the fifo")
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }
}
