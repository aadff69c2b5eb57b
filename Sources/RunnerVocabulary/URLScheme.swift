/// The two schemes the runner speaks.
public enum URLScheme: String, Sendable, Equatable {
    case http
    case https

    public var defaultPort: Int { self == .http ? 80 : 443 }

    /// The scheme `url` starts with (`https://` or `http://`, letters in any case, as URLs
    /// compare them), or nil for anything else. The one reading of a URL's scheme for the
    /// transport, the curl lines and the reports: asked for every transfer and every line, so
    /// the prefix is compared a word at a time, without a string made for it.
    public init?(ofURL url: String) {
        let scheme: URLScheme?? = url.utf8.withContiguousStorageIfAvailable { Self.scheme(ofUTF8: $0) }
        if let scheme {
            guard let scheme else { return nil }
            self = scheme
        } else {
            guard let scheme = Array(url.utf8.prefix(8)).withUnsafeBufferPointer(Self.scheme(ofUTF8:)) else { return nil }
            self = scheme
        }
    }

    /// "https://" and "http://" as little-endian words, and what makes a letter lower case.
    private static let httpsWord: UInt64 = 0x2F2F_3A73_7074_7468
    private static let httpWord: UInt64 = 0x002F_2F3A_7074_7468
    private static let httpsLetters: UInt64 = 0x0000_0020_2020_2020
    private static let httpLetters: UInt64 = 0x0000_0000_2020_2020
    private static let sevenBytes: UInt64 = 0x00FF_FFFF_FFFF_FFFF

    private static func scheme(ofUTF8 utf8: UnsafeBufferPointer<UInt8>) -> URLScheme? {
        // The first eight bytes (fewer, zero-padded, for a shorter text), the first byte lowest.
        var word: UInt64 = 0
        if utf8.count >= 8 {
            word = UInt64(littleEndian: UnsafeRawBufferPointer(utf8).loadUnaligned(as: UInt64.self))
        } else {
            for (index, byte) in utf8.enumerated() { word |= UInt64(byte) &<< UInt64(index * 8) }
        }
        // Only the letters are folded: a byte that differs from one of them in its 0x20 bit
        // alone is the other case of that letter; ':' and '/' are compared as they are.
        if word | httpsLetters == httpsWord { return .https }
        if (word | httpLetters) & sevenBytes == httpWord { return .http }
        return nil
    }
}
