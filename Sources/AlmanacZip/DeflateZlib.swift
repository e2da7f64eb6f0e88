#if !ISAL
import CZlib

// Raw DEFLATE and CRC-32 through zlib, the default (the ISAL trait puts ISA-L in its place). The
// shape every library here has is in Compression.swift.

/// A zlib stream on the heap: zlib keeps the stream's address in its state and refuses a stream
/// that moved, so it lives at one address from its init to its end.
private func newStream() -> UnsafeMutablePointer<z_stream> {
    let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    stream.initialize(to: z_stream())  // no allocator of our own: zlib's malloc and free
    return stream
}

/// DEFLATE through zlib: one stream, reset for each entry.
final class Deflater {
    private let stream: UnsafeMutablePointer<z_stream>
    private var buffer = [UInt8](repeating: 0, count: pieceSize)

    /// zlib's level 1 is its fastest (a workbook's XML in about a fifth of its size); 9 its smallest.
    init(_ compression: ZipWriter.Compression) throws(ZipError) {
        stream = newStream()
        let status = almanac_zlib_deflate_init(stream, compression == .small ? Z_BEST_COMPRESSION : Z_BEST_SPEED)
        guard status == Z_OK else {
            stream.deallocate()
            throw .compression(status)
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    /// Compresses `bytes`; with `finish`, ends the stream (it is then reset for another entry).
    func compress(_ bytes: [UInt8], finish: Bool, output: ([UInt8]) throws(ZipError) -> Void) throws(ZipError) {
        var failure: ZipError?
        bytes.withUnsafeBufferPointer { source in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.pointee.avail_in = uInt(source.count)
            buffer.withUnsafeMutableBufferPointer { out in
                while true {
                    stream.pointee.next_out = out.baseAddress
                    stream.pointee.avail_out = uInt(out.count)
                    let status = deflate(stream, finish ? Z_FINISH : Z_NO_FLUSH)
                    // Z_BUF_ERROR only says no progress was possible (no input, nothing to flush).
                    guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else { failure = .compression(status); return }
                    if let error = handOut(out, free: Int(stream.pointee.avail_out), to: output) { failure = error; return }
                    if finish {
                        if status == Z_STREAM_END { return }
                    } else if stream.pointee.avail_out > 0 {
                        // Room left over: all input taken, nothing more until more comes.
                        return
                    }
                }
            }
            stream.pointee.next_in = nil
        }
        if let failure { throw failure }
        if finish { deflateReset(stream) }
    }
}

/// Inflating through zlib, for the zip reader (with its size and ratio limits).
final class Inflater: InflateStream {
    private let stream: UnsafeMutablePointer<z_stream>
    private var started = false
    private var buffer = [UInt8](repeating: 0, count: pieceSize)

    init() {
        stream = newStream()
    }

    deinit {
        if started { inflateEnd(stream) }
        stream.deallocate()
    }

    /// A new stream (the first one made, the others reset).
    func begin(entry: String) throws(ZipError) {
        let status = started ? inflateReset(stream) : almanac_zlib_inflate_init(stream)
        guard status == Z_OK else { throw .malformed("\(entry): zlib could not start inflating (status \(status))") }
        started = true
    }

    /// Runs zlib over `input` until it has taken all of it and has nothing more to give, handing
    /// out what comes out; returns whether the stream ended.
    func run(_ input: [UInt8], entry: String, output: ([UInt8]) throws(ZipError) -> Void) throws(ZipError) -> Bool {
        var failure: ZipError?
        var ended = false
        input.withUnsafeBufferPointer { source in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.pointee.avail_in = uInt(source.count)
            buffer.withUnsafeMutableBufferPointer { out in
                while true {
                    stream.pointee.next_out = out.baseAddress
                    stream.pointee.avail_out = uInt(out.count)
                    let status = CZlib.inflate(stream, Z_NO_FLUSH)
                    // Z_DATA_ERROR and the like: data that is not DEFLATE (a damaged entry).
                    guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                        let reason = stream.pointee.msg.map { String(cString: $0) } ?? "status \(status)"
                        failure = .malformed("\(entry): not DEFLATE data (zlib: \(reason))")
                        return
                    }
                    if let error = handOut(out, free: Int(stream.pointee.avail_out), to: output) { failure = error; return }
                    if status == Z_STREAM_END { ended = true; return }
                    // All input taken and room left over: nothing more until more comes.
                    if stream.pointee.avail_in == 0, stream.pointee.avail_out > 0 { return }
                    // No progress with input left cannot happen with room to write; guard anyway.
                    if status == Z_BUF_ERROR { failure = .malformed(entry); return }
                }
            }
            stream.pointee.next_in = nil
        }
        if let failure { throw failure }
        return ended
    }
}

/// CRC-32 as zip entries carry it (zlib's: the reflected IEEE CRC of gzip and zip).
enum CRC32 {
    static func update(_ crc: UInt32, _ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(truncatingIfNeeded: crc32_z(uLong(crc), $0.baseAddress, z_size_t($0.count))) }
    }
}
#endif
