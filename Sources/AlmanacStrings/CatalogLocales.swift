import Foundation

/// Matching the locales people type (`zh-TW`, `zh_Hant`) with the ones catalogs use (`zh-Hant`).
public enum CatalogLocales {
    /// The name among `available` that `tag` means: itself, or zh-TW/zh-HK → zh-Hant, zh-CN/zh-SG →
    /// zh-Hans, `_` read as `-`.
    public static func catalogName(_ tag: String, among available: [String]) -> String {
        let tag = tag.replacingOccurrences(of: "_", with: "-")
        if available.contains(tag) { return tag }
        let lower = tag.lowercased()
        let script: String? = if lower.hasPrefix("zh-hant") || lower == "zh-tw" || lower == "zh-hk" || lower == "zh-mo" { "zh-Hant" }
            else if lower.hasPrefix("zh-hans") || lower == "zh-cn" || lower == "zh-sg" || lower == "zh" { "zh-Hans" }
            else { nil }
        if let script, available.isEmpty || available.contains(script) { return script }
        if let language = tag.split(separator: "-").first.map(String.init), available.contains(language) { return language }
        return script ?? tag
    }
}
