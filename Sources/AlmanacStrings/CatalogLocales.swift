import Foundation

/// Matching the locales people type (`zh-TW`, `zh_Hant`) with the ones catalogs use (`zh-Hant`,
/// `zh_TW.lproj`, `zh-Hant-TW`), and telling the two Chinese scripts apart by a locale's name.
public enum CatalogLocales {
    /// The name among `available` that `tag` means: itself; the same name spelled with `_` or
    /// another case; else, for Chinese, the one of the same script (`zh_TW` for zh-Hant, `zh_CN` for
    /// zh-Hans; of several, the script's own name, then the one of `tag`'s region or Taiwan's and the
    /// mainland's, then the first), and where there is none the script's name (`zh-Hant`); for
    /// another language, the language alone (`de` for de-AT), else `tag` with `_` read as `-`.
    public static func catalogName(_ tag: String, among available: [String]) -> String {
        let tag = tag.replacingOccurrences(of: "_", with: "-")
        if available.contains(tag) { return tag }
        let normalized = tag.lowercased()
        if let same = available.first(where: { $0.replacingOccurrences(of: "_", with: "-").lowercased() == normalized }) { return same }
        let script = chineseScript(of: tag)
        if let script {
            let candidates = available.filter { chineseScript(of: $0) == script }
            if let own = candidates.first(where: { $0 == script }) { return own }
            let region = tag.split(separator: "-").dropFirst().last.map { $0.uppercased() }
            let preferred = [region, script == "zh-Hant" ? "TW" : "CN"].compactMap { $0 }
            for wanted in preferred {
                if let match = candidates.first(where: { regionOf($0) == wanted }) { return match }
            }
            return candidates.sorted().first ?? script
        }
        if let language = tag.split(separator: "-").first.map(String.init), available.contains(language) { return language }
        return tag
    }

    /// `zh-Hant` or `zh-Hans` for a Chinese locale's name, whatever its spelling (`zh_TW`, `zh-HK`,
    /// `zh-Hant-TW`, `zh-MO`; `zh-CN`, `zh_SG`, `zh-Hans-CN`, `zh`); nil for any other language or
    /// another script (`zh-Latn`). This is the one place Almanac decides it: `LocaleID` and the
    /// audit ask here. A name without a script takes its region's as CLDR's likely subtags give it
    /// (`traditionalRegions`): Taiwan, Hong Kong, Macao and the communities abroad that CLDR counts
    /// as Traditional write Traditional characters; the mainland, Singapore, Malaysia and any other
    /// region Simplified.
    public static func chineseScript(of name: String) -> String? {
        let parts = name.replacingOccurrences(of: "_", with: "-").lowercased().split(separator: "-")
        guard parts.first == "zh" else { return nil }
        if parts.contains("hant") { return "zh-Hant" }
        if parts.contains("hans") { return "zh-Hans" }
        // Another script (`zh-Latn`, Pinyin) is neither.
        if parts.dropFirst().contains(where: { $0.count == 4 }) { return nil }
        if parts.dropFirst().contains(where: { traditionalRegions.contains(String($0)) }) { return "zh-Hant" }
        return "zh-Hans"
    }

    /// The regions where CLDR's likely subtags (ICU 72) give Chinese the Traditional script
    /// (`zh-US` → zh-Hant-US), lower-cased; a test holds this list to ICU's answer for every region.
    public static let traditionalRegions: Set<String> = [
        "au", "bn", "gb", "gf", "hk", "id", "mo", "pa", "pf", "ph", "sr", "th", "tw", "us", "vn",
    ]

    /// The language code of a folder named the way Xcode named them before 2012 (`English.lproj`,
    /// `Japanese.lproj`: CFBundle's legacy names, which older Mac apps still ship); nil for any
    /// other name.
    public static func code(ofLegacyName name: String) -> String? { legacyNames[name] }

    static let legacyNames: [String: String] = [
        "English": "en", "French": "fr", "German": "de", "Japanese": "ja", "Spanish": "es", "Italian": "it", "Dutch": "nl",
        "Portuguese": "pt", "Swedish": "sv", "Danish": "da", "Finnish": "fi", "Norwegian": "nb", "Korean": "ko",
        "Russian": "ru", "Polish": "pl", "Turkish": "tr", "Greek": "el", "Czech": "cs", "Hungarian": "hu",
    ]

    /// The name among `available` that is the locale `code` (`en`): itself, or a folder's legacy
    /// name for it (`English`); nil when none is.
    public static func named(_ code: String, among available: [String]) -> String? {
        if available.contains(code) { return code }
        return available.first { legacyNames[$0] == code }
    }

    /// The region of a locale's name (`TW` of `zh_TW` and `zh-Hant-TW`), upper-cased.
    private static func regionOf(_ name: String) -> String? {
        let parts = name.replacingOccurrences(of: "_", with: "-").split(separator: "-").dropFirst()
        return parts.first(where: { $0.count == 2 }).map { $0.uppercased() }
    }
}
