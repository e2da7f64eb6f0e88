/// The known word a mistyped one was meant to be: a rule part (`UNTL` → `UNTIL`), an option name
/// (`styel` → `style`). Letters compare without case.
public enum Spelling {
    /// The candidate nearest to `word` by edit distance (insertions, deletions, substitutions and
    /// swaps of neighbours), if it is within `maximum` edits and no other candidate is as near.
    public static func nearest(to word: String, among candidates: some Sequence<String>, maximum: Int = 2) -> String? {
        let typed = Array(word.lowercased())
        var best: (candidate: String, distance: Int)?
        var tied = false
        for candidate in candidates {
            let distance = self.distance(typed, Array(candidate.lowercased()))
            guard distance <= maximum, distance < typed.count || typed.count > maximum else { continue }
            if best == nil || distance < best!.distance {
                best = (candidate, distance)
                tied = false
            } else if distance == best!.distance {
                tied = true
            }
        }
        guard let best, !tied, best.distance > 0 else { return nil }
        return best.candidate
    }

    /// The optimal string alignment distance between two words.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
