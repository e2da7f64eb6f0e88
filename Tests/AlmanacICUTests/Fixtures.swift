import Foundation

/// Reads a file from the `Fixtures` folder beside these tests.
func fixture(_ name: String, filePath: String = #filePath) throws -> [UInt8] {
    let url = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
    return Array(try Data(contentsOf: url))
}
