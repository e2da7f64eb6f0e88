import AlmanacCore
public import AlmanacICU

/// UTC-OFFSET values (§3.3.14): `+0800`, `-0500`, `+053000`.
public enum UTCOffset {
    public static func parse(_ text: String) throws(ICUError) -> Int {
        let bytes = Array(text.utf8)
        guard bytes.count == 5 || bytes.count == 7, bytes[0] == ASCII.plus || bytes[0] == ASCII.hyphen,
              bytes.dropFirst().allSatisfy(ASCII.isDigit)
        else { throw ICUError(.invalidDate, subject: text) }
        let digits = bytes.dropFirst().map { Int($0 - ASCII.zero) }
        let hours = digits[0] * 10 + digits[1]
        let minutes = digits[2] * 10 + digits[3]
        let seconds = bytes.count == 7 ? digits[4] * 10 + digits[5] : 0
        guard hours < 24, minutes < 60, seconds < 60 else { throw ICUError(.invalidDate, subject: text) }
        return (bytes[0] == ASCII.hyphen ? -1 : 1) * (hours * 3600 + minutes * 60 + seconds)
    }

    public static func format(_ seconds: Int) -> String {
        let magnitude = abs(seconds)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var text = (seconds < 0 ? "-" : "+") + two(magnitude / 3600) + two(magnitude % 3600 / 60)
        if magnitude % 60 != 0 { text += two(magnitude % 60) }
        return text
    }
}
