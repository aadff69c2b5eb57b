import RunnerResults

/// What a report wrote for a part of the evidence that repeats across results — a connection's
/// certificate and TLS session, the same values on thousands of results — kept to be written
/// again. The part is compared with the one rendered last (its strings and lists share storage
/// with it, so the comparison is mostly by identity), which costs a fraction of rendering it
/// anew. A rendering is reused only in the same layout and while the run's redactor knows the
/// same secrets (a secret captured since could be in it). One per report, which renders on one
/// thread at a time.
final class RepeatedParts {
    /// One rendering, of a part of type `Part`.
    private final class Kept<Part: Equatable> {
        let part: Part
        let layout: Int
        let secrets: Int
        let bytes: [UInt8]

        init(part: Part, layout: Int, secrets: Int, bytes: [UInt8]) {
            self.part = part
            self.layout = layout
            self.secrets = secrets
            self.bytes = bytes
        }
    }

    /// The last rendering of each type of part, by type (a `Kept<Part>` each).
    private var types: [ObjectIdentifier] = []
    private var kept: [AnyObject] = []

    /// Appends to `bytes` what was written for a part equal to `part`, in `layout`, while the
    /// redactor held `secrets` forms; false (nothing appended) when there is none.
    func writeAgain<Part: Equatable>(_ part: Part, layout: Int, secrets: Int, to bytes: inout ByteBuffer) -> Bool {
        guard let index = types.firstIndex(of: ObjectIdentifier(Part.self)) else { return false }
        // Kept under this type's identifier: a `Kept<Part>`, no dynamic cast needed.
        let earlier = unsafeDowncast(kept[index], to: Kept<Part>.self)
        guard earlier.layout == layout, earlier.secrets == secrets, earlier.part == part else { return false }
        bytes.append(earlier.bytes)
        return true
    }

    /// Keeps what was written for `part` (the bytes of `buffer` from `start`), replacing the
    /// rendering kept for its type.
    func keep<Part: Equatable>(_ part: Part, layout: Int, secrets: Int, from start: Int, of buffer: borrowing ByteBuffer) {
        let bytes = buffer.withUnsafeBytes { Array($0[start...]) }
        let entry = Kept(part: part, layout: layout, secrets: secrets, bytes: bytes)
        let type = ObjectIdentifier(Part.self)
        if let index = types.firstIndex(of: type) {
            kept[index] = entry
        } else {
            types.append(type)
            kept.append(entry)
        }
    }
}
