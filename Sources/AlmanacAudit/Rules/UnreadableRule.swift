import AlmanacCore
/// A catalog file that cannot be read (a syntax error, an encoding it does not declare): none of
/// its values reach the app, or the file fails to build.
struct UnreadableRule: TableRule {
    static let description = AuditRuleDescription(
        id: "unreadable", severity: .error, scope: .table, locales: .none,
        triggering: [.files(("en.lproj/Localizable.strings", "\"save\" = \"Save\";\n\"cancel\" = \"Cancel\"\n\"done\" = \"Done\";\n"))],
        nonTriggering: [.files(("en.lproj/Localizable.strings", "/* Buttons */\n\"save\" = \"Save\";\n\"cancel\" = \"Cancel\";\n"))])

    func check(_ table: TableContext) {
        for diagnostic in table.table.diagnostics where diagnostic.severity == .error
            && diagnostic.code != .catalogDuplicateKey && diagnostic.code != .catalogDuplicateKeySame {
            table.report(Self.description, location: diagnostic.location, [diagnostic.message.rendered()])
        }
    }
}
