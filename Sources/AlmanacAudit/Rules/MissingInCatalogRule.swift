/// A key the code uses (`Text("…")`, `String(localized:)`, `NSLocalizedString`, a generated
/// accessor) that no catalog defines: the app shows the key. Needs `--sources`.
struct MissingInCatalogRule: ProjectRule {
    static let description = AuditRuleDescription(
        id: "missing-in-catalog", severity: .error, scope: .project, locales: .none,
        triggering: [.files(("en.lproj/Localizable.strings", "\"title\" = \"Days\";\n"),
                            ("Sources/DaysView.swift", "Text(\"title\")\nText(\"subtitle\")\n"))],
        nonTriggering: [.files(("en.lproj/Localizable.strings", "\"title\" = \"Days\";\n"),
                               ("Sources/DaysView.swift", "Text(\"title\")\nText(verbatim: \"v1.0\")\n"))])

    func check(_ project: ProjectContext) {
        guard let used = project.usedKeys else { return }
        var known: Set<String> = []
        for table in project.tables { for row in 0..<table.content.count { known.insert(table.content.key(at: row)) } }
        for (key, location) in used.sorted(by: { $0.key < $1.key }) where !known.contains(key) {
            project.report(Self.description, table: "", key: key, location: location, [key])
        }
    }
}
