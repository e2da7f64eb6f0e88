import AlmanacCore
import AlmanacKit
import Dispatch
import Foundation

/// A `ConversionBatch` run from the command line: progress on standard error, and Ctrl-C handled:
/// the first lets files in progress finish (their outputs appear whole) and starts no new one; a
/// second removes the unfinished outputs and exits at once.
final class BatchProgress: Sendable {
    let batch: ConversionBatch
    let session: Session
    let showProgress: Bool

    init(_ batch: ConversionBatch, session: Session, showProgress: Bool) {
        self.batch = batch
        self.session = session
        self.showProgress = showProgress
    }

    func run(finished onFinish: (@Sendable (ConversionReport) -> Void)? = nil) -> ConversionBatch.Outcome {
        let signals = session.ownsProcess && !batch.jobs.isEmpty ? interruptHandlers() : []
        let ticker = showProgress && !batch.jobs.isEmpty ? progressTicker() : nil
        let outcome = batch.run(finished: onFinish)
        ticker?.cancel()
        for source in signals { source.cancel() }
        if session.ownsProcess, !batch.jobs.isEmpty {
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
        }
        if showProgress, !batch.jobs.isEmpty, session.isTerminal { session.printErrorRaw("\r\u{1B}[2K") }
        return outcome
    }

    /// Ctrl-C and SIGTERM, handled on a queue (not in the signal handler): the first asks the
    /// workers to stop, the second removes unfinished outputs and exits.
    private func interruptHandlers() -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                if batch.interrupt() {
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
        let progress = batch.progress
        let elapsed = max(batch.elapsed, 0.001)
        let rate = Double(progress.done) / elapsed
        let left = rate > 0 ? Double(progress.total - progress.done) / rate : 0
        let width = 20
        let filled = progress.total == 0 ? width : width * progress.done / progress.total
        let bar = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
        var line = Message.batchProgress(done: String(progress.done), total: String(progress.total), records: String(progress.records),
                                         rate: Self.number(rate), left: Self.duration(left)).rendered(in: session.language)
        if progress.failed > 0 { line += " · " + Message.batchProgressFailed(count: String(progress.failed)).rendered(in: session.language) }
        return (session.isTerminal ? bar : "") + line
    }

    func printSummary(_ outcome: ConversionBatch.Outcome) {
        let reports = outcome.fileReports
        let elapsed = max(outcome.seconds, 0.001)
        let converted = reports.filter { $0.status == .converted }
        let count = { (status: ConversionReport.Status) in String(reports.filter { $0.status == status }.count) }
        session.printErrorRaw(Message.batchSummary(converted: String(converted.count), total: String(reports.count), records: String(converted.reduce(0) { $0 + ($1.records ?? 0) }), seconds: String(format: "%.1f", elapsed), rate: Self.number(Double(converted.count) / elapsed), skipped: count(.skipped), failed: count(.failed)).rendered(in: session.language) + "\n")
        let notStarted = reports.filter { $0.status == .notStarted }.count
        if notStarted > 0 {
            let reason = (outcome.stopped ?? .failure).message.rendered(in: session.language)
            session.printErrorRaw(Message.batchNotStartedSummary(count: String(notStarted), reason: reason).rendered(in: session.language) + "\n")
        }
        let skipped = reports.filter { $0.status == .skipped }.flatMap(\.diagnostics).map(\.code)
        if !skipped.isEmpty {
            session.printErrorRaw(Message.batchSkippedSummary(existing: String(skipped.filter { $0 == .batchSkippedExists }.count), unknown: String(skipped.filter { $0 == .batchSkippedUnknown }.count))
                .rendered(in: session.language) + "\n")
        }
    }

    static func number(_ value: Double) -> String {
        value >= 100 ? String(Int(value.rounded())) : String(format: "%.1f", value)
    }

    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        return total >= 3600 ? String(format: "%d:%02d:%02d", total / 3600, total / 60 % 60, total % 60)
            : String(format: "%d:%02d", total / 60, total % 60)
    }
}
