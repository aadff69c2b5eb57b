#include "CCryptoShim.h"

#include <limits.h>
#include <openssl/crypto.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <string.h>

/* One digest by OpenSSL's name for it, whose output must be `size` bytes long. */
static ccrypto_status digest(const char *name, size_t size, const uint8_t *bytes, size_t length, uint8_t *out) {
    EVP_MD *md = EVP_MD_fetch(NULL, name, NULL);
    if (!md) return CCRYPTO_UNAVAILABLE;
    unsigned int written = 0;
    /* EVP_Digest reads nothing for length 0, but wants a valid pointer all the same. */
    static const uint8_t empty = 0;
    int ok = EVP_Digest(length ? bytes : &empty, length, out, &written, md, NULL);
    EVP_MD_free(md);
    return ok && written == size ? CCRYPTO_OK : CCRYPTO_FAILED;
}

ccrypto_status ccrypto_md5(const uint8_t *bytes, size_t length, uint8_t out[16]) {
    return digest("MD5", 16, bytes, length, out);
}

ccrypto_status ccrypto_sha256(const uint8_t *bytes, size_t length, uint8_t out[32]) {
    return digest("SHA256", 32, bytes, length, out);
}

static const char *cipher_name(ccrypto_cipher cipher, size_t *key_length, size_t *iv_length, size_t *block) {
    switch (cipher) {
    case CCRYPTO_DES_EDE3_ECB:
        *key_length = 24; *iv_length = 0; *block = 8;
        return "DES-EDE3-ECB";
    case CCRYPTO_AES_128_CBC:
        *key_length = 16; *iv_length = 16; *block = 16;
        return "AES-128-CBC";
    }
    return NULL;
}

/* OpenSSL's cipher called `name`, and a context for it: CCRYPTO_OK with both set (the caller
 * frees them), CCRYPTO_UNAVAILABLE or CCRYPTO_FAILED with neither. */
static ccrypto_status cipher_context(const char *name, EVP_CIPHER **evp, EVP_CIPHER_CTX **context) {
    *evp = EVP_CIPHER_fetch(NULL, name, NULL);
    if (!*evp) return CCRYPTO_UNAVAILABLE;
    *context = EVP_CIPHER_CTX_new();
    if (!*context) {
        EVP_CIPHER_free(*evp);
        *evp = NULL;
        return CCRYPTO_FAILED;
    }
    return CCRYPTO_OK;
}

ccrypto_status ccrypto_crypt(
    ccrypto_cipher cipher, int encrypt, const uint8_t *key, size_t key_length, const uint8_t *iv, size_t iv_length,
    const uint8_t *in, size_t in_length, uint8_t *out, size_t out_capacity, size_t *out_length) {
    size_t expected_key = 0, expected_iv = 0, block = 0;
    const char *name = cipher_name(cipher, &expected_key, &expected_iv, &block);
    *out_length = 0;
    if (!name || !key || key_length != expected_key || iv_length != expected_iv || (expected_iv && !iv)) {
        return CCRYPTO_BAD_ARGUMENT;
    }
    /* Encryption adds at most one block of padding; decryption never grows. */
    if (in_length > INT_MAX - block || out_capacity < in_length + block || (in_length && !in) || !out) {
        return CCRYPTO_BAD_ARGUMENT;
    }
    EVP_CIPHER *evp = NULL;
    EVP_CIPHER_CTX *context = NULL;
    ccrypto_status status = cipher_context(name, &evp, &context);
    if (status != CCRYPTO_OK) return status;
    status = CCRYPTO_FAILED;
    int written = 0, final_written = 0;
    if (!EVP_CipherInit_ex2(context, evp, key, expected_iv ? iv : NULL, encrypt ? 1 : 0, NULL)) goto done;
    if (in_length && !EVP_CipherUpdate(context, out, &written, in, (int)in_length)) goto done;
    if (!EVP_CipherFinal_ex(context, out + written, &final_written)) {
        status = encrypt ? CCRYPTO_FAILED : CCRYPTO_BAD_PADDING;
        goto done;
    }
    *out_length = (size_t)written + (size_t)final_written;
    status = CCRYPTO_OK;
done:
    EVP_CIPHER_CTX_free(context);
    EVP_CIPHER_free(evp);
    return status;
}

ccrypto_status ccrypto_hmac_sha256(
    const uint8_t *key, size_t key_length, const uint8_t *bytes, size_t length, uint8_t out[32]) {
    if ((key_length && !key) || (length && !bytes) || !out || key_length > INT_MAX) return CCRYPTO_BAD_ARGUMENT;
    static const uint8_t empty = 0;
    size_t written = 0;
    uint8_t *result = EVP_Q_mac(
        NULL, "HMAC", NULL, "SHA256", NULL, key_length ? key : &empty, key_length, length ? bytes : &empty, length, out, 32,
        &written);
    return result && written == 32 ? CCRYPTO_OK : CCRYPTO_FAILED;
}

ccrypto_status ccrypto_aes_128_gcm(
    int encrypt, const uint8_t key[16], const uint8_t *iv, size_t iv_length, const uint8_t *in, size_t in_length,
    uint8_t *out, size_t out_capacity, size_t *out_length) {
    enum { tag_length = 16 };
    *out_length = 0;
    if (!key || !iv || iv_length == 0 || iv_length > 64 || (in_length && !in) || !out || in_length > INT_MAX - tag_length) {
        return CCRYPTO_BAD_ARGUMENT;
    }
    if (!encrypt && in_length < tag_length) return CCRYPTO_BAD_TAG;
    size_t body = encrypt ? in_length : in_length - tag_length;
    if (out_capacity < body + (encrypt ? tag_length : 0)) return CCRYPTO_BAD_ARGUMENT;
    EVP_CIPHER *evp = NULL;
    EVP_CIPHER_CTX *context = NULL;
    ccrypto_status status = cipher_context("AES-128-GCM", &evp, &context);
    if (status != CCRYPTO_OK) return status;
    status = CCRYPTO_FAILED;
    int written = 0, final_written = 0;
    size_t iv_size = iv_length;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &iv_size),
        OSSL_PARAM_construct_end(),
    };
    if (!EVP_CipherInit_ex2(context, evp, NULL, NULL, encrypt ? 1 : 0, params)) goto done;
    if (!EVP_CipherInit_ex2(context, NULL, key, iv, encrypt ? 1 : 0, NULL)) goto done;
    if (body && !EVP_CipherUpdate(context, out, &written, in, (int)body)) goto done;
    if (!encrypt) {
        /* The tag is the input's last 16 bytes; OpenSSL checks it in Final. */
        uint8_t tag[tag_length];
        memcpy(tag, in + body, tag_length);
        if (!EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, tag_length, tag)) goto done;
    }
    if (!EVP_CipherFinal_ex(context, out + written, &final_written)) {
        status = encrypt ? CCRYPTO_FAILED : CCRYPTO_BAD_TAG;
        goto done;
    }
    *out_length = (size_t)written + (size_t)final_written;
    if (encrypt) {
        if (!EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, tag_length, out + *out_length)) goto done;
        *out_length += tag_length;
    }
    status = CCRYPTO_OK;
done:
    if (status != CCRYPTO_OK) *out_length = 0;
    EVP_CIPHER_CTX_free(context);
    EVP_CIPHER_free(evp);
    return status;
}

ccrypto_status ccrypto_random_bytes(uint8_t *out, size_t length) {
    if (length > INT_MAX || (length && !out)) return CCRYPTO_BAD_ARGUMENT;
    if (length == 0) return CCRYPTO_OK;
    return RAND_bytes(out, (int)length) == 1 ? CCRYPTO_OK : CCRYPTO_FAILED;
}

const char *ccrypto_openssl_version(void) {
    return OpenSSL_version(OPENSSL_VERSION);
}

/* MARK: TLS names */

static SSL_CTX *names_context(void) {
    /* A context of its own per check: set_cipher_list and friends change it. */
    return SSL_CTX_new(TLS_method());
}

int ccrypto_tls_is_cipher(const char *name) {
    /* One suite by its exact OpenSSL name: a list, a keyword ("HIGH") or an operator is not. */
    if (!name || !name[0] || strpbrk(name, ":,; !+@")) return 0;
    SSL_CTX *context = names_context();
    if (!context) return 0;
    int ok = 0;
    if (SSL_CTX_set_cipher_list(context, name)) {
        STACK_OF(SSL_CIPHER) *ciphers = SSL_CTX_get_ciphers(context);
        for (int i = 0; ciphers && i < sk_SSL_CIPHER_num(ciphers); i++) {
            const SSL_CIPHER *cipher = sk_SSL_CIPHER_value(ciphers, i);
            if (strcmp(SSL_CIPHER_get_name(cipher), name) == 0) ok = 1;
        }
    }
    SSL_CTX_free(context);
    return ok;
}

int ccrypto_tls_is_tls13_cipher(const char *name) {
    if (!name || !name[0] || strpbrk(name, ":,; ")) return 0;
    SSL_CTX *context = names_context();
    if (!context) return 0;
    int ok = SSL_CTX_set_ciphersuites(context, name);
    SSL_CTX_free(context);
    return ok == 1;
}

int ccrypto_tls_is_group(const char *name) {
    if (!name || !name[0] || strpbrk(name, ":,; ")) return 0;
    SSL_CTX *context = names_context();
    if (!context) return 0;
    int ok = SSL_CTX_set1_groups_list(context, name);
    SSL_CTX_free(context);
    return ok == 1;
}

long ccrypto_pem_spki_sha256(const uint8_t *pem, size_t length, uint8_t *out, size_t capacity) {
    if (length > INT_MAX) return -1;
    BIO *bio = BIO_new_mem_buf(pem, (int)length);
    if (!bio) return -1;
    long count = 0;
    X509 *certificate;
    while ((certificate = PEM_read_bio_X509(bio, NULL, NULL, NULL)) != NULL) {
        unsigned char *der = NULL;
        int der_length = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(certificate), &der);
        if (der_length > 0 && (size_t)count < capacity) {
            if (ccrypto_sha256(der, (size_t)der_length, out + 32 * count) != CCRYPTO_OK) {
                OPENSSL_free(der);
                X509_free(certificate);
                BIO_free(bio);
                return -1;
            }
        }
        OPENSSL_free(der);
        X509_free(certificate);
        if (der_length > 0) count += 1;
    }
    /* The loop ends on the error "no start line" at the end of the text: not a failure. */
    ERR_clear_error();
    BIO_free(bio);
    return count > 0 ? count : -1;
}

const char *ccrypto_default_ca_file(void) {
    return X509_get_default_cert_file();
}
