#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials

extension TimeZoneID {
    /// The zone of the machine Almanac runs on, the way POSIX programs find it: the `TZ`
    /// environment variable (`Asia/Taipei`, `:Asia/Taipei`, or a path into a zoneinfo folder),
    /// else the zone `/etc/localtime` links to (or names, in `/etc/timezone`), else UTC.
    /// What a floating time means when the reader gave no `--time-zone`.
    public static var system: TimeZoneID { system(environment: getenv("TZ").map { String(cString: $0) }) }

    /// The same, with `TZ` given (for tests).
    public static func system(environment tz: String?, localtime: String = "/etc/localtime",
                              timezoneFile: String = "/etc/timezone") -> TimeZoneID {
        if let tz, !tz.isEmpty {
            var name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
            name = afterZoneinfo(name) ?? name
            if let zone = try? TimeZoneID(name) { return zone }
        }
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink(localtime, &buffer, buffer.count - 1)
        if length > 0 {
            let target = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let name = afterZoneinfo(target), let zone = try? TimeZoneID(name) { return zone }
        }
        if let file = fopen(timezoneFile, "r") {
            defer { fclose(file) }
            var line = [CChar](repeating: 0, count: 256)
            if fgets(&line, Int32(line.count), file) != nil {
                let name = String(String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    .filter { !$0.isWhitespace })
                if let zone = try? TimeZoneID(name) { return zone }
            }
        }
        return .utc
    }

    /// `Asia/Taipei` from `/usr/share/zoneinfo/Asia/Taipei`.
    private static func afterZoneinfo(_ path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard let index = parts.lastIndex(of: "zoneinfo"), index + 1 < parts.count else { return nil }
        return parts[(index + 1)...].joined(separator: "/")
    }
}
