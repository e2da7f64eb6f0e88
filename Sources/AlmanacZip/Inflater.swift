import CZlib

/// Raw DEFLATE decompression through zlib, in pieces, stopping as soon as the output passes a
/// limit: a small entry that claims to inflate to gigabytes is refused after the limit's worth.
final class Inflater {
    /// zlib's stream keeps a pointer to itself: it lives at one address for its whole life.
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    private static let rawWindowBits: Int32 = -15

    init() throws(ZipError) {
        stream.initialize(to: z_stream())
        let status = inflateInit2_(stream, Self.rawWindowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deallocate()
            throw ZipError.compression(status)
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    /// Inflates one whole entry whose compressed bytes `next` hands over piece by piece (nil at
    /// the end), handing out the inflated pieces; returns the bytes produced. Throws `.limit` once
    /// more than `limit` bytes come out, `.malformed` when the data ends early.
    func inflate(limit: Int, entry: String, next: () throws(ZipError) -> [UInt8]?,
                 output: ([UInt8]) throws(ZipError) -> Void) throws(ZipError) -> Int {
        inflateReset(stream)
        var produced = 0
        var finished = false
        while !finished {
            guard let input = try next() else { throw .malformed(entry) }
            var failure: ZipError?
            input.withUnsafeBufferPointer { all in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: all.baseAddress)
                stream.pointee.avail_in = UInt32(all.count)
                buffer.withUnsafeMutableBufferPointer { out in
                    while true {
                        stream.pointee.next_out = out.baseAddress
                        stream.pointee.avail_out = UInt32(out.count)
                        let status = CZlib.inflate(stream, Z_NO_FLUSH)
                        let count = out.count - Int(stream.pointee.avail_out)
                        produced += count
                        if produced > limit { failure = .limit(entry: entry, limit: String(limit)); return }
                        if count > 0 {
                            do throws(ZipError) { try output(Array(out[0..<count])) } catch { failure = error; return }
                        }
                        if status == Z_STREAM_END { finished = true; return }
                        if status == Z_BUF_ERROR || (status == Z_OK && stream.pointee.avail_in == 0 && count < out.count) { return }
                        guard status == Z_OK else { failure = .compression(status); return }
                    }
                }
            }
            stream.pointee.next_in = nil
            if let failure { throw failure }
        }
        return produced
    }
}
