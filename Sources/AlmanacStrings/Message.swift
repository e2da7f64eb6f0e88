/// A user-facing message: a key into Almanac's own catalogs (Locales/Almanac) and its arguments,
/// rendered in the user's language when shown.
///
/// Each module owns the messages of its prefixes (`ics.` is the iCalendar codec's) in a table
/// generated into the module (`Scripts/generate-messages.py`), with a factory for each message
/// that takes its arguments by name (`Message.recurrenceCapped(title:limit:)`); a message made in
/// a module looks its key up there first, then in Core's table of shared messages. A codec outside
/// Almanac brings its own table (`init(_:_:table:)`) or its own text (`init(code:text:)`).
public struct Message: Hashable, Sendable {
    var originalKey: String?
    private let lookupKey: String
    public let arguments: [String]
    /// The module table the key is looked up in before Core's.
    let table: MessageTable?
    /// Arguments that are messages themselves (“not an amount” in csv.bad-value), by position:
    /// shown in the reader's language, while `arguments` holds their English text.
    private var localized: [Int: Message]?

    public init(_ key: String, _ arguments: [String], table: MessageTable?) {
        self.lookupKey = key
        self.arguments = arguments
        self.table = table
    }

    /// A message whose key is made from data (`"audit." + check`: a check's message by its id):
    /// Almanac's own code names a message by its typed factory (`.recurrenceCapped(title:limit:)`,
    /// generated from the catalogs) instead, so a misspelt key does not compile.
    package init(key: String, _ arguments: [String] = [], table: MessageTable? = nil) {
        self.init(key, arguments, table: table)
    }

    /// A message from a codec or tool outside Almanac: its own stable code (`todotxt.bad-date`)
    /// and its text, shown as written whatever the user's language.
    public init(code: String, text: String) {
        self = .pluginMessage(text: text)
        originalKey = code
    }

    /// A value read from an input as a message quotes it: cut after `limit` characters, control
    /// characters (NUL, line breaks) written as `\\u{…}` (see `appendShowing`).
    public static func quoting(_ text: String, limit: Int = 256) -> String {
        let scalars = text.unicodeScalars
        let cut = scalars.count > limit ? String(String.UnicodeScalarView(scalars.prefix(limit))) : text
        var bytes: [UInt8] = []
        appendShowing(cut, into: &bytes, keepingLineBreaks: false)
        return String(decoding: bytes, as: UTF8.self) + (scalars.count > limit ? "…" : "")
    }

    /// Appends `text`'s UTF-8 with the control characters a terminal acts on (escape sequences,
    /// carriage returns, bells, NUL; C1 controls) written as `\\u{1b}`, so a value read from a
    /// hostile file cannot clear the screen, retitle the window or hide a line of the report it
    /// is shown in. Tabs and line breaks stay unless `keepingLineBreaks` is false.
    public static func appendShowing(_ text: String, into bytes: inout [UInt8], keepingLineBreaks: Bool = true) {
        func isShown(_ byte: UInt8) -> Bool { byte >= ASCII.space || (keepingLineBreaks && (byte == ASCII.tab || byte == ASCII.lineFeed)) }
        // The common case, looked for eight bytes at a time: no control character, DEL or C2
        // byte (C1 controls are U+0080–U+009F, UTF-8 C2 80–9F) — the text goes as it is.
        let plain = text.withByteView { view in
            guard ByteScan.contains(in: view, where: TerminalControls()) else {
                view.append(0, view.count, to: &bytes)
                return true
            }
            return false
        }
        if plain { return }
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if (value < UInt32(ASCII.firstNonASCII) && !isShown(UInt8(value))) || value == UInt32(ASCII.delete) || (0x80..<0xA0).contains(value) {
                bytes += "\\u{".utf8
                bytes += String(value, radix: 16).utf8
                bytes.append(UInt8(ascii: "}"))
            } else {
                bytes += String(scalar).utf8
            }
        }
    }

    /// The same message with the argument that holds `message`'s English text shown in the
    /// reader's language: `.csvBadValue(…, expected: kind.rendered()).localizing(kind)`. A message
    /// passed on as an argument is otherwise English inside a Chinese sentence.
    package func localizing(_ message: Message) -> Message {
        let english = message.rendered(in: .english)
        guard let index = arguments.firstIndex(of: english) else { return self }
        var copy = self
        copy.localized = (localized ?? [:]).merging([index: message]) { $1 }
        return copy
    }

    /// The stable key (a plugin's own code for messages that came from a plugin).
    public var key: String { originalKey ?? lookupKey }

    /// Whether the message says something of the input was not carried over (a field left out, a
    /// value written as something close, a row not read): its table says so, as Locales/Almanac
    /// marks it. `--strict` refuses a conversion that reports one.
    public var reportsLoss: Bool {
        if let table, table.reportsLoss(key) { return true }
        return CoreMessages.table.reportsLoss(key)
    }

    /// The text in a language, falling back to English, then to the key and its arguments.
    public func rendered(in language: Language = .english) -> String {
        var bytes: [UInt8] = []
        render(in: language, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text in a language, as UTF-8 after what `bytes` holds (a diagnostic's line is made in one buffer).
    func render(in language: Language, into bytes: inout [UInt8]) {
        guard let format = table?.format(lookupKey, in: language) ?? CoreMessages.table.format(lookupKey, in: language) else {
            bytes += lookupKey.utf8
            for argument in arguments {
                bytes.append(ASCII.space)
                Message.appendShowing(argument, into: &bytes)
            }
            return
        }
        guard let localized, language != .english else {
            Message.substitute(format, arguments, into: &bytes)
            return
        }
        let shown = arguments.indices.map { localized[$0]?.rendered(in: language) ?? arguments[$0] }
        Message.substitute(format, shown, into: &bytes)
    }

    public static func == (lhs: Message, rhs: Message) -> Bool {
        lhs.key == rhs.key && lhs.arguments == rhs.arguments && lhs.lookupKey == rhs.lookupKey
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(arguments)
    }

    /// Fills `%@`, `%d` and positional `%1$@` placeholders with the arguments; `%%` is a percent sign.
    static func substitute(_ format: String, _ arguments: [String]) -> String {
        var result: [UInt8] = []
        substitute(format, arguments, into: &result)
        return String(decoding: result, as: UTF8.self)
    }

    static func substitute(_ format: String, _ arguments: [String], into result: inout [UInt8]) {
        // Over the UTF-8 bytes, runs between placeholders copied whole: a batch renders a few
        // warnings per file.
        format.withByteView { bytes in
            result.reserveCapacity(result.count + bytes.count + 64)
            var next = 0
            var index = 0
            var runStart = 0
            while index < bytes.count {
                guard bytes[index] == ASCII.percent else {
                    index += 1
                    continue
                }
                bytes.append(runStart, index, to: &result)
                index += 1
                let digitsStart = index
                while index < bytes.count, ASCII.isDigit(bytes[index]) { index += 1 }
                let digits = bytes[digitsStart..<index]
                var position = next
                var specifier: UInt8? = index < bytes.count ? bytes[index] : nil
                if specifier == ASCII.dollar, let number = Int(digits.string) {  // %1$@
                    position = number - 1
                    index += 1
                    specifier = index < bytes.count ? bytes[index] : nil
                }
                switch specifier {
                case ASCII.percent?: result.append(ASCII.percent)
                case ASCII.at?, UInt8(ascii: "d")?, UInt8(ascii: "s")?:
                    // Arguments are values from inputs: shown, never acted on by a terminal.
                    if position >= 0 && position < arguments.count { Message.appendShowing(arguments[position], into: &result) }
                    if digits.isEmpty || position == next { next = position + 1 }
                case let other?:
                    result.append(ASCII.percent)
                    digits.append(0, digits.count, to: &result)
                    result.append(other)
                case nil:
                    result.append(ASCII.percent)
                    digits.append(0, digits.count, to: &result)
                }
                if specifier != nil { index += 1 }
                runStart = index
            }
            bytes.append(runStart, bytes.count, to: &result)
        }
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

}

extension String {
    fileprivate func replacingUnderscores() -> String { String(map { $0 == "_" ? "-" : $0 }) }
}

/// One module's messages in every language Almanac speaks, generated from Locales/Almanac (or a
/// codec plugin's own, from its description). Tables announce themselves when first used, so a
/// diagnostic read back from JSON finds its text by code.
public struct MessageTable: Sendable {
    /// The module or plugin the messages belong to.
    public let name: String
    private let texts: [Language: [String: String]]
    /// The keys of the messages that say something of the input was not carried over.
    private let reportingLoss: Set<String>

    /// `reportingLoss`: the keys of messages that say something of the input was not carried over
    /// (in Locales/Almanac, marked “reports a loss” after the entry).
    public init(name: String, english: [String: String], simplifiedChinese: [String: String], traditionalChinese: [String: String],
                reportingLoss: Set<String> = []) {
        self.name = name
        self.texts = [.english: english, .simplifiedChinese: simplifiedChinese, .traditionalChinese: traditionalChinese]
        self.reportingLoss = reportingLoss
        MessageTable.known.withLock { $0[name] = self }
    }

    /// Whether the message of `key` says something of the input was not carried over.
    public func reportsLoss(_ key: String) -> Bool { reportingLoss.contains(key) }

    /// The text of a key in a language, else in English.
    public func format(_ key: String, in language: Language) -> String? {
        texts[language]?[key] ?? texts[.english]?[key]
    }

    /// Every text in a language, by key.
    public func texts(in language: Language) -> [String: String] { texts[language] ?? [:] }

    /// Every key, in English.
    public var keys: Set<String> { Set(texts[.english]?.keys ?? [:].keys) }

    /// The keys a language has.
    public func keys(in language: Language) -> Set<String> { Set(texts[language]?.keys ?? [:].keys) }

    private static let known = Locked<[String: MessageTable]>([:])

    /// The table among those used so far (and Core's) that has a key.
    public static func owner(of key: String) -> MessageTable? {
        if CoreMessages.table.format(key, in: .english) != nil { return CoreMessages.table }
        return known.withLock { tables in tables.values.first { $0.format(key, in: .english) != nil } }
    }
}
