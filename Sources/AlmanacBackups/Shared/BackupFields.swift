/// The members an object of a backup may have: a handful of short names, found by comparing
/// lengths and then text (a `Set` hashes each member's name, which costs more for so few).
struct BackupFields: ExpressibleByArrayLiteral, Sendable {
    private(set) var names: [String]

    init(arrayLiteral names: String...) { self.names = names }

    init(_ names: [String]) { self.names = names }

    func contains(_ key: String) -> Bool {
        // By index: a `for` over the names copied (retained and released) each one.
        let count = key.utf8.count
        var index = 0
        while index < names.count {
            if names[index].utf8.count == count, names[index] == key { return true }
            index += 1
        }
        return false
    }

    mutating func insert(_ name: String) {
        if !contains(name) { names.append(name) }
    }

    func union(_ other: BackupFields) -> BackupFields {
        var result = self
        for name in other.names { result.insert(name) }
        return result
    }
}

