/*
 * CDNSShim: DNS messages (RFC 1035) read by glibc's libresolv, for RFC 8484 DNS-over-HTTPS
 * (whose queries ldns writes: RunnerHTTPDNS's LDNSQuery), and DNS servers asked directly
 * (res_mkquery encodes that query). ns_initparse / ns_parserr /
 * ns_name_uncompress decode the answer, rejecting what does not fit (lengths past the end,
 * compression loops). Swift sees only the plain structs below, never libresolv's own.
 */
#ifndef CDNSSHIM_H
#define CDNSSHIM_H

#ifdef __cplusplus
extern "C" {
#endif

/* A name as text (RFC 1035 §3.1 bounds it to 255 octets; escaped text may be longer). */
#define CDNS_NAME_MAX 1025

/* The header of a response. */
typedef struct {
    int rcode;
    int truncated;
    int is_response;
    int answer_count;
} cdns_header;

/* One answer-section record: an A or AAAA record's address as text, a CNAME's target. */
typedef struct {
    char name[CDNS_NAME_MAX];
    int type;
    int record_class;
    unsigned long ttl;
    char address[46];
    char target[CDNS_NAME_MAX];
} cdns_record;

/* Reads the header of `message`. Returns 0, or -1 when it is not a DNS message. */
int cdns_read_header(const unsigned char *message, int length, cdns_header *header);

/* Reads answer record `index` of `message`. Returns 0, or -1 when the record is malformed
   (runs past the end, a compression loop, an A/AAAA of the wrong length). */
int cdns_read_answer(const unsigned char *message, int length, int index, cdns_record *record);

/* Why an exchange with a DNS server failed. */
typedef struct {
    /* ETIMEDOUT when nothing answered in time, ECONNREFUSED when the port is closed, another
       errno for another socket error; 0 when the query could not be built or the answer did not
       match it. */
    int error;
    char reason[128];
} cdns_failure;

/* Asks the DNS server at `server` (an IPv4 or IPv6 literal) and `port` the standard query for
   `name` and `type`, built by libresolv (res_mkquery: a random ID; RD set): over a connected UDP
   socket (a random source port; a closed port reported), keeping only an answer to this
   question (ID, QR and question section, by res_queriesmatch) and, when it is truncated, asking
   again over TCP. Everything within `timeout_ms`. Returns the answer's length in `answer`, or
   -1 with `failure` filled. (libresolv's own res_nsend would do the sending, but it treats a
   REFUSED or SERVFAIL answer as no answer, and a resolver check must name it.) */
int cdns_exchange(const char *server, int port, const char *name, int type, int timeout_ms,
                  unsigned char *answer, int capacity, cdns_failure *failure);

#ifdef __cplusplus
}
#endif

#endif
