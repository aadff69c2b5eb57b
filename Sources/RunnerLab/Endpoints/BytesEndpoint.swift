import NIOCore

/// `/bytes/{n}`: n deterministic bytes (byte i is i mod 256), so a client can check what it got.
struct BytesEndpoint: ImmediateEndpoint {
    /// Bodies are built in memory; larger ones belong to a streaming endpoint.
    static let maximumCount = 64 << 20

    func response(to request: LabRequest) -> LabResponse {
        guard let count = Int(request.routeParameter), (0...Self.maximumCount).contains(count) else {
            return .badRequest("/bytes/{n} wants 0-\(Self.maximumCount) bytes, got \"\(request.routeParameter)\"")
        }
        return LabResponse(contentType: "application/octet-stream", body: Self.pattern(count: count))
    }

    static func pattern(count: Int) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(count)
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { raw in
            for index in 0..<count { raw[index] = UInt8(truncatingIfNeeded: index) }
            return count
        }
        return buffer
    }
}
