@testable import AlmanacAudit
import AlmanacCore
import Testing

/// Every rule's examples, run as the audit runs them (the way SwiftLint's generated tests run
/// each rule's `RuleDescription` examples): a triggering example gives the rule's finding and no
/// other finding it does not name; a non-triggering one gives none of the rule's.
@Suite struct AuditRuleTests {
    @Test(arguments: AuditRules.descriptions.map(\.id))
    func examples(of id: String) throws {
        let rule = try #require(AuditRules.description(of: id))
        #expect(!rule.triggering.isEmpty, "\(id) has no triggering example")
        #expect(!rule.nonTriggering.isEmpty, "\(id) has no non-triggering example")
        for (index, example) in rule.triggering.enumerated() {
            let findings = try example.findings()
            let own = findings.filter { $0.check == id }
            #expect(!own.isEmpty, "triggering example \(index + 1) of \(id) finds nothing:\n\(example.listing)\nfound: \(findings.map(\.check))")
            #expect(own.allSatisfy { $0.severity == rule.severity })
            let others = findings.filter { $0.check != id && !example.alsoFinds.contains($0.check) }
            #expect(others.isEmpty, "triggering example \(index + 1) of \(id) also finds \(others.map { "\($0.check) \($0.key) \($0.locale ?? "")" })")
            for check in example.alsoFinds {
                #expect(findings.contains { $0.check == check }, "triggering example \(index + 1) of \(id) does not find \(check) it names")
            }
        }
        for (index, example) in rule.nonTriggering.enumerated() {
            let findings = try example.findings()
            #expect(!findings.contains { $0.check == id },
                    "non-triggering example \(index + 1) of \(id) finds it:\n\(example.listing)\n\(findings.filter { $0.check == id }.map { $0.message.rendered() })")
            let others = findings.filter { !example.alsoFinds.contains($0.check) && $0.severity != .note }
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
                for message: AlmanacCore.Message in [rule.summary, rule.help, Finding(check: rule.id, severity: rule.severity, table: "", key: "").message] {
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

    /// A rule switched off finds nothing, the others still run; an id that is no rule is refused
    /// with the list of ids.
    @Test func rulesCanBeSwitchedOff() throws {
        let example = AuditExample.values(("loading", "en", "Loading..."), ("loading", "zh-Hant", "载入中..."))
        #expect(Set(try example.findings().map(\.check)) == ["ellipsis", "simplified-in-hant"])
        var options = Auditor.Options()
        options.disabled = ["ellipsis"]
        #expect(Set(try example.findings(options: options).map(\.check)) == ["simplified-in-hant"])
        options.disabled = ["elipsis"]
        let error = #expect(throws: Diagnostic.self) { _ = try Auditor(options: options) }
        #expect(error?.code == "audit.unknown-check")
        #expect(error?.message.arguments.last?.contains("ellipsis") == true)
    }
}
