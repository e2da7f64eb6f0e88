/// A format placeholder in a localized string, as `String(format:)` reads it: `%@`, `%d`, `%ld`,
/// `%lld`, `%.2f`, `%1$@`, `%#@days@` (a plural variable), with flags, width and precision.
/// Checks compare placeholders by meaning (argument position and type), not by text.
public struct Placeholder: Hashable, Sendable, CustomStringConvertible {
    /// What an argument must be for the placeholder to format it.
    public enum ArgumentType: String, Hashable, Sendable {
        case object        // %@
        case integer       // %d %i %u %x %X %o %c %C (any length)
        case double        // %f %e %g %a (and capitals)
        case cString       // %s %S
        case pointer       // %p
        case pluralVariable  // %#@name@: formats its variable's argument
    }

    /// The text as written (`%1$@`).
    public var text: String
    /// The UTF-8 offset in the string.
    public var offset: Int
    /// The explicit 1-based position (`%2$@`), if written.
    public var position: Int?
    /// Length modifier (`l`, `ll`, `h`, `hh`, `q`, `z`, `t`, `j`, `L`).
    public var length: String
    /// The conversion character (`@`, `d`, `f`, …).
    public var conversion: Character
    /// The variable name of `%#@name@`.
    public var variable: String?

    public var type: ArgumentType {
        if variable != nil { return .pluralVariable }
        switch conversion {
        case "@": return .object
        case "f", "F", "e", "E", "g", "G", "a", "A": return .double
        case "s", "S": return .cString
        case "p": return .pointer
        default: return .integer
        }
    }

    public var description: String { text }
}

/// The placeholders of a string and what is wrong with them.
public struct PlaceholderList: Hashable, Sendable {
    public var placeholders: [Placeholder]
    /// `%` signs that start no valid placeholder (`100% done`), by UTF-8 offset: `String(format:)`
    /// reads them as something else or crashes.
    public var stray: [Int]

    /// Parses `text`. `%%` is a literal percent sign.
    public init(_ text: String) {
        placeholders = []
        stray = []
        // Most strings have no % at all.
        guard text.utf8.contains(ASCII.percent) else { return }
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == ASCII.percent else {
                index += 1
                continue
            }
            let start = index
            index += 1
            if index < bytes.count, bytes[index] == ASCII.percent {
                index += 1
                continue
            }
            if let (placeholder, end) = Self.placeholder(bytes, from: start) {
                placeholders.append(placeholder)
                index = end
            } else {
                stray.append(start)
            }
        }
    }

    /// The arguments the string consumes, by 1-based position, with their types; positions follow
    /// `String(format:)`: explicit `%N$` where written, else the next argument in order.
    public var arguments: [Int: Placeholder.ArgumentType] {
        var result: [Int: Placeholder.ArgumentType] = [:]
        var next = 1
        for placeholder in placeholders {
            let position = placeholder.position ?? next
            next = position + 1
            result[position] = placeholder.type
        }
        return result
    }

    /// Arguments read with two different types (`%1$@ … %1$d`): `String(format:)` would misread one.
    public var conflicts: [Int] {
        var seen: [Int: Placeholder.ArgumentType] = [:]
        var result: Set<Int> = []
        var next = 1
        for placeholder in placeholders {
            let position = placeholder.position ?? next
            next = position + 1
            if let earlier = seen[position], earlier != placeholder.type { result.insert(position) }
            seen[position] = placeholder.type
        }
        return result.sorted()
    }

    /// Whether positional (`%1$@`) and sequential (`%@`) placeholders are mixed, which
    /// `String(format:)` does not support.
    public var mixesPositional: Bool {
        let explicit = placeholders.filter { $0.position != nil }.count
        return explicit > 0 && explicit < placeholders.count
    }

    public var variables: [String] { placeholders.compactMap(\.variable) }

    static let lengths: [[UInt8]] = [Array("hh".utf8), Array("ll".utf8), Array("h".utf8), Array("l".utf8), Array("q".utf8),
                                     Array("z".utf8), Array("t".utf8), Array("j".utf8), Array("L".utf8)]
    static let conversions = Set("@dDiuUxXoOcCfFeEgGaAsSp".utf8)

    /// The placeholder starting at `start` (a `%`), and where it ends.
    static func placeholder(_ bytes: [UInt8], from start: Int) -> (Placeholder, Int)? {
        var index = start + 1
        func digits() -> Int? {
            var value: Int?
            while index < bytes.count, ASCII.isDigit(bytes[index]) {
                // Saturates: `%99999999999999999999$@` (found by the fuzzer) must not overflow.
                value = min(value ?? 0, 1_000_000_000) * 10 + Int(bytes[index] - ASCII.zero)
                index += 1
            }
            return value
        }
        // Position: digits followed by `$`.
        var position: Int?
        let save = index
        // glibc's printf takes positions up to NL_ARGMAX (4096); a larger number is not a position.
        if let number = digits(), index < bytes.count, bytes[index] == ASCII.dollar, number > 0, number <= 4096 {
            position = number
            index += 1
        } else {
            index = save
        }
        // Plural variable: %#@name@ (also %1$#@name@).
        if index + 1 < bytes.count, bytes[index] == ASCII.hash, bytes[index + 1] == ASCII.at {
            var end = index + 2
            while end < bytes.count, bytes[end] != ASCII.at { end += 1 }
            guard end < bytes.count, end > index + 2 else { return nil }
            let name = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
            let text = String(decoding: bytes[start...end], as: UTF8.self)
            return (Placeholder(text: text, offset: start, position: position, length: "", conversion: "@", variable: name), end + 1)
        }
        // Flags, width, precision.
        let flagsStart = index
        while index < bytes.count, [ASCII.hyphen, ASCII.plus, ASCII.space, ASCII.hash, ASCII.zero, ASCII.apostrophe].contains(bytes[index]) { index += 1 }
        let spaceFlag = bytes[flagsStart..<index].contains(ASCII.space)
        let widthStart = index
        if index < bytes.count, bytes[index] == ASCII.asterisk { index += 1 } else { _ = digits() }
        if index < bytes.count, bytes[index] == ASCII.period {
            index += 1
            if index < bytes.count, bytes[index] == ASCII.asterisk { index += 1 } else { _ = digits() }
        }
        let sized = index > widthStart
        var length = ""
        for candidate in lengths where bytes[index...].starts(with: candidate) {
            length = String(decoding: candidate, as: UTF8.self)
            index += candidate.count
            break
        }
        guard index < bytes.count, conversions.contains(bytes[index]) else { return nil }
        // A percent sign and a word, as prose writes them ("100% sure", "50% done", "20% off",
        // "12% to"): printf would read `% s` or `% to` (space flag, a length, a conversion), but a
        // conversion letter that goes on into a word, or a number's percent sign followed by a
        // word, is text. It is a stray percent (`String(format:)` would misread it). With a width
        // or precision (`% .3fkm`) it is a placeholder.
        if spaceFlag, !sized {
            let next = index + 1 < bytes.count ? bytes[index + 1] : ASCII.space
            let afterNumber = start > 0 && ASCII.isDigit(bytes[start - 1])
            if ASCII.isLetter(next) || next >= ASCII.firstNonASCII || afterNumber { return nil }
        }
        let conversion = Character(Unicode.Scalar(bytes[index]))
        let text = String(decoding: bytes[start...index], as: UTF8.self)
        return (Placeholder(text: text, offset: start, position: position, length: length, conversion: conversion, variable: nil), index + 1)
    }
}
