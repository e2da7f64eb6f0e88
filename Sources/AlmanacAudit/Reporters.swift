public import AlmanacCore
import Foundation

/// The ways an audit is shown: text for people at a terminal, JSON for scripts, SARIF for code
/// scanning, GitHub annotations for pull requests, and one self-contained HTML page for the
/// person who reviews a release.
public enum AuditFormat: String, CaseIterable, Sendable {
    case text, json, sarif, github, html
}

public enum AuditReporter {
    public static func render(_ report: AuditReport, as format: AuditFormat, language: Language,
                              tables: [AuditTable] = [], version: String = AlmanacVersion.current) throws(Diagnostic) -> [UInt8] {
        switch format {
        case .text: Array(text(report, language: language).utf8)
        case .json: try json(report, language: language)
        case .sarif: try sarif(report, language: language, version: version)
        case .github: Array(github(report, language: language).utf8)
        case .html: Array(html(report, language: language, tables: tables).utf8)
        }
    }

    static func sorted(_ findings: [Finding]) -> [Finding] {
        findings.sorted { lhs, rhs in
            let left: (String, Int, String, String) = (lhs.location?.file ?? "", lhs.location?.line ?? 0, lhs.table, lhs.key)
            let right: (String, Int, String, String) = (rhs.location?.file ?? "", rhs.location?.line ?? 0, rhs.table, rhs.key)
            if left != right { return left < right }
            let leftRest: (String, String, String) = (lhs.check.id, lhs.locale ?? "", lhs.variant)
            let rightRest: (String, String, String) = (rhs.check.id, rhs.locale ?? "", rhs.variant)
            return leftRest < rightRest
        }
    }

    static func severityWord(_ severity: Diagnostic.Severity, _ language: Language) -> String {
        severity.word.rendered(in: language)
    }

    // MARK: Text

    public static func text(_ report: AuditReport, language: Language) -> String {
        var output = ""
        let groups = Dictionary(grouping: sorted(report.findings)) { $0.location?.file ?? $0.table }
        for file in groups.keys.sorted() {
            output += file + "\n"
            for finding in groups[file]! {
                let place = finding.location?.line.map { "\($0):\(finding.location?.column ?? 1)" } ?? "-"
                let variant = finding.variant.isEmpty ? "" : " [\(finding.variant)]"
                output += "  " + pad(place, 8) + pad(severityWord(finding.severity, language), 8) + pad(finding.check.id, 24)
                    + finding.message.rendered(in: language) + variant + "\n"
                if let suggestion = finding.suggestion {
                    output += String(repeating: " ", count: 42) + Message.auditSuggestion(text: suggestion).rendered(in: language) + "\n"
                }
            }
            output += "\n"
        }
        if !report.coverage.isEmpty {
            output += Message.auditSummary.rendered(in: language) + "\n"
            let header = [Message.auditColumnTable, Message.auditColumnLocale, Message.auditColumnCoverage,
                          Message.auditColumnErrors, Message.auditColumnWarnings].map { $0.rendered(in: language) }
            output += "  " + pad(header[0], 14) + pad(header[1], 10) + pad(header[2], 10, right: true) + pad(header[3], 8, right: true)
                + pad(header[4], 10, right: true) + "\n"
            for row in report.coverage {
                output += "  " + pad(row.table, 14) + pad(row.locale, 10) + pad(String(format: "%.1f%%", row.percent), 10, right: true)
                    + pad(String(row.errors), 8, right: true) + pad(String(row.warnings), 10, right: true) + "\n"
            }
        }
        output += Message.auditTotal(errors: String(report.count(.error)), warnings: String(report.count(.warning)), notes: String(report.count(.note)))
            .rendered(in: language)
        if report.baselined > 0 { output += " " + Message.auditBaselined(count: String(report.baselined)).rendered(in: language) }
        return output + "\n"
    }

    /// Pads to a width counted in terminal columns (CJK characters take two).
    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let columns = text.reduce(0) { $0 + ($1.unicodeScalars.first.map { $0.value >= 0x1100 && ($0.value <= 0x115F || (0x2E80...0xFFDC).contains($0.value)) } == true ? 2 : 1) }
        let padding = String(repeating: " ", count: max(1, width - columns))
        return right ? padding + text + " " : text + padding
    }

    // MARK: JSON

    struct JSONFinding: Encodable {
        var check: String
        var severity: String
        var message: String
        var table: String
        var key: String
        var locale: String?
        var variant: String?
        var file: String?
        var line: Int?
        var column: Int?
        var value: String?
        var base: String?
        /// The text a fix `--fix` applies only when asked would make.
        var suggestion: String?
        var fingerprint: String
    }

    struct JSONReport: Encodable {
        var base: String
        var summary: [String: Int]
        var byCheck: [String: Int]
        var coverage: [AuditReport.Coverage]
        var findings: [JSONFinding]
        var baselined: Int
        /// What `--fix` changed (absent without it).
        var fixes: [AuditFixer.Fix]?
    }

    public static func json(_ report: AuditReport, language: Language) throws(Diagnostic) -> [UInt8] {
        var byCheck: [String: Int] = [:]
        for finding in report.findings { byCheck[finding.check.id, default: 0] += 1 }
        let findings = sorted(report.findings).map {
            JSONFinding(check: $0.check.id, severity: $0.severity.rawValue, message: $0.message.rendered(in: language), table: $0.table,
                        key: $0.key, locale: $0.locale, variant: $0.variant.isEmpty ? nil : $0.variant, file: $0.location?.file,
                        line: $0.location?.line, column: $0.location?.column, value: $0.value, base: $0.base, suggestion: $0.suggestion,
                        fingerprint: $0.fingerprint)
        }
        let summary = ["errors": report.count(.error), "warnings": report.count(.warning), "notes": report.count(.note)]
        return try CanonicalJSON.encode(JSONReport(base: report.base, summary: summary, byCheck: byCheck, coverage: report.coverage,
                                                   findings: findings, baselined: report.baselined, fixes: report.fixes.isEmpty ? nil : report.fixes))
    }

    // MARK: SARIF 2.1.0

    public static func sarif(_ report: AuditReport, language: Language, version: String) throws(Diagnostic) -> [UInt8] {
        func level(_ severity: Diagnostic.Severity) -> String {
            switch severity {
            case .error: "error"
            case .warning: "warning"
            case .note: "note"
            }
        }
        // Every rule, described: what it finds, what to do, its examples, and where it applies.
        let rules: [JSONValue] = AuditRules.descriptions.map { rule in
            .object([("id", .string(rule.id)), ("name", .string(rule.name)),
                     ("shortDescription", .object([("text", .string(rule.summary.rendered(in: language)))])),
                     ("fullDescription", .object([("text", .string(rule.summary.rendered(in: language) + " "
                         + Message.auditExplainApplies.rendered(in: language) + ": " + rule.locales.message.rendered(in: language) + "."))])),
                     ("help", .object([("text", .string(rule.help.rendered(in: language))),
                                       ("markdown", .string(RuleDocumentation.markdownHelp(rule, language: language)))])),
                     ("defaultConfiguration", .object([("level", .string(level(rule.severity)))])),
                     ("properties", .object([("scope", .string(rule.scope.rawValue)), ("locales", .string(rule.locales.rawValue))]))])
        }
        let ruleIndex = Dictionary(uniqueKeysWithValues: AuditRules.checks.enumerated().map { ($1, $0) })
        let results: [JSONValue] = sorted(report.findings).map { finding in
            var result: [(String, JSONValue)] = [("ruleId", .string(finding.check.id))]
            if let index = ruleIndex[finding.check] { result.append(("ruleIndex", .integer(index))) }
            result.append(("level", .string(level(finding.severity))))
            result.append(("message", .object([("text", .string(finding.message.rendered(in: language)))])))
            var physical: [(String, JSONValue)] = []
            if let file = finding.location?.file {
                physical.append(("artifactLocation", .object([("uri", .string(uri(file)))])))
                if let line = finding.location?.line, line > 0 {
                    var region: [(String, JSONValue)] = [("startLine", .integer(line))]
                    if let column = finding.location?.column, column > 0 { region.append(("startColumn", .integer(column))) }
                    physical.append(("region", .object(region)))
                }
            }
            var location: [(String, JSONValue)] = []
            if !physical.isEmpty { location.append(("physicalLocation", .object(physical))) }
            let logical = [finding.table, finding.key, finding.locale ?? "", finding.variant].filter { !$0.isEmpty }.joined(separator: "/")
            location.append(("logicalLocations", .array([.object([("fullyQualifiedName", .string(logical)), ("kind", .string("resource"))])])))
            result.append(("locations", .array([.object(location)])))
            result.append(("partialFingerprints", .object([("almanacFinding/v1", .string(finding.fingerprint))])))
            if let suggestion = finding.suggestion { result.append(("properties", .object([("suggestion", .string(suggestion))]))) }
            return .object(result)
        }
        let driver: JSONValue = .object([
            ("name", .string("almanac")), ("version", .string(version)), ("semanticVersion", .string(version)),
            ("informationUri", .string("https://github.com/almanac/almanac")), ("rules", .array(rules)),
        ])
        let document: JSONValue = .object([
            ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")), ("version", .string("2.1.0")),
            ("runs", .array([.object([("tool", .object([("driver", driver)])), ("results", .array(results)),
                                      ("columnKind", .string("unicodeCodePoints"))])])),
        ])
        return Array((document.serialized(pretty: true) + "\n").utf8)
    }

    /// A relative path as a URI reference (spaces and other reserved characters escaped).
    static func uri(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ":")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }

    // MARK: GitHub annotations

    public static func github(_ report: AuditReport, language: Language) -> String {
        func escape(_ text: String, property: Bool = false) -> String {
            var result = text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
                .replacingOccurrences(of: "\n", with: "%0A")
            if property { result = result.replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C") }
            return result
        }
        var output = ""
        for finding in sorted(report.findings) {
            let command = finding.severity == .error ? "error" : finding.severity == .warning ? "warning" : "notice"
            var properties: [String] = []
            if let file = finding.location?.file { properties.append("file=" + escape(file, property: true)) }
            if let line = finding.location?.line { properties.append("line=\(line)") }
            if let column = finding.location?.column { properties.append("col=\(column)") }
            properties.append("title=" + escape("almanac " + finding.check.id, property: true))
            output += "::\(command) \(properties.joined(separator: ","))::\(escape(finding.message.rendered(in: language)))\n"
        }
        return output
    }
}
