import CZlib

/// Raw DEFLATE (RFC 1951, as zip entries hold it) through zlib, one way or the other, in pieces:
/// bytes go in as they come and what zlib makes of them comes out, so an entry of any size is
/// handled in the memory of one piece.
final class ZlibStream {
    enum Direction { case deflate(level: Int32), inflate }

    /// zlib's stream keeps a pointer to itself: it lives at one address for its whole life.
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private var buffer = [UInt8](repeating: 0, count: ZlibStream.pieceSize)
    private let deflating: Bool
    static let pieceSize = 64 * 1024
    /// zlib's `windowBits` for raw DEFLATE (no zlib header or trailer), the largest window.
    private static let rawWindowBits: Int32 = -15
    private static let memoryLevel: Int32 = 8

    init(_ direction: Direction) throws(ZipError) {
        stream.initialize(to: z_stream())
        let status: Int32
        switch direction {
        case .deflate(let level):
            deflating = true
            status = deflateInit2_(stream, level, Z_DEFLATED, Self.rawWindowBits, Self.memoryLevel, Z_DEFAULT_STRATEGY,
                                   ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        case .inflate:
            deflating = false
            status = inflateInit2_(stream, Self.rawWindowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        }
        guard status == Z_OK else {
            stream.deallocate()
            throw ZipError.compression(status)
        }
    }

    deinit {
        if deflating { deflateEnd(stream) } else { inflateEnd(stream) }
        stream.deallocate()
    }

    /// Compresses `bytes`; with `finish`, ends the stream (it is then reset for another entry).
    func compress(_ bytes: [UInt8], finish: Bool, output: ([UInt8]) throws(ZipError) -> Void) throws(ZipError) {
        _ = try run(bytes, flush: finish ? Z_FINISH : Z_NO_FLUSH, output: output)
        if finish { deflateReset(stream) }
    }

    /// Inflates one whole entry whose compressed bytes `next` hands over piece by piece (nil at
    /// the end), handing out the inflated pieces; returns the bytes produced. Throws `.limit` once
    /// more than `limit` bytes come out, `.malformed` when the data ends early.
    func inflate(limit: Int, entry: String, next: () throws(ZipError) -> [UInt8]?,
                 output: ([UInt8]) throws(ZipError) -> Void) throws(ZipError) -> Int {
        inflateReset(stream)
        var produced = 0
        while let input = try next() {
            let ended = try run(input, flush: Z_NO_FLUSH) { (piece) throws(ZipError) in
                produced += piece.count
                if produced > limit { throw .limit(entry: entry, limit: String(limit)) }
                try output(piece)
            }
            if ended { return produced }
        }
        throw .malformed(entry)
    }

    /// Runs zlib over `input` until it has taken all of it and has nothing more to give, handing
    /// out what comes out; returns whether the stream ended.
    private func run(_ input: [UInt8], flush: Int32, output: ([UInt8]) throws(ZipError) -> Void) throws(ZipError) -> Bool {
        var failure: ZipError?
        var ended = false
        input.withUnsafeBufferPointer { source in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.pointee.avail_in = UInt32(source.count)
            buffer.withUnsafeMutableBufferPointer { out in
                while true {
                    stream.pointee.next_out = out.baseAddress
                    stream.pointee.avail_out = UInt32(out.count)
                    let status = deflating ? deflate(stream, flush) : CZlib.inflate(stream, flush)
                    let count = out.count - Int(stream.pointee.avail_out)
                    if count > 0 {
                        do throws(ZipError) { try output(Array(out[0..<count])) } catch { failure = error; return }
                    }
                    if status == Z_STREAM_END { ended = true; return }
                    guard status == Z_OK || status == Z_BUF_ERROR else { failure = .compression(status); return }
                    // All input taken and room left over: zlib has nothing more until more comes.
                    if status == Z_BUF_ERROR || (stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0) { return }
                }
            }
            stream.pointee.next_in = nil
        }
        if let failure { throw failure }
        return ended
    }
}

/// CRC-32 as zip entries carry it (zlib's, table-driven and vectorised where the CPU allows).
enum CRC32 {
    static func update(_ crc: UInt32, _ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(crc32(uLong(crc), $0.baseAddress, uInt($0.count))) }
    }
}
