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
}
