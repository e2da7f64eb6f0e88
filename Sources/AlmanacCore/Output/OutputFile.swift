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

    /// An output written in pieces (a conversion that streams), with the same promises as
    /// `write`: the target appears whole at `commit()`, or not at all. A stream dropped without
    /// committing leaves nothing behind.
    public final class Stream {
        public let path: String
        let options: Options
        let temporary: String?
        var fd: Int32
        var committed = false

        /// `checkingFirst`: fail at once when the target exists, before the long work a stream
        /// is opened for (committing checks again, atomically).
        public init(_ path: String, options: Options = Options(), checkingFirst: Bool = true) throws(Diagnostic) {
            self.path = path
            self.options = options
            if path == "-" {
                temporary = nil
                fd = 1
                return
            }
            if checkingFirst, !options.overwrite, OutputFile.exists(path) { throw Diagnostic.error("output.exists", at: SourceLocation(file: path)) }
            let directory = parentDirectory(of: path)
            let stem = directory + "/." + baseName(of: path) + ".almanac-\(OutputFile.processID)-"
            var temporary = stem + "\(OutputFile.temporaryNumber()).tmp"
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd < 0, errno == ENOENT {
                // `-o out/zh-Hant/strings.xml`: the folders are made as `mkdir -p` would.
                try OutputFile.makeDirectories(directory, for: path)
                fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            }
            // The name is taken (a process of the same id on another machine sharing the folder,
            // or one that was killed before it cleaned up): the next number.
            var attempts = 0
            while fd < 0, errno == EEXIST, attempts < 100 {
                temporary = stem + "\(OutputFile.temporaryNumber()).tmp"
                fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
                attempts += 1
            }
            guard fd >= 0 else { throw failure(path, errno) }
            // Held until the file is closed, and released by the kernel when the process dies:
            // how a later run tells an abandoned temporary file from one being written.
            _ = flock(fd, LOCK_EX | LOCK_NB)
            self.temporary = temporary
            OutputFile.unfinished.withLock { _ = $0.insert(temporary) }
        }

        deinit {
            if let temporary, !committed {
                if fd >= 0 { close(fd) }
                unlink(temporary)
                OutputFile.unfinished.withLock { _ = $0.remove(temporary) }
            }
        }

        public func write(_ bytes: [UInt8]) throws(Diagnostic) {
            try writeAll(fd: fd, bytes, path: path)
        }

        public func commit() throws(Diagnostic) {
            guard let temporary else { return }
            // Keep an existing file's permissions when replacing it (without `overwrite` there
            // is none to keep: the target is refused if it appeared).
            var existing = stat()
            let exists = options.overwrite && stat(path, &existing) == 0
            if exists { fchmod(fd, existing.st_mode & 0o7777) }
            if options.sync { guard fsync(fd) == 0 else { throw failure(path, errno) } }
            let closed = close(fd)
            fd = -1
            guard closed == 0 else { throw failure(path, errno) }

            if options.overwrite {
                if options.keepBackup, exists {
                    let backup = path + ".bak"
                    unlink(backup)
                    guard link(path, backup) == 0 else { throw failure(backup, errno) }
                }
                guard rename(temporary, path) == 0 else { throw failure(path, errno) }
            } else {
                // Refused when the target appeared meanwhile: no check-then-write race.
                switch OutputFile.renameWithoutReplacing(temporary, path) {
                case 0: break
                case EEXIST: throw Diagnostic.error("output.exists", at: SourceLocation(file: path))
                case EINVAL, ENOSYS: try OutputFile.linkWithoutReplacing(temporary, path)
                case let code: throw failure(path, code)
                }
            }
            committed = true
            OutputFile.unfinished.withLock { _ = $0.remove(temporary) }
            if options.sync { syncDirectory(parentDirectory(of: path)) }
        }
    }

    /// Renames `source` to `target` unless `target` exists (Linux's renameat2 with
    /// RENAME_NOREPLACE: one system call where link and unlink were two); 0, or the error.
    /// EINVAL or ENOSYS: the file system or kernel has no such rename.
    static func renameWithoutReplacing(_ source: String, _ target: String) -> Int32 {
        #if os(Linux)
        if let renameat2 {
            return renameat2(AT_FDCWD, source, AT_FDCWD, target, 1 /* RENAME_NOREPLACE */) == 0 ? 0 : errno
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
    #endif

    /// The same without renameat2: link() fails with EEXIST as well; file systems without hard
    /// links check, then rename (a small race remains there).
    static func linkWithoutReplacing(_ source: String, _ target: String) throws(Diagnostic) {
        guard link(source, target) != 0 else {
            unlink(source)
            return
        }
        let code = errno
        if code == EEXIST { throw Diagnostic.error("output.exists", at: SourceLocation(file: target)) }
        guard code == EPERM || code == ENOTSUP || code == EXDEV else { throw failure(target, code) }
        guard access(target, F_OK) != 0 else { throw Diagnostic.error("output.exists", at: SourceLocation(file: target)) }
        guard rename(source, target) == 0 else { throw failure(target, errno) }
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

    /// The temporary files of outputs being written, so that a process stopped at once (a second
    /// Ctrl-C) can remove them: an interrupted run leaves whole outputs or none.
    static let unfinished = Locked<Set<String>>([])

    /// Removes the temporary files of every output not yet committed. Call it just before the
    /// process exits early; the outputs being written are then simply not there.
    public static func removeUnfinished() {
        unfinished.withLock { paths in
            for path in paths { unlink(path) }
            paths.removeAll()
        }
    }

    /// Removes the temporary files that runs stopped at once (SIGKILL, a lost machine, a killed
    /// Spark task) left in `directory`: `.NAME.almanac-PID-N.tmp` whose lock no process holds and
    /// whose PID no process on this machine has. A file another live process writes keeps its
    /// lock (also across machines on NFS, where flock is a POSIX lock); a PID that exists is taken
    /// as alive, which can only leave a file, never remove one being written. Returns the paths removed.
    public static func removeAbandoned(in directory: String) -> [String] {
        guard let folder = opendir(directory) else { return [] }
        defer { closedir(folder) }
        var removed: [String] = []
        let own = getpid()
        while let entry = readdir(folder) {
            let name = DirectoryEntry.name(entry)
            guard let pid = abandonedWriter(name), pid != own else { continue }
            if kill(pid, 0) == 0 || errno == EPERM { continue }
            let path = directory + "/" + name
            let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { continue }
            let free = flock(fd, LOCK_EX | LOCK_NB) == 0
            if free, unlink(path) == 0 { removed.append(path) }
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

    /// Makes a directory and its missing parents.
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
        for directory in directories { syncDirectory(directory) }
    }

    #if os(Linux)
    /// Linux's syncfs(2), which Swift's Glibc module does not declare.
    private static let syncfs: (@convention(c) (Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
    }()
    #endif

    private static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    private static func failure(_ path: String, _ code: Int32) -> Diagnostic {
        Diagnostic.error("output.failed", String(cString: strerror(code)), at: SourceLocation(file: path))
    }

    // Both over the UTF-8 bytes: a Character search cost ~12,000 instructions a path, twice
    // for every file a batch writes.
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
public enum DirectoryEntry {
    /// The entry's name, read up to its terminating NUL where it lies. (Copying `d_name` as a
    /// value reads all 256 bytes of the declared array, but the kernel packs entries by their
    /// real length: for the last entries of a folder's buffer that read runs past it, which
    /// AddressSanitizer reported as a heap-buffer-overflow in a batch over 4,000 files.)
    public static func name(_ entry: UnsafeMutablePointer<dirent>) -> String {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        return String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
    }
}
