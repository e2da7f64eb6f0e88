@testable import AlmanacAudit
import AlmanacCore
import Foundation
import Testing

/// Every rule's examples, run as the audit runs them (the way SwiftLint's generated tests run
/// each rule's `RuleDescription` examples): a triggering example gives the rule's finding and no
/// other finding it does not name; a non-triggering one gives none of the rule's.
@Suite struct AuditRuleTests {
    @Test(arguments: AuditRules.descriptions.map(\.id))
    func examples(of spelling: String) throws {
        let rule = try #require(AuditRules.description(of: spelling))
        let id = rule.check
        #expect(!rule.triggering.isEmpty, "\(id) has no triggering example")
        #expect(!rule.nonTriggering.isEmpty, "\(id) has no non-triggering example")
        for (index, example) in rule.triggering.enumerated() {
            let findings = try example.findings()
            let own = findings.filter { $0.check == id }
            #expect(!own.isEmpty, "triggering example \(index + 1) of \(id) finds nothing:\n\(example.listing)\nfound: \(findings.map(\.check))")
            #expect(own.allSatisfy { $0.severity == rule.severity })
            #expect(example.alsoFinding.count == example.alsoFinds.count, "an example of \(id) names a check there is not: \(example.alsoFinds)")
            let others = findings.filter { $0.check != id && !example.alsoFinding.contains($0.check) }
            #expect(others.isEmpty, "triggering example \(index + 1) of \(id) also finds \(others.map { "\($0.check) \($0.key) \($0.locale ?? "")" })")
            for check in example.alsoFinding {
                #expect(findings.contains { $0.check == check }, "triggering example \(index + 1) of \(id) does not find \(check) it names")
            }
        }
        for (index, example) in rule.nonTriggering.enumerated() {
            let findings = try example.findings()
            #expect(!findings.contains { $0.check == id },
                    "non-triggering example \(index + 1) of \(id) finds it:\n\(example.listing)\n\(findings.filter { $0.check == id }.map { $0.message.rendered() })")
            #expect(example.alsoFinding.count == example.alsoFinds.count, "an example of \(id) names a check there is not: \(example.alsoFinds)")
            let others = findings.filter { !example.alsoFinding.contains($0.check) && $0.severity != .note }
            #expect(others.isEmpty, "non-triggering example \(index + 1) of \(id) finds \(others.map { "\($0.check) \($0.key) \($0.locale ?? "")" })")
        }
    }

    /// Each rule is listed once, with messages in every language, and the findings it makes carry
    /// its id and severity.
    @Test func everyRuleIsListedOnceAndDescribed() {
        let ids = AuditRules.descriptions.map(\.id)
        #expect(Set(ids).count == ids.count)
        for rule in AuditRules.descriptions {
            for language in Language.allCases {
                for message: AlmanacCore.Message in [rule.summary, rule.help, Finding(check: rule.check, severity: rule.severity, table: "", key: "").message] {
                    let rendered = message.rendered(in: language)
                    #expect(!rendered.hasPrefix("audit."), "\(message.key) has no \(language.rawValue) text")
                }
            }
        }
        for scope in AuditScope.allCases { #expect(!scope.message.rendered().hasPrefix("audit.")) }
        for locales in AuditRuleLocales.allCases { #expect(!locales.message.rendered().hasPrefix("audit.")) }
    }

    /// The two consistency checks share one walk: either still finds its own with the other off.
    @Test func eitherConsistencyCheckRunsAlone() throws {
        let example = AuditExample.values(("day.all", "en", "All day"), ("day.all", "zh-Hant", "全天"), ("event.all", "en", "All day"),
                                          ("event.all", "zh-Hant", "整天"), ("zip", "en", "ZIP archive"), ("zip", "zh-Hant", "ZIP 封存檔"),
                                          ("zip.menu", "en", "ZIP archive"), ("zip.menu", "zh-Hant", "ZIP封存檔"))
        #expect(try example.findings().map(\.check).sorted() == ["inconsistent-translation", "inconsistent-wording"])
        var options = Auditor.Options()
        options.disabled = ["inconsistent-translation"]
        #expect(try example.findings(options: options).map(\.check) == ["inconsistent-wording"])
        options.disabled = ["inconsistent-wording"]
        #expect(try example.findings(options: options).map(\.check) == ["inconsistent-translation"])
    }

    /// A rule switched off finds nothing, the others still run; a spelling that is no rule's is
    /// no check (the command line refuses it with the list: CLITests).
    @Test func rulesCanBeSwitchedOff() throws {
        let example = AuditExample.values(("loading", "en", "Loading..."), ("loading", "zh-Hant", "载入中..."))
        #expect(Set(try example.findings().map(\.check)) == ["ellipsis", "simplified-in-hant"])
        var options = Auditor.Options()
        options.disabled = [EllipsisRule.check]
        #expect(Set(try example.findings(options: options).map(\.check)) == ["simplified-in-hant"])
        #expect(AuditCheck(spelling: "elipsis") == nil)
        #expect(AuditCheck(spelling: "ellipsis") == EllipsisRule.check)
    }

    /// A check's identity is its rule's; reports, baselines and SARIF spell it as before.
    @Test func checksAreSpelledAsBefore() throws {
        #expect(MissingKeyRule.check.id == "missing-key")
        #expect(AuditRules.checks.count == AuditRules.all.count)
        let finding = Finding(check: MissingKeyRule.check, severity: .error, table: "Localizable", key: "k", locale: "zh-Hant")
        let json = String(decoding: try CanonicalJSON.encode(finding), as: UTF8.self)
        #expect(json.contains(#""check" : "missing-key""#))
        let decoded = try JSONDecoder().decode(Finding.self, from: Data(json.utf8))
        #expect(decoded.check == MissingKeyRule.check)
        #expect(decoded.fingerprint == finding.fingerprint)
    }

    /// Every check with a fix declares it on its rule, and the fixer's list is those rules' checks
    /// (in the order a text's fixes are applied) and the drafts of missing translations.
    @Test func fixesAreDeclaredOnTheirRules() {
        #expect(AuditFixer.checks == TextFixes.rules.map { $0.check } + [MissingKeyRule.check])
        for rule in AuditRules.all {
            #expect((rule is any TextFixingRule.Type) == (TextFixes.byCheck[rule.check] != nil), "\(rule.check)")
        }
    }
}
