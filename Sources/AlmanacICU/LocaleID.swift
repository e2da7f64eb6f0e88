internal import CICUShim
import AlmanacStrings

/// A locale known to ICU, such as `zh-TW`, `zh-Hans` or `en-US`.
///
/// Created from a BCP 47 tag or an ICU id; unknown languages are refused rather than silently
/// formatted with the root locale's data.
public struct LocaleID: Hashable, Sendable, CustomStringConvertible {
    /// ICU's canonical id, e.g. `zh_Hant_TW` or `zh_TW@calendar=roc`.
    public let icuIdentifier: String

    public init(_ identifier: String) throws(ICUError) {
        let trimmed = identifier.trimmingASCIIWhitespace()
        guard !trimmed.isEmpty, trimmed.utf8.count < 150,
              trimmed.utf8.allSatisfy({ $0 < ASCII.firstNonASCII && $0 != ASCII.null })
        else { throw ICUError(.unknownLocale, subject: identifier) }
        // POSIX forms from LANG ("zh_TW.UTF-8") carry a charset that ICU does not want.
        let withoutCharset = trimmed.split(separator: ".", maxSplits: 1).first.map(String.init) ?? trimmed
        let canonical = try charOutput(subject: identifier, kind: .unknownLocale) { buffer, capacity, status in
            alm_locale_canonical(withoutCharset, buffer, capacity, &status)
        }
        guard !canonical.isEmpty, alm_locale_is_known(canonical) != 0 else {
            throw ICUError(.unknownLocale, subject: identifier)
        }
        self.icuIdentifier = canonical
    }

    init(icu: String) { self.icuIdentifier = icu }

    public static let english = LocaleID(icu: "en")
    public static let americanEnglish = LocaleID(icu: "en_US")
    public static let simplifiedChinese = LocaleID(icu: "zh_Hans")
    public static let traditionalChinese = LocaleID(icu: "zh_Hant")
    public static let taiwan = LocaleID(icu: "zh_TW")
    public static let mainlandChina = LocaleID(icu: "zh_CN")

    /// Every locale ICU has data for.
    public static var available: [LocaleID] {
        (0..<alm_locale_count_available()).compactMap { index in alm_locale_available(index).map { LocaleID(icu: String(cString: $0)) } }
    }

    /// The BCP 47 form, e.g. `zh-TW`.
    public var bcp47: String {
        (try? charOutput(subject: icuIdentifier) { buffer, capacity, status in
            alm_locale_to_bcp47(icuIdentifier, buffer, capacity, &status)
        }) ?? icuIdentifier
    }

    public var description: String { bcp47 }

    /// The locale with likely subtags added: `zh-TW` becomes `zh_Hant_TW`.
    public var maximized: LocaleID {
        let full = try? charOutput(subject: icuIdentifier) { buffer, capacity, status in
            alm_locale_maximize(icuIdentifier, buffer, capacity, &status)
        }
        return full.map(LocaleID.init(icu:)) ?? self
    }

    /// The language code (`zh`, `en`).
    public var language: String {
        String(icuIdentifier.prefix { $0 != "_" && $0 != "@" })
    }

    /// The script, explicit or likely (`Hant` for `zh-TW`, `Hans` for `zh-CN`, `Latn` for `en`).
    public var script: String? {
        let parts = maximized.baseName.split(separator: "_")
        return parts.dropFirst().first { $0.count == 4 }.map(String.init)
    }

    /// The region, explicit or likely (`TW`, `CN`, `US`).
    public var region: String? {
        let parts = maximized.baseName.split(separator: "_")
        return parts.dropFirst().first { $0.count == 2 || $0.count == 3 && $0.allSatisfy(\.isNumber) }
            .map(String.init)
    }

    /// The id without keywords (`zh_TW` for `zh_TW@calendar=roc`).
    public var baseName: String {
        String(icuIdentifier.prefix { $0 != "@" })
    }

    /// The same locale with a keyword set (`calendar`, `collation`, `currency`, `numbers`).
    public func setting(_ keyword: String, to value: String) -> LocaleID {
        var keywords: [(String, String)] = []
        if let at = icuIdentifier.firstIndex(of: "@") {
            for pair in icuIdentifier[icuIdentifier.index(after: at)...].split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0] != keyword { keywords.append((String(parts[0]), String(parts[1]))) }
            }
        }
        keywords.append((keyword, value))
        keywords.sort { $0.0 < $1.0 }
        return LocaleID(icu: baseName + "@" + keywords.map { "\($0.0)=\($0.1)" }.joined(separator: ";"))
    }

    /// The locale's name in another locale ("中文（台灣）" for zh-TW shown in zh-TW).
    public func displayName(in locale: LocaleID) -> String {
        (try? utf16Output(subject: icuIdentifier) { buffer, capacity, status in
            alm_locale_display_name(icuIdentifier, locale.icuIdentifier, buffer, capacity, &status)
        }) ?? bcp47
    }

    /// Whether the locale writes Chinese in Traditional characters (zh-Hant, zh-TW, zh-HK, zh-MO), as
    /// `CatalogLocales.chineseScript(of:)` decides it for every name.
    public var usesTraditionalChinese: Bool { CatalogLocales.chineseScript(of: baseName) == "zh-Hant" }
}

extension String {
    func trimmingASCIIWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" || first == "\n" || first == "\r" {
            scalars = scalars.dropFirst()
        }
        while let last = scalars.last, last == " " || last == "\t" || last == "\n" || last == "\r" {
            scalars = scalars.dropLast()
        }
        return String(scalars)
    }
}
