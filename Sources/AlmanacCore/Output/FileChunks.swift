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
            var buffer = [UInt8](repeating: 0, count: size)
            let filled = try fill(fd, &buffer, path: path)
            if filled == 0 { return }
            if filled < size { buffer.removeSubrange(filled...) }
            try body(buffer)
            if filled < size { return }
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
        var buffer = [UInt8](repeating: 0, count: size > 0 ? min(count, size + 1) : count)
        let filled = try fill(fd, &buffer, path: path)
        let isWhole = filled < buffer.count
        if isWhole { buffer.removeSubrange(filled...) }
        return (buffer, isWhole)
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
            throw errno == ENOENT ? Diagnostic.error("input.not-found", at: SourceLocation(file: path))
                : Diagnostic.error("input.unreadable", String(cString: strerror(errno)), at: SourceLocation(file: path))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let problem = errno
            close(fd)
            throw Diagnostic.error("input.unreadable", String(cString: strerror(problem)), at: SourceLocation(file: path))
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            close(fd)
            throw Diagnostic.error("input.is-directory", at: SourceLocation(file: path))
        }
        return (fd, info)
    }

    /// Reads until the buffer is full or the file ends (reads may return less than asked).
    /// Fills `buffer` from the file's position, or from `offset` (pread); fewer bytes only at its end.
    fileprivate static func fill(_ fd: Int32, _ buffer: inout [UInt8], path: String?, at offset: Int? = nil) throws(Diagnostic) -> Int {
        var filled = 0
        while filled < buffer.count {
            let count = buffer.withUnsafeMutableBytes { raw in
                if let offset { return pread(fd, raw.baseAddress! + filled, raw.count - filled, off_t(offset + filled)) }
                return systemRead(fd, raw.baseAddress! + filled, raw.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw Diagnostic.error("input.unreadable", String(cString: strerror(errno)), at: SourceLocation(file: path))
            }
            if count == 0 { break }
            filled += count
        }
        return filled
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
            throw errno == ENOENT ? Diagnostic.error("input.not-found", at: SourceLocation(file: path))
                : Diagnostic.error("input.unreadable", String(cString: strerror(errno)), at: SourceLocation(file: path))
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw Diagnostic.error("input.unreadable", "not a regular file", at: SourceLocation(file: path))
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
            throw Diagnostic.error("input.unreadable", "offset \(offset) outside the file", at: SourceLocation(file: path))
        }
        let wanted = min(count, size - offset)
        guard descriptor >= 0 else { return Array(bytes[offset..<(offset + wanted)]) }
        var buffer = [UInt8](repeating: 0, count: wanted)
        let filled = try FileChunks.fill(descriptor, &buffer, path: path, at: offset)
        if filled < wanted { buffer.removeSubrange(filled...) }
        return buffer
    }
}
