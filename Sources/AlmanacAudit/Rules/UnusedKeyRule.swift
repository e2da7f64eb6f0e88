/// A catalog key no source uses: dead text translators keep paying for. Needs `--sources`.
struct UnusedKeyRule: ProjectRule {
    static let description = AuditRuleDescription(
        id: "unused-key", severity: .warning, scope: .project, locales: .none,
        triggering: [.files(("en.lproj/Localizable.strings", "\"title\" = \"Days\";\n\"title.old\" = \"Countdowns\";\n"),
                            ("Sources/DaysView.swift", "Text(\"title\")\n"))],
        nonTriggering: [.files(("en.lproj/Localizable.strings", "\"title\" = \"Days\";\n\"delete\" = \"Delete\";\n"),
                               ("Sources/DaysView.swift", "Text(\"title\")\nButton(String(localized: \"delete\")) {}\n"))])

    func check(_ project: ProjectContext) {
        guard let used = project.usedKeys else { return }
        for table in project.tables {
            for entry in table.content.entries where used[entry.key] == nil {
                project.report(Self.description, table: table.name, key: entry.key,
                               location: entry.translations[project.baseLocale]?.presentation.origin
                                   ?? entry.translations.min { $0.key < $1.key }?.value.presentation.origin,
                               [entry.key])
            }
        }
    }
}
