import RunnerResults

/// What a report wrote for a part of the evidence that repeats across results — a connection's
/// certificate and TLS session, the same values on thousands of results — kept to be written
/// again. The part is compared with the one rendered last (its strings and lists share storage
/// with it, so the comparison is mostly by identity), which costs a fraction of rendering it
/// anew. A rendering is reused only in the same layout and while the run's redactor knows the
/// same secrets (a secret captured since could be in it). One per report, which renders on one
/// thread at a time.
final class RepeatedParts {
    private struct Written {
        let type: ObjectIdentifier
        let layout: Int
        let secrets: Int
        let part: Any
        let bytes: [UInt8]
    }

    /// The last rendering of each type of part.
    private var written: [Written] = []

    /// Appends to `bytes` what was written for a part equal to `part`, in `layout`, while the
    /// redactor held `secrets` forms; false (nothing appended) when there is none.
    func writeAgain<Part: Equatable>(_ part: Part, layout: Int, secrets: Int, to bytes: inout ByteBuffer) -> Bool {
        let type = ObjectIdentifier(Part.self)
        for entry in written where entry.type == type {
            guard entry.layout == layout, entry.secrets == secrets, let earlier = entry.part as? Part, earlier == part
            else { return false }
            bytes.append(entry.bytes)
            return true
        }
        return false
    }

    /// Keeps what was written for `part` (the bytes of `buffer` from `start`), replacing the
    /// rendering kept for its type.
    func keep<Part: Equatable>(_ part: Part, layout: Int, secrets: Int, from start: Int, of buffer: borrowing ByteBuffer) {
        let type = ObjectIdentifier(Part.self)
        let bytes = buffer.withUnsafeBytes { Array($0[start...]) }
        let entry = Written(type: type, layout: layout, secrets: secrets, part: part, bytes: bytes)
        if let index = written.firstIndex(where: { $0.type == type }) { written[index] = entry } else { written.append(entry) }
    }
}
