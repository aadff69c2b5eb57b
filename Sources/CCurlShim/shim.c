/*
 * CCurlShim implementation. See include/CCurlShim.h for the contract.
 * The only file of the project that calls OpenSSL (the header includes x509_vfy.h for its error numbers only).
 */
#include "CCurlShim.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <openssl/asn1.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

/* MARK: variadic wrappers */

CURLcode ccurl_easy_setopt_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}

CURLcode ccurl_easy_setopt_off_t(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}

CURLcode ccurl_easy_setopt_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}

CURLcode ccurl_easy_setopt_pointer(CURL *easy, CURLoption option, void *value) {
    return curl_easy_setopt(easy, option, value);
}

CURLcode ccurl_easy_setopt_write_function(CURL *easy, CURLoption option, curl_write_callback callback) {
    return curl_easy_setopt(easy, option, callback);
}

CURLcode ccurl_easy_setopt_read_function(CURL *easy, CURLoption option, curl_read_callback callback) {
    return curl_easy_setopt(easy, option, callback);
}

CURLcode ccurl_easy_setopt_seek_function(CURL *easy, CURLoption option, curl_seek_callback callback) {
    return curl_easy_setopt(easy, option, callback);
}

CURLcode ccurl_easy_set_post_bytes(CURL *easy, const void *bytes, curl_off_t length) {
    /* COPYPOSTFIELDS copies POSTFIELDSIZE(_LARGE) bytes when a size was set first, so embedded
     * NULs survive; an empty body still needs a valid pointer. */
    static const char empty[1] = {0};
    CURLcode code = curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, length);
    if (code != CURLE_OK) return code;
    return curl_easy_setopt(easy, CURLOPT_COPYPOSTFIELDS, (length > 0 && bytes) ? (const char *)bytes : empty);
}

CURLcode ccurl_easy_getinfo_long(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}

CURLcode ccurl_easy_getinfo_off_t(CURL *easy, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(easy, info, value);
}

CURLcode ccurl_easy_getinfo_string(CURL *easy, CURLINFO info, const char **value) {
    char *result = NULL;
    CURLcode code = curl_easy_getinfo(easy, info, &result);
    *value = result;
    return code;
}

CURLcode ccurl_easy_getinfo_pointer(CURL *easy, CURLINFO info, void **value) {
    return curl_easy_getinfo(easy, info, value);
}

CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

CURLSHcode ccurl_share_setopt_lock_data(CURLSH *share, CURLSHoption option, curl_lock_data data) {
    return curl_share_setopt(share, option, data);
}

/* MARK: certificate facts */

/* Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm):
 * avoids timegm(), which is not in every libc's default feature set. */
static int64_t days_from_civil(int64_t year, unsigned month, unsigned day) {
    year -= month <= 2;
    const int64_t era = (year >= 0 ? year : year - 399) / 400;
    const unsigned yoe = (unsigned)(year - era * 400);
    const unsigned doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

static int asn1_time_to_unix(const ASN1_TIME *time, int64_t *out) {
    struct tm tm;
    if (!time || !ASN1_TIME_to_tm(time, &tm)) return 0;
    int64_t days = days_from_civil((int64_t)tm.tm_year + 1900, (unsigned)tm.tm_mon + 1, (unsigned)tm.tm_mday);
    *out = days * 86400 + tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec;
    return 1;
}

static char *copy_bytes(const char *bytes, size_t length) {
    char *copy = malloc(length + 1);
    if (!copy) return NULL;
    if (length) memcpy(copy, bytes, length);
    copy[length] = 0;
    return copy;
}

/* RFC 2253 one-line form, but UTF-8 kept readable instead of \XX-escaped. */
static char *name_to_string(const X509_NAME *name) {
    BIO *bio = BIO_new(BIO_s_mem());
    if (!bio) return NULL;
    char *result = NULL;
    if (X509_NAME_print_ex(bio, name, 0, XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB) >= 0) {
        char *data = NULL;
        long length = BIO_get_mem_data(bio, &data);
        result = copy_bytes(length > 0 ? data : "", length > 0 ? (size_t)length : 0);
    }
    BIO_free(bio);
    return result;
}

typedef struct name_buffer {
    char *bytes;
    size_t length;
    size_t capacity;
    size_t count;
} name_buffer;

static int name_buffer_append(name_buffer *buffer, const char *name, size_t length) {
    if (memchr(name, 0, length)) return 1; /* an embedded NUL is a forgery attempt: skip it */
    size_t needed = buffer->length + length + 1;
    if (needed > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity * 2 : 128;
        while (capacity < needed) capacity *= 2;
        char *grown = realloc(buffer->bytes, capacity);
        if (!grown) return 0;
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->length, name, length);
    buffer->bytes[buffer->length + length] = 0;
    buffer->length = needed;
    buffer->count += 1;
    return 1;
}

static int collect_alt_names(X509 *cert, name_buffer *buffer) {
    GENERAL_NAMES *names = X509_get_ext_d2i(cert, NID_subject_alt_name, NULL, NULL);
    if (!names) return 1;
    int ok = 1;
    for (int i = 0; ok && i < sk_GENERAL_NAME_num(names); i++) {
        const GENERAL_NAME *name = sk_GENERAL_NAME_value(names, i);
        if (name->type == GEN_DNS) {
            const ASN1_STRING *dns = name->d.dNSName;
            ok = name_buffer_append(buffer, (const char *)ASN1_STRING_get0_data(dns), (size_t)ASN1_STRING_length(dns));
        } else if (name->type == GEN_IPADD) {
            const ASN1_OCTET_STRING *ip = name->d.iPAddress;
            char text[INET6_ADDRSTRLEN];
            int length = ASN1_STRING_length(ip);
            int family = length == 4 ? AF_INET : length == 16 ? AF_INET6 : 0;
            if (family && inet_ntop(family, ASN1_STRING_get0_data(ip), text, sizeof text))
                ok = name_buffer_append(buffer, text, strlen(text));
        }
    }
    GENERAL_NAMES_free(names);
    return ok;
}

void ccurl_cert_info_release(ccurl_cert_info *info) {
    if (!info) return;
    free(info->subject);
    free(info->issuer);
    free(info->alt_names);
    free(info->serial_number);
    memset(info, 0, sizeof *info);
}

/* The serial number as lower-case hex without leading zeros ("0" for zero), heap-allocated. */
static char *serial_to_hex(X509 *cert) {
    BIGNUM *number = ASN1_INTEGER_to_BN(X509_get0_serialNumber(cert), NULL);
    if (!number) return NULL;
    char *upper = BN_bn2hex(number);
    BN_free(number);
    if (!upper) return NULL;
    const char *digits = upper[0] == '-' ? upper + 1 : upper;
    while (digits[0] == '0' && digits[1]) digits++;
    char *hex = strdup(digits);
    OPENSSL_free(upper);
    for (char *c = hex; c && *c; c++) *c = (char)tolower((unsigned char)*c);
    return hex;
}

static int cert_info_from_x509(X509 *cert, ccurl_cert_info *out) {
    memset(out, 0, sizeof *out);
    out->subject = name_to_string(X509_get_subject_name(cert));
    out->issuer = name_to_string(X509_get_issuer_name(cert));
    out->has_not_before = asn1_time_to_unix(X509_get0_notBefore(cert), &out->not_before);
    out->has_not_after = asn1_time_to_unix(X509_get0_notAfter(cert), &out->not_after);
    name_buffer names = {0};
    int ok = collect_alt_names(cert, &names);
    out->alt_names = names.bytes;
    out->alt_names_length = names.length;
    out->alt_names_count = names.count;
    out->serial_number = serial_to_hex(cert);
    unsigned int digest_length = 0;
    out->has_sha256 = X509_digest(cert, EVP_sha256(), out->sha256, &digest_length) && digest_length == 32;
    if (!ok || !out->subject || !out->issuer || !out->serial_number) {
        ccurl_cert_info_release(out);
        return 0;
    }
    return 1;
}

static SSL *live_session(CURL *easy) {
    struct curl_tlssessioninfo *info = NULL;
    if (curl_easy_getinfo(easy, CURLINFO_TLS_SSL_PTR, &info) != CURLE_OK || !info) return NULL;
    if (info->backend != CURLSSLBACKEND_OPENSSL || !info->internals) return NULL;
    return (SSL *)info->internals;
}

int ccurl_easy_peer_certificate(CURL *easy, ccurl_cert_info *out) {
    SSL *ssl = live_session(easy);
    X509 *cert = ssl ? SSL_get0_peer_certificate(ssl) : NULL;
    if (!cert) return 0;
    return cert_info_from_x509(cert, out);
}

const void *ccurl_easy_peer_leaf(CURL *easy) {
    SSL *ssl = live_session(easy);
    return ssl ? SSL_get0_peer_certificate(ssl) : NULL;
}

int ccurl_certificate_retain(const void *certificate) {
    return certificate && X509_up_ref((X509 *)certificate);
}

void ccurl_certificate_release(const void *certificate) {
    X509_free((X509 *)certificate);
}

int ccurl_easy_peer_fingerprint(CURL *easy, unsigned char out[20]) {
    SSL *ssl = live_session(easy);
    X509 *cert = ssl ? SSL_get0_peer_certificate(ssl) : NULL;
    unsigned int length = 0;
    if (!cert || !X509_digest(cert, EVP_sha1(), out, &length)) return 0;
    return length == 20;
}

/* MARK: the negotiated session */

void ccurl_chain_cert_release(ccurl_chain_cert *cert) {
    if (!cert) return;
    free(cert->subject);
    memset(cert, 0, sizeof *cert);
}

void ccurl_session_info_release(ccurl_session_info *info) {
    if (!info) return;
    for (size_t i = 0; i < info->chain_count; i++) ccurl_chain_cert_release(&info->chain[i]);
    free(info->chain);
    memset(info, 0, sizeof *info);
}

static void copy_text(char *out, size_t capacity, const char *text) {
    if (!text) text = "";
    size_t length = strlen(text);
    if (length >= capacity) length = capacity - 1;
    memcpy(out, text, length);
    out[length] = 0;
}

static const char *key_type_name(const EVP_PKEY *key) {
    switch (EVP_PKEY_get_base_id(key)) {
    case EVP_PKEY_RSA: case EVP_PKEY_RSA_PSS: return "RSA";
    case EVP_PKEY_EC: return "EC";
    case EVP_PKEY_ED25519: return "Ed25519";
    case EVP_PKEY_ED448: return "Ed448";
    case EVP_PKEY_DSA: return "DSA";
    default: return "unknown";
    }
}

static int chain_cert_from_x509(X509 *cert, ccurl_chain_cert *out) {
    memset(out, 0, sizeof *out);
    out->subject = name_to_string(X509_get_subject_name(cert));
    if (!out->subject) return 0;
    /* The pin: SHA-256 over the DER SubjectPublicKeyInfo, as OkHttp and TrustKit compute it. */
    unsigned char *spki = NULL;
    int spki_length = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(cert), &spki);
    unsigned int digest_length = 0;
    int ok = spki_length > 0 && EVP_Digest(spki, (size_t)spki_length, out->spki_sha256, &digest_length, EVP_sha256(), NULL)
        && digest_length == 32;
    OPENSSL_free(spki);
    if (!ok) {
        ccurl_chain_cert_release(out);
        return 0;
    }
    /* As every report writes it: base64 of the 32 bytes is 44 characters, then EVP_EncodeBlock's NUL. */
    memcpy(out->pin, "sha256/", 7);
    EVP_EncodeBlock((unsigned char *)out->pin + 7, out->spki_sha256, 32);
    EVP_PKEY *key = X509_get0_pubkey(cert);
    copy_text(out->key_type, sizeof out->key_type, key ? key_type_name(key) : "unknown");
    out->key_bits = key ? EVP_PKEY_get_bits(key) : 0;
    int signature_nid = X509_get_signature_nid(cert);
    copy_text(out->signature, sizeof out->signature, signature_nid != NID_undef ? OBJ_nid2ln(signature_nid) : "unknown");
    int digest_nid = NID_undef;
    if (X509_get_signature_info(cert, &digest_nid, NULL, NULL, NULL) && digest_nid != NID_undef) {
        copy_text(out->signature_digest, sizeof out->signature_digest, OBJ_nid2sn(digest_nid));
    }
    out->has_not_after = asn1_time_to_unix(X509_get0_notAfter(cert), &out->not_after);
    return 1;
}

int ccurl_chain_cert_from_der(const unsigned char *der, size_t length, ccurl_chain_cert *out) {
    const unsigned char *cursor = der;
    X509 *cert = d2i_X509(NULL, &cursor, (long)length);
    if (!cert) return 0;
    int ok = chain_cert_from_x509(cert, out);
    X509_free(cert);
    return ok;
}

int ccurl_easy_session_names(CURL *easy, const char **version, const char **cipher, int *chain_verified) {
    SSL *ssl = live_session(easy);
    if (!ssl) return 0;
    const SSL_CIPHER *current = SSL_get_current_cipher(ssl);
    STACK_OF(X509) *chain = SSL_get0_verified_chain(ssl);
    *version = SSL_get_version(ssl);
    *cipher = current ? SSL_CIPHER_get_name(current) : "";
    *chain_verified = chain && sk_X509_num(chain) > 0;
    return 1;
}

int ccurl_easy_session_info(CURL *easy, int with_chain, ccurl_session_info *out) {
    memset(out, 0, sizeof *out);
    SSL *ssl = live_session(easy);
    if (!ssl) return 0;
    copy_text(out->version, sizeof out->version, SSL_get_version(ssl));
    const SSL_CIPHER *cipher = SSL_get_current_cipher(ssl);
    copy_text(out->cipher, sizeof out->cipher, cipher ? SSL_CIPHER_get_name(cipher) : "");
    STACK_OF(X509) *chain = SSL_get0_verified_chain(ssl);
    out->chain_verified = chain && sk_X509_num(chain) > 0;
    if (!with_chain) return 1;
    if (!out->chain_verified) chain = SSL_get_peer_cert_chain(ssl);
    int count = chain ? sk_X509_num(chain) : 0;
    if (count > 0) {
        out->chain = calloc((size_t)count, sizeof *out->chain);
        if (!out->chain) return 0;
        for (int i = 0; i < count; i++) {
            if (!chain_cert_from_x509(sk_X509_value(chain, i), &out->chain[out->chain_count])) {
                ccurl_session_info_release(out);
                return 0;
            }
            out->chain_count += 1;
        }
    }
    return 1;
}

/* MARK: TLS hook */

struct ccurl_tls_context {
    char *verify_name;
    /* The client's limits (OpenSSL's list syntax; NULL: OpenSSL's default), applied by the hook
     * to each new connection's SSL_CTX. They last across transfers like curl's own options. */
    char *cipher_list;
    char *tls13_ciphers;
    char *groups;
    /* The SSL_CTX of the connection this transfer set up, NULL until the hook ran. A
     * connection outlives its transfer (it goes back to the pool), so the verify callback
     * records only while the context is still armed for that very SSL_CTX. */
    const SSL_CTX *armed;
    X509 *leaf;
    /* What the handshake negotiated, as the verifier saw it (static OpenSSL strings). */
    const char *version;
    const char *cipher;
    long failure_code;
    int has_failure;
    /* Peer verification is on for the armed connection (off = `insecure`: nothing is
     * verified, so nothing is recorded as a verification failure). */
    int verifying;
};

static int tls_context_index = -1;
static pthread_once_t tls_context_index_once = PTHREAD_ONCE_INIT;

static void make_tls_context_index(void) {
    tls_context_index = SSL_CTX_get_ex_new_index(0, NULL, NULL, NULL, NULL);
}

ccurl_tls_context *ccurl_tls_context_create(void) {
    pthread_once(&tls_context_index_once, make_tls_context_index);
    if (tls_context_index < 0) return NULL;
    return calloc(1, sizeof(ccurl_tls_context));
}

static void tls_context_clear(ccurl_tls_context *context) {
    free(context->verify_name);
    context->verify_name = NULL;
    X509_free(context->leaf);
    context->leaf = NULL;
    context->armed = NULL;
    context->version = NULL;
    context->cipher = NULL;
    context->verifying = 0;
    context->failure_code = 0;
    context->has_failure = 0;
}

/* Keeps `*held` equal to `text` (NULL for none), copying only when it changes. */
static int hold_text(char **held, const char *text) {
    if (*held && text && strcmp(*held, text) == 0) return 1;
    free(*held);
    *held = NULL;
    if (!text) return 1;
    *held = strdup(text);
    return *held != NULL;
}

void ccurl_tls_context_destroy(ccurl_tls_context *context) {
    if (!context) return;
    tls_context_clear(context);
    hold_text(&context->cipher_list, NULL);
    hold_text(&context->tls13_ciphers, NULL);
    hold_text(&context->groups, NULL);
    free(context);
}

int ccurl_tls_context_set_limits(
    ccurl_tls_context *context, const char *cipher_list, const char *tls13_ciphers, const char *groups) {
    return hold_text(&context->cipher_list, cipher_list) && hold_text(&context->tls13_ciphers, tls13_ciphers)
        && hold_text(&context->groups, groups);
}

int ccurl_tls_context_prepare(ccurl_tls_context *context, const char *verify_name) {
    tls_context_clear(context);
    if (verify_name) {
        context->verify_name = strdup(verify_name);
        if (!context->verify_name) return 0;
    }
    return 1;
}

static int verify_callback(int preverify_ok, X509_STORE_CTX *store) {
    SSL *ssl = X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx());
    SSL_CTX *ssl_ctx = ssl ? SSL_get_SSL_CTX(ssl) : NULL;
    ccurl_tls_context *context = ssl_ctx ? SSL_CTX_get_ex_data(ssl_ctx, tls_context_index) : NULL;
    if (context && context->armed == ssl_ctx) {
        X509 *leaf = X509_STORE_CTX_get0_cert(store);
        if (leaf && leaf != context->leaf && X509_up_ref(leaf)) {
            X509_free(context->leaf);
            context->leaf = leaf;
        }
        /* The server's hello came before its certificate: version and cipher are chosen. */
        context->version = SSL_get_version(ssl);
        /* Mid-handshake the chosen suite is still the pending one. */
        const SSL_CIPHER *cipher = SSL_get_pending_cipher(ssl);
        if (!cipher) cipher = SSL_get_current_cipher(ssl);
        if (cipher) context->cipher = SSL_CIPHER_get_name(cipher);
        if (!preverify_ok && context->verifying && !context->has_failure) {
            context->has_failure = 1;
            context->failure_code = X509_STORE_CTX_get_error(store);
        }
    }
    /* OpenSSL's verdict stands: this callback only watches. */
    return preverify_ok;
}

static int is_ip_literal(const char *name) {
    unsigned char address[16];
    return inet_pton(AF_INET, name, address) == 1 || inet_pton(AF_INET6, name, address) == 1;
}

static CURLcode ssl_ctx_callback(CURL *easy, void *ssl_ctx_pointer, void *user) {
    (void)easy;
    SSL_CTX *ssl_ctx = ssl_ctx_pointer;
    ccurl_tls_context *context = user;
    if (!ssl_ctx || !context) return CURLE_SSL_CONNECT_ERROR;
    if (!SSL_CTX_set_ex_data(ssl_ctx, tls_context_index, context)) return CURLE_OUT_OF_MEMORY;
    /* The limits, set here rather than through CURLOPT_SSL_CIPHER_LIST and its kin: libcurl
     * compares those texts, case-insensitively, against every cached connection's on each
     * reuse check, and a profile's list is some 300 bytes. A pool key's connections and
     * sessions live in a share of their own (ShareHandle), so libcurl never has to tell
     * connections with different limits apart. */
    if (context->cipher_list && !SSL_CTX_set_cipher_list(ssl_ctx, context->cipher_list)) return CURLE_SSL_CIPHER;
    if (context->tls13_ciphers && !SSL_CTX_set_ciphersuites(ssl_ctx, context->tls13_ciphers)) return CURLE_SSL_CIPHER;
    if (context->groups && !SSL_CTX_set1_groups_list(ssl_ctx, context->groups)) return CURLE_SSL_CIPHER;
    if (context->verify_name) {
        /* Fail closed: if the name cannot be set, the connection must not go ahead
         * (an empty name would clear the check instead of setting it). */
        if (!context->verify_name[0]) return CURLE_SSL_CONNECT_ERROR;
        X509_VERIFY_PARAM *param = SSL_CTX_get0_param(ssl_ctx);
        if (!param) return CURLE_SSL_CONNECT_ERROR;
        X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
        int ok = is_ip_literal(context->verify_name)
            ? X509_VERIFY_PARAM_set1_ip_asc(param, context->verify_name)
            : X509_VERIFY_PARAM_set1_host(param, context->verify_name, 0);
        if (!ok) return CURLE_SSL_CONNECT_ERROR;
    }
    /* curl already chose the mode (peer verification on or off): keep it, add the watcher. */
    int mode = SSL_CTX_get_verify_mode(ssl_ctx);
    SSL_CTX_set_verify(ssl_ctx, mode, verify_callback);
    context->verifying = (mode & SSL_VERIFY_PEER) != 0;
    context->armed = ssl_ctx;
    X509_free(context->leaf);
    context->leaf = NULL;
    return CURLE_OK;
}

CURLcode ccurl_easy_install_tls_hook(CURL *easy, ccurl_tls_context *context) {
    CURLcode code = curl_easy_setopt(easy, CURLOPT_SSL_CTX_FUNCTION, ssl_ctx_callback);
    if (code != CURLE_OK) return code;
    return curl_easy_setopt(easy, CURLOPT_SSL_CTX_DATA, (void *)context);
}

int ccurl_tls_context_failure(const ccurl_tls_context *context, long *code, const char **reason) {
    if (!context->has_failure) return 0;
    *code = context->failure_code;
    *reason = X509_verify_cert_error_string(context->failure_code);
    return 1;
}

int ccurl_tls_context_negotiated(const ccurl_tls_context *context, const char **version, const char **cipher) {
    if (!context->version || !context->cipher) return 0;
    *version = context->version;
    *cipher = context->cipher;
    return 1;
}

int ccurl_tls_context_leaf(const ccurl_tls_context *context, ccurl_cert_info *out) {
    if (!context->leaf) return 0;
    return cert_info_from_x509(context->leaf, out);
}

/* MARK: SHA-256 */

struct ccurl_sha256 {
    EVP_MD_CTX *context;
};

static const EVP_MD *sha256_md = NULL;
static pthread_once_t sha256_md_once = PTHREAD_ONCE_INIT;

static void fetch_sha256(void) {
    /* Fetched once: EVP_sha256() would make every init look the implementation up again. */
    EVP_MD *fetched = EVP_MD_fetch(NULL, "SHA256", NULL);
    sha256_md = fetched ? fetched : EVP_sha256();
}

ccurl_sha256 *ccurl_sha256_create(void) {
    pthread_once(&sha256_md_once, fetch_sha256);
    ccurl_sha256 *digest = calloc(1, sizeof *digest);
    if (!digest) return NULL;
    digest->context = EVP_MD_CTX_new();
    if (!digest->context || !EVP_DigestInit_ex(digest->context, sha256_md, NULL)) {
        ccurl_sha256_destroy(digest);
        return NULL;
    }
    return digest;
}

void ccurl_sha256_destroy(ccurl_sha256 *digest) {
    if (!digest) return;
    EVP_MD_CTX_free(digest->context);
    free(digest);
}

int ccurl_sha256_reset(ccurl_sha256 *digest) {
    return EVP_DigestInit_ex(digest->context, sha256_md, NULL);
}

int ccurl_sha256_update(ccurl_sha256 *digest, const void *bytes, size_t length) {
    if (length == 0) return 1;
    return EVP_DigestUpdate(digest->context, bytes, length);
}

int ccurl_sha256_finish(ccurl_sha256 *digest, unsigned char out[32]) {
    unsigned int length = 0;
    return EVP_DigestFinal_ex(digest->context, out, &length) && length == 32;
}
