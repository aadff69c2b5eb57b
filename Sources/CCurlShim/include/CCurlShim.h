/*
 * CCurlShim: what Swift cannot call directly.
 *
 * - Typed wrappers for libcurl's variadic curl_easy_setopt / curl_easy_getinfo /
 *   curl_multi_setopt / curl_share_setopt (one per argument type, so the C compiler
 *   passes each value the way libcurl's va_arg expects it).
 * - The OpenSSL pieces of trust override and evidence: an SSL_CTX hook that makes
 *   OpenSSL check a chosen certificate name during the handshake and records the first
 *   verification failure; peer-certificate extraction from a live session; SHA-256.
 *
 * OpenSSL is called only by shim.c: the functions below take and return opaque and plain-C
 * types, so Swift never handles an OpenSSL object. The one OpenSSL header included here,
 * <openssl/x509_vfy.h>, is for its X509_V_ERR_* numbers, which CurlConstantsTests compares
 * with the Swift constants (X509VerifyCode) the rest of the code uses.
 */
#ifndef CCURLSHIM_H
#define CCURLSHIM_H

#include <curl/curl.h>
#include <openssl/x509_vfy.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* MARK: curl_easy_setopt, one wrapper per argument type */

CURLcode ccurl_easy_setopt_long(CURL *easy, CURLoption option, long value);
CURLcode ccurl_easy_setopt_off_t(CURL *easy, CURLoption option, curl_off_t value);
/* libcurl copies strings (except CURLOPT_POSTFIELDS, which the shim never passes here). */
CURLcode ccurl_easy_setopt_string(CURL *easy, CURLoption option, const char *value);
/* Data pointers: CURLOPT_WRITEDATA, CURLOPT_PRIVATE, CURLOPT_ERRORBUFFER, slists, shares. */
CURLcode ccurl_easy_setopt_pointer(CURL *easy, CURLoption option, void *value);
/* CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION. */
CURLcode ccurl_easy_setopt_write_function(CURL *easy, CURLoption option, curl_write_callback callback);
CURLcode ccurl_easy_setopt_read_function(CURL *easy, CURLoption option, curl_read_callback callback);
CURLcode ccurl_easy_setopt_seek_function(CURL *easy, CURLoption option, curl_seek_callback callback);
/* CURLOPT_POSTFIELDSIZE_LARGE then CURLOPT_COPYPOSTFIELDS: libcurl copies `length` bytes
 * (binary safe; `bytes` may be NULL when `length` is 0). */
CURLcode ccurl_easy_set_post_bytes(CURL *easy, const void *bytes, curl_off_t length);

/* MARK: curl_easy_getinfo, one wrapper per result type */

CURLcode ccurl_easy_getinfo_long(CURL *easy, CURLINFO info, long *value);
CURLcode ccurl_easy_getinfo_off_t(CURL *easy, CURLINFO info, curl_off_t *value);
/* The string belongs to the handle and is only valid until the next transfer. */
CURLcode ccurl_easy_getinfo_string(CURL *easy, CURLINFO info, const char **value);
CURLcode ccurl_easy_getinfo_pointer(CURL *easy, CURLINFO info, void **value);

/* MARK: multi and share options */

CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
/* CURLSHOPT_SHARE / CURLSHOPT_UNSHARE take a curl_lock_data (an int). */
CURLSHcode ccurl_share_setopt_lock_data(CURLSH *share, CURLSHoption option, curl_lock_data data);

/* MARK: certificates */

/* A certificate's facts, as plain C. Strings are heap copies owned by the struct: release
 * with ccurl_cert_info_release. */
typedef struct ccurl_cert_info {
    /* RFC 2253 one-line form (UTF-8 kept as is), e.g. "CN=api.lab.test,O=runner lab". */
    char *subject;
    char *issuer;
    int64_t not_before; /* seconds since 1970, valid when has_not_before */
    int64_t not_after;  /* seconds since 1970, valid when has_not_after */
    int has_not_before;
    int has_not_after;
    /* subjectAltName DNS names and IP addresses, each NUL-terminated, back to back. */
    char *alt_names;
    size_t alt_names_length; /* bytes in alt_names, terminators included */
    size_t alt_names_count;
    /* The serial number in lower-case hex without leading zeros (as blackbox_exporter labels it). */
    char *serial_number;
    /* SHA-256 of the certificate's DER: its fingerprint, valid when has_sha256. */
    unsigned char sha256[32];
    int has_sha256;
} ccurl_cert_info;

void ccurl_cert_info_release(ccurl_cert_info *info);

/* The leaf certificate of the transfer's live TLS session (CURLINFO_TLS_SSL_PTR), also on a
 * reused connection. Call while the transfer runs (e.g. from the header callback).
 * Returns 1 and fills `out` when there is one, 0 when there is no TLS session (or no memory). */
int ccurl_easy_peer_certificate(CURL *easy, ccurl_cert_info *out);

/* The live session's leaf certificate as an opaque identity (an X509 *, not owned: valid while
 * the connection lives), NULL without one. Held with ccurl_certificate_retain, its address
 * names that certificate object until ccurl_certificate_release: a reused connection is
 * recognised by it without hashing anything. */
const void *ccurl_easy_peer_leaf(CURL *easy);
int ccurl_certificate_retain(const void *certificate);
void ccurl_certificate_release(const void *certificate);

/* SHA-1 fingerprint of the live session's leaf certificate (cheap: OpenSSL caches it), to
 * recognise a certificate already extracted. Returns 1 when `out` (20 bytes) was filled. */
int ccurl_easy_peer_fingerprint(CURL *easy, unsigned char out[20]);

/* MARK: the negotiated session (mobile trust) */

/* One certificate of a chain as a pin set sees it. Strings are heap copies owned by the
 * struct (released with the session record). */
typedef struct ccurl_chain_cert {
    char *subject;                  /* RFC 2253 one-line form */
    unsigned char spki_sha256[32];  /* SHA-256 of the DER SubjectPublicKeyInfo: the pin */
    char pin[52];                   /* the same as text: "sha256/" and its base64 (44), NUL-terminated */
    char key_type[16];              /* "RSA", "EC", "Ed25519", "Ed448", "DSA" or "unknown" */
    int key_bits;                   /* EVP_PKEY_get_bits: 2048, 256, … (0 when unknown) */
    char signature[64];             /* OpenSSL's long name, e.g. "sha256WithRSAEncryption", "ecdsa-with-SHA256" */
    char signature_digest[16];      /* the signature's hash, e.g. "SHA256", "SHA1" ("" when none: Ed25519) */
    int64_t not_after;              /* seconds since 1970, valid when has_not_after */
    int has_not_after;
} ccurl_chain_cert;

/* The live session's negotiated version and cipher and its chain: the verified chain (leaf
 * first, up to the trust anchor) when verification ran, else the chain the server presented. */
typedef struct ccurl_session_info {
    char version[16];   /* SSL_get_version: "TLSv1.3", "TLSv1.2", … */
    char cipher[64];    /* OpenSSL's name: "TLS_AES_256_GCM_SHA384", "ECDHE-RSA-AES128-GCM-SHA256" */
    int chain_verified; /* 1: the verified chain; 0: the presented one (insecure) */
    ccurl_chain_cert *chain;
    size_t chain_count;
} ccurl_session_info;

void ccurl_session_info_release(ccurl_session_info *info);

/* The live session's negotiated version and cipher as OpenSSL's static names (the same
 * pointers for the same names: callers compare them to recognise a session already seen) and
 * whether verification built the chain. Returns 1, or 0 without a TLS session. */
int ccurl_easy_session_names(CURL *easy, const char **version, const char **cipher, int *chain_verified);

/* The transfer's live TLS session (also on a reused connection): returns 1 and fills `out`,
 * 0 when there is none (plain HTTP, no handshake) or no memory. The chain only when
 * `with_chain` (it costs a SHA-256 and a name per certificate; callers cache it by leaf). */
int ccurl_easy_session_info(CURL *easy, int with_chain, ccurl_session_info *out);

/* One certificate (DER) as a chain entry, for the tests and for certificates read from files:
 * returns 1 and fills `out` (release with ccurl_chain_cert_release). */
int ccurl_chain_cert_from_der(const unsigned char *der, size_t length, ccurl_chain_cert *out);
void ccurl_chain_cert_release(ccurl_chain_cert *cert);

/* MARK: TLS hook (trust override and verification evidence) */

/* Per-transfer TLS state: the name OpenSSL must verify (trust override) and what the
 * verifier saw. Opaque; one per reusable transfer slot. */
typedef struct ccurl_tls_context ccurl_tls_context;

ccurl_tls_context *ccurl_tls_context_create(void);
void ccurl_tls_context_destroy(ccurl_tls_context *context);

/* Starts a new transfer: forgets what the previous one saw and sets the verification name
 * (NULL: none, curl's own checks apply). Returns 0 when out of memory. */
int ccurl_tls_context_prepare(ccurl_tls_context *context, const char *verify_name);

/* The client's TLS limits for this and later transfers, until set again: a cipher list
 * (TLS 1.2 and below), TLS 1.3 suites and groups, each in OpenSSL's list syntax or NULL for
 * OpenSSL's default. The hook applies them to each new connection. Copies the texts; returns 0
 * when out of memory. */
int ccurl_tls_context_set_limits(
    ccurl_tls_context *context, const char *cipher_list, const char *tls13_ciphers, const char *groups);

/* Installs the SSL_CTX hook on `easy` (CURLOPT_SSL_CTX_FUNCTION + CURLOPT_SSL_CTX_DATA).
 * For every new connection the hook
 *   - sets the client's limits (ccurl_tls_context_set_limits), failing with CURLE_SSL_CIPHER
 *     when OpenSSL refuses one;
 *   - sets the verification name (if any) on the SSL_CTX's X509_VERIFY_PARAM with
 *     X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS (an IP literal is matched as an IP), so OpenSSL
 *     fails the handshake with X509_V_ERR_HOSTNAME_MISMATCH before any request byte;
 *   - installs a verify callback that keeps curl's verify mode and OpenSSL's verdict and
 *     records the leaf certificate and, when peer verification is on, the first failure. */
CURLcode ccurl_easy_install_tls_hook(CURL *easy, ccurl_tls_context *context);

/* The first verification failure of the current transfer's handshake: returns 1 and sets
 * `code` (X509_V_ERR_*) and `reason` (OpenSSL's text, static storage) when there was one. */
int ccurl_tls_context_failure(const ccurl_tls_context *context, long *code, const char **reason);

/* The version and cipher the current transfer's handshake negotiated, as the verifier saw them
 * (only when this transfer made a new TLS connection): returns 1 and points at OpenSSL's
 * static names. */
int ccurl_tls_context_negotiated(const ccurl_tls_context *context, const char **version, const char **cipher);

/* The leaf certificate presented in the current transfer's handshake (only when this
 * transfer made a new TLS connection). Returns 1 and fills `out` when there is one. */
int ccurl_tls_context_leaf(const ccurl_tls_context *context, ccurl_cert_info *out);

/* MARK: SHA-256 */

typedef struct ccurl_sha256 ccurl_sha256;

ccurl_sha256 *ccurl_sha256_create(void);
void ccurl_sha256_destroy(ccurl_sha256 *digest);
/* Each returns 1 on success, 0 on an OpenSSL error. */
int ccurl_sha256_reset(ccurl_sha256 *digest);
int ccurl_sha256_update(ccurl_sha256 *digest, const void *bytes, size_t length);
/* Writes the 32-byte digest to `out`; call ccurl_sha256_reset before reusing. */
int ccurl_sha256_finish(ccurl_sha256 *digest, unsigned char out[32]);

#ifdef __cplusplus
}
#endif

#endif /* CCURLSHIM_H */
