import AlmanacCore
/// A catalog file that cannot be read (a syntax error, an encoding it does not declare): none of
/// its values reach the app, or the file fails to build. Its locale's keys of the table are then
/// not reported as missing one by one (NewTerm's zh-Hant file: one error, not 18). Entries in one
/// pair of braces (an old-style property list dictionary, ttte's InfoPlist.strings) are readable.
struct UnreadableRule: TableRule {
    static let description = AuditRuleDescription(
        id: "unreadable", severity: .error, scope: .table, locales: .none,
        triggering: [.files(("en.lproj/Localizable.strings", "\"save\" = \"Save\";\n\"cancel\" = \"Cancel\"\n\"done\" = \"Done\";\n"))],
        nonTriggering: [.files(("en.lproj/Localizable.strings", "/* Buttons */\n\"save\" = \"Save\";\n\"cancel\" = \"Cancel\";\n")),
                        .files(("en.lproj/InfoPlist.strings", "{\n    CFBundleDisplayName = \"Almanac\";\n}\n"))])

    func check(_ table: TableContext) {
        for diagnostic in Self.unreadable(table.table) {
            table.report(Self.description, location: diagnostic.location, [diagnostic.message.rendered()])
        }
    }

    /// The errors that kept a file of the table from being read (a duplicate key is read).
    static func unreadable(_ table: AuditTable) -> [Diagnostic] {
        table.diagnostics.filter { $0.severity == .error && $0.code != .catalogDuplicateKey && $0.code != .catalogDuplicateKeySame }
    }

    /// The `.lproj` folder names (`zh-Hant`, `zh_TW`) of the table's files that cannot be read: those
    /// locales' keys are missing because of it, and the file's finding says so once.
    static func unreadableFolders(_ table: AuditTable) -> Set<String> {
        Set(unreadable(table).compactMap { diagnostic -> String? in
            guard let file = diagnostic.location?.file else { return nil }
            let folder = file.split(separator: "/").dropLast().last.map(String.init) ?? ""
            return folder.hasSuffix(".lproj") ? String(folder.dropLast(".lproj".count)) : nil
        })
    }
}
