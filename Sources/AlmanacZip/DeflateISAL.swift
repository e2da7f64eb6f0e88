#if ISAL
import CISAL

// Raw DEFLATE and CRC-32 through ISA-L's igzip (the package's ISAL trait): the DEFLATE step alone
// about three times as fast as zlib's fastest level on a workbook's XML (and a little smaller),
// inflating about twice as fast; a whole workbook 1.2 to 1.3 times as fast to write. The shape every library here has is in Compression.swift.

/// One of ISA-L's C structs on the heap, all zero (its init functions fill in the rest): they are
/// tens of kilobytes, too large to build as a Swift value first.
private func zeroedOnHeap<Value>(_ type: Value.Type) -> UnsafeMutablePointer<Value> {
    let raw = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<Value>.size, alignment: MemoryLayout<Value>.alignment)
    raw.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<Value>.size)
    return raw.bindMemory(to: Value.self, capacity: 1)
}

final class Deflater {
    /// The stream (82 KB of state, so on the heap) lives at one address for its whole life.
    private let stream: UnsafeMutablePointer<isal_zstream>
    /// The level's working memory, which ISA-L takes from its caller.
    private let levelBuffer: UnsafeMutableRawBufferPointer
    private let level: UInt32
    private var buffer = [UInt8](repeating: 0, count: pieceSize)

    /// ISA-L's levels go from 0 (fastest, largest) to 3 (smallest); fast is level 1, the level
    /// workbooks were written at when ISA-L was the only library (chosen in the XLSX issue's notes).
    init(_ compression: ZipWriter.Compression) throws(ZipError) {
        level = compression == .small ? 3 : 1
        stream = zeroedOnHeap(isal_zstream.self)
        levelBuffer = .allocate(byteCount: Int(almanac_isal_level_buffer_size(level)), alignment: 16)
        start()
    }

    deinit {
        levelBuffer.deallocate()
        stream.deallocate()
    }

    /// A new stream: raw DEFLATE (no gzip or zlib wrapper), the level and its buffer.
    private func start() {
        isal_deflate_init(stream)
        stream.pointee.gzip_flag = UInt16(IGZIP_DEFLATE)
        stream.pointee.level = level
        stream.pointee.level_buf = levelBuffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
        stream.pointee.level_buf_size = UInt32(levelBuffer.count)
        stream.pointee.flush = UInt16(NO_FLUSH)
    }

    /// Compresses `bytes`; with `finish`, ends the stream (it is then started again for another entry).
    func compress(_ bytes: [UInt8], finish: Bool, output: ([UInt8]) throws(ZipError) -> Void) throws(ZipError) {
        var failure: ZipError?
        bytes.withUnsafeBufferPointer { source in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.pointee.avail_in = UInt32(source.count)
            stream.pointee.end_of_stream = finish ? 1 : 0
            buffer.withUnsafeMutableBufferPointer { out in
                while true {
                    stream.pointee.next_out = out.baseAddress
                    stream.pointee.avail_out = UInt32(out.count)
                    let status = isal_deflate(stream)
                    guard status == COMP_OK else { failure = .compression(status); return }
                    if let error = handOut(out, free: Int(stream.pointee.avail_out), to: output) { failure = error; return }
                    if finish {
                        if stream.pointee.internal_state.state == ZSTATE_END { return }
                    } else if stream.pointee.avail_in == 0, stream.pointee.avail_out > 0 {
                        // All input taken and room left over: nothing more until more comes.
                        return
                    }
                }
            }
            stream.pointee.next_in = nil
        }
        if let failure { throw failure }
        if finish { start() }
    }
}

/// Inflating through ISA-L, for the zip reader (with its size and ratio limits).
final class Inflater: InflateStream {
    /// The state (87 KB, so on the heap) lives at one address for its whole life.
    private let state: UnsafeMutablePointer<inflate_state>
    private var buffer = [UInt8](repeating: 0, count: pieceSize)

    init() {
        state = zeroedOnHeap(inflate_state.self)
    }

    deinit { state.deallocate() }

    /// A new stream: raw DEFLATE, no gzip or zlib wrapper.
    func begin(entry: String) {
        isal_inflate_init(state)
        state.pointee.crc_flag = UInt32(ISAL_DEFLATE)
    }

    /// Runs ISA-L over `input` until it has taken all of it and has nothing more to give, handing
    /// out what comes out; returns whether the stream ended.
    func run(_ input: [UInt8], entry: String, output: ([UInt8]) throws(ZipError) -> Void) throws(ZipError) -> Bool {
        var failure: ZipError?
        var ended = false
        input.withUnsafeBufferPointer { source in
            state.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            state.pointee.avail_in = UInt32(source.count)
            buffer.withUnsafeMutableBufferPointer { out in
                while true {
                    state.pointee.next_out = out.baseAddress
                    state.pointee.avail_out = UInt32(out.count)
                    let status = isal_inflate(state)
                    // A negative status is data that is not DEFLATE (a damaged entry).
                    guard status >= ISAL_DECOMP_OK else { failure = .malformed("\(entry): not DEFLATE data (ISA-L status \(status))"); return }
                    if let error = handOut(out, free: Int(state.pointee.avail_out), to: output) { failure = error; return }
                    if state.pointee.block_state == ISAL_BLOCK_FINISH { ended = true; return }
                    // All input taken and room left over: nothing more until more comes.
                    if state.pointee.avail_in == 0, state.pointee.avail_out > 0 { return }
                }
            }
            state.pointee.next_in = nil
        }
        if let failure { throw failure }
        return ended
    }
}

/// CRC-32 as zip entries carry it (ISA-L's reflected IEEE CRC, gzip's and zip's, vectorised where the CPU allows).
enum CRC32 {
    static func update(_ crc: UInt32, _ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { crc32_gzip_refl(crc, $0.baseAddress, UInt64($0.count)) }
    }
}
#endif
