import AlmanacICU

/// One period's candidates in order: its days, each at every time of day. The product is not
/// built — a YEARLY rule with every BYHOUR, BYMINUTE and BYSECOND names 32 million instants a
/// year, half a gigabyte as an array — and BYSETPOS picks positions in it.
struct Candidates: RandomAccessCollection {
    private let days: [CivilDate]
    /// Seconds since midnight, sorted.
    private let times: [Int]
    /// The positions BYSETPOS chose, sorted; nil when it is absent.
    private let chosen: [Int]?

    static let empty = Candidates(days: [], times: [0], setPositions: [])

    init(days: [CivilDate], times: [Int], setPositions: [Int]) {
        self.days = days
        self.times = times
        let total = days.count * times.count
        if setPositions.isEmpty || total == 0 {
            chosen = nil
        } else {
            var picked = Set<Int>()
            for position in setPositions {
                let index = position > 0 ? position - 1 : total + position
                if index >= 0 && index < total { picked.insert(index) }
            }
            chosen = picked.sorted()
        }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { chosen?.count ?? days.count * times.count }

    subscript(index: Int) -> CivilDateTime {
        let position = chosen?[index] ?? index
        let time = times[position % times.count]
        return CivilDateTime(unchecked: days[position / times.count], time / 3600, time / 60 % 60, time % 60)
    }
}
