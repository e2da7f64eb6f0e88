public import AlmanacICU

/// A user-facing message: a key into Almanac's own catalogs (Locales/Almanac) and its arguments,
/// rendered in the user's language when shown.
public struct Message: Hashable, Sendable {
    var originalKey: String?
    private let lookupKey: String
    public let arguments: [String]

    public init(_ key: String, _ arguments: [String] = []) {
        self.lookupKey = key
        self.arguments = arguments
    }

    public init(_ key: String, _ arguments: String...) {
        self.init(key, arguments)
    }

    /// A message from a codec or tool outside Almanac: its own stable code (`todotxt.bad-date`)
    /// and its text, shown as written whatever the user's language.
    public init(code: String, text: String) {
        self.init("plugin.message", [text])
        originalKey = code
    }

    /// The stable key (a plugin's own code for messages that came from a plugin).
    public var key: String { originalKey ?? lookupKey }

    /// The text in a language, falling back to English, then to the key and its arguments.
    public func rendered(in language: Language = .english) -> String {
        guard let format = MessageTable.table(for: language)[lookupKey] ?? MessageTable.english[lookupKey] else {
            return ([lookupKey] + arguments).joined(separator: " ")
        }
        return Message.substitute(format, arguments)
    }

    /// Fills `%@`, `%d` and positional `%1$@` placeholders with the arguments; `%%` is a percent sign.
    static func substitute(_ format: String, _ arguments: [String]) -> String {
        var result = ""
        var next = 0
        var characters = format.makeIterator()
        while let character = characters.next() {
            guard character == "%" else {
                result.append(character)
                continue
            }
            var digits = ""
            var specifier = characters.next()
            while let current = specifier, current.isASCII, current.isNumber {
                digits.append(current)
                specifier = characters.next()
            }
            var index = next
            if specifier == "$", let position = Int(digits) {
                index = position - 1
                specifier = characters.next()
            }
            switch specifier {
            case "%": result.append("%")
            case "@", "d", "s":
                result += index >= 0 && index < arguments.count ? arguments[index] : ""
                if digits.isEmpty || index == next { next = index + 1 }
            case let other?: result += "%" + digits + String(other)
            case nil: result += "%" + digits
            }
        }
        return result
    }
}

/// The languages Almanac speaks to its users.
public enum Language: String, Hashable, Sendable, CaseIterable, Codable {
    case english = "en"
    case simplifiedChinese = "zh-Hans"
    case traditionalChinese = "zh-Hant"

    /// From a tag or POSIX locale: `zh-TW`, `zh_HK.UTF-8` and `zh-Hant` are Traditional Chinese,
    /// other `zh` forms Simplified, everything else English.
    public init(tag: String) {
        let lowered = tag.lowercased().replacingUnderscores()
        guard lowered.hasPrefix("zh") else {
            self = .english
            return
        }
        if lowered.contains("hant") || lowered.contains("-tw") || lowered.contains("-hk") || lowered.contains("-mo") {
            self = .traditionalChinese
        } else {
            self = .simplifiedChinese
        }
    }

    /// The language the environment asks for: LC_ALL, then LC_MESSAGES, then LANG (POSIX order).
    public static func fromEnvironment(_ environment: [String: String]) -> Language {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[name], !value.isEmpty, value != "C", value != "POSIX", !value.hasPrefix("C.") {
                return Language(tag: value)
            }
        }
        return .english
    }

    /// The locale for formatting in this language when the user gave none.
    public var locale: LocaleID {
        switch self {
        case .english: .americanEnglish
        case .simplifiedChinese: .mainlandChina
        case .traditionalChinese: .taiwan
        }
    }
}

extension String {
    fileprivate func replacingUnderscores() -> String { String(map { $0 == "_" ? "-" : $0 }) }
}
