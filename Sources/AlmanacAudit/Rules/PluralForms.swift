import AlmanacICU
import AlmanacCore

/// The plural groups of a value: its own plural forms (`plural`) and each substitution's
/// (`substitution.<name>`), for the plural rules.
enum PluralForms {
    static func groups(_ translation: Translation) -> [(path: String, forms: [PluralCategory: String])] {
        // Most values have no plural forms at all.
        guard translation.plural != nil || translation.substitutions != nil else { return [] }
        var groups: [(String, [PluralCategory: String])] = []
        if let plural = translation.plural { groups.append(("plural", plural)) }
        for (name, substitution) in (translation.substitutions ?? [:]).sorted(by: { $0.key < $1.key }) {
            groups.append(("substitution.\(name)", substitution.plural))
        }
        return groups
    }
}
