/// How outputs are named from inputs: folders, base names, stems without a format's extension.
public enum OutputNames {
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }

    public static func baseName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Whether `path`, with `.` and `..` resolved as written, stays inside `directory`.
    public static func isInside(_ path: String, directory: String) -> Bool {
        func components(_ text: String) -> [Substring] {
            var result: [Substring] = []
            for part in text.split(separator: "/") where part != "." {
                if part == ".." {
                    if result.isEmpty || result.last == ".." { result.append(part) } else { result.removeLast() }
                } else {
                    result.append(part)
                }
            }
            return result
        }
        let inside = components(path), base = components(directory)
        return inside.count > base.count && Array(inside.prefix(base.count)) == base
    }

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
