import AlmanacCore

/// A String Catalog's substitution tokens read as the placeholders they stand for, so that a value
/// is compared by its arguments however it is written: `%#@photos@` in a value and `%arg` in one of
/// the substitution's forms (or its plain specifier there, `%ld`) are the substitution's argument
/// (`argNum`) with its specifier, `%2$lld`.
/// A translation may use a substitution where the base has a plain `%lld`, or the other way round;
/// `%arg` is no `%a` (a hexadecimal float). Substitutions without an argument number (a
/// `.stringsdict`'s variables) keep their tokens.
enum SubstitutionTokens {
    static func resolved(_ text: String, path: String, in translation: Translation?) -> String {
        guard let substitutions = translation?.substitutions, !substitutions.isEmpty, text.utf8.contains(ASCII.percent) else { return text }
        var result = text
        let parts = path.split(separator: ".")
        if let index = parts.firstIndex(of: "substitution"), index + 1 < parts.count, let substitution = substitutions[String(parts[index + 1])] {
            result = result.replacingOccurrences(of: "%arg", with: placeholder(substitution))
            // A form that writes its argument with the plain specifier (`%ld points`) means the
            // substitution's argument too.
            if substitution.argument != nil {
                result = result.replacingOccurrences(of: "%" + substitution.formatSpecifier, with: placeholder(substitution))
            }
        }
        for (name, substitution) in substitutions where substitution.argument != nil {
            result = result.replacingOccurrences(of: "%#@\(name)@", with: placeholder(substitution))
        }
        return result
    }

    static func placeholder(_ substitution: Substitution) -> String {
        substitution.argument.map { "%\($0)$\(substitution.formatSpecifier)" } ?? "%\(substitution.formatSpecifier)"
    }
}
