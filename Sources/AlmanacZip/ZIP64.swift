/// ZIP64's records and fields (PKWARE APPNOTE 4.3.14, 4.3.15, 4.5.3), as the reader and the writer
/// both use them: a classic field at its maximum says the value is in one of these.
enum ZIP64 {
    static let endSignature: UInt32 = 0x0606_4B50
    static let locatorSignature: UInt32 = 0x0706_4B50
    /// The end record's fixed part, up to the central directory's offset.
    static let endSize = 56
    /// The end record's own size field counts the bytes after its signature and that field.
    static let endSizeField = UInt64(endSize - 12)
    static let locatorSize = 20
    /// The extra field's header ID.
    static let extraID: UInt16 = 0x0001
    /// 4.5: the version needed to extract an entry that uses ZIP64.
    static let version: UInt16 = 45
    /// A classic 16- or 32-bit field holding its maximum: the value is ZIP64's.
    static let marker16 = UInt16.max
    static let marker32 = UInt32.max
}
