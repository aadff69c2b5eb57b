/// OpenSSL's certificate-verification error codes (X509_V_ERR_*) that diagnoses tell apart, as
/// plain Swift `Int`s (`VerificationFailure.code`), so nothing outside `Curl/` needs OpenSSL's
/// headers. Literals, pinned to the header by `CurlConstantsTests`.
package enum X509VerifyCode {
    /// X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT
    package static let unableToGetIssuerCert = 2
    /// X509_V_ERR_CERT_NOT_YET_VALID
    package static let certNotYetValid = 9
    /// X509_V_ERR_CERT_HAS_EXPIRED
    package static let certHasExpired = 10
    /// X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT
    package static let depthZeroSelfSignedCert = 18
    /// X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN
    package static let selfSignedCertInChain = 19
    /// X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY
    package static let unableToGetIssuerCertLocally = 20
    /// X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE
    package static let unableToVerifyLeafSignature = 21
    /// X509_V_ERR_CERT_UNTRUSTED
    package static let certUntrusted = 27
    /// X509_V_ERR_HOSTNAME_MISMATCH
    package static let hostnameMismatch = 62
}
