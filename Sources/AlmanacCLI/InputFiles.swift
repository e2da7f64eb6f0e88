import AlmanacCore
#if canImport(Glibc)
import Glibc
#endif

/// Directories a command reads from or writes into.
enum InputFiles {
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
