import RunnerHTTPDNS
import RunnerPlan
import RunnerTransport

/// The C libraries this runner runs with (loaded now, not the ones it was built against):
/// what a bug report needs besides the runner's own version.
public enum LinkedLibraries {
    /// One line each: libcurl (with the TLS and HTTP/2 libraries it uses), OpenSSL, libyaml.
    public static var lines: [String] {
        [CurlLibrary.version, OpenSSLCrypto.libraryVersion, YAMLLibrary.version]
    }
}
