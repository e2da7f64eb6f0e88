/// Localized strings: keys with a value per locale (`.strings`, `.stringsdict`, `.xcstrings`,
/// XLIFF, translator spreadsheets). One catalog holds one table (`Localizable`, `Shared`) in any
/// number of locales.
public struct Catalog: Hashable, Sendable, Codable {
    /// The locale the keys are written in (`en`).
    public var sourceLanguage: String
    /// Entries in the source's order.
    public var entries: [CatalogEntry]
    /// The version of the String Catalog format the catalog was read from (`1.0`, `1.1`: Xcode
    /// writes what the catalog uses), written back as it was; nil for a catalog from elsewhere.
    /// A fact of the file, not of the strings: the catalog JSON carries it, equality ignores it.
    public var stringCatalogVersion: String?
    /// How the file was laid out (table name, encoding): not part of the content.
    public var presentation: Presentation

    public init(sourceLanguage: String = "en", entries: [CatalogEntry] = [], stringCatalogVersion: String? = nil,
                presentation: Presentation = Presentation()) {
        self.sourceLanguage = sourceLanguage
        self.entries = entries
        self.stringCatalogVersion = stringCatalogVersion
        self.presentation = presentation
    }

    public static func == (lhs: Catalog, rhs: Catalog) -> Bool {
        lhs.sourceLanguage == rhs.sourceLanguage && lhs.entries == rhs.entries
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(sourceLanguage)
        hasher.combine(entries)
    }

    /// Every locale with at least one value, sorted.
    public var locales: [String] {
        Array(Set(entries.flatMap(\.translations.keys))).sorted()
    }

    /// The entry for a key.
    public subscript(key: String) -> CatalogEntry? {
        entries.first { $0.key == key }
    }

    /// Adds another catalog's translations (another locale's file of the same table, usually):
    /// entries are matched by key, new keys are appended in the other's order, and a locale's
    /// value already present is kept unless `replacing` is set.
    public mutating func merge(_ other: Catalog, replacing: Bool = false) {
        var index: [String: Int] = [:]
        merge(other, replacing: replacing, index: &index)
    }

    /// `merge` with the entries' positions by key kept by the caller between merges: built here
    /// when empty, and kept up to date.
    mutating func merge(_ other: Catalog, replacing: Bool, index: inout [String: Int]) {
        if index.isEmpty {
            index.reserveCapacity(entries.count)
            for (position, entry) in entries.enumerated() where index[entry.key] == nil { index[entry.key] = position }
        }
        for entry in other.entries {
            guard let position = index[entry.key] else {
                index[entry.key] = entries.count
                entries.append(entry)
                continue
            }
            if entries[position].comment == nil { entries[position].comment = entry.comment }
            for (locale, translation) in entry.translations where replacing || entries[position].translations[locale] == nil {
                entries[position].translations[locale] = translation
            }
        }
    }
}

public struct CatalogEntry: Hashable, Sendable, Codable {
    public var key: String
    /// The developer's note to translators.
    public var comment: String?
    /// Values by locale (`en`, `zh-Hans`, `zh-Hant`).
    public var translations: [String: Translation]
    /// How Xcode found the key (`manual`, `extracted_with_value`, `stale`, `migrated`).
    public var extractionState: String?
    /// False for keys that must not be translated (brand names, format-only strings).
    public var shouldTranslate: Bool?
    public var presentation: Presentation

    public init(key: String, comment: String? = nil, translations: [String: Translation] = [:], extractionState: String? = nil,
                shouldTranslate: Bool? = nil, presentation: Presentation = Presentation()) {
        self.key = key
        self.comment = comment
        self.translations = translations
        self.extractionState = extractionState
        self.shouldTranslate = shouldTranslate
        self.presentation = presentation
    }
}

/// One locale's value for a key: a string; or plural forms by CLDR category; or variants by
/// device; with named plural variables (`%#@days@`) where a value holds several.
public struct Translation: Hashable, Sendable, Codable {
    /// Where a translation stands in review (Xcode's string catalog states).
    public enum State: String, Hashable, Sendable, Codable, CaseIterable {
        case new, translated, needsReview = "needs_review", stale

        /// Of two units' states, the one further from done (new, stale, needs review, translated):
        /// what a translation of several units is as a whole.
        public static func leastAdvanced(_ a: State, _ b: State) -> State {
            let order: [State] = [.new, .stale, .needsReview, .translated]
            return order.firstIndex(of: a)! <= order.firstIndex(of: b)! ? a : b
        }
    }

    public var value: String?
    /// Plural forms, device variants, plural variables and texts' own states: most values have
    /// none, so they share one box that exists only when one is set. A catalog holds a translation
    /// per key and locale (1.5 million for 500,000 keys in three locales), and each field kept
    /// inline would cost its size that many times.
    private var variants: Variants?
    /// Where the value was read (file, line, column) and how it was written there.
    public var presentation: Presentation
    /// The state of the translation as a whole: of several texts (plural forms), the least advanced.
    public var state: State?

    /// Plural forms by category (`one`: "%d day left", `other`: "%d days left").
    public var plural: [PluralCategory: String]? {
        get { variants?.fields.plural }
        set { updateVariants { $0.plural = newValue } }
    }
    /// Variants by device (`iphone`, `ipad`, `mac`, `watch`, `other`), each a translation itself.
    public var devices: [String: Translation]? {
        get { variants?.fields.devices }
        set { updateVariants { $0.devices = newValue } }
    }
    /// The plural variables `value` refers to as `%#@name@`, by name.
    public var substitutions: [String: Substitution]? {
        get { variants?.fields.substitutions }
        set { updateVariants { $0.substitutions = newValue } }
    }
    /// The texts whose own state differs from `state`, by their path in `texts` (`plural.one`,
    /// `substitution.days.other`): a string catalog gives each plural form a state of its own.
    public var textStates: [String: State]? {
        get { variants?.fields.textStates }
        set { updateVariants { $0.textStates = newValue } }
    }

    /// The fields kept in the box, compared by value (no box and an empty one are the same).
    private struct VariantFields: Hashable, Sendable {
        var plural: [PluralCategory: String]?
        var devices: [String: Translation]?
        var substitutions: [String: Substitution]?
        var textStates: [String: State]?

        var isEmpty: Bool { plural == nil && devices == nil && substitutions == nil && textStates == nil }
    }

    /// Immutable: a change makes a new box, so copies of a translation never share a change.
    private final class Variants: Hashable, Sendable {
        let fields: VariantFields
        private init(_ fields: VariantFields) { self.fields = fields }
        /// A box for these fields; none when they are all empty.
        static func holding(_ fields: VariantFields) -> Variants? { fields.isEmpty ? nil : Variants(fields) }
        static func == (lhs: Variants, rhs: Variants) -> Bool { lhs === rhs || lhs.fields == rhs.fields }
        func hash(into hasher: inout Hasher) { hasher.combine(fields) }
    }

    private mutating func updateVariants(_ change: (inout VariantFields) -> Void) {
        var fields = variants?.fields ?? VariantFields()
        change(&fields)
        variants = Variants.holding(fields)
    }

    public init(value: String? = nil, plural: [PluralCategory: String]? = nil, devices: [String: Translation]? = nil,
                substitutions: [String: Substitution]? = nil, state: State? = nil, textStates: [String: State]? = nil,
                presentation: Presentation = Presentation()) {
        self.value = value
        self.variants = Variants.holding(VariantFields(plural: plural, devices: devices, substitutions: substitutions, textStates: textStates))
        self.state = state
        self.presentation = presentation
    }

    /// The state of the text at `path` (a path of `texts` outside a device variant).
    public func state(at path: String) -> State? { textStates?[path] ?? state }

    /// Every text this translation holds, with where it sits (`""`, `plural.one`,
    /// `device.mac.plural.other`, `substitution.days.one`), for checks that look at each.
    public var texts: [(path: String, text: String)] {
        var result: [(String, String)] = []
        if let value { result.append(("", value)) }
        for (category, text) in (plural ?? [:]).sorted(by: { $0.key < $1.key }) { result.append(("plural.\(category.rawValue)", text)) }
        for (name, substitution) in (substitutions ?? [:]).sorted(by: { $0.key < $1.key }) {
            for (category, text) in substitution.plural.sorted(by: { $0.key < $1.key }) {
                result.append(("substitution.\(name).\(category.rawValue)", text))
            }
        }
        for (device, variant) in (devices ?? [:]).sorted(by: { $0.key < $1.key }) {
            for (path, text) in variant.texts { result.append(("device.\(device)" + (path.isEmpty ? "" : ".\(path)"), text)) }
        }
        return result
    }

    /// Whether it holds no text at all.
    public var isEmpty: Bool { texts.isEmpty }

    /// The text at `path` (a path of `texts`), nil where there is none.
    public func text(at path: String) -> String? {
        var copy = self
        var found: String?
        _ = copy.updateText(at: Substring(path)) { found = $0; return nil }
        return found
    }

    /// Replaces the text at `path` (a path of `texts`) with `text`; false, and nothing changed, where
    /// the translation has no text there.
    @discardableResult
    public mutating func setText(_ text: String, at path: String) -> Bool {
        updateText(at: Substring(path)) { _ in text }
    }

    /// Calls `change` with the text at `path` and stores what it returns (nil: keep it).
    private mutating func updateText(at path: Substring, _ change: (String) -> String?) -> Bool {
        if path.isEmpty {
            guard let value else { return false }
            if let new = change(value) { self.value = new }
            return true
        }
        let parts = path.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        switch parts[0] {
        case "plural":
            guard parts.count == 2, let category = PluralCategory(rawValue: String(parts[1])), let old = plural?[category] else { return false }
            if let new = change(old) { plural?[category] = new }
            return true
        case "substitution":
            guard parts.count == 3, let category = PluralCategory(rawValue: String(parts[2])),
                  let old = substitutions?[String(parts[1])]?.plural[category] else { return false }
            if let new = change(old) { substitutions?[String(parts[1])]?.plural[category] = new }
            return true
        case "device":
            guard parts.count >= 2, var variant = devices?[String(parts[1])] else { return false }
            let rest = parts.count == 3 ? parts[2] : ""
            guard variant.updateText(at: rest, change) else { return false }
            devices?[String(parts[1])] = variant
            return true
        default:
            return false
        }
    }
}

/// A plural variable of a value (`%#@days@` in "%#@days@ left"): the argument it counts, its
/// format (`d`, `lld`), and its forms.
public struct Substitution: Hashable, Sendable, Codable {
    /// The 1-based argument it formats, when given (`argNum` in a string catalog).
    public var argument: Int?
    /// The conversion without `%` (`d`, `ld`, `lld`, `@`).
    public var formatSpecifier: String
    public var plural: [PluralCategory: String]

    public init(argument: Int? = nil, formatSpecifier: String = "d", plural: [PluralCategory: String]) {
        self.argument = argument
        self.formatSpecifier = formatSpecifier
        self.plural = plural
    }
}

/// One format's record of how something was written in its file (the text around an entry, the
/// file's encoding, the table it came from), kept in a `Presentation` by the module that reads and
/// writes that format: `StringsFile.EntryLayout`, `XCStringsFile.CatalogLayout`,
/// `XLIFFLayout`… A presentation holds at most one of each type, found by its type:
/// `translation.presentation[StringsFile.EntryLayout.self]?.text`.
public protocol PresentationLayout: Sendable, Equatable {}

/// The table a catalog is (`Localizable`, `InfoPlist`) and the file an XLIFF named for it or for
/// one of its entries (`en.lproj/InfoPlist.strings`): what every catalog format reads and the tree
/// and XLIFF writers use to put it back.
public struct TableSource: PresentationLayout {
    public var table: String?
    /// The file an XLIFF's `<file original="…">` named.
    public var original: String?

    public init(table: String? = nil, original: String? = nil) {
        self.table = table
        self.original = original
    }
}

/// How something was written in its file — layout, raw text, the line it was on — kept so that a
/// file written back unchanged comes out byte for byte as it was read, and so that checks can
/// point at lines. It is not content: equality, hashing and the canonical JSON ignore it.
public struct Presentation: Hashable, Sendable, Codable {
    /// The layouts kept, one of each type, as a chain of boxes that are never changed (a
    /// presentation with none costs a pointer; setting one makes a new head).
    private var layouts: (any LayoutLink)?
    // The origin is kept in parts (a line and column in 32 bits each) rather than as a
    // `SourceLocation?`, which takes 64 bytes: every translation and entry of a catalog has a
    // presentation, and most have an origin.
    private var originFile: String? = nil
    private var originKeyPath: String? = nil
    private var originLine: Int32 = -1
    private var originColumn: Int32 = -1
    private var hasOrigin = false

    /// Where it was read. A line or column past 2³¹ − 1 (no file Almanac reads has one) is kept as
    /// 2³¹ − 1.
    public var origin: SourceLocation? {
        get {
            guard hasOrigin else { return nil }
            return SourceLocation(file: originFile, line: originLine < 0 ? nil : Int(originLine),
                                  column: originColumn < 0 ? nil : Int(originColumn), keyPath: originKeyPath)
        }
        set {
            hasOrigin = newValue != nil
            originFile = newValue?.file
            originKeyPath = newValue?.keyPath
            originLine = Self.compact(newValue?.line)
            originColumn = Self.compact(newValue?.column)
        }
    }

    public init(origin: SourceLocation? = nil) {
        self.origin = origin
    }

    /// A presentation of one layout, and where it was read.
    public init<Layout: PresentationLayout>(_ layout: Layout, origin: SourceLocation? = nil) {
        self.origin = origin
        self[Layout.self] = layout
    }

    /// A presentation of nothing but an origin in a file, line and column as kept (−1: none).
    init(file: String?, line: Int32, column: Int32) {
        originFile = file
        originLine = line
        originColumn = column
        hasOrigin = true
    }

    /// The origin's line and column as kept (−1: none), when it is in a file at a line and column
    /// with no key path.
    var originParts: (file: String?, line: Int32, column: Int32)? {
        hasOrigin && originKeyPath == nil ? (originFile, originLine, originColumn) : nil
    }

    /// A line or column in 32 bits: -1 for none, counts past the largest kept as the largest.
    private static func compact(_ number: Int?) -> Int32 {
        guard let number else { return -1 }
        return Int32(clamping: number)
    }

    /// The layout of a type, when one is kept; setting nil removes it.
    public subscript<Layout: PresentationLayout>(_ type: Layout.Type) -> Layout? {
        get {
            var box = layouts
            while let current = box {
                if let found = current as? LayoutBox<Layout> { return found.value }
                box = current.next
            }
            return nil
        }
        set {
            // The others in their order, then this one first: the chain is rebuilt, not changed,
            // so a copy of this presentation keeps what it had.
            var others: [any LayoutLink] = []
            var box = layouts
            while let current = box {
                if !(current is LayoutBox<Layout>) { others.append(current) }
                box = current.next
            }
            var head: (any LayoutLink)? = nil
            for other in others.reversed() { head = other.relinked(to: head) }
            if let newValue { head = LayoutBox(newValue, next: head) }
            layouts = head
        }
    }

    /// The layout of a type, made from `initial` when none is kept, to change in place:
    /// `presentation[StringsFile.CatalogLayout.self, default: .init()].encoding = "utf-16"`.
    public subscript<Layout: PresentationLayout>(_ type: Layout.Type, default initial: @autoclosure () -> Layout) -> Layout {
        get { self[type] ?? initial() }
        set { self[type] = newValue }
    }

    /// Whether any layout is kept (not counting the origin).
    public var hasLayout: Bool { layouts != nil }

    /// Whether both keep the same layouts (of the same types, equal), whatever their origins.
    public func hasSameLayouts(as other: Presentation) -> Bool {
        func all(_ presentation: Presentation) -> [any LayoutLink] {
            var result: [any LayoutLink] = []
            var box = presentation.layouts
            while let current = box {
                result.append(current)
                box = current.next
            }
            return result
        }
        let mine = all(self), theirs = all(other)
        return mine.count == theirs.count && mine.allSatisfy { box in theirs.contains { box.isSame(as: $0) } }
    }

    public var isEmpty: Bool { layouts == nil && !hasOrigin }

    public static func == (lhs: Presentation, rhs: Presentation) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}
    public init(from decoder: any Decoder) throws { self.init() }
    public func encode(to encoder: any Encoder) throws {}
}

/// A link of a presentation's chain of layouts; never changed once made.
private protocol LayoutLink: AnyObject, Sendable {
    var next: (any LayoutLink)? { get }
    /// The same layout linked to another rest of the chain.
    func relinked(to next: (any LayoutLink)?) -> any LayoutLink
    func isSame(as other: any LayoutLink) -> Bool
}

private final class LayoutBox<Layout: PresentationLayout>: LayoutLink {
    let value: Layout
    let next: (any LayoutLink)?

    init(_ value: Layout, next: (any LayoutLink)?) {
        self.value = value
        self.next = next
    }

    func relinked(to next: (any LayoutLink)?) -> any LayoutLink { LayoutBox(value, next: next) }
    func isSame(as other: any LayoutLink) -> Bool { (other as? LayoutBox<Layout>)?.value == value }
}

extension Catalog {
    enum CodingKeys: String, CodingKey { case sourceLanguage, entries, stringCatalogVersion }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(sourceLanguage: try c.decodeIfPresent(String.self, forKey: .sourceLanguage) ?? "en",
                  entries: try c.decodeIfPresent([CatalogEntry].self, forKey: .entries) ?? [],
                  stringCatalogVersion: try c.decodeIfPresent(String.self, forKey: .stringCatalogVersion))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(sourceLanguage, forKey: .sourceLanguage)
        try c.encode(entries, forKey: .entries)
        try c.encodeIfPresent(stringCatalogVersion, forKey: .stringCatalogVersion)
    }
}

extension CatalogEntry {
    enum CodingKeys: String, CodingKey { case key, comment, translations, extractionState, shouldTranslate }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(key: try c.decode(String.self, forKey: .key),
                  comment: try c.decodeIfPresent(String.self, forKey: .comment),
                  translations: try c.decodeIfPresent([String: Translation].self, forKey: .translations) ?? [:],
                  extractionState: try c.decodeIfPresent(String.self, forKey: .extractionState),
                  shouldTranslate: try c.decodeIfPresent(Bool.self, forKey: .shouldTranslate))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(key, forKey: .key)
        try c.encodeIfPresent(comment, forKey: .comment)
        try c.encode(translations, forKey: .translations)
        try c.encodeIfPresent(extractionState, forKey: .extractionState)
        try c.encodeIfPresent(shouldTranslate, forKey: .shouldTranslate)
    }
}

extension Translation {
    enum CodingKeys: String, CodingKey { case value, plural, devices, substitutions, state, textStates }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(value: try c.decodeIfPresent(String.self, forKey: .value),
                  plural: try c.decodeIfPresent([PluralCategory: String].self, forKey: .plural),
                  devices: try c.decodeIfPresent([String: Translation].self, forKey: .devices),
                  substitutions: try c.decodeIfPresent([String: Substitution].self, forKey: .substitutions),
                  state: try c.decodeIfPresent(State.self, forKey: .state),
                  textStates: try c.decodeIfPresent([String: State].self, forKey: .textStates))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(value, forKey: .value)
        try c.encodeIfPresent(plural, forKey: .plural)
        try c.encodeIfPresent(devices, forKey: .devices)
        try c.encodeIfPresent(substitutions, forKey: .substitutions)
        try c.encodeIfPresent(state, forKey: .state)
        try c.encodeIfPresent(textStates, forKey: .textStates)
    }
}

extension Catalog {
    /// The catalog with a String Catalog's source text made explicit: a key with no value in the
    /// source language is its own text there (Xcode shows the key and compiles it so), which a
    /// format that holds each locale's text (a `.strings` table, a translator's sheet) writes. A
    /// catalog from elsewhere is returned as it is: a `.strings` base without a key lacks it.
    public func withSourceText() -> Catalog {
        guard stringCatalogVersion != nil, entries.contains(where: { $0.translations[sourceLanguage] == nil }) else { return self }
        var result = self
        for index in result.entries.indices where result.entries[index].translations[sourceLanguage] == nil {
            result.entries[index].translations[sourceLanguage] = Translation(value: result.entries[index].key)
        }
        return result
    }
}

extension Translation {
    /// The value with each plural variable (`%#@value@`) written as its `other` form, `%arg` as
    /// the variable's format (`%.1f pixels`): what a format of one string per key can say of it; nil
    /// when the value has no variable with an `other` form.
    public var flattened: String? {
        guard var text = value, let substitutions, text.contains("%#@") else { return nil }
        var changed = false
        for (name, substitution) in substitutions {
            guard let other = substitution.plural[.other], text.contains("%#@" + name + "@") else { continue }
            let format = "%" + (substitution.argument.map { "\($0)$" } ?? "") + substitution.formatSpecifier
            text = text.replacingOccurrences(of: "%#@" + name + "@", with: other.replacingOccurrences(of: "%arg", with: format))
            changed = true
        }
        return changed ? text : nil
    }
}
