public import AlmanacCore
import Dispatch
import Foundation
import Synchronization

extension ConversionBatch {
    /// Why files were not started.
    public enum StopReason: Sendable, Hashable {
        /// `interrupt()` (Ctrl-C).
        case interrupted
        /// A file failed and `stopOnError` was set.
        case failure
        /// The disk is full: every file after it would fail the same way (a rerun continues).
        case noSpace

        /// What the reports of files not started say.
        public var message: Message {
            switch self {
            case .interrupted: .batchReasonInterrupted
            case .noSpace: .batchReasonNoSpace
            case .failure: .batchReasonFailure
            }
        }
    }

    /// How far a running batch has come (read from any thread while it runs).
    public struct Progress: Sendable, Hashable {
        public let done: Int
        public let total: Int
        public let records: Int
        public let failed: Int
    }

    /// What a run did.
    public struct Outcome: Sendable {
        /// Folder layouts and folders with no file, in the order the inputs named them.
        public let folderReports: [ConversionReport]
        /// Every job's report, in the jobs' order (jobs not started are reported so).
        public let fileReports: [ConversionReport]
        /// Notes on temporary files that a killed run had left where these outputs go, removed.
        public let notes: [Diagnostic]
        /// Why files were not started, if any were not.
        public let stopped: StopReason?
        public let seconds: Double

        public var reports: [ConversionReport] { folderReports + fileReports }
        public var interrupted: Bool { stopped == .interrupted }

        /// The report file (`almanac convert --report FILE`): totals, then every file with its
        /// status, output and problems, as canonical JSON.
        public func reportFile() throws(Diagnostic) -> [UInt8] {
            struct Totals: Encodable {
                let files, converted, skipped, failed, notStarted, records: Int
                let seconds: Double
                let interrupted: Bool
            }
            struct File: Encodable {
                let totals: Totals
                let files: [ConversionReport]
            }
            let reports = self.reports
            let count = { (status: ConversionReport.Status) in reports.filter { $0.status == status }.count }
            let totals = Totals(files: reports.count, converted: count(.converted), skipped: count(.skipped), failed: count(.failed),
                                notStarted: count(.notStarted), records: reports.reduce(0) { $0 + ($1.records ?? 0) },
                                seconds: (seconds * 1000).rounded() / 1000, interrupted: interrupted)
            return try CanonicalJSON.encode(File(totals: totals, files: reports))
        }
    }

    /// The counters a run shares between its threads.
    final class RunState: Sendable {
        let next = Atomic<Int>(0)
        let finished = Atomic<Int>(0)
        let records = Atomic<Int>(0)
        let failures = Atomic<Int>(0)
        /// 0 running, 1 interrupted, 2 stopped after a failure, 3 the disk is full.
        let stopping = Atomic<Int>(0)
        let cleaned = Atomic<Bool>(false)
        /// When `run()` began.
        let started = Locked<ContinuousClock.Instant?>(nil)
        let removedNotes = Locked<[Diagnostic]>([])
    }

    public var progress: Progress {
        Progress(done: state.finished.load(ordering: .relaxed), total: jobs.count, records: state.records.load(ordering: .relaxed),
                 failed: state.failures.load(ordering: .relaxed))
    }

    /// Seconds since `run()` began (0 before it does): with `progress`, a rate and what is left.
    public var elapsed: Double { state.started.withLock { $0 }.map(Self.seconds(since:)) ?? 0 }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let duration = ContinuousClock.now - start
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Why files are not being started, once they are not.
    public var stopped: StopReason? {
        switch state.stopping.load(ordering: .relaxed) {
        case 1: .interrupted
        case 2: .failure
        case 3: .noSpace
        default: nil
        }
    }

    /// Asks the run to start no more files; those in progress finish (their outputs appear
    /// whole). Safe from any thread, a signal handler's queue among them. Returns whether an
    /// interruption had been asked before (a second Ctrl-C: `OutputFile.removeUnfinished()`).
    @discardableResult
    public func interrupt() -> Bool { state.stopping.exchange(1, ordering: .relaxed) == 1 }

    /// Removes the temporary files that a run stopped at once (SIGKILL) left where these outputs
    /// go, and says how many per folder. `run()` does it first if it was not done; call it
    /// before to show the notes before the run.
    public func removeAbandonedFiles() -> [Diagnostic] {
        guard !state.cleaned.exchange(true, ordering: .relaxed) else { return [] }
        var notes: [Diagnostic] = []
        var cleaned: Set<String> = []
        for job in jobs where job.problem == nil && job.destination != "-" && cleaned.insert(OutputNames.parent(of: job.destination)).inserted {
            let removed = if let beneath = job.beneath, let relative = job.relative { beneath.removeAbandoned(besides: relative) }
                else { OutputFile.removeAbandoned(in: OutputNames.parent(of: job.destination)) }
            if !removed.isEmpty {
                notes.append(.note(.outputRemovedAbandoned(count: String(removed.count)), at: SourceLocation(file: OutputNames.parent(of: job.destination))))
            }
        }
        state.removedNotes.withLock { $0 += notes }
        return notes
    }

    /// Converts the batch: folder layouts first, then the files on `options.workers` threads.
    /// `finished` is called with each report as its file finishes, on the thread that converted it.
    public func run(finished onFinish: (@Sendable (ConversionReport) -> Void)? = nil) -> Outcome {
        let started = ContinuousClock.now
        state.started.withLock { $0 = started }
        _ = removeAbandonedFiles()
        var folderReports: [ConversionReport] = []
        for item in upfront {
            switch item {
            case .layout(let input, let layout, let destination, let folder):
                let reports = conversions[0].runFolder(input, layout: layout, to: destination, folder: folder)
                reports.forEach { onFinish?($0) }
                folderReports += reports
            case .report(let report):
                onFinish?(report)
                folderReports.append(report)
            }
        }
        let fileReports = runJobs(finished: onFinish) { [self] job in convert(job) }
        // Outputs were renamed into place without flushing them one file at a time: flush them all now.
        if writesToFolder {
            let converted = Set(fileReports.indices.filter { fileReports[$0].status == .converted })
            outputFolder?.sync(jobs.indices.filter { converted.contains($0) && jobs[$0].beneath != nil }.compactMap { jobs[$0].relative })
            OutputFile.sync(jobs.indices.filter { converted.contains($0) && jobs[$0].beneath == nil }.map { jobs[$0].destination })
        }
        return Outcome(folderReports: folderReports, fileReports: fileReports, notes: state.removedNotes.withLock { $0 }, stopped: stopped,
                       seconds: Self.seconds(since: started))
    }

    /// Every job's report and status, in the jobs' order, each made by `convert` (jobs not started
    /// are reported so).
    func runJobs(finished onFinish: (@Sendable (ConversionReport) -> Void)?,
                 _ convert: @escaping @Sendable (Job) -> ConversionReport) -> [ConversionReport] {
        guard !jobs.isEmpty else { return [] }
        let results = Locked<[ConversionReport?]>(Array(repeating: nil, count: jobs.count))
        let work: @Sendable (Int) -> Void = { [self] _ in
            while state.stopping.load(ordering: .relaxed) == 0 {
                let position = state.next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard position < jobs.count else { break }
                let index = order[position]
                let result = convert(jobs[index])
                results.withLock { $0[index] = result }
                onFinish?(result)
                state.records.wrappingAdd(result.records ?? 0, ordering: .relaxed)
                state.finished.wrappingAdd(1, ordering: .relaxed)
                if result.status == .failed {
                    state.failures.wrappingAdd(1, ordering: .relaxed)
                    // A full disk fails every file after it: none is started (a rerun continues).
                    if result.diagnostics.contains(where: { $0.code == .outputNoSpace }) {
                        _ = state.stopping.compareExchange(expected: 0, desired: 3, ordering: .relaxed)
                    } else if options.stopOnError {
                        _ = state.stopping.compareExchange(expected: 0, desired: 2, ordering: .relaxed)
                    }
                }
            }
        }
        if workers == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: workers, execute: work) }
        let reason = (stopped ?? .failure).message.rendered()
        return results.withLock { results in
            results.enumerated().map { index, result in
                result ?? ConversionReport(input: jobs[index].input, output: jobs[index].destination, to: "", status: .notStarted,
                                           diagnostics: [.note(.batchNotStarted(reason: reason), at: SourceLocation(file: jobs[index].input))])
            }
        }
    }

    /// Converts one job's file; safe to run for several files at once.
    private func convert(_ job: Job) -> ConversionReport {
        var report = convert(job, conversion: job.problem == nil ? conversions[job.conversion] : nil)
        report.manifestLine = job.line
        report.id = job.id
        return report
    }

    private func convert(_ job: Job, conversion: Conversion?) -> ConversionReport {
        let input = job.input
        let output = options.output
        let keepsExisting = !options.overwrite && !options.merge
        guard let conversion else {
            var report = ConversionReport(input: input, output: nil, to: "", status: .failed, diagnostics: [job.problem!])
            report.exitStatus = .inputError
            return report
        }
        var report = ConversionReport(input: input, output: job.destination, to: conversion.target.format.id)
        if let first = job.sameOutputAs {
            report.fail(.error(.batchSameOutput(other: first), at: SourceLocation(file: input)))
            report.exitStatus = .outputError
            return report
        }
        // A manifest's relative output that climbs, or its absolute one outside -o.
        let outside = if let relative = job.relative { OutputNames.climbs(relative) }
            else { writesToFolder && job.destination != "-" && output.map { !OutputNames.isInside(job.destination, directory: $0) } == true }
        if outside {
            report.fail(.error(.batchOutsideOutput(path: job.destination), at: SourceLocation(file: input)))
            report.exitStatus = .outputError
            return report
        }
        // In a batch an output that exists is left alone and reported; a rerun picks up where one
        // stopped. A link in its place, or on the way to it, is refused.
        if writesToFolder, keepsExisting, job.destination != "-" {
            do throws(Diagnostic) {
                let exists = if let beneath = job.beneath, let relative = job.relative { try beneath.contains(relative) }
                    else { OutputFile.exists(job.destination) }
                if exists {
                    report.status = .skipped
                    report.diagnostics.append(.note(.batchSkippedExists, at: SourceLocation(file: job.destination)))
                    return report
                }
            } catch {
                report.fail(error)
                report.exitStatus = .outputError
                return report
            }
        }
        // A batch's -o is a folder (not asked of the file system for each file).
        let destination = job.target(layouts: output.flatMap { writesToFolder || OutputFile.isDirectory($0) || $0.hasSuffix("/") ? $0 : nil })
        report = conversion.run(input == "-" ? .standardInput(options.standardInput()) : .file(input), to: destination)
        // A file found in a folder that no format reads is skipped, not failed.
        if job.skipUnknown, report.status == .failed, report.diagnostics.last?.code == .formatUndetected {
            report.status = .skipped
            report.exitStatus = .success
            report.diagnostics = [.note(.batchSkippedUnknown, at: SourceLocation(file: input))]
        }
        // The output appeared while this file converted (another worker on the same folder: a
        // second batch, a speculative Spark task): it is left alone, as if it had been there first.
        if writesToFolder, keepsExisting, report.status == .failed, report.diagnostics.last?.code == .outputExists {
            report.status = .skipped
            report.exitStatus = .success
            report.records = nil
            report.diagnostics = [.note(.batchSkippedExists, at: SourceLocation(file: job.destination))]
        }
        return report
    }
}
