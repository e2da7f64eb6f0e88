/// What went wrong reading or writing a zip container.
public enum ZipError: Error, Hashable, Sendable {
    /// The DEFLATE library (`DeflateLibrary.name`) refused to compress: its status code.
    case compression(Int32)
    /// Writing the bytes out failed (the message says why).
    case output(String)
    /// Not a zip, or a damaged one (what is wrong).
    case malformed(String)
    /// An entry would inflate past the reader's limits (a zip bomb, or more than Almanac reads):
    /// the entry's name and the limit it passed.
    case limit(entry: String, limit: String)
    /// An entry is encrypted (a password-protected workbook).
    case encrypted(String)
    /// An entry's compression method is one Almanac does not read (its number).
    case unsupportedMethod(entry: String, method: Int)
    /// An entry's bytes do not match its CRC-32.
    case checksum(String)
}
