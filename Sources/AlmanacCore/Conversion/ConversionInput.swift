/// What a conversion reads: a file by its path, or bytes already read (standard input).
public enum ConversionInput: Hashable, Sendable {
    case file(String)
    case standardInput([UInt8])

    /// The path, nil for standard input.
    public var path: String? {
        if case .file(let path) = self { return path }
        return nil
    }

    /// How reports name the input (`-` for standard input).
    public var name: String { path ?? "-" }
}
