extension String {
    /// The strings one after the other, made in one allocation: `+` and interpolation grow the
    /// result piece by piece (an allocation and a copy each), and URLs, `Host` values and
    /// connect-to lines are made for every scenario and every hop.
    public init(concatenating parts: String...) {
        var length = 0
        for part in parts { length += part.utf8.count }
        self.init(unsafeUninitializedCapacity: length) { buffer in
            var written = 0
            for var part in parts {
                // Native strings are contiguous UTF-8: `withUTF8` copies nothing.
                written = part.withUTF8 { UnsafeMutableBufferPointer(rebasing: buffer[written...]).initialize(fromContentsOf: $0) + written }
            }
            return written
        }
    }
}
