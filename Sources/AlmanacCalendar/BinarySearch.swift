extension RandomAccessCollection {
    /// The first index whose element satisfies `belongs`, in a collection where every element
    /// that does follows every element that does not (a binary search); `endIndex` if none does.
    func partitioningIndex(where belongs: (Element) -> Bool) -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if belongs(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
