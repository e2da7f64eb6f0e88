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

/// Hands what a library wrote into `out` (all of it but the `free` bytes at its end) to `output`;
/// the error `output` threw, if any (the loops around a library's C call cannot throw).
func handOut(_ out: UnsafeMutableBufferPointer<UInt8>, free: Int, to output: ([UInt8]) throws(ZipError) -> Void) -> ZipError? {
    let count = out.count - free
    guard count > 0 else { return nil }
    do throws(ZipError) { try output(Array(out[0..<count])) } catch { return error }
    return nil
}

/// What each library's `Inflater` does (start a stream, feed it one piece), so that inflating a whole
/// entry, with its limit, is written once.
protocol InflateStream {
    /// Starts a new raw DEFLATE stream.
    func begin(entry: String) throws(ZipError)
    /// Feeds `input` to the library until it has taken all of it and has nothing more to give,
    /// handing out what comes out; returns whether the stream ended.
    func run(_ input: [UInt8], entry: String, output: ([UInt8]) throws(ZipError) -> Void) throws(ZipError) -> Bool
}

extension InflateStream {
    /// Inflates one whole entry whose compressed bytes `next` hands over piece by piece (nil at
    /// the end), handing out the inflated pieces; returns the bytes produced. Throws `.limit` once
    /// more than `limit` bytes come out, `.malformed` when the data ends early or is not DEFLATE.
    func inflate(limit: Int, entry: String, next: () throws(ZipError) -> [UInt8]?,
                 output: ([UInt8]) throws(ZipError) -> Void) throws(ZipError) -> Int {
        try begin(entry: entry)
        var produced = 0
        while let input = try next() {
            let ended = try run(input, entry: entry) { (piece) throws(ZipError) in
                produced += piece.count
                if produced > limit { throw .limit(entry: entry, limit: String(limit)) }
                try output(piece)
            }
            if ended { return produced }
        }
        throw .malformed(entry)
    }
}
