import Foundation

/// A pin's base64 text, checked the one way every format needs: it decodes (Foundation's
/// decoder) to the digest's length.
enum PinValue {
    /// Why a pin's text is not a digest of `length` bytes.
    enum Problem: Error, Equatable {
        case notBase64
        case wrongLength(Int)
    }

    static func check(_ text: String, length: Int) -> Result<String, Problem> {
        guard let decoded = Data(base64Encoded: text) else { return .failure(.notBase64) }
        guard decoded.count == length else { return .failure(.wrongLength(decoded.count)) }
        return .success(text)
    }
}
