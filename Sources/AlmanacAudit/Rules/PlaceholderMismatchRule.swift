import AlmanacCore

/// A translation's printf placeholders differ from the base's in number, position or type: the
/// app passes the base's arguments, so a `%d` where the base has `%@` crashes. Text that is no
/// printf format (an Interface Builder object's, one with the app's own `%0`) is not checked.
struct PlaceholderMismatchRule: TextRule {
    static let description = AuditRuleDescription(
        id: "placeholder-mismatch", severity: .error, scope: .text, locales: .translations,
        triggering: [.values(("delete", "en", "Delete %@?"), ("delete", "zh-Hant", "要刪除 %d 嗎？")),
                     .values(("invite", "en", "%1$@ invited %2$@"), ("invite", "zh-Hans", "%1$@ 邀请了你"))],
        nonTriggering: [.values(("delete", "en", "Delete %@?"), ("delete", "zh-Hant", "要刪除「%@」嗎？")),
                        .values(("invite", "en", "%1$@ invited %2$@"), ("invite", "zh-Hans", "%2$@ 受到 %1$@ 的邀请")),
                        .values(("charge", "en", "%0% to full charge"), ("charge", "zh-Hant", "%0% 後充飽")),
                        .plurals(("items", "en", "%#@count@", ["count.one": "%d item", "count.other": "%d items"]),
                                 ("items", "zh-Hans", "%#@count@", ["count.zero": "没有项目", "count.other": "%d 项"]))])
    // A String Catalog's substitutions (`%arg`, a substitution where the base has a plain
    // placeholder) are covered by AuditTests' realShapes catalog, which the examples cannot write.

    func check(_ text: TextContext) {
        guard let reference = text.reference, text.isPrintfFormat, var expected = text.basePlaceholders() else { return }
        let found = text.placeholders
        let parts = text.path.split(separator: ".")
        // The forms of a substitution the base does not have: the value's own check compared the
        // substitution as the argument it formats.
        if let index = parts.firstIndex(of: "substitution"), index + 1 < parts.count,
           text.value.key.base?.substitutions?[String(parts[index + 1])] == nil, text.value.translation.substitutions?[String(parts[index + 1])]?.argument != nil {
            return
        }
        if let category = parts.last, parts.count > 1, category == "zero" || category == "one" || category == "two" {
            // A form for an exact number may leave the number out ("No items", "One item"): its
            // placeholders must be among those of the base's `other` form, each of the same type.
            if let other = text.basePlaceholders(at: parts.dropLast().joined(separator: ".") + ".other") { expected = other }
            let allowed = Self.signature(expected)
            if Self.signature(found).allSatisfy({ allowed[$0.key] == $0.value }) { return }
        } else if Self.signature(found) == Self.signature(expected) {
            return
        }
        text.report(Self.description, [Self.describe(expected), Self.describe(found)], value: text.text, base: reference)
    }

    /// Arguments by position with their types; a plural variable counts as the type its forms use.
    static func signature(_ list: PlaceholderList) -> [Int: Placeholder.ArgumentType] {
        var result = list.arguments
        var next = 1
        for placeholder in list.placeholders {
            let position = placeholder.position ?? next
            next = position + 1
            if placeholder.type == .pluralVariable { result[position] = .integer }
        }
        return result
    }

    static func describe(_ list: PlaceholderList) -> String {
        list.placeholders.isEmpty ? "—" : list.placeholders.map(\.text).joined(separator: " ")
    }
}
