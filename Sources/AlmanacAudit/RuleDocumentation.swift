public import AlmanacCore

/// The rules described for people: `almanac audit --list-checks` and `--explain ID`, in the
/// language asked for. `--explain` audits each triggering example as it prints it, so what it
/// shows is what the audit reports.
public enum RuleDocumentation {
    /// Every rule: id, severity and what it finds, one line each.
    public static func list(language: Language) -> String {
        let rules = AuditRules.descriptions
        var output = Message.auditListHeading(count: String(rules.count)).rendered(in: language) + "\n\n"
        let width = (rules.map(\.id.count).max() ?? 0) + 2
        for rule in rules {
            output += AuditReporter.pad(rule.id, width) + AuditReporter.pad(AuditReporter.severityWord(rule.severity, language), 9)
                + AuditReporter.pad(Self.fixColumn(rule.check), 8) + rule.summary.rendered(in: language) + "\n"
        }
        return output
    }

    /// `fix` for a check `--fix` fixes, `suggest` for one whose fix is applied only when named.
    static func fixColumn(_ check: AuditCheck) -> String {
        AuditFixer.suggestedOnly.contains(check) ? "suggest" : AuditFixer.checks.contains(check) ? "fix" : ""
    }

    /// One rule: what it finds, what it looks at and where, what to do, and its examples with
    /// what the audit reports for each triggering one.
    public static func explain(_ rule: AuditRuleDescription, language: Language) throws(Diagnostic) -> String {
        func line(_ label: Message, _ text: String) -> String {
            AuditReporter.pad(label.rendered(in: language) + colon(language), 14) + text + "\n"
        }
        var output = rule.id + " · " + AuditReporter.severityWord(rule.severity, language) + "\n"
        output += rule.summary.rendered(in: language) + "\n\n"
        output += line(.auditExplainLooksAt, rule.scope.message.rendered(in: language))
        output += line(.auditExplainApplies, rule.locales.message.rendered(in: language))
        output += line(.auditExplainHelp, rule.help.rendered(in: language))
        output += "\n" + Message.auditExplainTriggers.rendered(in: language) + colon(language) + "\n"
        for example in rule.triggering {
            output += indented(example.listing, 2) + "\n"
            for finding in AuditReporter.sorted(try example.findings()) where finding.check == rule.check {
                let place = [finding.location?.file, finding.location?.line.map(String.init)].compactMap { $0 }.joined(separator: ":")
                output += "  → " + (place.isEmpty ? "" : place + "  ") + finding.message.rendered(in: language)
                    + (finding.variant.isEmpty ? "" : " [\(finding.variant)]") + "\n"
            }
            output += "\n"
        }
        output += Message.auditExplainPasses.rendered(in: language) + colon(language) + "\n"
        output += rule.nonTriggering.map { indented($0.listing, 2) }.joined(separator: "\n\n") + "\n"
        return output
    }

    /// A rule's help for SARIF viewers, in Markdown: what to do, then its examples.
    static func markdownHelp(_ rule: AuditRuleDescription, language: Language) -> String {
        var output = rule.help.rendered(in: language) + "\n\n"
        output += "**" + Message.auditExplainApplies.rendered(in: language) + "**" + colon(language) + (language == .english ? " " : "") + rule.locales.message.rendered(in: language) + "\n\n"
        output += "**" + Message.auditExplainTriggers.rendered(in: language) + "**\n\n"
        output += rule.triggering.map { "```\n" + $0.listing + "\n```" }.joined(separator: "\n\n") + "\n\n"
        output += "**" + Message.auditExplainPasses.rendered(in: language) + "**\n\n"
        output += rule.nonTriggering.map { "```\n" + $0.listing + "\n```" }.joined(separator: "\n\n") + "\n"
        return output
    }

    /// A colon after a heading: full-width in Chinese.
    static func colon(_ language: Language) -> String { language == .english ? ":" : "：" }

    static func indented(_ text: String, _ width: Int) -> String {
        let prefix = String(repeating: " ", count: width)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 }.joined(separator: "\n")
    }
}
