import ArgumentParser
import AlmanacAudit
import AlmanacCatalogs
import AlmanacCore
import Foundation

struct Audit: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "audit", abstract: L(.cliAuditAbstract), discussion: L(.cliAuditDiscussion))
    }

    @Argument(help: ArgumentHelp(L(.cliArgumentFiles), valueName: "PATH"), completion: .file()) var paths: [String] = []
    @Option(help: ArgumentHelp(L(.cliOptionBase), valueName: "LOCALE"), completion: .list(Completions.catalogLocales)) var base = "en"
    @Option(help: ArgumentHelp(L(.cliOptionLocales), valueName: "LOCALE,…"), completion: .list(Completions.catalogLocales)) var locales: String?
    @Option(parsing: .upToNextOption, help: ArgumentHelp(L(.cliOptionSources), valueName: "DIR"), completion: .directory) var sources: [String] = []
    @Option(help: ArgumentHelp(L(.cliOptionAccessors), valueName: "NAME")) var accessors: String?
    @Option(help: ArgumentHelp(L(.cliOptionAuditFormat), valueName: "FORMAT"), completion: .list(AuditFormat.allCases.map(\.rawValue))) var format = "text"
    @Option(help: ArgumentHelp(L(.cliOptionBaseline), valueName: "FILE"), completion: .file()) var baseline: String?
    @Option(name: .customLong("write-baseline"), help: ArgumentHelp(L(.cliOptionWriteBaseline), valueName: "FILE"), completion: .file()) var writeBaseline: String?
    @Option(name: .customLong("fail-on"), help: ArgumentHelp(L(.cliOptionFailOn), valueName: "error|warning"), completion: .list(["error", "warning"])) var failOn = "error"
    @Option(help: ArgumentHelp(L(.cliOptionAllow), valueName: "TEXT")) var allow: [String] = []
    @Option(help: ArgumentHelp(L(.cliOptionDisable), valueName: "ID"), completion: .list(Completions.checks)) var disable: [String] = []
    @Flag(name: .customLong("whole-tables"), help: ArgumentHelp(L(.cliOptionWholeTables))) var wholeTables = false
    @Flag(name: .customLong("list-checks"), help: ArgumentHelp(L(.cliOptionListChecks))) var listChecks = false
    @Option(help: ArgumentHelp(L(.cliOptionExplain), valueName: "ID"), completion: .list(Completions.checks)) var explain: String?
    @Option(name: .shortAndLong, help: ArgumentHelp(L(.cliOptionOutput), valueName: "PATH"), completion: .file()) var output: String?
    @Flag(help: ArgumentHelp(L(.cliOptionForce))) var force = false
    @Flag(help: ArgumentHelp(L(.cliOptionFix), valueName: "CHECK,…")) var fix = false
    /// `--fix=CHECK,…`, which `Almanac.run` splits into `--fix --fix-checks CHECK,…`.
    @Option(name: .customLong("fix-checks"), help: .hidden) var fixChecks: String?
    @Flag(name: .customLong("dry-run"), help: ArgumentHelp(L(.cliOptionDryRun))) var dryRun = false
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard AuditFormat(rawValue: format) != nil else {
            throw ValidationError(L(.cliValueChoices(value: format, choices: AuditFormat.allCases.map(\.rawValue).joined(separator: ", "))))
        }
        guard ["error", "warning", "note"].contains(failOn) else {
            throw ValidationError(L(.cliValueChoices(value: failOn, choices: "error, warning, note")))
        }
        _ = try Self.checks(disable.flatMap { Self.list($0) } + (explain.map { [$0] } ?? []))
        guard !paths.isEmpty || listChecks || explain != nil else { throw ValidationError(L(.cliAuditNoPaths)) }
        guard !dryRun || fix else { throw ValidationError(L(.cliAuditDryRunNeedsFix)) }
        for check in try Self.checks(Self.list(fixChecks ?? "")) where !AuditFixer.checks.contains(check) {
            throw ValidationError(L(.cliAuditFixUnfixable(check: check.id, checks: AuditFixer.checks.map(\.id).joined(separator: ", "))))
        }
    }

    /// The checks the options spell; a spelling no rule has is a usage error listing them all.
    static func checks(_ spellings: [String]) throws(ValidationError) -> [AuditCheck] {
        try spellings.map { (spelling) throws(ValidationError) in
            guard let check = AuditCheck(spelling: spelling) else {
                throw ValidationError(L(.auditUnknownCheck(check: spelling, checks: AuditRules.checks.map(\.id).joined(separator: ", "))))
            }
            return check
        }
    }

    /// `audit … --fix=CHECK,…` as the parser reads it: `--fix --fix-checks CHECK,…` (a flag cannot
    /// take a value, and `--fix CHECK` would read a path as a check).
    static func splittingFixChecks(_ arguments: [String]) -> [String] {
        guard arguments.first == "audit" else { return arguments }
        var result: [String] = []
        for (index, argument) in arguments.enumerated() {
            if argument == "--" { return result + arguments[index...] }
            if argument.hasPrefix("--fix=") {
                result += ["--fix", "--fix-checks", String(argument.dropFirst("--fix=".count))]
            } else {
                result.append(argument)
            }
        }
        return result
    }

    static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func run() throws {
        let session = Session.current!
        if listChecks {
            session.write(Array(RuleDocumentation.list(language: session.language).utf8))
            return
        }
        if let explain, let rule = AuditRules.description(of: explain) {
            do { session.write(Array(try RuleDocumentation.explain(rule, language: session.language).utf8)) }
            catch { throw CommandFailure(.outputError, [error]) }
            return
        }
        let missing = paths.filter { !FileManager.default.fileExists(atPath: $0) }
        guard missing.isEmpty else {
            throw CommandFailure(.inputError, missing.map { .error(.inputNotFound, at: SourceLocation(file: $0)) })
        }
        var tables = wholeTables ? AuditTable.load(tablesOf: paths, registry: session.registry) : AuditTable.load(paths, registry: session.registry)
        guard tables.contains(where: { !$0.files.isEmpty && $0.content.count > 0 }) || tables.contains(where: { !$0.diagnostics.isEmpty })
        else { throw CommandFailure(.inputError, [.error(.auditNothing)]) }
        var options = Auditor.Options()
        options.base = base
        options.locales = locales.map { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }
        options.allowUntranslated = Set(allow)
        options.allowVocabulary.formUnion(allow)
        options.disabled = Set(try Self.checks(disable.flatMap { Self.list($0) }))
        if !sources.isEmpty {
            // Keys used through accessors generated by the StringAccessors plugin count as used.
            let paths = accessors.map { AccessorGenerator(enumName: $0).accessorPaths(tables: tables.map { ($0.name, $0.catalog) }) } ?? [:]
            options.usedKeys = SourceScanner.keys(under: sources, accessors: paths)
        }
        let auditor: Auditor
        do { auditor = try Auditor(options: options) } catch { throw CommandFailure(.inputError, [error]) }
        var accepted: Baseline?
        if let baseline {
            do { accepted = try Baseline.read(baseline) } catch { throw CommandFailure(.inputError, [error]) }
        }
        var fixed: [AuditFixer.Fix] = []
        if fix {
            var fixing = AuditFixer.Options()
            if let fixChecks { fixing.checks = Set(try Self.checks(Self.list(fixChecks))) }
            fixing.rewriteCompiled = force
            let fixer = AuditFixer(auditor: auditor, registry: session.registry, options: fixing, baseline: accepted)
            let plan = fixer.plan(tables)
            for diagnostic in plan.diagnostics { session.report(diagnostic) }
            let fixes = plan.fixes
            let counts = Dictionary(grouping: fixes, by: \.check).map { "\($0.key) \($0.value.count)" }.sorted().joined(separator: ", ")
            if dryRun {
                var diff: [UInt8] = []
                for change in plan.changes { diff += UnifiedDiff.bytes(change.original, change.fixed, path: change.path) }
                session.write(diff)
                session.report(.note(.cliAuditWouldFix(count: String(fixes.count), files: String(plan.changes.count), checks: counts)))
                var left = auditor.audit(plan.tables)
                if let accepted { left = accepted.apply(to: left) }
                let threshold = Diagnostic.Severity(rawValue: failOn) ?? .error
                if left.findings.contains(where: { $0.severity >= threshold }) { throw CommandFailure(.problemsFound) }
                return
            }
            let (written, problems) = AuditFixer.write(plan.changes)
            for problem in problems { session.report(problem) }
            let writtenFixes = plan.changes.filter { written.contains($0.path) }.flatMap(\.fixes)
            let writtenCounts = Dictionary(grouping: writtenFixes, by: \.check).map { "\($0.key) \($0.value.count)" }.sorted().joined(separator: ", ")
            fixed = writtenFixes
            if !writtenFixes.isEmpty {
                session.report(.note(.cliAuditFixed(count: String(writtenFixes.count), files: String(written.count), checks: writtenCounts)))
            }
            // What is left is what the files now hold: the planned tables when every change was
            // written (what was written reads back as planned), else the files read again.
            if written.count == plan.changes.count {
                tables = plan.tables
            } else {
                tables = wholeTables ? AuditTable.load(tablesOf: paths, registry: session.registry) : AuditTable.load(paths, registry: session.registry)
            }
        }
        var report = AuditFixer.suggesting(auditor.audit(tables), auditor: auditor)
        if let accepted { report = accepted.apply(to: report) }
        report.fixes = fixed
        if fix {
            // The fixes --fix leaves to a person unless named: each is in the report as a suggestion.
            let suggested = report.findings.filter { $0.suggestion != nil }
            if !suggested.isEmpty {
                let checks = Dictionary(grouping: suggested, by: \.check).map { "\($0.key) \($0.value.count)" }.sorted().joined(separator: ", ")
                session.report(.note(.cliAuditSuggested(count: String(suggested.count), checks: checks)))
            }
        }
        if let writeBaseline {
            do {
                try OutputFile.write(try Baseline(report.findings).bytes(), to: writeBaseline, options: .init(overwrite: force))
            } catch { throw CommandFailure(.outputError, [error]) }
            session.report(.note(.auditBaselineWritten(count: String(report.findings.count), path: writeBaseline)))
        }
        let bytes: [UInt8]
        do {
            bytes = try AuditReporter.render(report, as: AuditFormat(rawValue: format)!, language: session.language, tables: tables,
                                             version: AlmanacVersion.current)
        } catch { throw CommandFailure(.outputError, [error]) }
        if let output, output != "-" {
            do { try OutputFile.write(bytes, to: output, options: .init(overwrite: force)) } catch { throw CommandFailure(.outputError, [error]) }
        } else {
            session.write(bytes)
        }
        let threshold = Diagnostic.Severity(rawValue: failOn) ?? .error
        if report.findings.contains(where: { $0.severity >= threshold }) { throw CommandFailure(.problemsFound) }
    }
}
