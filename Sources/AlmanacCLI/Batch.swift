import AlmanacCore
import Dispatch
import Foundation
import AlmanacICU
import Synchronization

/// Runs the files of a conversion on several threads, shows progress, and stops cleanly on
/// Ctrl-C: files in progress finish (their outputs appear whole), no new file starts; a second
/// Ctrl-C removes the unfinished outputs and exits at once.
final class Batch: Sendable {
    let jobs: [Convert.Job]
    let workers: Int
    let stopOnError: Bool
    let session: Session
    let showProgress: Bool

    private let next = Atomic<Int>(0)
    private let finished = Atomic<Int>(0)
    private let records = Atomic<Int>(0)
    private let failures = Atomic<Int>(0)
    private let stopping = Atomic<Int>(0)  // 0 running, 1 interrupted, 2 stopped after a failure, 3 the disk is full
    private let started = ContinuousClock.now

    /// The order jobs start in. With several workers, the output folders take turns (the first
    /// file of each folder, then the second of each, …): workers writing into one folder wait for
    /// its lock in turn, and on ext4 the waiting one spins (`rwsem_spin_on_owner`). Reports keep
    /// the jobs' order whatever the order they ran in.
    private let order: [Int]

    init(jobs: [Convert.Job], workers: Int, stopOnError: Bool, session: Session, showProgress: Bool) {
        self.jobs = jobs
        self.order = workers > 1 ? Self.folderByFolder(jobs) : Array(jobs.indices)
        self.workers = workers
        self.stopOnError = stopOnError
        self.session = session
        self.showProgress = showProgress
    }

    var interrupted: Bool { stopping.load(ordering: .relaxed) == 1 }

    /// Why files were not started: an interruption, a failure with `--stop-on-error`, a full disk.
    var stopReason: Message {
        switch stopping.load(ordering: .relaxed) {
        case 1: .batchReasonInterrupted
        case 3: .batchReasonNoSpace
        default: .batchReasonFailure
        }
    }

    /// The jobs' places, the output folders taking turns, each folder's files in their order.
    static func folderByFolder(_ jobs: [Convert.Job]) -> [Int] {
        var groups: [String: Int] = [:]
        var members: [[Int]] = []
        for (index, job) in jobs.enumerated() {
            let folder = OutputNames.parent(of: job.destination)
            if let group = groups[folder] {
                members[group].append(index)
            } else {
                groups[folder] = members.count
                members.append([index])
            }
        }
        guard members.count > 1 else { return Array(jobs.indices) }
        var order: [Int] = []
        order.reserveCapacity(jobs.count)
        var round = 0
        while order.count < jobs.count {
            for group in members where round < group.count { order.append(group[round]) }
            round += 1
        }
        return order
    }

    /// Every job's report and status, in the jobs' order (jobs not started are reported so).
    /// `finished` is called with each report as its file finishes, on the thread that converted it.
    func run(finished onFinish: (@Sendable (ConversionReport) -> Void)? = nil,
             _ convert: @escaping @Sendable (Convert.Job) -> ConversionReport) -> [ConversionReport] {
        guard !jobs.isEmpty else { return [] }
        let results = Locked<[ConversionReport?]>(Array(repeating: nil, count: jobs.count))
        let signals = session.ownsProcess ? interruptHandlers() : []
        let ticker = showProgress ? progressTicker() : nil
        let work: @Sendable (Int) -> Void = { [self] _ in
            while stopping.load(ordering: .relaxed) == 0 {
                let position = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard position < jobs.count else { break }
                let index = order[position]
                let result = convert(jobs[index])
                results.withLock { $0[index] = result }
                onFinish?(result)
                records.wrappingAdd(result.records ?? 0, ordering: .relaxed)
                finished.wrappingAdd(1, ordering: .relaxed)
                if result.status == .failed {
                    failures.wrappingAdd(1, ordering: .relaxed)
                    // A full disk fails every file after it: none is started (a rerun continues).
                    if result.diagnostics.contains(where: { $0.code == .outputNoSpace }) {
                        _ = stopping.compareExchange(expected: 0, desired: 3, ordering: .relaxed)
                    } else if stopOnError {
                        _ = stopping.compareExchange(expected: 0, desired: 2, ordering: .relaxed)
                    }
                }
            }
        }
        if workers == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: workers, execute: work) }
        ticker?.cancel()
        for source in signals { source.cancel() }
        if session.ownsProcess {
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
        }
        if showProgress, session.isTerminal { session.printErrorRaw("\r\u{1B}[2K") }
        let reason = stopReason.rendered()
        return results.withLock { results in
            results.enumerated().map { index, result in
                result ?? ConversionReport(input: jobs[index].input, output: jobs[index].destination, to: "", status: .notStarted,
                                           diagnostics: [.note(.batchNotStarted(reason: reason), at: SourceLocation(file: jobs[index].input))])
            }
        }
    }

    /// Ctrl-C and SIGTERM, handled on a queue (not in the signal handler): the first asks the
    /// workers to stop, the second removes unfinished outputs and exits.
    private func interruptHandlers() -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                if stopping.exchange(1, ordering: .relaxed) == 1 {
                    OutputFile.removeUnfinished()
                    exit(130)
                }
                session.printErrorRaw((session.isTerminal ? "\r\u{1B}[2K" : "") + Message.batchInterrupting.rendered(in: session.language) + "\n")
            }
            source.resume()
            return source
        }
    }

    /// One line that redraws itself on a terminal; otherwise a plain line every five seconds.
    private func progressTicker() -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        let interval: DispatchTimeInterval = session.isTerminal ? .milliseconds(200) : .seconds(5)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [self] in
            let line = progressLine()
            if session.isTerminal { session.printErrorRaw("\r\u{1B}[2K" + line) } else { session.printErrorRaw(line + "\n") }
        }
        timer.resume()
        return timer
    }

    func progressLine() -> String {
        let done = finished.load(ordering: .relaxed)
        let elapsed = max(seconds(since: started), 0.001)
        let rate = Double(done) / elapsed
        let left = rate > 0 ? Double(jobs.count - done) / rate : 0
        let width = 20
        let filled = jobs.isEmpty ? width : width * done / jobs.count
        let bar = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
        var line = Message.batchProgress(done: String(done), total: String(jobs.count), records: String(records.load(ordering: .relaxed)), rate: Self.number(rate), left: Self.duration(left)).rendered(in: session.language)
        let failed = failures.load(ordering: .relaxed)
        if failed > 0 { line += " · " + Message.batchProgressFailed(count: String(failed)).rendered(in: session.language) }
        return (session.isTerminal ? bar : "") + line
    }

    func printSummary(reports: [ConversionReport]) {
        let elapsed = max(seconds(since: started), 0.001)
        let converted = reports.filter { $0.status == .converted }
        let count = { (status: ConversionReport.Status) in String(reports.filter { $0.status == status }.count) }
        session.printErrorRaw(Message.batchSummary(converted: String(converted.count), total: String(reports.count), records: String(converted.reduce(0) { $0 + ($1.records ?? 0) }), seconds: String(format: "%.1f", elapsed), rate: Self.number(Double(converted.count) / elapsed), skipped: count(.skipped), failed: count(.failed)).rendered(in: session.language) + "\n")
        let notStarted = reports.filter { $0.status == .notStarted }.count
        if notStarted > 0 {
            let reason = stopReason.rendered(in: session.language)
            session.printErrorRaw(Message.batchNotStartedSummary(count: String(notStarted), reason: reason).rendered(in: session.language) + "\n")
        }
        let skipped = reports.filter { $0.status == .skipped }.flatMap(\.diagnostics).map(\.code)
        if !skipped.isEmpty {
            session.printErrorRaw(Message.batchSkippedSummary(existing: String(skipped.filter { $0 == .batchSkippedExists }.count), unknown: String(skipped.filter { $0 == .batchSkippedUnknown }.count))
                .rendered(in: session.language) + "\n")
        }
    }

    /// The report file: totals, then every file with its status, output and problems.
    func jsonReport(_ reports: [ConversionReport]) throws(Diagnostic) -> [UInt8] {
        struct Totals: Encodable {
            let files, converted, skipped, failed, notStarted, records: Int
            let seconds: Double
            let interrupted: Bool
        }
        struct File: Encodable {
            let totals: Totals
            let files: [ConversionReport]
        }
        let count = { (status: ConversionReport.Status) in reports.filter { $0.status == status }.count }
        let totals = Totals(files: reports.count, converted: count(.converted), skipped: count(.skipped), failed: count(.failed),
                            notStarted: count(.notStarted), records: reports.reduce(0) { $0 + ($1.records ?? 0) },
                            seconds: (seconds(since: started) * 1000).rounded() / 1000, interrupted: interrupted)
        return try CanonicalJSON.encode(File(totals: totals, files: reports))
    }

    private func seconds(since start: ContinuousClock.Instant) -> Double {
        let duration = ContinuousClock.now - start
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func number(_ value: Double) -> String {
        value >= 100 ? String(Int(value.rounded())) : String(format: "%.1f", value)
    }

    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        return total >= 3600 ? String(format: "%d:%02d:%02d", total / 3600, total / 60 % 60, total % 60)
            : String(format: "%d:%02d", total / 60, total % 60)
    }

    /// Files under a folder, relative to it and sorted: hidden files and folders are left out,
    /// folders reached through symbolic links are not followed (no loops), and `skipping` (the
    /// output folder, when it sits inside the input) is not entered.
    static func files(under directory: String, skipping: String?) -> [String] {
        let manager = FileManager.default
        let skipped = skipping.map { URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path }
        var result: [String] = []
        func walk(_ relative: String) {
            let path = relative.isEmpty ? directory : directory + "/" + relative
            guard let names = try? manager.contentsOfDirectory(atPath: path) else { return }
            for name in names where !name.hasPrefix(".") {
                let child = relative.isEmpty ? name : relative + "/" + name
                let full = directory + "/" + child
                var info = stat()
                guard lstat(full, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    if let skipped, URL(fileURLWithPath: full).standardizedFileURL.resolvingSymlinksInPath().path == skipped { continue }
                    walk(child)
                case S_IFREG:
                    result.append(child)
                case S_IFLNK:
                    // A link to a file is converted; a link to a folder is not followed.
                    var target = stat()
                    if stat(full, &target) == 0, target.st_mode & S_IFMT == S_IFREG { result.append(child) }
                default:
                    continue
                }
            }
        }
        walk("")
        return result.sorted()
    }
}
