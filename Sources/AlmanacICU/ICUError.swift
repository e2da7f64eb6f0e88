internal import CICUShim

/// An error from the ICU bridge: what was attempted, on what, and ICU's own status when there is one.
///
/// `kind` is stable and meant for programs (the CLI maps it to a translated message);
/// `description` is English for developers.
public struct ICUError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure; extensible, compare with the static members.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        public static let unknownLocale = Kind("unknown-locale")
        public static let unknownTimeZone = Kind("unknown-time-zone")
        public static let invalidPattern = Kind("invalid-pattern")
        public static let invalidNumber = Kind("invalid-number")
        public static let unparseable = Kind("unparseable")
        public static let invalidDate = Kind("invalid-date")
        public static let nonexistentTime = Kind("nonexistent-time")
        public static let ambiguousTime = Kind("ambiguous-time")
        public static let outOfRange = Kind("out-of-range")
        public static let unknownCharset = Kind("unknown-charset")
        public static let invalidBytes = Kind("invalid-bytes")
        public static let unmappableCharacter = Kind("unmappable-character")
        public static let icuFailure = Kind("icu-failure")
    }

    public var kind: Kind
    /// What the operation was working on: a locale id, a pattern, the text being parsed.
    public var subject: String
    /// Extra detail: ICU's status name, a byte offset, a position.
    public var detail: String?
    /// Where in `subject` (or the input) the problem is, when known: a UTF-16 index or byte offset.
    public var offset: Int?

    public init(_ kind: Kind, subject: String, detail: String? = nil, offset: Int? = nil) {
        self.kind = kind
        self.subject = subject
        self.detail = detail
        self.offset = offset
    }

    public var description: String {
        var text = "\(kind): \(subject)"
        if let offset { text += " (at \(offset))" }
        if let detail { text += " [\(detail)]" }
        return text
    }

    static func status(_ status: Int32, _ kind: Kind = .icuFailure, subject: String) -> ICUError {
        ICUError(kind, subject: subject, detail: String(cString: alm_icu_error_name(status)))
    }
}

/// Throws when `status` is an ICU failure (warnings, which are negative, pass).
@inline(__always)
func check(_ status: Int32, _ kind: ICUError.Kind = .icuFailure, subject: @autoclosure () -> String) throws(ICUError) {
    if alm_icu_failure(status) != 0 { throw ICUError.status(status, kind, subject: subject()) }
}

/// Versions of the ICU library and of its time zone data, for reports and bug reports.
public enum ICUInfo {
    public static var version: String { String(cString: alm_icu_version()) }
    public static var timeZoneDataVersion: String {
        var status: Int32 = 0
        guard let text = alm_icu_tzdata_version(&status) else { return "unknown" }
        return String(cString: text)
    }
}
