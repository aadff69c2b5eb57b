internal import CCurlShim

/// The one curl multi handle of an engine: runs every added easy handle on the calling thread.
final class MultiHandle {
    let raw: UnsafeMutableRawPointer

    init() throws(CurlError) {
        try CurlGlobal.ensureInitialized()
        guard let raw = curl_multi_init() else {
            throw CurlError.null(call: "curl_multi_init", what: "out of memory")
        }
        self.raw = raw
    }

    deinit { curl_multi_cleanup(raw) }

    func add(_ easy: EasyHandle) throws(CurlError) {
        try checkMulti(curl_multi_add_handle(raw, easy.raw), "curl_multi_add_handle")
    }

    func remove(_ easy: EasyHandle) throws(CurlError) {
        try checkMulti(curl_multi_remove_handle(raw, easy.raw), "curl_multi_remove_handle")
    }

    /// Does whatever can be done without waiting.
    func perform() throws(CurlError) {
        var running: Int32 = 0
        try checkMulti(curl_multi_perform(raw, &running), "curl_multi_perform")
    }

    /// Waits for socket activity, libcurl's next timeout (so transfer timeouts fire even when
    /// nothing happens on the sockets), `wakeUp()`, or at most `milliseconds`.
    func poll(milliseconds: Int32) throws(CurlError) {
        try checkMulti(curl_multi_poll(raw, nil, 0, milliseconds, nil), "curl_multi_poll")
    }

    /// Takes the next finished transfer: its handle and CURLcode.
    func nextFinished() -> (easy: EasyHandle, code: Int)? {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(raw, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                let easy = EasyHandle.owner(of: handle)
            else { continue }
            return (easy, Int(message.pointee.data.result.rawValue))
        }
        return nil
    }

    /// A thread-safe way to interrupt `poll` from anywhere.
    var waker: MultiWaker { MultiWaker(address: UInt(bitPattern: raw)) }
}

/// Wakes a multi handle's `poll` from another thread (curl_multi_wakeup is thread-safe).
/// Valid while its engine lives.
struct MultiWaker: Sendable {
    fileprivate let address: UInt

    func wakeUp() {
        guard let raw = UnsafeMutableRawPointer(bitPattern: address) else { return }
        _ = curl_multi_wakeup(raw)
    }
}
