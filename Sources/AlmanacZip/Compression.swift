/// The two directions of raw DEFLATE (RFC 1951, as zip entries hold it), each in pieces: bytes go
/// in as they come and what the library makes of them comes out, so an entry of any size is
/// handled in the memory of one piece.
///
/// Two libraries do the work behind one shape (`Deflater`, `Inflater`, `CRC32`): zlib by default
/// (`DeflateZlib.swift`: on every machine that builds Swift), and Intel's ISA-L with the package's
/// `ISAL` trait (`DeflateISAL.swift`: writing a workbook 1.2 to 1.3 times as fast, reading about
/// as fast; figures in Benchmarks/README.md, "Zip compression"). What either writes, the other
/// reads: both are plain DEFLATE.
let pieceSize = 64 * 1024

extension ZipWriter {
    /// How hard the writer works to make entries small.
    public enum Compression: Hashable, Sendable, CaseIterable {
        /// As fast as the library goes (the default): a workbook's XML in about a fifth of its size.
        case fast
        /// As small as the library makes it: a few percent smaller, several times slower.
        case small
    }
}

/// The library compressing and inflating in this build, as messages name it.
public enum DeflateLibrary {
    #if ISAL
    public static let name = "ISA-L"
    #else
    public static let name = "zlib"
    #endif
}
