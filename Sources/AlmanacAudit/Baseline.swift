public import AlmanacCore
import Foundation

/// Findings a team has accepted, so CI fails only on new ones: a JSON file of fingerprints with
/// the check and key for people reading it.
public struct Baseline: Sendable, Codable {
    public struct Accepted: Hashable, Sendable, Codable {
        public var fingerprint: String
        public var check: AuditCheck
        public var table: String
        public var key: String
        public var locale: String?
    }

    public var version = 1
    public var accepted: [Accepted]

    public init(_ findings: [Finding]) {
        accepted = findings.map { Accepted(fingerprint: $0.fingerprint, check: $0.check, table: $0.table, key: $0.key, locale: $0.locale) }
            .sorted { ($0.table, $0.key, $0.check.id, $0.locale ?? "") < ($1.table, $1.key, $1.check.id, $1.locale ?? "") }
    }

    public static func read(_ path: String) throws(Diagnostic) -> Baseline {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Diagnostic.error(.inputNotFound, at: SourceLocation(file: path))
        }
        do {
            return try JSONDecoder().decode(Baseline.self, from: data)
        } catch {
            throw Diagnostic.error(.auditBaselineInvalid(reason: "\(error)"), at: SourceLocation(file: path))
        }
    }

    public func bytes() throws(Diagnostic) -> [UInt8] { try CanonicalJSON.encode(self) }

    /// The report without the accepted findings.
    public func apply(to report: AuditReport) -> AuditReport {
        let known = Set(accepted.map(\.fingerprint))
        var result = report
        result.findings = report.findings.filter { !known.contains($0.fingerprint) }
        result.baselined = report.findings.count - result.findings.count
        return result
    }
}
