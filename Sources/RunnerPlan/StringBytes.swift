extension String {
    /// Calls `body` with the UTF-8 bytes in place. Unlike `withUTF8` it needs no mutable copy
    /// (which costs a retain and release per call on strings that are shared, as a plan's are).
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return try copy.withUTF8(body)
    }
}
