#include "CDNSShim.h"

#include <arpa/inet.h>
#include <arpa/nameser.h>
#include <netinet/in.h>
#include <resolv.h>
#include <string.h>

int cdns_make_query(const char *name, int type, unsigned char *buffer, int capacity) {
    int length = res_mkquery(ns_o_query, name, ns_c_in, type, NULL, 0, NULL, buffer, capacity);
    if (length < NS_HFIXEDSZ) return -1;
    /* RFC 8484 §4.1: ID 0, so that equal queries are equal bytes (HTTP caches). */
    buffer[0] = 0;
    buffer[1] = 0;
    /* RD, whatever the machine's resolver options say. */
    buffer[2] |= 0x01;
    return length;
}

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
