/// How outputs are named from inputs: folders, base names, stems without a format's extension.
public enum OutputNames {
    public static func parent(of path: String) -> String {
        // Over the UTF-8 bytes, as `baseName` (a Character search cost ~10,000 instructions a path).
        guard let slash = path.utf8.lastIndex(of: slash) else { return "." }
        return String(Substring(path.utf8[..<slash]))
    }

    public static func baseName(_ path: String) -> String {
        // Over the UTF-8 bytes: a batch asks this several times per file, and splitting the
        // whole path into Characters cost more than converting a small calendar's header.
        let utf8 = path.utf8
        guard let last = utf8.lastIndex(where: { $0 != slash }) else { return path }
        let end = utf8.index(after: last)
        let start = utf8[..<last].lastIndex(of: slash).map { utf8.index(after: $0) } ?? utf8.startIndex
        return String(Substring(utf8[start..<end]))
    }

    /// Whether `path`, with `.` and `..` resolved as written, stays inside `directory`.
    public static func isInside(_ path: String, directory: String) -> Bool {
        let dot = ".".utf8, dots = "..".utf8
        func components(_ text: String) -> [Substring.UTF8View] {
            var result: [Substring.UTF8View] = []
            for part in text.utf8.split(separator: slash) where !part.elementsEqual(dot) {
                if part.elementsEqual(dots) {
                    if result.isEmpty || result.last!.elementsEqual(dots) { result.append(part) } else { result.removeLast() }
                } else {
                    result.append(part)
                }
            }
            return result
        }
        let inside = components(path), base = components(directory)
        return inside.count > base.count && zip(inside, base).allSatisfy { $0.elementsEqual($1) }
    }

    private static let slash = UInt8(ascii: "/")

    /// The file name without directories and without the extension its format matched.
    public static func stem(of path: String, format: FormatDescription) -> String {
        stem(of: path, extensionLength: format.extensionMatch(baseName(path)))
    }

    /// The file name without its last `extensionLength` characters (a format's extension), or
    /// without its last `.…` when no extension matched or it is the whole name (`todo.txt`).
    public static func stem(of path: String, extensionLength match: Int) -> String {
        let base = baseName(path)
        if match > 0 && match < base.count { return String(base.dropLast(match)) }
        if let dot = base.lastIndex(of: "."), dot != base.startIndex { return String(base[..<dot]) }
        return base
    }

    /// `folder/name`, without doubling a slash the folder ends with.
    public static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
