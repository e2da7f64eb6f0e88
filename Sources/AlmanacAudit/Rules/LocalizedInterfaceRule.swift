import AlmanacCore

/// A locale that localizes a table's interface file itself (`zh_CN.lproj/MainMenu.xib` beside the
/// base's `MainMenu.strings`, as Mac apps made before base internationalization do): its text is in
/// the file, which the audit does not read, so none of the table's keys is reported missing there.
/// Said once per locale and table. A locale with the table's `.strings` too keeps its text there.
struct LocalizedInterfaceRule: TableRule {
    static let description = AuditRuleDescription(
        id: "localized-interface", severity: .note, scope: .table, locales: .none,
        triggering: [.files(("en.lproj/MainMenu.strings", "\"57.title\" = \"Quit\";\n"), ("zh-Hant.lproj/MainMenu.xib", "<document/>\n"),
                            ("en.lproj/Localizable.strings", "\"a\" = \"One\";\n"), ("zh-Hant.lproj/Localizable.strings", "\"a\" = \"一\";\n"))],
        nonTriggering: [.files(("en.lproj/MainMenu.strings", "\"57.title\" = \"Quit\";\n"), ("zh-Hant.lproj/MainMenu.strings", "\"57.title\" = \"結束\";\n")),
                        // A locale with the table's .strings too keeps its text there.
                        .files(("en.lproj/MainMenu.strings", "\"57.title\" = \"Quit\";\n"), ("zh-Hant.lproj/MainMenu.strings", "\"57.title\" = \"結束\";\n"),
                               ("zh-Hant.lproj/MainMenu.xib", "<document/>\n"))])

    func check(_ table: TableContext) {
        for (locale, file) in table.table.interfaceFiles.sorted(by: { $0.key < $1.key }) {
            table.report(Self.description, locale: locale, location: SourceLocation(file: file),
                         [locale, table.table.name, OutputNames.baseName(file)])
        }
    }
}
