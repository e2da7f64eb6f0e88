import CZlib

/// Raw DEFLATE (RFC 1951, as zip entries hold it) through zlib, in pieces: bytes go in as they
/// come and compressed bytes come out to `output`, so an entry of any size is compressed in the
/// memory of one piece.
final class Deflater {
    /// zlib's stream keeps a pointer to itself: it lives at one address for its whole life.
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private var buffer = [UInt8](repeating: 0, count: Deflater.pieceSize)
    static let pieceSize = 64 * 1024
    /// zlib's `windowBits` for raw DEFLATE (no zlib header or trailer), the largest window.
    private static let rawWindowBits: Int32 = -15
    private static let memoryLevel: Int32 = 8

    init(level: Int32) throws(ZipError) {
        stream.initialize(to: z_stream())
        let status = deflateInit2_(stream, level, Z_DEFLATED, Self.rawWindowBits, Self.memoryLevel, Z_DEFAULT_STRATEGY,
                                   ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deallocate()
            throw ZipError.compression(status)
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    /// Compresses `bytes`; with `finish`, ends the stream (the deflater is then reset for another entry).
    func compress(_ bytes: [UInt8], finish: Bool, output: (ArraySlice<UInt8>) throws(ZipError) -> Void) throws(ZipError) {
        var failure: ZipError?
        bytes.withUnsafeBufferPointer { input in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.pointee.avail_in = UInt32(input.count)
            buffer.withUnsafeMutableBufferPointer { out in
                while true {
                    stream.pointee.next_out = out.baseAddress
                    stream.pointee.avail_out = UInt32(out.count)
                    let status = deflate(stream, finish ? Z_FINISH : Z_NO_FLUSH)
                    guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                        failure = .compression(status)
                        return
                    }
                    let produced = out.count - Int(stream.pointee.avail_out)
                    if produced > 0 {
                        do throws(ZipError) { try output(ArraySlice(out[0..<produced])) } catch { failure = error; return }
                    }
                    if finish ? status == Z_STREAM_END : (stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0) { break }
                }
            }
            stream.pointee.next_in = nil
        }
        if let failure { throw failure }
        if finish { deflateReset(stream) }
    }
}

/// CRC-32 as zip entries carry it (zlib's, table-driven and vectorised where the CPU allows).
enum CRC32 {
    static func update(_ crc: UInt32, _ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(crc32(uLong(crc), $0.baseAddress, uInt($0.count))) }
    }
}
