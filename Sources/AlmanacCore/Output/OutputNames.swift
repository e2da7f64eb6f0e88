/// How outputs are named from inputs: folders, base names, stems without a format's extension.
public enum OutputNames {
    public static func parent(of path: String) -> String {
        // Over the UTF-8 bytes, as `baseName`, not Characters: a batch asks for every file.
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

    /// Whether `path`, with `.` and `..` resolved as written, stays inside `directory`. Over the
    /// paths' bytes (a batch asks it for every file).
    public static func isInside(_ path: String, directory: String) -> Bool {
        path.withByteView { inside in
            directory.withByteView { base in
                let insideParts = components(inside), baseParts = components(base)
                return insideParts.count > baseParts.count
                    && zip(insideParts, baseParts).allSatisfy { inside[$0].elementsEqual(base[$1]) }
            }
        }
    }

    /// The components of a path, without empty ones and `.`, a `..` taking out the one before
    /// it (kept when there is none, or only `..`s, before it).
    private static func components(_ bytes: ByteView) -> [Range<Int>] {
        var result: [Range<Int>] = []
        func isDots(_ range: Range<Int>) -> Bool { bytes.matches(range.lowerBound, range.upperBound, "..") }
        var start = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == slash {
            let part = start..<index
            start = index + 1
            if part.isEmpty || bytes.matches(part.lowerBound, part.upperBound, ".") { continue }
            if isDots(part) {
                if let last = result.last, !isDots(last) { result.removeLast() } else { result.append(part) }
            } else {
                result.append(part)
            }
        }
        return result
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

    /// Checks that a relative path made from an input's names (a locale folder, a table, a
    /// batch's relative place) is plain names: none empty, `.` or `..`, none holding `/` or NUL —
    /// so the path is not absolute and cannot climb. Else `output.not-plain-name`, naming `shown`
    /// (the whole output path) and the component.
    public static func checkPlainComponents(_ relative: String, shownAs shown: @autoclosure () -> String) throws(Diagnostic) {
        // Over the bytes: a batch checks every output's path (splitting the string into
        // Characters cost more than the rest of naming the output).
        let bad: Range<Int>? = relative.withByteView { bytes in
            var start = 0
            while true {
                let end = bytes.firstIndex(of: slash, from: start)
                let part = bytes[start..<end]
                if part.isEmpty || part.matches(0, part.count, ".") || part.matches(0, part.count, "..") || ByteScan.containsZero(part) {
                    return start..<end
                }
                guard end < bytes.count else { return nil }
                start = end + 1
            }
        }
        guard let bad else { return }
        let path = Message.quoting(shown())
        let part = String(decoding: Array(relative.utf8)[bad], as: UTF8.self)
        throw Diagnostic.error(.outputNotPlainName(path: path, part: Message.quoting(part)), at: SourceLocation(file: path))
    }

    /// Whether a relative path has a `..` component (a manifest's output that would climb out of
    /// -o), looked at over its bytes.
    public static func climbs(_ relative: String) -> Bool {
        relative.utf8.split(separator: slash, omittingEmptySubsequences: false).contains { $0.elementsEqual("..".utf8) }
    }

    /// `folder/name`, without doubling a slash the folder ends with.
    public static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
