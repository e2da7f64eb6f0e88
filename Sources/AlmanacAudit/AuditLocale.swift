import AlmanacICU
import AlmanacStrings

/// What a catalog's locale name means for the checks. Real projects name their folders in many
/// ways — `zh_TW.lproj`, `zh-Hant-TW.lproj`, lower-case `zh_tw.lproj`, `zh_HK`, `zh_CN` — and the
/// script decides which checks apply: ICU's likely subtags give each name its language, script and
/// region (`zh_TW` → zh-Hant-TW, `zh_HK` → zh-Hant-HK, `zh_CN` → zh-Hans-CN, `zh` → zh-Hans-CN).
struct AuditLocale: Sendable {
    /// The name as the catalog writes it.
    let name: String
    let language: String
    let script: String?
    let region: String?
    /// `zh-Hant` or `zh-Hans` for Chinese, as `CatalogLocales` decides it for every Almanac module.
    let chineseScript: String?

    init(_ name: String) {
        self.name = name
        // ICU reads `zh_TW`, `zh-tw` and `zh-Hant-TW` alike; a name it does not know keeps its
        // first part as the language.
        // A folder's legacy name (`English.lproj`) is its language's code.
        let code = CatalogLocales.code(ofLegacyName: name) ?? name
        chineseScript = CatalogLocales.chineseScript(of: code)
        if let locale = try? LocaleID(code.replacingOccurrences(of: "_", with: "-")) {
            let maximized = locale.maximized
            language = maximized.language.lowercased()
            script = maximized.script
            region = maximized.region
        } else {
            language = String(name.lowercased().prefix { $0 != "-" && $0 != "_" })
            script = nil
            region = nil
        }
    }

    var isChinese: Bool { language == "zh" }
    var isTraditional: Bool { isChinese && chineseScript == "zh-Hant" }
    var isSimplified: Bool { isChinese && chineseScript == "zh-Hans" }
    /// Taiwan's wording: the mainland-vocabulary check is for Taiwan only (Hong Kong and Macau
    /// write Traditional characters with words of their own).
    var isTaiwan: Bool { isTraditional && region == "TW" }

    /// The language as far as the checks tell languages apart (Chinese by script).
    var languageForComparison: String { isChinese ? chineseScript ?? "zh-" + (script ?? "Hans") : language }

    /// `zh-Hant-TW`: the name with its script and region as ICU reads them.
    var resolved: String { [language, script, region].compactMap { $0 }.joined(separator: "-") }

    /// Whether the name leaves to ICU what the checks depend on: a Chinese name without its
    /// script (`zh_TW`, `zh-HK`, `zh`) or written in another form than BCP 47's (`zh_tw`). The
    /// report says how such a name was read.
    var isReadByLikelySubtags: Bool {
        guard isChinese, script != nil else { return false }
        let parts = name.split(whereSeparator: { $0 == "-" || $0 == "_" })
        let hasScript = parts.contains { $0.count == 4 }
        return !hasScript || name.contains("_") || parts.dropFirst().contains { $0.count == 2 && $0.uppercased() != $0 }
    }
}
