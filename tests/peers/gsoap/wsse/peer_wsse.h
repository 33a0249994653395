/*
 * What the gSOAP WS-Security peer's server (server.c) and client (client.c)
 * share: reading the PEM files, the names of the encryption algorithms, the
 * EncryptedKey for a certificate (found by its SubjectKeyIdentifier), the
 * Timestamp check, and noticing an encrypted SOAP Body while it is parsed.
 * Everything here is a thin layer over gSOAP's wsse plugin
 * (/usr/share/gsoap/plugin/wsseapi.c) and OpenSSL.
 */
#ifndef SOAPGEN_PEER_WSSE_H
#define SOAPGEN_PEER_WSSE_H

#include "soapH.h"
#include "wsseapi.h"

/* The certificate in PEM file `path`, or NULL after a message on stderr. */
X509 *pw_read_cert(const char *path);

/* The private key in PEM file `path` (PKCS#8 or PKCS#1, unencrypted), or
 * NULL after a message on stderr. */
EVP_PKEY *pw_read_key(const char *path);

/* The gSOAP envelope-encryption algorithm (SOAP_MEC_ENV_ENC_*) for a
 * block-cipher name of XML-Enc 1.0 §5.2: "aes128-cbc", "aes192-cbc",
 * "aes256-cbc", "3des" (tripledes-cbc), "aes128-gcm", "aes192-gcm",
 * "aes256-gcm" (XML-Enc 1.1 §5.2.4); -1 for anything else. */
int pw_block_alg(const char *name);

/* The names pw_block_alg() knows, comma separated, for messages. */
extern const char pw_block_alg_names[];

/* Key transport (XML-Enc §5.4): "rsa-oaep" (rsa-oaep-mgf1p, SHA-1, the
 * default) -> SOAP_MEC_OAEP, "rsa-1_5" -> 0, anything else -1. */
int pw_key_transport(const char *name);

/* Adds an xenc:EncryptedKey (Id "EK") to the outgoing Security header that
 * carries a fresh key for `block_alg | key_transport`, encrypted for
 * `cert`, and makes the plugin encrypt the SOAP Body with it (after
 * signing).  The key is identified by the certificate's
 * SubjectKeyIdentifier (WSS X.509 Token Profile 1.1 §3.2.2, the raw
 * extension value, base64); a certificate without one by
 * ds:X509IssuerSerial (issuer in RFC 2253 form, serial in decimal).
 * Returns SOAP_OK or a gSOAP error. */
int pw_add_encrypted_key(struct soap *soap, int block_alg, int key_transport, X509 *cert);

/* The Timestamp check of a request or response: a wsu:Timestamp with an
 * Expires must be present (WSS 1.1 §10), gSOAP's soap_wsse_verify_Timestamp()
 * must accept it (it allows 300 s of clock skew), and Expires must be
 * strictly after the current time with sub-second precision (this peer runs
 * on the same machine as its client: no skew).  Returns SOAP_OK or a
 * wsu:MessageExpired / wsse:InvalidSecurity sender fault. */
int pw_check_timestamp(struct soap *soap);

/* Whether the SOAP Body of the message just received is covered by its
 * verified signature: soap_wsse_verify_element(soap, namespaces[0].ns,
 * "Body"), as the plugin's documentation says.  gSOAP's own
 * soap_wsse_verify_body() looks for the namespace table's `out` URI, which
 * after a SOAP 1.2 message is the SOAP 1.2 one while the DOM it searches
 * names every envelope element with the table's `ns` (SOAP 1.1): it refuses
 * every signed SOAP 1.2 message.  Returns SOAP_OK when exactly one Body is
 * signed, else the sender fault of soap_wsse_verify_body() ("Message body
 * not signed"). */
int pw_verify_body(struct soap *soap);

/* The subject of `cert` in RFC 2253 form (e.g. "CN=soapgen test
 * client,O=soapgen tests"), soap-allocated; "" on failure. */
const char *pw_subject(struct soap *soap, X509 *cert);

/* Appends ",item" (or "item" to an empty list) to *list, soap-allocated. */
void pw_append(struct soap *soap, const char **list, const char *item);

/* Per-context state of the two hooks below; soap->user points to it. */
struct pw_watch
{
  int (*inner)(struct soap *, const char *); /* the wsse plugin's feltbegin */
  int (*plugin_final)(struct soap *);        /* the plugin's fpreparefinalrecv */
  int body_encrypted;                        /* set while parsing */
};

/* Notices an xenc:EncryptedData that is a child of the SOAP Body while a
 * message is parsed: install once per context, after the wsse plugin is
 * registered (it wraps the plugin's element hook); clear `body_encrypted`
 * before each message. */
void pw_watch_install(struct soap *soap, struct pw_watch *watch);

/* soap_wsse_verify_auto(soap, SOAP_SMD_NONE, NULL, 0) for the next message,
 * except that a message with no ds:Signature at all is handed to the
 * application instead of failing inside the plugin ("Signature with
 * SignedInfo required"): the server's policy (server.c) and the client
 * decide whether one was needed, and an unsigned SOAP fault reaches the
 * client as the fault it is.  Every ds:Signature present is verified by the
 * plugin as usual.  Call before each message (the plugin disarms itself
 * after each one).  Returns SOAP_OK or a gSOAP error. */
int pw_verify_auto(struct soap *soap);

/* Receive hook that also writes every byte received to `dump` (client.c
 * --dump-response); install with pw_dump_install. */
void pw_dump_install(struct soap *soap, FILE *dump);

#endif
