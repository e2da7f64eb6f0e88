import AlmanacCore

/// The order Xcode writes a string catalog's keys in: Foundation's sorted JSON keys, which
/// compare as `NSString.compare` with `[.numeric, .caseInsensitive, .forcedOrdering]` — case
/// ignored (`zh-Hans` before `zh-HK`), digit runs by value (`item2` before `item10`), and only
/// strings equal that way ordered by their exact characters.
enum XcodeKeyOrder {
    static func precedes(_ a: String, _ b: String) -> Bool {
        switch compare(a, b, foldingCase: true) {
        case .less: return true
        case .greater: return false
        case .equal: return compare(a, b, foldingCase: false) == .less
        }
    }

    enum Order { case less, equal, greater }

    static func compare(_ a: String, _ b: String, foldingCase: Bool) -> Order {
        let left = Array((foldingCase ? a.lowercased() : a).utf16), right = Array((foldingCase ? b.lowercased() : b).utf16)
        var i = 0, j = 0
        while i < left.count && j < right.count {
            if isDigit(left[i]) && isDigit(right[j]) {
                // Digit runs compare by value: skip leading zeros, then the longer run is larger.
                var endI = i, endJ = j
                while endI < left.count && isDigit(left[endI]) { endI += 1 }
                while endJ < right.count && isDigit(right[endJ]) { endJ += 1 }
                var startI = i, startJ = j
                while startI < endI - 1 && left[startI] == UInt16(ASCII.zero) { startI += 1 }
                while startJ < endJ - 1 && right[startJ] == UInt16(ASCII.zero) { startJ += 1 }
                if endI - startI != endJ - startJ { return endI - startI < endJ - startJ ? .less : .greater }
                for (x, y) in zip(left[startI..<endI], right[startJ..<endJ]) where x != y { return x < y ? .less : .greater }
                i = endI
                j = endJ
                continue
            }
            if left[i] != right[j] { return left[i] < right[j] ? .less : .greater }
            i += 1
            j += 1
        }
        if i < left.count { return .greater }
        if j < right.count { return .less }
        return .equal
    }

    static func isDigit(_ unit: UInt16) -> Bool { unit < UInt16(ASCII.firstNonASCII) && ASCII.isDigit(UInt8(unit)) }
}
