/// Almanac's exit statuses, documented in the README, the Getting started article and `almanac --help`.
public enum AlmanacExitCode: Int32, Sendable, CaseIterable {
    /// Everything worked.
    case success = 0
    /// The command ran and found problems (warnings from `inspect`, findings from `audit`).
    case problemsFound = 1
    /// The command line was wrong: an unknown option, format, locale or zone.
    case usage = 2
    /// An input could not be read or understood.
    case inputError = 3
    /// An output could not be written (it exists, or the disk refused).
    case outputError = 4
    /// Stopped by Ctrl-C (or SIGTERM) before every file was converted; the shell's 128 + SIGINT.
    case interrupted = 130
}

extension AlmanacExitCode: Comparable {
    public static func < (lhs: AlmanacExitCode, rhs: AlmanacExitCode) -> Bool { lhs.rawValue < rhs.rawValue }
}
