internal import CICUShim

/// The ICU convention for output: call with a buffer; if the result is longer than the buffer,
/// call again with the length ICU asked for.
func utf16Output(
    capacity: Int = 64,
    subject: @autoclosure () -> String,
    kind: ICUError.Kind = .icuFailure,
    _ fill: (UnsafeMutablePointer<UInt16>, Int32, inout Int32) -> Int32
) throws(ICUError) -> String {
    var capacity = max(capacity, 1)
    for _ in 0..<3 {
        var status: Int32 = 0
        var length: Int32 = 0
        let text = withUnsafeTemporaryAllocation(of: UInt16.self, capacity: capacity) { buffer -> String? in
            length = fill(buffer.baseAddress!, Int32(capacity), &status)
            guard alm_icu_failure(status) == 0 else { return nil }
            return String(decoding: UnsafeBufferPointer(start: buffer.baseAddress, count: Int(length)), as: UTF16.self)
        }
        if let text { return text }
        if status == alm_icu_buffer_overflow_code(), Int(length) + 1 > capacity {
            capacity = Int(length) + 1
            continue
        }
        throw ICUError.status(status, kind, subject: subject())
    }
    throw ICUError(.icuFailure, subject: subject(), detail: "output kept growing")
}

/// Same as `utf16Output`, for functions that write `char` (ASCII) output.
func charOutput(
    capacity: Int = 64,
    subject: @autoclosure () -> String,
    kind: ICUError.Kind = .icuFailure,
    _ fill: (UnsafeMutablePointer<CChar>, Int32, inout Int32) -> Int32
) throws(ICUError) -> String {
    var capacity = max(capacity, 1)
    for _ in 0..<3 {
        var status: Int32 = 0
        var length: Int32 = 0
        let text = withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity + 1) { buffer -> String? in
            length = fill(buffer.baseAddress!, Int32(capacity), &status)
            guard alm_icu_failure(status) == 0, Int(length) <= capacity else { return nil }
            let bytes = UnsafeRawBufferPointer(start: buffer.baseAddress, count: Int(length))
            return String(decoding: bytes, as: UTF8.self)
        }
        if let text { return text }
        if status == alm_icu_buffer_overflow_code() || Int(length) > capacity {
            capacity = Int(length) + 1
            continue
        }
        throw ICUError.status(status, kind, subject: subject())
    }
    throw ICUError(.icuFailure, subject: subject(), detail: "output kept growing")
}

extension String {
    /// Calls `body` with the string as UTF-16 code units and their count.
    ///
    /// The count is what every shim function is given. The buffer also ends with a NUL one past
    /// the count, so that even a C function that reads to a terminator stops inside it — a read past
    /// a Swift array's count but inside its capacity is invisible to AddressSanitizer.
    func withUTF16<R>(_ body: (UnsafePointer<UInt16>, Int32) throws(ICUError) -> R) throws(ICUError) -> R {
        var units = ContiguousArray<UInt16>()
        units.reserveCapacity(self.utf16.count + 1)
        units.append(contentsOf: self.utf16)
        let count = Int32(units.count)
        units.append(0)
        return try units.withUnsafeBufferPointer { (buffer) throws(ICUError) -> R in
            try body(buffer.baseAddress!, count)
        }
    }

    /// `withUTF16` for bodies that cannot fail.
    func withUTF16Unchecked<R>(_ body: (UnsafePointer<UInt16>, Int32) -> R) -> R {
        try! withUTF16 { (units, count) throws(ICUError) in body(units, count) }
    }
}

/// Collects an ICU string list into an array.
func collect(_ list: OpaquePointer?) -> [String] {
    guard let list else { return [] }
    defer { alm_list_close(list) }
    var result: [String] = []
    while true {
        var status: Int32 = 0
        var length: Int32 = 0
        guard let next = alm_list_next(list, &length, &status), alm_icu_failure(status) == 0 else { break }
        result.append(String(decoding: UnsafeBufferPointer(start: next, count: Int(length)), as: UTF16.self))
    }
    return result
}
