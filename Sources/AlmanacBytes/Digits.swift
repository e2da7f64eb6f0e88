/// Reading and writing decimal digits and ISO 8601 dates as bytes: a batch reads and writes a
/// few dozen dates a file, and joining padded strings cost more than the rest of a small file.
@usableFromInline package enum Digits {
    /// The value of `view[start..<end]` when every byte is a digit; nil otherwise (or when empty).
    @inlinable @inline(__always)
    package static func value(_ view: ByteView, _ start: Int, _ end: Int) -> Int? {
        guard start < end else { return nil }
        var value = 0
        var index = start
        while index < end {
            let digit = view[index] &- ASCII.zero
            guard digit < 10 else { return nil }
            value = value &* 10 &+ Int(digit)
            index &+= 1
        }
        return value
    }

    /// How many of `view`'s bytes are digits, counted up to `limit + 1` (enough to say "more than `limit`").
    @inlinable
    package static func count(in view: ByteView, upTo limit: Int) -> Int {
        var digits = 0
        var index = 0
        while index < view.count, digits <= limit {
            if view[index] &- ASCII.zero < 10 { digits &+= 1 }
            index &+= 1
        }
        return digits
    }

    /// The year, month and day of `YYYY-MM-DD` or `YYYYMMDD` (the numbers only: whether they
    /// make a date is the caller's question); nil for any other bytes.
    package static func isoDate(_ view: ByteView) -> (year: Int, month: Int, day: Int)? {
        let parts: (Int?, Int?, Int?)
        switch view.count {
        case 10 where view[4] == ASCII.hyphen && view[7] == ASCII.hyphen:
            parts = (value(view, 0, 4), value(view, 5, 7), value(view, 8, 10))
        case 8:
            parts = (value(view, 0, 4), value(view, 4, 6), value(view, 6, 8))
        default:
            return nil
        }
        guard let year = parts.0, let month = parts.1, let day = parts.2 else { return nil }
        return (year, month, day)
    }

    /// `YYYY-MM-DD`, and `THH:MM:SS` after it with a time; years before 0 or after 9999 get a
    /// sign or more digits.
    package static func isoText(_ year: Int, _ month: Int, _ day: Int, time: (hour: Int, minute: Int, second: Int)? = nil) -> String {
        guard fitsISOLayout(year, month, day, time: time) else {
            let date = (year < 0 ? "-" : "") + padded(abs(year), 4) + "-" + padded(month, 2) + "-" + padded(day, 2)
            guard let time else { return date }
            return date + "T" + padded(time.hour, 2) + ":" + padded(time.minute, 2) + ":" + padded(time.second, 2)
        }
        // A date's ten bytes fit in a String stored inline (no allocation).
        return String(unsafeUninitializedCapacity: time == nil ? isoDateLength : isoDateTimeLength) { text in
            writeISO(year, month, day, time: time, to: text.baseAddress!)
        }
    }

    /// The lengths of `YYYY-MM-DD` and `YYYY-MM-DDTHH:MM:SS`.
    static let isoDateLength = 10
    static let isoDateTimeLength = 19

    /// Whether `writeISO` can write these: a year of four digits (0…9999), the rest of two.
    static func fitsISOLayout(_ year: Int, _ month: Int, _ day: Int, time: (hour: Int, minute: Int, second: Int)?) -> Bool {
        func fits(_ value: Int, _ limit: Int) -> Bool { value >= 0 && value < limit }
        return fits(year, 10_000) && fits(month, 100) && fits(day, 100)
            && (time.map { fits($0.hour, 100) && fits($0.minute, 100) && fits($0.second, 100) } ?? true)
    }

    /// Writes `YYYY-MM-DD` (and `THH:MM:SS` with a time) at `out`, which has room for
    /// `isoDateTimeLength` bytes; returns how many. The values fit (`fitsISOLayout`).
    static func writeISO(_ year: Int, _ month: Int, _ day: Int, time: (hour: Int, minute: Int, second: Int)?,
                         to out: UnsafeMutablePointer<UInt8>) -> Int {
        write(year, width: 4, to: out)
        out[4] = ASCII.hyphen
        write(month, width: 2, to: out + 5)
        out[7] = ASCII.hyphen
        write(day, width: 2, to: out + 8)
        guard let time else { return isoDateLength }
        out[10] = UInt8(ascii: "T")
        write(time.hour, width: 2, to: out + 11)
        out[13] = ASCII.colon
        write(time.minute, width: 2, to: out + 14)
        out[16] = ASCII.colon
        write(time.second, width: 2, to: out + 17)
        return isoDateTimeLength
    }

    /// `value` with leading zeros to `width` digits.
    package static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// Appends `value` with leading zeros to `width` digits (0 ≤ value < 10^width).
    package static func append(_ value: Int, width: Int, to output: inout [UInt8]) {
        let start = output.count
        output += repeatElement(ASCII.zero, count: width)
        var value = value
        var index = start + width - 1
        while index >= start, value > 0 {
            output[index] = ASCII.digit(value % 10)
            value /= 10
            index -= 1
        }
    }

    /// Writes `value` with leading zeros to `width` digits at `out` (0 ≤ value < 10^width).
    static func write(_ value: Int, width: Int, to out: UnsafeMutablePointer<UInt8>) {
        var value = value
        var index = width - 1
        while index >= 0 {
            out[index] = ASCII.digit(value % 10)
            value /= 10
            index -= 1
        }
    }

    /// Writes `number`'s decimal digits (with a minus sign) at `out`, which has room for 20
    /// bytes; returns how many. The digits are counted by comparison and written from the last,
    /// each a division by the constant ten (which compiles to a multiplication).
    static func write(_ number: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var at = 0
        if number < 0 {
            out[0] = ASCII.hyphen
            at = 1
        }
        var magnitude = number.magnitude
        var digits = 1
        var power: UInt = 10
        while digits < 20, magnitude >= power {
            digits += 1
            power &*= 10
        }
        let end = at + digits
        var index = end
        repeat {
            index -= 1
            out[index] = ASCII.zero &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        return end
    }

    /// The lowercase hex digit of 0–15.
    @inline(__always)
    static func lowercaseHex(_ value: Int) -> UInt8 {
        value < 10 ? ASCII.digit(value) : UInt8(ascii: "a") &+ UInt8(truncatingIfNeeded: value - 10)
    }
}
