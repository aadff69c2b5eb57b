internal import CCurlShim
import RunnerVocabulary

/// The easy-handle options the engine sets, by argument type, each with its libcurl name
/// (for errors) so that no libcurl constant leaves this folder.
enum EasyLongOption {
    case noSignal, followLocation, noBody, post, verifyPeer, verifyHost, sessionIDCache
    case httpVersion, timeoutMilliseconds, connectTimeoutMilliseconds, connectOnly
    case httpContentDecoding, sslVersion

    var curl: CURLoption {
        switch self {
        case .noSignal: CURLOPT_NOSIGNAL
        case .followLocation: CURLOPT_FOLLOWLOCATION
        case .noBody: CURLOPT_NOBODY
        case .post: CURLOPT_POST
        case .verifyPeer: CURLOPT_SSL_VERIFYPEER
        case .verifyHost: CURLOPT_SSL_VERIFYHOST
        case .sessionIDCache: CURLOPT_SSL_SESSIONID_CACHE
        case .httpVersion: CURLOPT_HTTP_VERSION
        case .timeoutMilliseconds: CURLOPT_TIMEOUT_MS
        case .connectTimeoutMilliseconds: CURLOPT_CONNECTTIMEOUT_MS
        case .connectOnly: CURLOPT_CONNECT_ONLY
        case .httpContentDecoding: CURLOPT_HTTP_CONTENT_DECODING
        case .sslVersion: CURLOPT_SSLVERSION
        }
    }

    var name: String {
        switch self {
        case .noSignal: "CURLOPT_NOSIGNAL"
        case .followLocation: "CURLOPT_FOLLOWLOCATION"
        case .noBody: "CURLOPT_NOBODY"
        case .post: "CURLOPT_POST"
        case .verifyPeer: "CURLOPT_SSL_VERIFYPEER"
        case .verifyHost: "CURLOPT_SSL_VERIFYHOST"
        case .sessionIDCache: "CURLOPT_SSL_SESSIONID_CACHE"
        case .httpVersion: "CURLOPT_HTTP_VERSION"
        case .timeoutMilliseconds: "CURLOPT_TIMEOUT_MS"
        case .connectTimeoutMilliseconds: "CURLOPT_CONNECTTIMEOUT_MS"
        case .connectOnly: "CURLOPT_CONNECT_ONLY"
        case .httpContentDecoding: "CURLOPT_HTTP_CONTENT_DECODING"
        case .sslVersion: "CURLOPT_SSLVERSION"
        }
    }
}

enum EasyOffsetOption {
    case postFieldSize

    var curl: CURLoption {
        switch self {
        case .postFieldSize: CURLOPT_POSTFIELDSIZE_LARGE
        }
    }

    var name: String {
        switch self {
        case .postFieldSize: "CURLOPT_POSTFIELDSIZE_LARGE"
        }
    }
}

/// String options (libcurl copies them).
enum EasyStringOption {
    case url, customRequest, caInfo, proxy

    var curl: CURLoption {
        switch self {
        case .url: CURLOPT_URL
        case .customRequest: CURLOPT_CUSTOMREQUEST
        case .caInfo: CURLOPT_CAINFO
        case .proxy: CURLOPT_PROXY
        }
    }

    var name: String {
        switch self {
        case .url: "CURLOPT_URL"
        case .customRequest: "CURLOPT_CUSTOMREQUEST"
        case .caInfo: "CURLOPT_CAINFO"
        case .proxy: "CURLOPT_PROXY"
        }
    }
}

/// Options that take a list of lines (a curl_slist the handle keeps alive).
enum EasyListOption {
    case httpHeader, connectTo

    var curl: CURLoption {
        switch self {
        case .httpHeader: CURLOPT_HTTPHEADER
        case .connectTo: CURLOPT_CONNECT_TO
        }
    }

    var name: String {
        switch self {
        case .httpHeader: "CURLOPT_HTTPHEADER"
        case .connectTo: "CURLOPT_CONNECT_TO"
        }
    }
}

/// The HTTP versions the engine asks for (CURLOPT_HTTP_VERSION values).
enum CurlHTTPVersion: Equatable, Sendable {
    case http1_1
    /// h2 when ALPN agrees, else 1.1 (https only).
    case http2OverTLS
    /// h2 without upgrade (cleartext).
    case http2PriorKnowledge

    var curlValue: Int {
        switch self {
        case .http1_1: Int(CURL_HTTP_VERSION_1_1)
        case .http2OverTLS: Int(CURL_HTTP_VERSION_2TLS)
        case .http2PriorKnowledge: Int(CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE)
        }
    }
}

enum EasyLongInfo {
    case responseCode, httpVersion, primaryPort, numConnects

    var curl: CURLINFO {
        switch self {
        case .responseCode: CURLINFO_RESPONSE_CODE
        case .httpVersion: CURLINFO_HTTP_VERSION
        case .primaryPort: CURLINFO_PRIMARY_PORT
        case .numConnects: CURLINFO_NUM_CONNECTS
        }
    }
}

enum EasyOffsetInfo {
    case nameLookupTime, connectTime, appConnectTime, startTransferTime, totalTime

    var curl: CURLINFO {
        switch self {
        case .nameLookupTime: CURLINFO_NAMELOOKUP_TIME_T
        case .connectTime: CURLINFO_CONNECT_TIME_T
        case .appConnectTime: CURLINFO_APPCONNECT_TIME_T
        case .startTransferTime: CURLINFO_STARTTRANSFER_TIME_T
        case .totalTime: CURLINFO_TOTAL_TIME_T
        }
    }
}

enum EasyStringInfo {
    case primaryIP

    var curl: CURLINFO {
        switch self {
        case .primaryIP: CURLINFO_PRIMARY_IP
        }
    }
}

/// CURLOPT_SSLVERSION: the lowest version in the low bits, the highest in the high ones.
func sslVersionValue(min: TLSVersion?, max: TLSVersion?) -> Int {
    let low: Int32 = switch min {
    case .v1_0?: Int32(CURL_SSLVERSION_TLSv1_0)
    case .v1_1?: Int32(CURL_SSLVERSION_TLSv1_1)
    case .v1_2?: Int32(CURL_SSLVERSION_TLSv1_2)
    case .v1_3?: Int32(CURL_SSLVERSION_TLSv1_3)
    case nil: Int32(CURL_SSLVERSION_DEFAULT)
    }
    let high: Int32 = switch max {
    case .v1_0?: Int32(CURL_SSLVERSION_MAX_TLSv1_0)
    case .v1_1?: Int32(CURL_SSLVERSION_MAX_TLSv1_1)
    case .v1_2?: Int32(CURL_SSLVERSION_MAX_TLSv1_2)
    case .v1_3?: Int32(CURL_SSLVERSION_MAX_TLSv1_3)
    case nil: Int32(CURL_SSLVERSION_MAX_DEFAULT)
    }
    return Int(low | high)
}

/// CURLINFO_HTTP_VERSION as the evidence writes it.
func httpVersionText(curlValue: Int) -> String? {
    switch curlValue {
    case Int(CURL_HTTP_VERSION_1_0): "1.0"
    case Int(CURL_HTTP_VERSION_1_1): "1.1"
    case Int(CURL_HTTP_VERSION_2_0): "2"
    case Int(CURL_HTTP_VERSION_3): "3"
    default: nil
    }
}
