import AlmanacCore

/// A locale where many values are the base's text: translation platforms (Crowdin, Weblate,
/// Lokalise) write the source text for every string nobody has translated yet, so a locale begun
/// but far from done would give one `untranslated` warning per value — 23,000 in IINA's forty
/// languages. Such a locale gets this one finding instead, with the count; a locale with a few
/// values left keeps them listed, one by one, as what to translate.
struct UntranslatedLocaleRule: ProjectRule {
    /// At least this many untranslated values, and at least a quarter of the locale's.
    static let minimum = 10

    static let description = AuditRuleDescription(
        id: "untranslated-locale", severity: .warning, scope: .project, locales: .translations,
        triggering: [.values(Self.sample.flatMap { [($0.key, "en", $0.text), ($0.key, "zh-Hans", $0.text)] })],
        nonTriggering: [.values(Self.sample.enumerated().flatMap { index, row in
                            [(row.key, "en", row.text), (row.key, "zh-Hans", index < 2 ? row.text : "（已翻译）" + row.key)]
                        }, alsoFinds: ["untranslated"]),
                        .values(Self.sample.prefix(4).flatMap { [($0.key, "en", $0.text), ($0.key, "zh-Hans", $0.text)] },
                                alsoFinds: ["untranslated"])])

    static let sample: [(key: String, text: String)] = [
        ("open", "Open File"), ("close", "Close Window"), ("play", "Play Video"), ("pause", "Pause Video"), ("next", "Next Chapter"),
        ("back", "Previous Chapter"), ("louder", "Volume Up"), ("softer", "Volume Down"), ("mute", "Mute Audio"), ("shot", "Take Screenshot"),
    ]

    func check(_ project: ProjectContext) {
        var untranslated: [String: [Int]] = [:]
        for (index, finding) in project.findings.items.enumerated()
            where finding.check == UntranslatedRule.check || finding.check == UntranslatedTermRule.check {
            untranslated[finding.locale ?? "", default: []].append(index)
        }
        guard !untranslated.isEmpty else { return }
        var values: [String: Int] = [:]
        for row in project.coverage { values[row.locale, default: 0] += row.translated }
        var gathered: Set<Int> = []
        var summaries: [Finding] = []
        for (locale, indices) in untranslated.sorted(by: { $0.key < $1.key }) {
            let total = values[locale] ?? 0
            // Values, not findings: a plural's forms are one value.
            let keys = Set(indices.map { "\(project.findings.items[$0].table)\u{1F}\(project.findings.items[$0].key)" }).count
            guard keys >= Self.minimum, keys * 4 >= total else { continue }
            gathered.formUnion(indices)
            let first = project.findings.items[indices[0]]
            summaries.append(Finding(check: Self.check, severity: Self.description.severity, table: "", key: "", locale: locale,
                                     location: first.location?.file.map { SourceLocation(file: $0) },
                                     arguments: [locale, String(keys), String(total)]))
        }
        guard !gathered.isEmpty else { return }
        project.findings.items = project.findings.items.enumerated().filter { !gathered.contains($0.offset) }.map(\.element) + summaries
    }
}
