import AlmanacICU
import Foundation

/// Offsets as a sorted list of transitions, filled in year by year as questions reach further:
/// after the first question about a year, offsets and wall-time conversions are a binary search
/// (no ICU calendar is opened per occurrence).
final class TransitionTable: @unchecked Sendable {
    struct Transition {
        /// Seconds since the epoch, UTC.
        let instant: Int
        let offsetBefore: Int
        let offsetAfter: Int
    }

    /// Transitions whose onsets fall in a year.
    private let source: @Sendable (Int) -> [Transition]
    /// The offset before any transition the source reports for `year` and later.
    private let offsetBefore: @Sendable (Int) -> Int
    /// The transitions read so far, of which years, and the offset before the first of those years.
    private struct Covered {
        var transitions: [Transition] = []
        var years: ClosedRange<Int>?
        var startOffset = 0
    }
    private let covered = Locked(Covered())

    init(source: @escaping @Sendable (Int) -> [Transition], offsetBefore: @escaping @Sendable (Int) -> Int) {
        self.source = source
        self.offsetBefore = offsetBefore
    }

    /// The most years read at once when the table grows: it grows by as many years as it holds
    /// (a short expansion reads little more than it needs, the first question reads three
    /// years), up to this many, so a walk through the centuries (a rule begun in 1012 expanded
    /// into 2025) rebuilds the array once per chunk rather than once per year.
    static let chunk = 16

    /// Makes sure the table covers `year` and its neighbours; returns a consistent snapshot.
    /// Only the years not yet read are asked of the source, so a table that grows a year at a
    /// time costs each year once (recomputing the whole range made such walks quadratic).
    private func covering(_ year: Int) -> (transitions: [Transition], startOffset: Int) {
        covered.withLock { state in
            let wanted = (year - 1)...(year + 1)
            guard let years = state.years else {
                state.transitions = read(wanted)
                state.startOffset = offsetBefore(wanted.lowerBound)
                state.years = wanted
                return (state.transitions, state.startOffset)
            }
            if years.contains(wanted.lowerBound), years.contains(wanted.upperBound) {
                return (state.transitions, state.startOffset)
            }
            var low = years.lowerBound
            var high = years.upperBound
            let step = min(Self.chunk, years.count)
            if wanted.lowerBound < low {
                let newLow = min(wanted.lowerBound, low - step)
                state.transitions = Self.joined(read(newLow...(low - 1)), state.transitions)
                low = newLow
                state.startOffset = offsetBefore(low)
            }
            if wanted.upperBound > high {
                let newHigh = max(wanted.upperBound, high + step)
                state.transitions = Self.joined(state.transitions, read((high + 1)...newHigh))
                high = newHigh
            }
            state.years = low...high
            return (state.transitions, state.startOffset)
        }
    }

    /// Two runs of transitions, the first from earlier years; sorted again only if a defined
    /// zone's onsets (years of local time) cross at the boundary.
    private static func joined(_ earlier: [Transition], _ later: [Transition]) -> [Transition] {
        var all = earlier + later
        if let last = earlier.last, let first = later.first, last.instant > first.instant {
            all.sort { $0.instant < $1.instant }
        }
        return all
    }

    /// Transitions with onsets in `years`, in order.
    private func read(_ years: ClosedRange<Int>) -> [Transition] {
        var all: [Transition] = []
        for y in years { all += source(y) }
        all.sort { $0.instant < $1.instant }
        return all
    }

    func offset(at seconds: Int) -> Int {
        let year = CivilDateTime(secondsSinceEpoch: seconds).date.year
        let (transitions, start) = covering(year)
        // The last transition at or before the instant.
        let low = transitions.partitioningIndex { $0.instant > seconds }
        return low == 0 ? (transitions.first?.offsetBefore ?? start) : transitions[low - 1].offsetAfter
    }

    /// The instant of a wall time: gaps read with the offset before them, overlaps as the first
    /// occurrence (RFC 5545 §3.3.5).
    func instant(for time: CivilDateTime) -> Int {
        let wall = time.secondsSinceEpoch
        let (transitions, start) = covering(time.date.year)
        // Transitions within a day of the wall time decide; otherwise one offset applies.
        let low = transitions.partitioningIndex { $0.instant >= wall - 2 * 86_400 }
        var previousLimit = Int.min
        var offset = low == 0 ? (transitions.first?.offsetBefore ?? start) : transitions[low - 1].offsetAfter
        var index = low
        while index < transitions.count, transitions[index].instant <= wall + 2 * 86_400 {
            let transition = transitions[index]
            let candidate = wall - offset
            if candidate >= previousLimit && candidate < transition.instant { return candidate }
            // In the gap: with the earlier offset it falls after the transition, with the later before it.
            if candidate >= transition.instant && wall - transition.offsetAfter < transition.instant { return candidate }
            previousLimit = transition.instant
            offset = transition.offsetAfter
            index += 1
        }
        return wall - offset
    }
}
