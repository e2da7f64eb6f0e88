/// Writes JSON as UTF-8 in the layout a format needs: the one JSON writer behind backups
/// (Python's layout), jCal, table JSON, Almanac's model JSON and report lines.
///
/// Values go in as tokens (`beginObject`, `key`, `string`, …) or whole (`value(_:)` for a
/// `JSONValue`); the writer puts the separators, line breaks and indentation where the layout
/// says, into a `ByteWriter`. `take()` hands the bytes over as an array.
package struct JSONWriter: ~Copyable {
    /// Where a layout puts what.
    package struct Layout: Sendable {
        /// Spaces a level is indented by; nil writes everything on one line.
        package var indent: Int?
        /// Between a key and its value: `:`, `": "` or `" : "` (Foundation's and Xcode's).
        package var colon: StaticString
        /// Between the items of a container written on one line: `,` or `", "`.
        package var separator: StaticString
        /// Indented arrays that hold no array stay on one line (jCal's properties).
        package var flatArraysOnOneLine: Bool
        package var escaping: JSONValue.Escaping
        /// A `JSONValue` object's keys in code point order (Python's `sort_keys`).
        package var sortsKeys: Bool
        /// An empty indented container is written over three lines, the middle one blank
        /// (`{\n\n}`, as Xcode writes string catalogs); else `{}`.
        package var emptyContainersOnThreeLines: Bool

        package init(indent: Int?, colon: StaticString, separator: StaticString, flatArraysOnOneLine: Bool = false,
                     escaping: JSONValue.Escaping = [], sortsKeys: Bool = false, emptyContainersOnThreeLines: Bool = false) {
            self.indent = indent
            self.colon = colon
            self.separator = separator
            self.flatArraysOnOneLine = flatArraysOnOneLine
            self.escaping = escaping
            self.sortsKeys = sortsKeys
            self.emptyContainersOnThreeLines = emptyContainersOnThreeLines
        }

        /// Everything on one line, nothing between tokens.
        package static let compact = Layout(indent: nil, colon: ":", separator: ",")
        /// Almanac's own pretty JSON (jCal): two spaces, `": "`, arrays of no arrays on one line.
        package static let pretty = Layout(indent: 2, colon: ": ", separator: ", ", flatArraysOnOneLine: true)
        /// Python's `json.dumps(indent=2, sort_keys=True, ensure_ascii=False)`: the apps' backups.
        package static let python = Layout(indent: 2, colon: ": ", separator: ",", escaping: .shortControls, sortsKeys: true)
        /// One line with the short escapes (`\b`, `\f`): report lines, as Foundation writes them.
        package static let compactShortControls = Layout(indent: nil, colon: ":", separator: ",", escaping: .shortControls)
        /// Xcode's string catalogs: two spaces, `" : "`, empty containers over three lines.
        package static func xcode(escapingSlash: Bool) -> Layout {
            Layout(indent: 2, colon: " : ", separator: ",", escaping: escapingSlash ? .slash : [], emptyContainersOnThreeLines: true)
        }
        /// Foundation's `JSONEncoder` with `.prettyPrinted`, `.sortedKeys` and
        /// `.withoutEscapingSlashes`, empty containers as `[]` and `{}`: Almanac's model JSON.
        package static let foundation = Layout(indent: 2, colon: " : ", separator: ",", escaping: .shortControls, sortsKeys: true)
    }

    package let layout: Layout
    private var output: ByteWriter
    /// For each open container: how many items it has so far, and how it is laid out.
    private var levels: [(items: Int, style: Style)] = []

    /// How a container's items are laid out.
    private enum Style {
        /// One item a line, indented (the layout's indent).
        case lines
        /// On one line, with the layout's separator and colon (`[a, b]`).
        case oneLine
        /// On one line inside another one-line container: `,` and `:`, nothing more.
        case compact
    }
    /// The level the document starts at (a piece of a larger indented document).
    private let baseLevel: Int

    package init(layout: Layout, capacity: Int = 4096, level: Int = 0) {
        self.layout = layout
        output = ByteWriter(capacity: capacity)
        baseLevel = level
    }

    /// How many bytes are written and not yet taken.
    package var byteCount: Int { output.count }

    /// The bytes written so far; the writer starts again empty (keeping its storage).
    package mutating func take() -> [UInt8] { output.take() }

    // MARK: Tokens

    package mutating func beginObject(oneLine: Bool = false) {
        beforeValue()
        put(ASCII.openBrace)
        levels.append((0, style(oneLine: oneLine)))
    }

    package mutating func endObject() { end(ASCII.closeBrace) }

    /// An array: one item a line (indented), or on one line (`oneLine`, and always inside a
    /// one-line container or in a layout without indentation).
    package mutating func beginArray(oneLine: Bool = false) {
        beforeValue()
        put(ASCII.openBracket)
        levels.append((0, style(oneLine: oneLine)))
    }

    private func style(oneLine: Bool) -> Style {
        if layout.indent == nil { return .oneLine }
        if let parent = levels.last, parent.style != .lines { return .compact }
        return oneLine ? .oneLine : .lines
    }

    package mutating func endArray() { end(ASCII.closeBracket) }

    /// A one-line object of `count` string members written as `beginObject`, `key(quotedWithColon:)`,
    /// `string` and `endObject` write it in a layout without indentation (`{"a":"x","b":"y"}`),
    /// without their per-member bookkeeping: a table's rows as JSON Lines. `key(i)` gives member
    /// i's key already quoted with its colon, `value(i)` its text (escaped here). Only at the top
    /// level of a layout without indentation.
    package mutating func flatObject(count: Int, key: (Int) -> ByteView, value: (Int) -> ByteView) {
        precondition(levels.isEmpty && layout.indent == nil && !afterKey, "flatObject writes a top-level line")
        put(ASCII.openBrace)
        for index in 0..<count {
            if index > 0 { put(ASCII.comma) }
            output.append(key(index))
            output.appendJSONString(value(index), escaping: layout.escaping)
        }
        put(ASCII.closeBrace)
    }

    /// A member's key; its value comes next.
    package mutating func key(_ key: String) {
        beforeValue()
        quote(key)
        if levels.last?.style == .compact { put(ASCII.colon) } else { put(layout.colon) }
        afterKey = true
    }

    /// A key already quoted and followed by its colon (a table's column names, quoted once).
    package mutating func key(quotedWithColon bytes: [UInt8]) {
        beforeValue()
        put(bytes)
        afterKey = true
    }

    /// The same, from a view (keys quoted once into one buffer, read by many threads without
    /// touching a shared array's reference count).
    package mutating func key(quotedWithColon view: ByteView) {
        beforeValue()
        output.append(view)
        afterKey = true
    }

    package mutating func string(_ text: String) {
        beforeValue()
        quote(text)
    }

    package mutating func string(_ view: ByteView) {
        beforeValue()
        quote(view)
    }

    /// A date, or a date and time, as an ISO 8601 string (`"2025-03-05"`, `"2025-03-05T14:30:00"`),
    /// with `suffix` after it inside the quotes (`Z`) and then `zone` in brackets, escaped as any
    /// string (a zone's name as a file wrote it): the canonical text of a date value, written
    /// without making a String of it.
    package mutating func isoDate(_ year: Int, _ month: Int, _ day: Int, time: (hour: Int, minute: Int, second: Int)?,
                                  suffix: StaticString = "", zone: String? = nil) {
        beforeValue()
        put(ASCII.quote)
        output.appendISODate(year, month, day, time: time)
        put(suffix)
        if let zone {
            put(ASCII.openBracket)
            zone.withByteView { output.appendJSONEscaped($0, escaping: layout.escaping) }
            put(ASCII.closeBracket)
        }
        put(ASCII.quote)
    }

    package mutating func integer(_ number: Int) {
        beforeValue()
        put(integer: number)
    }

    package mutating func number(_ number: Double) {
        beforeValue()
        put(number: number)
    }

    /// A number already written as JSON text (an exact decimal, a number as another writer
    /// formats it).
    package mutating func number(text: String) {
        beforeValue()
        output.append(text)
    }

    package mutating func bool(_ flag: Bool) {
        beforeValue()
        put(flag ? "true" : "false")
    }

    package mutating func null() {
        beforeValue()
        put("null")
    }

    /// A value written whole, laid out where it stands (compactly inside a one-line container).
    package mutating func value(_ value: JSONValue) {
        beforeValue()
        if let last = levels.last, last.style != .lines { writeOneLine(value) } else { write(value, level: baseLevel + levels.count) }
    }

    /// The separator and line break between two items of a multi-line container that is open
    /// elsewhere, at this writer's base level (items encoded apart, on another thread).
    package mutating func nextItem() {
        put(ASCII.comma)
        newLine(level: baseLevel)
    }

    /// Bytes written as they are, outside any container's layout (a line break between the
    /// documents of a stream, items encoded elsewhere).
    package mutating func raw(_ bytes: [UInt8]) { put(bytes) }

    package mutating func raw(_ text: StaticString) { put(text) }

    /// Bytes that are already a value of this layout (encoded elsewhere, on another thread).
    package mutating func rawValue(_ bytes: [UInt8]) {
        beforeValue()
        put(bytes)
    }

    // MARK: Layout

    /// Set between a key and its value: the value follows on the key's line.
    private var afterKey = false

    /// The separator and line break before an item of the open container.
    private mutating func beforeValue() {
        if afterKey {
            afterKey = false
            return
        }
        guard let last = levels.indices.last else { return }
        if levels[last].items > 0 {
            switch levels[last].style {
            case .lines, .compact: put(ASCII.comma)
            case .oneLine: put(layout.separator)
            }
        }
        if levels[last].style == .lines { newLine(level: baseLevel + levels.count) }
        levels[last].items += 1
    }

    private mutating func end(_ bracket: UInt8) {
        let level = levels.removeLast()
        if level.items > 0, level.style == .lines { newLine(level: baseLevel + levels.count) }
        put(bracket)
    }

    /// A line break and the indentation of `level`.
    @inline(__always)
    private mutating func newLine(level: Int) {
        output.append(ASCII.lineFeed)
        output.append(repeating: ASCII.space, count: level * (layout.indent ?? 0))
    }

    // MARK: Whole values

    /// Closes an empty array or object: `[]`, or on three lines in a layout that writes them so.
    private mutating func closeEmpty(_ close: UInt8, level: Int) {
        if layout.emptyContainersOnThreeLines, layout.indent != nil {
            put(ASCII.lineFeed)
            newLine(level: level)
        }
        put(close)
    }

    private mutating func write(_ value: JSONValue, level: Int) {
        switch value {
        case .null: put("null")
        case .bool(let flag): put(flag ? "true" : "false")
        case .integer(let number): put(integer: number)
        case .number(let number): put(number: number)
        case .string(let text): quote(text)
        case .array(let items):
            put(ASCII.openBracket)
            if items.isEmpty { return closeEmpty(ASCII.closeBracket, level: level) }
            let oneLine = layout.indent == nil || (layout.flatArraysOnOneLine && items.allSatisfy { $0.array == nil })
            for (index, item) in items.enumerated() {
                if index > 0 { put(oneLine ? layout.separator : ",") }
                if !oneLine { newLine(level: level + 1) }
                // A one-line array's items are written compactly (jCal's GEO inside a property).
                if oneLine, layout.indent != nil { writeOneLine(item) } else { write(item, level: level + 1) }
            }
            if !oneLine { newLine(level: level) }
            put(ASCII.closeBracket)
        case .object(let members):
            put(ASCII.openBrace)
            if members.isEmpty { return closeEmpty(ASCII.closeBrace, level: level) }
            let ordered = layout.sortsKeys && !JSONValue.isSorted(members) ? members.sorted { JSONValue.precedes($0.0, $1.0) } : members
            for (index, (key, member)) in ordered.enumerated() {
                if index > 0 { put(layout.indent == nil ? layout.separator : ",") }
                if layout.indent != nil { newLine(level: level + 1) }
                quote(key)
                put(layout.colon)
                write(member, level: level + 1)
            }
            if layout.indent != nil { newLine(level: level) }
            put(ASCII.closeBrace)
        }
    }

    /// A value inside a one-line array: compact, whatever the layout.
    private mutating func writeOneLine(_ value: JSONValue) {
        switch value {
        case .array(let items):
            put(ASCII.openBracket)
            for (index, item) in items.enumerated() {
                if index > 0 { put(ASCII.comma) }
                writeOneLine(item)
            }
            put(ASCII.closeBracket)
        case .object(let members):
            put(ASCII.openBrace)
            for (index, (key, member)) in members.enumerated() {
                if index > 0 { put(ASCII.comma) }
                quote(key)
                put(ASCII.colon)
                writeOneLine(member)
            }
            put(ASCII.closeBrace)
        default:
            write(value, level: 0)
        }
    }

    // MARK: Bytes

    @inline(__always)
    private mutating func put(_ byte: UInt8) { output.append(byte) }

    @inline(__always)
    private mutating func put(_ text: StaticString) { output.append(text) }

    @inline(__always)
    private mutating func put(_ bytes: [UInt8]) { output.append(bytes) }

    private mutating func put(integer number: Int) { output.append(decimal: number) }

    /// A number as Swift and Python both write the shortest form that reads back the same
    /// (`0.1`, `1e+16`, `3.0`); JSON cannot hold infinities or NaN, so they are `null`.
    private mutating func put(number: Double) {
        guard number.isFinite else {
            put("null")
            return
        }
        output.append(number.description)
    }

    private mutating func quote(_ text: String) {
        text.withByteView { quote($0) }
    }

    /// `view` as a string literal: quotes, backslashes and control characters escaped (and
    /// slashes, if the layout says), everything else written as it is (UTF-8, no `\u` for
    /// non-ASCII).
    private mutating func quote(_ view: ByteView) {
        output.appendJSONString(view, escaping: layout.escaping)
    }
}

/// Writing a single value, for callers that need one line of it.
extension JSONValue {
    /// The value's JSON in `layout`, as bytes.
    package func bytes(_ layout: JSONWriter.Layout) -> [UInt8] {
        var writer = JSONWriter(layout: layout, capacity: 256)
        writer.value(self)
        return writer.take()
    }
}
