/*
 * ldns for the lab's RFC 8484 endpoint (only LDNSCodec.swift imports it). The whole of
 * <ldns/ldns.h>: its headers are not self-contained (host2str.h needs the rbtree and DNSSEC key
 * types), so including a subset does not compile.
 *
 * <stdbool.h> first: without it ldns/common.h defines bool as signed char, and Swift would see
 * Int8 where ldns means a truth value (the library itself is built with C99's _Bool).
 */
#include <stdbool.h>
#include <ldns/ldns.h>
