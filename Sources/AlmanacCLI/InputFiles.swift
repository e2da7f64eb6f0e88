import AlmanacCore
#if canImport(Glibc)
import Glibc
#endif

/// Reading the files a command names, with errors a user can act on.
enum InputFiles {
    /// The bytes of a file, or of standard input for `-`.
    static func read(_ path: String, session: Session) throws(Diagnostic) -> [UInt8] {
        if path == "-" { return session.standardInput() }
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw errno == ENOENT ? Diagnostic.error("input.not-found", at: SourceLocation(file: path))
                : Diagnostic.error("input.unreadable", String(cString: strerror(errno)), at: SourceLocation(file: path))
        }
        if info.st_mode & S_IFMT == S_IFDIR { throw Diagnostic.error("input.is-directory", at: SourceLocation(file: path)) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Diagnostic.error("input.unreadable", String(cString: strerror(errno)), at: SourceLocation(file: path)) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Diagnostic.error("input.unreadable", String(cString: strerror(errno)), at: SourceLocation(file: path))
            }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return bytes
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    static func makeDirectory(_ path: String) throws(Diagnostic) {
        if isDirectory(path) { return }
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            partial += "/" + component
            if !isDirectory(partial), mkdir(partial, 0o777) != 0, errno != EEXIST {
                throw Diagnostic.error("output.failed", String(cString: strerror(errno)), at: SourceLocation(file: path))
            }
        }
    }
}
