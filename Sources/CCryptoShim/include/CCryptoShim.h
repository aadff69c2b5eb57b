/*
 * CCryptoShim: the OpenSSL primitives the HTTPDNS auth schemes use (MD5, HMAC-SHA256,
 * DES-EDE3-ECB, AES-128-CBC, AES-128-GCM, random bytes), for RunnerHTTPDNS's one facade file (OpenSSLCrypto.swift); and
 * the TLS names a plan may use (cipher, TLS 1.3 suite and group names), and SHA-256 for the
 * fingerprints of a GitLab Code Quality report of plan errors, for RunnerPlan's two facade files
 * (Decode/TLSNames.swift, Findings/Fingerprint.swift).
 *
 * Only plain C types cross this header, so Swift never handles an OpenSSL object. Each call
 * returns CCRYPTO_OK or a status saying what went wrong.
 *
 * Single DES lives in OpenSSL 3's legacy provider; DES-EDE3 with the 8-byte key repeated three
 * times computes the same thing with the default provider, which is what the DES kind uses.
 */
#ifndef CCRYPTOSHIM_H
#define CCRYPTOSHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CCRYPTO_OK = 0,
    /* A key, IV or output buffer of the wrong size for the cipher. */
    CCRYPTO_BAD_ARGUMENT = 1,
    /* OpenSSL does not provide the algorithm. */
    CCRYPTO_UNAVAILABLE = 2,
    /* Decryption ended on bad padding: the wrong key, or not this cipher's output. */
    CCRYPTO_BAD_PADDING = 3,
    /* Any other OpenSSL failure. */
    CCRYPTO_FAILED = 4,
    /* GCM decryption whose tag does not match: the wrong key, or altered ciphertext. */
    CCRYPTO_BAD_TAG = 5,
} ccrypto_status;

typedef enum {
    /* DES-EDE3-ECB with PKCS#5 padding: a 24-byte key, no IV. */
    CCRYPTO_DES_EDE3_ECB = 1,
    /* AES-128-CBC with PKCS#7 padding: a 16-byte key and a 16-byte IV. */
    CCRYPTO_AES_128_CBC = 2,
} ccrypto_cipher;

/* Writes the 32-byte HMAC-SHA256 of `length` bytes under `key` to `out`. */
ccrypto_status ccrypto_hmac_sha256(
    const uint8_t *key, size_t key_length, const uint8_t *bytes, size_t length, uint8_t out[32]);

/* AES-128-GCM with a 16-byte tag: encrypting writes ciphertext ‖ tag (in_length + 16 bytes);
 * decrypting reads ciphertext ‖ tag and writes the plaintext, or returns CCRYPTO_BAD_TAG. A
 * 16-byte key, an IV of 1 to 64 bytes (12 is GCM's own size). */
ccrypto_status ccrypto_aes_128_gcm(
    int encrypt, const uint8_t key[16], const uint8_t *iv, size_t iv_length, const uint8_t *in, size_t in_length,
    uint8_t *out, size_t out_capacity, size_t *out_length);

/* Writes the 16-byte MD5 digest of `length` bytes to `out`. */
ccrypto_status ccrypto_md5(const uint8_t *bytes, size_t length, uint8_t out[16]);

/* The OpenSSL library loaded at run time, e.g. "OpenSSL 3.0.17 1 Jul 2025". */
const char *ccrypto_openssl_version(void);

/* Writes the 32-byte SHA-256 digest of `length` bytes to `out`. */
ccrypto_status ccrypto_sha256(const uint8_t *bytes, size_t length, uint8_t out[32]);

/*
 * The SHA-256 of the DER SubjectPublicKeyInfo of each certificate in `pem` (every CERTIFICATE
 * block of a PEM text), 32 bytes each into `out`, which has room for `capacity` of them: how
 * many there are (more than `capacity` when some did not fit), or -1 when there is none.
 */
long ccrypto_pem_spki_sha256(const uint8_t *pem, size_t length, uint8_t *out, size_t capacity);

/* The path of the system's CA file as OpenSSL finds it by default (X509_get_default_cert_file). */
const char *ccrypto_default_ca_file(void);

/*
 * Encrypts (`encrypt` 1) or decrypts (0) `in_length` bytes into `out`, which has room for
 * `out_capacity` bytes (in_length plus one block is always enough); the length written goes to
 * `*out_length`. `iv` is NULL with length 0 for ECB.
 */
ccrypto_status ccrypto_crypt(
    ccrypto_cipher cipher, int encrypt, const uint8_t *key, size_t key_length, const uint8_t *iv, size_t iv_length,
    const uint8_t *in, size_t in_length, uint8_t *out, size_t out_capacity, size_t *out_length);

/* Fills `out` with `length` bytes from OpenSSL's CSPRNG. */
ccrypto_status ccrypto_random_bytes(uint8_t *out, size_t length);

/* The plan's `tls:` names, checked against the OpenSSL in use (libssl). Each returns 1 when
 * OpenSSL knows `name`, 0 otherwise. */
/* A TLS 1.2-and-below cipher by its exact OpenSSL name: one suite, not a list or a keyword such as "HIGH". */
int ccrypto_tls_is_cipher(const char *name);
/* A TLS 1.3 suite (SSL_CTX_set_ciphersuites), e.g. "TLS_AES_128_GCM_SHA256". */
int ccrypto_tls_is_tls13_cipher(const char *name);
/* A group (curve) name (SSL_CTX_set1_groups_list), e.g. "X25519", "P-256". */
int ccrypto_tls_is_group(const char *name);

#ifdef __cplusplus
}
#endif

#endif
