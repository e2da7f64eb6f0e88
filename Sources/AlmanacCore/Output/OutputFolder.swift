import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open folder, closed when the last reference to it goes (a writer may still hold one that
/// a cache has let go of).
final class DirectoryHandle: Sendable {
    let descriptor: Int32

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// Opens `path` as the user named it (links followed: the command line is trusted).
    convenience init(path: String) throws(Diagnostic) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw OutputFile.failure(path, errno) }
        self.init(descriptor: fd)
    }

    deinit { close(descriptor) }
}

/// The folder a user named with `-o`, beneath which Almanac writes outputs whose names come from
/// its inputs: a batch's relative paths, a catalog's `xx.lproj/Table.strings` files, a manifest's
/// relative outputs.
///
/// The folder itself is the user's word (it may be a link; it is made when missing). Everything
/// beneath it is untrusted: each relative path must be plain names (`OutputNames.checkPlainComponents`),
/// and every folder in it is opened relative to the one before with `O_NOFOLLOW`, and every file
/// created, replaced and renamed relative to its folder's descriptor, so a symbolic link planted
/// inside the folder — by another user of a shared folder, or by an earlier run — is refused with
/// `output.link-inside`, never followed. Nothing is written outside the folder.
///
/// Safe to share between threads: the folders a batch writes into are opened once and kept
/// (a bounded number; past it they are opened for each use).
public final class OutputFolder: Hashable, Sendable {
    /// The folder as the user named it (messages and reports show paths beneath it from here).
    public let path: String
    let root: DirectoryHandle
    private let opened = Locked<[String: DirectoryHandle]>([:])
    /// A folder on each file system written on, for one `syncfs` each at the end.
    private let fileSystems = Locked<[UInt64: DirectoryHandle]>([:])

    /// Folders kept open at once: well inside the usual limit of 1,024 descriptors, with a
    /// batch's workers holding a few files each.
    static let keptOpen = 128

    /// Opens the folder, making it and its parents first when they are missing (`mkdir -p`).
    public init(_ path: String) throws(Diagnostic) {
        try OutputFile.checkNoNUL(path)
        try OutputFile.makeDirectories(path)
        self.path = path
        root = try DirectoryHandle(path: path)
        note(root)
    }

    public static func == (lhs: OutputFolder, rhs: OutputFolder) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// `path/relative`, as messages show it.
    public func display(_ relative: String) -> String { OutputNames.join(path, relative) }

    /// The folder that holds `relative`'s last component, and that component. With `creating`,
    /// missing folders are made; without, nil when one is missing.
    func parent(of relative: String, creating: Bool) throws(Diagnostic) -> (folder: DirectoryHandle, name: String)? {
        try OutputNames.checkPlainComponents(relative, shownAs: self.display(relative))
        guard let slash = relative.utf8.lastIndex(of: UInt8(ascii: "/")) else { return (root, relative) }
        let name = String(relative[relative.utf8.index(after: slash)...])
        let key = String(relative[..<slash])
        if let kept = opened.withLock({ $0[key] }) { return (kept, name) }
        var folder = root
        var walked = ""
        for part in key.split(separator: "/") {
            walked = walked.isEmpty ? String(part) : walked + "/" + part
            guard let next = try child(String(part), of: folder, shownAs: display(walked), creating: creating) else { return nil }
            folder = next
        }
        note(folder)
        opened.withLock { kept in
            if kept.count >= Self.keptOpen, let any = kept.keys.first { kept[any] = nil }
            kept[key] = folder
        }
        return (folder, name)
    }

    /// The folder `name` inside `parent`, opened without following a link.
    private func child(_ name: String, of parent: DirectoryHandle, shownAs shown: String, creating: Bool) throws(Diagnostic) -> DirectoryHandle? {
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        var fd = openat(parent.descriptor, name, flags)
        if fd < 0, errno == ENOENT {
            guard creating else { return nil }
            if mkdirat(parent.descriptor, name, 0o777) != 0, errno != EEXIST { throw OutputFile.failure(shown, errno) }
            fd = openat(parent.descriptor, name, flags)
        }
        guard fd >= 0 else {
            let code = errno
            if Self.isLink(name, in: parent) { throw Diagnostic.error(.outputLinkInside(link: shown, folder: path), at: SourceLocation(file: shown)) }
            throw OutputFile.failure(shown, code)
        }
        return DirectoryHandle(descriptor: fd)
    }

    /// `relative` as the folder already spells it, letter case aside: where a component is not
    /// there as written but one entry of its folder matches it ignoring case (`infoPlist.strings`
    /// for `InfoPlist.strings`), that entry's spelling, as a Mac's disk, which ignores case, reads
    /// the path. Components past the first missing one are kept as written.
    public func spelledAsPresent(_ relative: String) -> String {
        var spelled: [String] = []
        for part in relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init) {
            let folder = display(spelled.joined(separator: "/"))
            let here = spelled.isEmpty ? path : folder
            if FileManager.default.fileExists(atPath: OutputNames.join(here, part)) {
                spelled.append(part)
                continue
            }
            let lowered = part.lowercased()
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: here)) ?? []
            let matches = entries.filter { $0.lowercased() == lowered }
            spelled.append(matches.count == 1 ? matches[0] : part)
        }
        return spelled.joined(separator: "/")
    }

    /// Whether `relative` exists beneath the folder (as anything: a file, a folder, a link). A
    /// link on the way, or as the name itself, is `output.link-inside`.
    public func contains(_ relative: String) throws(Diagnostic) -> Bool {
        guard let (folder, name) = try parent(of: relative, creating: false) else { return false }
        var status = stat()
        guard fstatat(folder.descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return false }
        if status.st_mode & S_IFMT == S_IFLNK { throw linkError(relative) }
        return true
    }

    func linkError(_ relative: String) -> Diagnostic {
        Diagnostic.error(.outputLinkInside(link: display(relative), folder: path), at: SourceLocation(file: display(relative)))
    }

    static func isLink(_ name: String, in folder: DirectoryHandle) -> Bool {
        var status = stat()
        return fstatat(folder.descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    /// Removes the temporary files that stopped runs left in the folder holding `relative`
    /// (`OutputFile.removeAbandoned`); nothing when that folder is missing or not reachable
    /// without a link. Returns the paths removed.
    public func removeAbandoned(besides relative: String) -> [String] {
        guard let found = try? parent(of: relative, creating: false) else { return [] }
        let shown = OutputNames.parent(of: display(relative))
        return OutputFile.removeAbandoned(in: found.folder, shownAs: shown)
    }

    /// Flushes what was written beneath the folder to disk: one `syncfs` for each file system
    /// written on (on Linux); elsewhere the files given and their folders.
    public func sync(_ relatives: some Sequence<String>) {
        #if os(Linux)
        if let syncFileSystem = OutputFile.syncfs {
            for folder in fileSystems.withLock({ Array($0.values) }) { _ = syncFileSystem(folder.descriptor) }
            return
        }
        #endif
        OutputFile.sync(relatives.map(display))
    }

    /// Remembers the file system of a folder opened for writing (a folder beneath may be a mount point).
    private func note(_ folder: DirectoryHandle) {
        var status = stat()
        guard fstat(folder.descriptor, &status) == 0 else { return }
        fileSystems.withLock { known in
            if known[UInt64(status.st_dev)] == nil { known[UInt64(status.st_dev)] = folder }
        }
    }
}
