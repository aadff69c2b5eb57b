#include "CDNSShim.h"

#include <arpa/inet.h>
#include <arpa/nameser.h>
#include <errno.h>
#include <netinet/in.h>
#include <resolv.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

int cdns_read_header(const unsigned char *message, int length, cdns_header *header) {
    ns_msg handle;
    if (length < 0 || ns_initparse(message, length, &handle) < 0) return -1;
    header->rcode = ns_msg_getflag(handle, ns_f_rcode);
    header->truncated = ns_msg_getflag(handle, ns_f_tc);
    header->is_response = ns_msg_getflag(handle, ns_f_qr);
    header->answer_count = ns_msg_count(handle, ns_s_an);
    return 0;
}

int cdns_read_answer(const unsigned char *message, int length, int index, cdns_record *record) {
    ns_msg handle;
    ns_rr rr;
    if (length < 0 || ns_initparse(message, length, &handle) < 0) return -1;
    if (ns_parserr(&handle, ns_s_an, index, &rr) < 0) return -1;
    memset(record, 0, sizeof *record);
    strncpy(record->name, ns_rr_name(rr), CDNS_NAME_MAX - 1);
    record->type = ns_rr_type(rr);
    record->record_class = ns_rr_class(rr);
    record->ttl = ns_rr_ttl(rr);
    switch (record->type) {
    case ns_t_a:
    case ns_t_aaaa: {
        int expected = record->type == ns_t_a ? 4 : 16;
        if (ns_rr_rdlen(rr) != expected) return -1;
        if (inet_ntop(record->type == ns_t_a ? AF_INET : AF_INET6, ns_rr_rdata(rr), record->address,
                      sizeof record->address) == NULL)
            return -1;
        break;
    }
    case ns_t_cname:
        if (ns_name_uncompress(ns_msg_base(handle), ns_msg_end(handle), ns_rr_rdata(rr), record->target,
                               CDNS_NAME_MAX) < 0)
            return -1;
        break;
    default:
        break;
    }
    return 0;
}

static int fail(cdns_failure *failure, int error, const char *reason) {
    failure->error = error;
    snprintf(failure->reason, sizeof failure->reason, "%s", reason);
    return -1;
}

static long long now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long) now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* Waits until `fd` is ready for `events` or `deadline` (monotonic ms) passes: 1 ready, 0 not. */
static int wait_for(int fd, short events, long long deadline) {
    for (;;) {
        long long left = deadline - now_ms();
        if (left <= 0) return 0;
        struct pollfd entry = {.fd = fd, .events = events};
        int ready = poll(&entry, 1, (int) (left > 60000 ? 60000 : left));
        if (ready > 0) return 1;
        if (ready < 0 && errno != EINTR) return 0;
    }
}

/* Whether `answer` is the response to `query`: the same ID, QR set, the same question
   (libresolv's res_queriesmatch, as res_nsend checks). */
static int answers_query(const unsigned char *query, int query_length, const unsigned char *answer, int length) {
    if (length < NS_HFIXEDSZ) return 0;
    if (answer[0] != query[0] || answer[1] != query[1] || !(answer[2] & 0x80)) return 0;
    return res_queriesmatch(query, query + query_length, answer, answer + length) == 1;
}

/* Reads exactly `count` bytes from the stream `fd` before `deadline`: 1, or 0. */
static int read_all(int fd, unsigned char *bytes, int count, long long deadline) {
    int done = 0;
    while (done < count) {
        if (!wait_for(fd, POLLIN, deadline)) return 0;
        ssize_t got = recv(fd, bytes + done, (size_t) (count - done), 0);
        if (got <= 0) {
            if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
            return 0;
        }
        done += (int) got;
    }
    return 1;
}

/* The query over TCP (RFC 1035 §4.2.2: a two-byte length before each message). */
static int exchange_tcp(const struct sockaddr *server, socklen_t server_length, const unsigned char *query,
                        int query_length, unsigned char *answer, int capacity, long long deadline,
                        cdns_failure *failure) {
    int fd = socket(server->sa_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return fail(failure, errno, strerror(errno));
    if (connect(fd, server, server_length) < 0 && errno != EINPROGRESS) {
        int error = errno;
        close(fd);
        return fail(failure, error, error == ECONNREFUSED ? "connection refused (TCP, after a truncated answer)" : strerror(error));
    }
    int error = 0;
    socklen_t error_length = sizeof error;
    if (!wait_for(fd, POLLOUT, deadline) || getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &error_length) < 0 || error) {
        close(fd);
        if (error) return fail(failure, error, error == ECONNREFUSED ? "connection refused (TCP, after a truncated answer)" : strerror(error));
        return fail(failure, ETIMEDOUT, "no answer in time (TCP, after a truncated answer)");
    }
    unsigned char framed[NS_PACKETSZ + 2];
    ns_put16((unsigned int) query_length, framed);
    memcpy(framed + 2, query, (size_t) query_length);
    if (send(fd, framed, (size_t) query_length + 2, MSG_NOSIGNAL) != query_length + 2) {
        error = errno;
        close(fd);
        return fail(failure, error, strerror(error));
    }
    unsigned char prefix[2];
    if (!read_all(fd, prefix, 2, deadline)) {
        close(fd);
        return fail(failure, ETIMEDOUT, "no answer in time (TCP, after a truncated answer)");
    }
    int length = (int) ns_get16(prefix);
    if (length > capacity || !read_all(fd, answer, length, deadline)) {
        close(fd);
        return fail(failure, ETIMEDOUT, "no whole answer in time (TCP, after a truncated answer)");
    }
    close(fd);
    if (!answers_query(query, query_length, answer, length)) return fail(failure, 0, "an answer over TCP that is not to the question");
    return length;
}

int cdns_exchange(const char *server, int port, const char *name, int type, int timeout_ms,
                  unsigned char *answer, int capacity, cdns_failure *failure) {
    memset(failure, 0, sizeof *failure);
    struct sockaddr_storage storage;
    memset(&storage, 0, sizeof storage);
    socklen_t server_length;
    struct sockaddr_in *v4 = (struct sockaddr_in *) &storage;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *) &storage;
    if (inet_pton(AF_INET, server, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t) port);
        server_length = sizeof *v4;
    } else if (inet_pton(AF_INET6, server, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((uint16_t) port);
        server_length = sizeof *v6;
    } else {
        return fail(failure, 0, "not an IP address");
    }
    /* res_mkquery gives the query a random ID; RD whatever the machine's options say. */
    unsigned char query[NS_PACKETSZ];
    int query_length = res_mkquery(ns_o_query, name, ns_c_in, type, NULL, 0, NULL, query, sizeof query);
    if (query_length < NS_HFIXEDSZ) return fail(failure, 0, "the name cannot be put in a DNS query");
    query[2] |= 0x01;

    long long deadline = now_ms() + (timeout_ms < 1 ? 1 : timeout_ms);
    /* A connected UDP socket: the kernel picks a random source port and reports a closed one. */
    int fd = socket(storage.ss_family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return fail(failure, errno, strerror(errno));
    const struct sockaddr *address = (const struct sockaddr *) &storage;
    if (connect(fd, address, server_length) < 0 || send(fd, query, (size_t) query_length, 0) != query_length) {
        int error = errno;
        close(fd);
        return fail(failure, error, error == ECONNREFUSED ? "connection refused" : strerror(error));
    }
    for (;;) {
        if (!wait_for(fd, POLLIN, deadline)) {
            close(fd);
            return fail(failure, ETIMEDOUT, "no answer in time");
        }
        ssize_t got = recv(fd, answer, (size_t) capacity, 0);
        if (got < 0) {
            int error = errno;
            if (error == EINTR || error == EAGAIN) continue;
            close(fd);
            return fail(failure, error, error == ECONNREFUSED ? "connection refused" : strerror(error));
        }
        /* Not the answer to this question (a late answer, a forgery): keep waiting. */
        if (!answers_query(query, query_length, answer, (int) got)) continue;
        close(fd);
        /* TC: what came is not all of it; ask again over TCP. */
        if (answer[2] & 0x02) return exchange_tcp(address, server_length, query, query_length, answer, capacity, deadline, failure);
        return (int) got;
    }
}
