/*
 * CCryptoShim: the OpenSSL primitives the HTTPDNS auth schemes use (MD5, DES-EDE3-ECB,
 * AES-128-CBC, random bytes), for RunnerHTTPDNS's one facade file (OpenSSLCrypto.swift).
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
} ccrypto_status;

typedef enum {
    /* DES-EDE3-ECB with PKCS#5 padding: a 24-byte key, no IV. */
    CCRYPTO_DES_EDE3_ECB = 1,
    /* AES-128-CBC with PKCS#7 padding: a 16-byte key and a 16-byte IV. */
    CCRYPTO_AES_128_CBC = 2,
} ccrypto_cipher;

/* Writes the 16-byte MD5 digest of `length` bytes to `out`. */
ccrypto_status ccrypto_md5(const uint8_t *bytes, size_t length, uint8_t out[16]);

/* The OpenSSL library loaded at run time, e.g. "OpenSSL 3.0.17 1 Jul 2025". */
const char *ccrypto_openssl_version(void);

/* Writes the 32-byte SHA-256 digest of `length` bytes to `out`. */
ccrypto_status ccrypto_sha256(const uint8_t *bytes, size_t length, uint8_t out[32]);

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

#ifdef __cplusplus
}
#endif

#endif
