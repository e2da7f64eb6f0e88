#if canImport(Glibc)
import Glibc
/// POSIX read(2), named apart from `FileChunks.read` (and on macOS too, which has no Glibc).
private let systemRead = Glibc.read
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
#endif

/// Reading files in chunks, with errors that name the file and what to do.
public enum FileChunks {
    /// Calls `body` with successive pieces of a file (each at most `chunkSize` bytes).
    public static func read(_ path: String, chunkSize: Int, _ body: ([UInt8]) throws(Diagnostic) -> Void) throws(Diagnostic) {
        let (fd, info) = try openForReading(path)
        defer { close(fd) }
        // A small file gets a buffer its size (plus the byte that shows it ended), not a chunk's:
        // a batch reads thousands of 4 KB exports, and zeroing 1 MB for each cost more than parsing it.
        let known = info.st_mode & S_IFMT == S_IFREG ? Int(info.st_size) + 1 : chunkSize
        let size = min(max(4096, chunkSize), max(known, 1))
        while true {
            // Each chunk is a new array: `body` may keep it (a read-ahead thread hands it on), and
            // refilling one buffer copied it whole each time it was kept.
            let buffer = try read(fd, count: size, path: path)
            if buffer.isEmpty { return }
            try body(buffer)
            if buffer.count < size { return }
        }
    }

    /// The first `count` bytes of a file (for identification), or all of it if it is shorter;
    /// `isWhole` says the end of the file was seen, so the bytes are the whole file and need not
    /// be read again (a batch of small files opened each one twice).
    public static func prefix(_ path: String, count: Int) throws(Diagnostic) -> (bytes: [UInt8], isWhole: Bool) {
        let (fd, info) = try openForReading(path)
        defer { close(fd) }
        // No bigger than the file plus the byte that shows it ended (a small file's probe cleared
        // a whole prefix-sized buffer). Files that say they are empty (as /proc's do) get the
        // whole prefix's room.
        let size = info.st_mode & S_IFMT == S_IFREG ? Int(info.st_size) : 0
        let wanted = size > 0 ? min(count, size + 1) : count
        let buffer = try read(fd, count: wanted, path: path)
        return (buffer, buffer.count < wanted)
    }

    /// A regular file's size, or nil.
    public static func size(of path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// The file opened, with what fstat says of it (opened first and asked after: one system
    /// call fewer per file than asking by name and then opening).
    private static func openForReading(_ path: String) throws(Diagnostic) -> (fd: Int32, info: stat) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw errno == ENOENT ? Diagnostic.error(.inputNotFound, at: SourceLocation(file: path))
                : Diagnostic.error(.inputUnreadable(reason: String(cString: strerror(errno))), at: SourceLocation(file: path))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let problem = errno
            close(fd)
            throw Diagnostic.error(.inputUnreadable(reason: String(cString: strerror(problem))), at: SourceLocation(file: path))
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            close(fd)
            throw Diagnostic.error(.inputIsDirectory, at: SourceLocation(file: path))
        }
        return (fd, info)
    }

    /// `count` bytes read from the file's position, or from `offset` (pread); fewer only at its
    /// end (a read may return less than asked, so it reads until it has them). The bytes are read
    /// into the new array's storage as it is made: clearing it first cost as much as a fast reader.
    fileprivate static func read(_ fd: Int32, count: Int, path: String?, at offset: Int? = nil) throws(Diagnostic) -> [UInt8] {
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { (buffer, filled) in
            while filled < count {
                let start = buffer.baseAddress! + filled
                let got = offset.map { pread(fd, start, count - filled, off_t($0 + filled)) } ?? systemRead(fd, start, count - filled)
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if got == 0 { return }
                filled += got
            }
        }
        if failure != 0 {
            throw Diagnostic.error(.inputUnreadable(reason: String(cString: strerror(failure))), at: SourceLocation(file: path))
        }
        return bytes
    }
}

/// An input read at offsets: a regular file opened once and read with pread(2), or bytes in
/// memory (standard input, a pipe). For container formats whose index is at the end (a zip's
/// central directory), so that a large file is never held whole.
public final class RandomAccessInput: @unchecked Sendable {
    public let size: Int
    private let descriptor: Int32
    private let bytes: [UInt8]
    private let path: String?

    init(path: String) throws(Diagnostic) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw errno == ENOENT ? Diagnostic.error(.inputNotFound, at: SourceLocation(file: path))
                : Diagnostic.error(.inputUnreadable(reason: String(cString: strerror(errno))), at: SourceLocation(file: path))
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw Diagnostic.error(.inputUnreadable(reason: "not a regular file"), at: SourceLocation(file: path))
        }
        descriptor = fd
        size = Int(info.st_size)
        bytes = []
        self.path = path
    }

    init(bytes: [UInt8]) {
        descriptor = -1
        size = bytes.count
        self.bytes = bytes
        path = nil
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// `count` bytes from `offset` (fewer only at the end of the input).
    public func read(at offset: Int, count: Int) throws(Diagnostic) -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= size else {
            throw Diagnostic.error(.inputUnreadable(reason: "offset \(offset) outside the file"), at: SourceLocation(file: path))
        }
        let wanted = min(count, size - offset)
        guard descriptor >= 0 else { return Array(bytes[offset..<(offset + wanted)]) }
        return try FileChunks.read(descriptor, count: wanted, path: path, at: offset)
    }
}
