#if canImport(Glibc)
import Glibc
/// POSIX write(2) (macOS has no Glibc).
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif
import AlmanacICU

/// Writes output files so that nothing is ever half-written or silently replaced: the bytes go to
/// a temporary file beside the target, are flushed to disk, and then take the target's name in
/// one step. Without `overwrite`, an existing file is never replaced (checked atomically: no race
/// between checking and writing).
///
/// A path the user named (`-o days.json`) is written where it leads, links included; a device or
/// a FIFO there (`-o /dev/null`, a named pipe) is written to as it is, and `/dev/stdout`,
/// `/dev/stderr` and `/dev/fd/N` are the process's own descriptors. A path made from an input's
/// names is written beneath an `OutputFolder`, never through a link.
public enum OutputFile {
    public struct Options: Hashable, Sendable {
        /// Replace an existing file (`--force`).
        public var overwrite: Bool
        /// When replacing, keep the old file as `NAME.bak`.
        public var keepBackup: Bool

        /// Flush the file before the rename and its folder after it, so both survive a power cut.
        /// A batch that writes thousands of files turns this off and calls `OutputFile.sync` once
        /// at the end instead (one `syncfs` on Linux, rather than two `fsync`s a file).
        public var sync: Bool

        public init(overwrite: Bool = false, keepBackup: Bool = false, sync: Bool = true) {
            self.overwrite = overwrite
            self.keepBackup = keepBackup
            self.sync = sync
        }
    }

    /// Writes `bytes` to `path`; `-` writes to standard output. Throws `output.exists` or
    /// `output.failed` diagnostics naming the path and what to do.
    public static func write(_ bytes: [UInt8], to path: String, options: Options = Options()) throws(Diagnostic) {
        // The work is done: no early look for the target (committing refuses an existing one
        // all the same), one system call fewer for each file of a batch.
        let file = try Stream(path, options: options, checkingFirst: false)
        try file.write(bytes)
        try file.commit()
    }

    /// Writes `bytes` to `relative` beneath `folder` (see `OutputFolder`).
    public static func write(_ bytes: [UInt8], to relative: String, in folder: OutputFolder, options: Options = Options()) throws(Diagnostic) {
        let file = try Stream(relative, in: folder, options: options, checkingFirst: false)
        try file.write(bytes)
        try file.commit()
    }

    /// An output written in pieces (a conversion that streams), with the same promises as
    /// `write`: the target appears whole at `commit()`, or not at all. A stream dropped without
    /// committing leaves nothing behind.
    public final class Stream {
        /// The target as messages show it.
        public let path: String
        let options: Options
        /// Where the bytes go: a temporary file in `folder` renamed to `name` at the end; or a
        /// descriptor written as it is (standard output, a device, a FIFO).
        let folder: DirectoryHandle?
        let name: String
        let temporary: String?
        /// Beneath an `OutputFolder`: a link in the target's place is refused, not replaced.
        let beneath: OutputFolder?
        let relative: String
        var fd: Int32
        var committed = false

        /// `checkingFirst`: fail at once when the target exists, before the long work a stream
        /// is opened for (committing checks again, atomically).
        public init(_ path: String, options: Options = Options(), checkingFirst: Bool = true) throws(Diagnostic) {
            self.path = path
            self.options = options
            beneath = nil
            relative = path
            if path == "-" {
                (folder, name, temporary, fd) = (nil, path, nil, 1)
                return
            }
            try OutputFile.checkNoNUL(path)
            if let inPlace = try OutputFile.openInPlace(path) {
                (folder, name, temporary, fd) = (nil, path, nil, inPlace)
                return
            }
            if checkingFirst, !options.overwrite, OutputFile.exists(path) { throw Diagnostic.error(.outputExists, at: SourceLocation(file: path)) }
            let directory = parentDirectory(of: path)
            let opened: DirectoryHandle
            do {
                opened = try DirectoryHandle(path: directory)
            } catch {
                // `-o out/zh-Hant/strings.xml`: the folders are made as `mkdir -p` would.
                try OutputFile.makeDirectories(directory, for: path)
                opened = try DirectoryHandle(path: directory)
            }
            folder = opened
            name = baseName(of: path)
            let created = try OutputFile.createTemporary(for: name, in: opened, shownAs: path)
            (temporary, fd) = created
            OutputFile.unfinished.withLock { $0[ObjectIdentifier(self)] = (opened, created.0) }
        }

        /// A stream to `relative` beneath `folder`: the folders on the way are made or opened
        /// without following links, and the file is created, renamed and replaced relative to its
        /// folder (see `OutputFolder`).
        public init(_ relative: String, in outputFolder: OutputFolder, options: Options = Options(), checkingFirst: Bool = true) throws(Diagnostic) {
            path = outputFolder.display(relative)
            self.options = options
            beneath = outputFolder
            self.relative = relative
            if checkingFirst, !options.overwrite, try outputFolder.contains(relative) {
                throw Diagnostic.error(.outputExists, at: SourceLocation(file: path))
            }
            let (opened, name) = try outputFolder.parent(of: relative, creating: true)!
            folder = opened
            self.name = name
            let created = try OutputFile.createTemporary(for: name, in: opened, shownAs: path)
            (temporary, fd) = created
            OutputFile.unfinished.withLock { $0[ObjectIdentifier(self)] = (opened, created.0) }
        }

        deinit {
            if let temporary, let folder, !committed {
                if fd >= 0 { close(fd) }
                unlinkat(folder.descriptor, temporary, 0)
                OutputFile.unfinished.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(self)) }
            } else if temporary == nil, fd > 2 {
                close(fd)
            }
        }

        public func write(_ bytes: [UInt8]) throws(Diagnostic) {
            try writeAll(fd: fd, bytes, path: path)
        }

        public func commit() throws(Diagnostic) {
            guard let temporary, let folder else {
                // Standard output, a device or a FIFO: written as it went.
                if fd > 2 { close(fd) }
                fd = -1
                committed = true
                return
            }
            let directory = folder.descriptor
            // Keep an existing file's permissions when replacing it (without `overwrite` there
            // is none to keep: the target is refused if it appeared). A link beneath an output
            // folder is refused; a link the user named is replaced, as it always was.
            var existing = stat()
            let exists = options.overwrite
                && fstatat(directory, name, &existing, beneath == nil ? 0 : AT_SYMLINK_NOFOLLOW) == 0
            if exists, let beneath, existing.st_mode & S_IFMT == S_IFLNK { throw beneath.linkError(relative) }
            if exists { fchmod(fd, existing.st_mode & 0o7777) }
            if options.sync { guard fsync(fd) == 0 else { throw failure(path, errno) } }
            let closed = close(fd)
            fd = -1
            guard closed == 0 else { throw failure(path, errno) }

            if options.overwrite {
                if options.keepBackup, exists {
                    let backup = name + ".bak"
                    unlinkat(directory, backup, 0)
                    guard linkat(directory, name, directory, backup, 0) == 0 else { throw failure(path + ".bak", errno) }
                }
                guard renameat(directory, temporary, directory, name) == 0 else { throw failure(path, errno) }
            } else {
                // Refused when the target appeared meanwhile: no check-then-write race.
                switch OutputFile.renameWithoutReplacing(temporary, name, in: directory) {
                case 0: break
                case EEXIST:
                    if let beneath, OutputFolder.isLink(name, in: folder) { throw beneath.linkError(relative) }
                    throw Diagnostic.error(.outputExists, at: SourceLocation(file: path))
                case EINVAL, ENOSYS: try OutputFile.linkWithoutReplacing(temporary, name, in: directory, shownAs: path)
                case let code: throw failure(path, code)
                }
            }
            committed = true
            OutputFile.unfinished.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(self)) }
            if options.sync { fsync(directory) }
        }
    }

    /// Creates the temporary file `.NAME.almanac-PID-N.tmp` in `folder`, exclusively and without
    /// following a link, locked while it is written; its name and descriptor.
    static func createTemporary(for name: String, in folder: DirectoryHandle, shownAs path: String) throws(Diagnostic) -> (String, Int32) {
        let stem = "." + name + ".almanac-\(OutputFile.processID)-"
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        var temporary = stem + "\(OutputFile.temporaryNumber()).tmp"
        var fd = openat(folder.descriptor, temporary, flags, 0o666)
        // The name is taken (a process of the same id on another machine sharing the folder,
        // or one that was killed before it cleaned up): the next number.
        var attempts = 0
        while fd < 0, errno == EEXIST, attempts < 100 {
            temporary = stem + "\(OutputFile.temporaryNumber()).tmp"
            fd = openat(folder.descriptor, temporary, flags, 0o666)
            attempts += 1
        }
        guard fd >= 0 else { throw failure(path, errno) }
        // Held until the file is closed, and released by the kernel when the process dies:
        // how a later run tells an abandoned temporary file from one being written.
        _ = flock(fd, LOCK_EX | LOCK_NB)
        return (temporary, fd)
    }

    /// A descriptor for a path the user named that is not a file to replace: `/dev/stdout`,
    /// `/dev/stderr`, `/dev/fd/N` and `/proc/self/fd/N` are the process's own (duplicated, so
    /// the output goes where that descriptor points, at its offset); a character device, FIFO or
    /// socket is opened for writing. Nil for anything else (a file, or nothing yet).
    static func openInPlace(_ path: String) throws(Diagnostic) -> Int32? {
        if let own = ownDescriptor(path) {
            let fd = fcntl(own, F_DUPFD_CLOEXEC, 3)
            guard fd >= 0 else { throw failure(path, errno) }
            return fd
        }
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFCHR || kind == S_IFIFO || kind == S_IFSOCK else { return nil }
        let fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(path, errno) }
        return fd
    }

    /// The descriptor `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` or `/proc/self/fd/N` names.
    static func ownDescriptor(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                return Int32(path.dropFirst(prefix.count))
            }
            return nil
        }
    }

    /// Whether the user's `path` is written as it is (a device, FIFO or the process's own
    /// descriptor): what is written there cannot be taken back.
    public static func isWrittenInPlace(_ path: String) -> Bool {
        if path == "-" || ownDescriptor(path) != nil { return true }
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        let kind = status.st_mode & S_IFMT
        return kind == S_IFCHR || kind == S_IFIFO || kind == S_IFSOCK
    }

    /// A NUL would end the path early where the system reads it (`out/a\0/../../b` is `out/a`
    /// to the kernel): refused, whoever wrote it.
    static func checkNoNUL(_ path: String) throws(Diagnostic) {
        guard path.utf8.contains(0) else { return }
        let shown = Message.quoting(path)
        throw Diagnostic.error(.outputNotPlainName(path: shown, part: "\\0"), at: SourceLocation(file: shown))
    }

    /// Renames `source` to `target` in `folder` unless `target` exists (Linux's renameat2 with
    /// RENAME_NOREPLACE: one system call where link and unlink were two); 0, or the error.
    /// EINVAL or ENOSYS: the file system or kernel has no such rename.
    static func renameWithoutReplacing(_ source: String, _ target: String, in folder: Int32 = AT_FDCWD) -> Int32 {
        #if os(Linux)
        if let renameat2 {
            return renameat2(folder, source, folder, target, renameNoReplace) == 0 ? 0 : errno
        }
        #endif
        return ENOSYS
    }

    #if os(Linux)
    /// glibc's renameat2 (2.28 and later), which Swift's Glibc module does not declare.
    private static let renameat2: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32).self)
    }()

    /// renameat2's flag: fail with EEXIST rather than replace the target (linux/fs.h).
    private static let renameNoReplace: UInt32 = 1
    #endif

    /// The same without renameat2: link() fails with EEXIST as well; file systems without hard
    /// links check, then rename (a small race remains there).
    static func linkWithoutReplacing(_ source: String, _ target: String, in folder: Int32 = AT_FDCWD, shownAs shown: String? = nil) throws(Diagnostic) {
        let shown = shown ?? target
        guard linkat(folder, source, folder, target, 0) != 0 else {
            unlinkat(folder, source, 0)
            return
        }
        let code = errno
        if code == EEXIST { throw Diagnostic.error(.outputExists, at: SourceLocation(file: shown)) }
        guard code == EPERM || code == ENOTSUP || code == EXDEV else { throw failure(shown, code) }
        var status = stat()
        guard fstatat(folder, target, &status, AT_SYMLINK_NOFOLLOW) != 0 else { throw Diagnostic.error(.outputExists, at: SourceLocation(file: shown)) }
        guard renameat(folder, source, folder, target) == 0 else { throw failure(shown, errno) }
    }

    /// This process's id, asked once (it is in every temporary file's name).
    static let processID = getpid()

    /// The numbers in temporary files' names: a counter from a random start, so that names are
    /// unique within the process without asking the kernel for randomness for each file.
    private static let temporaryNumbers = Locked<UInt32>(UInt32.random(in: 0...UInt32.max))

    static func temporaryNumber() -> UInt32 {
        temporaryNumbers.withLock { number in
            number &+= 1
            return number
        }
    }

    /// The temporary files of outputs being written, by stream, so that a process stopped at
    /// once (a second Ctrl-C) can remove them: an interrupted run leaves whole outputs or none.
    static let unfinished = Locked<[ObjectIdentifier: (folder: DirectoryHandle, name: String)]>([:])

    /// Removes the temporary files of every output not yet committed. Call it just before the
    /// process exits early; the outputs being written are then simply not there.
    public static func removeUnfinished() {
        unfinished.withLock { files in
            for (folder, name) in files.values { unlinkat(folder.descriptor, name, 0) }
            files.removeAll()
        }
    }

    /// Removes the temporary files that runs stopped at once (SIGKILL, a lost machine, a killed
    /// Spark task) left in `directory`: `.NAME.almanac-PID-N.tmp` whose lock no process holds and
    /// whose PID no process on this machine has. A file another live process writes keeps its
    /// lock (also across machines on NFS, where flock is a POSIX lock); a PID that exists is taken
    /// as alive, which can only leave a file, never remove one being written. Returns the paths removed.
    public static func removeAbandoned(in directory: String) -> [String] {
        guard let folder = try? DirectoryHandle(path: directory) else { return [] }
        return removeAbandoned(in: folder, shownAs: directory)
    }

    static func removeAbandoned(in folder: DirectoryHandle, shownAs directory: String) -> [String] {
        let listed = openat(folder.descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard listed >= 0, let entries = fdopendir(listed) else { return [] }
        defer { closedir(entries) }
        var removed: [String] = []
        let own = getpid()
        while let entry = readdir(entries) {
            let name = DirectoryEntry.name(entry)
            guard let pid = abandonedWriter(name), pid != own else { continue }
            if kill(pid, 0) == 0 || errno == EPERM { continue }
            let fd = openat(folder.descriptor, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { continue }
            let free = flock(fd, LOCK_EX | LOCK_NB) == 0
            if free, unlinkat(folder.descriptor, name, 0) == 0 { removed.append(OutputNames.join(directory, name)) }
            close(fd)
        }
        return removed.sorted()
    }

    /// The PID in a temporary file's name (`.NAME.almanac-PID-N.tmp`), or nil for any other name.
    static func abandonedWriter(_ name: String) -> pid_t? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
        let fields = name.dropLast(4).split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count >= 3, fields[fields.count - 3].hasSuffix(".almanac"), let pid = pid_t(fields[fields.count - 2]), pid > 0,
              UInt32(fields[fields.count - 1]) != nil else { return nil }
        return pid
    }

    /// Makes a directory and its missing parents (a path the user named: links are followed).
    public static func makeDirectories(_ directory: String, for path: String? = nil) throws(Diagnostic) {
        var isDirectory = stat()
        if stat(directory, &isDirectory) == 0 {
            if (isDirectory.st_mode & S_IFMT) == S_IFDIR { return }
            throw failure(path ?? directory, ENOTDIR)
        }
        let parent = parentDirectory(of: directory)
        if parent != directory, parent != "." { try makeDirectories(parent, for: path) }
        if mkdir(directory, 0o777) != 0, errno != EEXIST { throw failure(path ?? directory, errno) }
    }

    /// Whether a path exists (for early, friendly "already exists" messages before long work).
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Whether a path is a folder, following links (an input folder to walk, `-o` naming one).
    public static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// Whether a path is a regular file (what `--merge` can read and merge into).
    public static func isFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// Writes every byte to standard output (a program's default for `-`; the CLI's session
    /// routes its own output instead).
    public static func writeStandardOutput(_ bytes: [UInt8]) {
        try? writeAll(fd: 1, bytes, path: "-")
    }

    private static func writeAll(fd: Int32, _ bytes: [UInt8], path: String) throws(Diagnostic) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw failure(path, errno)
            }
            offset += written
        }
    }

    /// Flushes files written with `sync` off, and the folders that hold them, to disk: one
    /// `syncfs` per file system on Linux; elsewhere each file and folder once.
    public static func sync(_ paths: some Sequence<String>) {
        let paths = Array(paths)
        let directories = Set(paths.map(parentDirectory))
        #if os(Linux)
        if let syncFileSystem = syncfs {
            var devices: Set<UInt64> = []
            for directory in directories {
                let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                guard fd >= 0 else { continue }
                var info = stat()
                if fstat(fd, &info) == 0, devices.insert(UInt64(info.st_dev)).inserted { _ = syncFileSystem(fd) }
                close(fd)
            }
            return
        }
        #endif
        for path in paths {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            fsync(fd)
            close(fd)
        }
        for directory in directories {
            let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            fsync(fd)
            close(fd)
        }
    }

    #if os(Linux)
    /// Linux's syncfs(2), which Swift's Glibc module does not declare.
    static let syncfs: (@convention(c) (Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
    }()
    #else
    static let syncfs: ((Int32) -> Int32)? = nil
    #endif

    static func failure(_ path: String, _ code: Int32) -> Diagnostic {
        // A full disk (or quota) has a code of its own: a batch stops starting files after the first.
        if code == ENOSPC || code == EDQUOT { return Diagnostic.error(.outputNoSpace, at: SourceLocation(file: path)) }
        return Diagnostic.error(.outputFailed(reason: String(cString: strerror(code))), at: SourceLocation(file: path))
    }

    // Both over the UTF-8 bytes, not Characters: twice for every file a batch writes.
    static func parentDirectory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        let parent = String(Substring(path.utf8[..<slash]))
        return parent.isEmpty ? "/" : parent
    }

    static func baseName(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(Substring(path.utf8[path.utf8.index(after: slash)...]))
    }
}

/// Names of `readdir` entries.
package enum DirectoryEntry {
    /// The entry's name, read up to its terminating NUL where it lies. (Copying `d_name` as a
    /// value reads all 256 bytes of the declared array, but the kernel packs entries by their
    /// real length: for the last entries of a folder's buffer that read runs past it, which
    /// AddressSanitizer reported as a heap-buffer-overflow in a batch over 4,000 files.)
    package static func name(_ entry: UnsafeMutablePointer<dirent>) -> String {
        String(cString: nameStart(entry))
    }

    private static func nameStart(_ entry: UnsafeMutablePointer<dirent>) -> UnsafePointer<CChar> {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        return (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self)
    }

    /// The names in `directory` that start with `prefix`, compared before a string is made for
    /// one (`PATH` folders hold thousands of names, and every command lists them at start-up).
    package static func names(in directory: String, startingWith prefix: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        let wanted = Array(prefix.utf8)
        var names: [String] = []
        while let entry = readdir(stream) {
            let start = nameStart(entry)
            guard strncmp(start, prefix, wanted.count) == 0 else { continue }
            names.append(String(cString: start))
        }
        return names
    }
}
