/// A unified diff of two versions of a file (`diff -a -u`, as `git apply` and `patch -p1` read it),
/// by lines, with three lines of context. Myers' algorithm: the work grows with the number of
/// lines that differ, so a catalog of 100,000 lines with a few fixed values diffs at once.
///
/// Lines are the file's bytes up to each line feed, as those tools split them: a CRLF file's lines
/// keep their carriage returns, and a UTF-16 file's diff holds its UTF-16 bytes (line feed `0A`
/// ends each line, its `00` starts the next), so that the diff applies to the file as it is.
public enum UnifiedDiff {
    /// The diff of `old` and `new` for `path`; empty when they are the same.
    public static func bytes(_ old: [UInt8], _ new: [UInt8], path: String, context: Int = 3) -> [UInt8] {
        guard old != new else { return [] }
        let a = lines(old), b = lines(new)
        let script = editScript(a.map(\.line), b.map(\.line))
        guard script.contains(where: { $0 != .same }) else { return [] }
        // As git writes the names: `a/` and `b/` before the path, without its leading `/` or `./`
        // (`patch -p1` applies it from the folder the path starts in).
        var shown = Substring(path)
        while shown.hasPrefix("./") { shown = shown.dropFirst(2) }
        while shown.hasPrefix("/") { shown = shown.dropFirst() }
        var output = Array("--- a/\(shown)\n+++ b/\(shown)\n".utf8)
        // Positions in a and b of each step.
        var steps: [(op: Step, a: Int, b: Int)] = []
        var i = 0, j = 0
        for op in script {
            steps.append((op, i, j))
            switch op {
            case .same: i += 1; j += 1
            case .delete: i += 1
            case .insert: j += 1
            }
        }
        var index = 0
        while index < steps.count {
            guard steps[index].op != .same else { index += 1; continue }
            // A hunk: from `context` steps before this change to `context` after the last change
            // closer than twice the context.
            let start = max(0, index - context)
            var end = index
            var last = index
            while end < steps.count {
                if steps[end].op != .same { last = end }
                if end - last > 2 * context { break }
                end += 1
            }
            let stop = min(steps.count, last + context + 1)
            let hunk = steps[start..<stop]
            let oldCount = hunk.filter { $0.op != .insert }.count, newCount = hunk.filter { $0.op != .delete }.count
            let oldStart = hunk.first!.a + (oldCount == 0 ? 0 : 1), newStart = hunk.first!.b + (newCount == 0 ? 0 : 1)
            output += Array("@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@\n".utf8)
            for step in hunk {
                switch step.op {
                case .same: output.append(space); output += a[step.a].shown
                case .delete: output.append(minus); output += a[step.a].shown
                case .insert: output.append(plus); output += b[step.b].shown
                }
            }
            index = stop
        }
        return output
    }

    /// The diff of two texts, as UTF-8.
    public static func diff(_ old: String, _ new: String, path: String, context: Int = 3) -> String {
        String(decoding: bytes(Array(old.utf8), Array(new.utf8), path: path, context: context), as: UTF8.self)
    }

    static let lineFeed = UInt8(ascii: "\n"), space = UInt8(ascii: " "), minus = UInt8(ascii: "-"), plus = UInt8(ascii: "+")
    static let noNewline = Array("\n\\ No newline at end of file\n".utf8)

    static func range(_ start: Int, _ count: Int) -> String { count == 1 ? "\(start)" : "\(start),\(count)" }

    /// The lines of a file with their line feeds; the last, without one, says so as diff does.
    static func lines(_ bytes: [UInt8]) -> [(line: ArraySlice<UInt8>, shown: ArraySlice<UInt8>)] {
        var result: [(ArraySlice<UInt8>, ArraySlice<UInt8>)] = []
        var start = 0
        while start < bytes.count {
            if let end = bytes[start...].firstIndex(of: lineFeed) {
                result.append((bytes[start...end], bytes[start...end]))
                start = end + 1
            } else {
                result.append((bytes[start...], ArraySlice(Array(bytes[start...]) + noNewline)))
                break
            }
        }
        return result
    }

    enum Step: Equatable { case same, delete, insert }

    /// The shortest edit script from `a` to `b` (Myers 1986).
    static func editScript<Line: Hashable>(_ a: [Line], _ b: [Line]) -> [Step] {
        // Common ends first: fixes change a few lines of long files.
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        // Each distinct line as a number: the search compares numbers, not text.
        var numbers: [Line: Int] = [:]
        func number(_ line: Line) -> Int {
            if let known = numbers[line] { return known }
            numbers[line] = numbers.count
            return numbers.count - 1
        }
        let x = a[prefix..<(a.count - suffix)].map(number), y = b[prefix..<(b.count - suffix)].map(number)
        let n = x.count, m = y.count, limit = n + m
        var middle: [Step] = []
        if n == 0 || m == 0 {
            middle = Array(repeating: .delete, count: n) + Array(repeating: .insert, count: m)
        } else {
            // `frontier[offset + k]`: how far along `x` the furthest path on diagonal k reaches. Each
            // step keeps the part of it the next one reads (diagonals -d-1…d+1), so memory grows
            // with the square of the differences, not with the length of the file.
            let offset = limit + 1
            var frontier = Array(repeating: 0, count: 2 * limit + 3)
            var trace: [[Int]] = []
            search: for d in 0...limit {
                trace.append(Array(frontier[(offset - d - 1)...(offset + d + 1)]))
                for k in stride(from: -d, through: d, by: 2) {
                    var i = (k == -d || (k != d && frontier[offset + k - 1] < frontier[offset + k + 1])) ? frontier[offset + k + 1] : frontier[offset + k - 1] + 1
                    var j = i - k
                    while i < n, j < m, x[i] == y[j] { i += 1; j += 1 }
                    frontier[offset + k] = i
                    if i >= n && j >= m { break search }
                }
            }
            // Back through the trace, from the end.
            var i = n, j = m
            for d in stride(from: trace.count - 1, through: 0, by: -1) {
                let previous = trace[d]
                func reach(_ k: Int) -> Int { previous[k + d + 1] }
                let k = i - j
                let fromInsert = k == -d || (k != d && reach(k - 1) < reach(k + 1))
                let previousK = fromInsert ? k + 1 : k - 1
                let previousI = reach(previousK), previousJ = previousI - previousK
                while i > previousI && j > previousJ { middle.append(.same); i -= 1; j -= 1 }
                if d > 0 { middle.append(fromInsert ? .insert : .delete) }
                i = previousI
                j = previousJ
            }
            middle.reverse()
        }
        return Array(repeating: .same, count: prefix) + middle + Array(repeating: .same, count: suffix)
    }
}
