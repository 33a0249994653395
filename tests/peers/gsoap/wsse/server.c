/*
 * gSOAP WS-Security interop peer for soapgen: a server generated from
 * wsse.wsdl that secures its messages with gSOAP's own WS-Security plugin
 * (wsse, /usr/share/gsoap/plugin/wsseapi.c with smdevp.c and mecevp.c on
 * OpenSSL), as a gSOAP application following the plugin's documentation
 * would.  Nothing of the XML security is written here: signatures,
 * digests, canonicalization, certificate chains and encryption are the
 * plugin's.
 *
 * Usage: wsse-server --cert server.pem --key server.key --ca ca.pem
 *                    --peer-cert client.pem
 *                    [--port N] [--host ADDR] [--exit-with-parent]
 *   PEM files (tests/src/pki.rs makes them).  The rest is
 *   ../common/peer_main.c: binds ADDR (default 127.0.0.1) port N (default
 *   0 = any free port), prints exactly one line "LISTENING <port>", serves
 *   forever, a thread per connection, HTTP keep-alive, 30 s idle timeout.
 *   SOAP 1.1 and 1.2 (the reply follows the request).  Exit status 2 on a
 *   bad command line, 1 when a file cannot be read.
 *
 * One operation, EchoText (namespace urn:soapgen:wsse, document/literal):
 *   <w:EchoText><w:text>T</w:text></w:EchoText>  ->
 *   <w:EchoTextResponse><w:text>T</w:text>
 *     <w:checked>what the server verified, comma separated, in this order:
 *       timestamp,signature,body-signed,timestamp-signed[,decrypted];
 *       "none" on /plain</w:checked>
 *     <w:signer>the signing certificate's subject, RFC 2253
 *       ("CN=soapgen test client,O=soapgen tests"); "" on /plain</w:signer>
 *   </w:EchoTextResponse>
 *
 * Request policy, by the first path segment:
 *   /sign          a wsu:Timestamp with wsu:Expires that has not passed
 *                  (gSOAP's soap_wsse_verify_Timestamp, which allows 300 s of
 *                  skew, and then strictly, to the microsecond: client and
 *                  server share one clock); an XML signature (checked by
 *                  the plugin, soap_wsse_verify_auto) whose key is a
 *                  certificate sent as a wsse:BinarySecurityToken and
 *                  referenced from ds:KeyInfo by a wsse:Reference URI
 *                  (DirectReference) that chains to --ca; the signature
 *                  must cover the SOAP Body (soap_wsse_verify_element; see
 *                  pw_verify_body for soap_wsse_verify_body on SOAP 1.2) and the
 *                  Timestamp (soap_wsse_verify_element).  Any digest and
 *                  signature method the plugin knows (RSA-SHA1/SHA-256 ...).
 *   /sign-encrypt[/ALG]
 *                  the same, and the SOAP Body's content must arrive as an
 *                  xenc:EncryptedData whose key is an xenc:EncryptedKey for
 *                  the --cert certificate (RSA-OAEP or RSA-1_5; the plugin
 *                  decrypts with --key, soap_wsse_decrypt_auto, whatever the
 *                  key reference says).
 *   /plain         nothing required (a signature that is present must still
 *                  verify: the plugin checks every signature it meets).
 *   anything else  a Client fault "unknown path: ...".
 * Queries: ?sig=rsa-sha256|rsa-sha1 (response signature), ?kt=rsa-oaep|rsa-1_5
 * (response key transport); an unknown value is a Client fault, other keys
 * are ignored.
 * A request that fails the policy gets an unsigned SOAP fault carrying the
 * plugin's message (e.g. "wsse:FailedCheck", "wsse:InvalidSecurity ... no
 * wsu:Timestamp", "wsu:MessageExpired", "soap_wsse_verify_X509 ... Invalid
 * certificate") and the connection is closed.
 *
 * Response security, on every path: a wsu:Timestamp (Id "Time", 300 s), the
 * server certificate as a wsse:BinarySecurityToken (Id "X509Token",
 * DirectReference from the signature's KeyInfo) and an XML signature over
 * exactly the Body (wsu:Id "Body") and the Timestamp, exclusive C14N,
 * RSA-SHA256 with SHA-256 digests (query "?sig=rsa-sha1": RSA-SHA1 with
 * SHA-1 digests).  On /sign-encrypt/ALG the response Body is then encrypted
 * for --peer-cert (sign, then encrypt: WSS 1.1 §9, the plugin's only order),
 * with ALG one of aes128-cbc, aes192-cbc, aes256-cbc, 3des, aes128-gcm,
 * aes192-gcm, aes256-gcm and the key transported with RSA-OAEP
 * (rsa-oaep-mgf1p, SHA-1; query "?kt=rsa-1_5": RSA-1_5).  The EncryptedKey
 * identifies --peer-cert by its SubjectKeyIdentifier (a wsse:KeyIdentifier,
 * X509SubjectKeyIdentifier value type), or by ds:X509IssuerSerial when the
 * certificate has none.  gSOAP 2.8.124 has no AES key wrap, no RSA-OAEP
 * with SHA-256 or MGF1-SHA-256 (xmlenc11#rsa-oaep), no encryption of the
 * signature or of headers together with the Body here (the plugin can, with
 * soap_wsse_add_EncryptedKey_encrypt_only; this server does not), and no
 * EncryptedHeader.
 */
#include "soapH.h"
#include "WsseEchoBinding.nsmap"

#include "peer_main.h"
#include "peer_wsse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IDLE_TIMEOUT_SECS 30
#define MAX_MESSAGE (16UL * 1024 * 1024)
#define RESPONSE_TTL_SECS 300

/* Read-only after main() has set them. */
static X509 *server_cert;
static EVP_PKEY *server_key;
static X509 *peer_cert;

enum policy { POLICY_PLAIN, POLICY_SIGN, POLICY_SIGN_ENCRYPT, POLICY_UNKNOWN };

struct route
{
  enum policy policy;
  int response_block_alg;     /* SOAP_MEC_ENV_ENC_* or 0: response not encrypted */
  int response_key_transport; /* SOAP_MEC_OAEP or 0 */
  int sign_alg;               /* SOAP_SMD_SIGN_RSA_SHA256 or _SHA1 */
  const char *error;          /* why the path is not understood */
};

/* The value of `key` in the query of `path`, soap-allocated, or NULL. */
static const char *query_value(struct soap *soap, const char *path, const char *key)
{
  const char *q = strchr(path, '?');
  size_t klen = strlen(key);
  while (q)
  {
    q++;
    if (!strncmp(q, key, klen) && q[klen] == '=')
    {
      const char *v = q + klen + 1;
      size_t n = strcspn(v, "&#");
      char *out = (char *)soap_malloc(soap, n + 1);
      if (!out)
        return NULL;
      memcpy(out, v, n);
      out[n] = '\0';
      return out;
    }
    q = strchr(q, '&');
  }
  return NULL;
}

static struct route route_of(struct soap *soap, const char *path)
{
  struct route r = {POLICY_UNKNOWN, 0, SOAP_MEC_OAEP, SOAP_SMD_SIGN_RSA_SHA256, NULL};
  const char *seg, *sig, *kt;
  size_t n;
  if (!path)
    path = "/";
  seg = path;
  while (*seg == '/')
    seg++;
  n = strcspn(seg, "/?#");
  if (n == 4 && !strncmp(seg, "sign", 4))
    r.policy = POLICY_SIGN;
  else if (n == 5 && !strncmp(seg, "plain", 5))
    r.policy = POLICY_PLAIN;
  else if (n == 12 && !strncmp(seg, "sign-encrypt", 12))
  {
    r.policy = POLICY_SIGN_ENCRYPT;
    if (seg[n] == '/')
    {
      const char *alg = seg + n + 1;
      size_t m = strcspn(alg, "/?#");
      char name[32];
      if (m > 0)
      {
        if (m >= sizeof name)
          m = sizeof name - 1;
        memcpy(name, alg, m);
        name[m] = '\0';
        r.response_block_alg = pw_block_alg(name);
        if (r.response_block_alg < 0)
        {
          r.policy = POLICY_UNKNOWN;
          r.error = "unknown encryption algorithm in the path";
        }
      }
    }
  }
  else
    r.error = "unknown path: use /sign, /sign-encrypt[/ALG] or /plain";
  sig = query_value(soap, path, "sig");
  if (sig && !strcmp(sig, "rsa-sha1"))
    r.sign_alg = SOAP_SMD_SIGN_RSA_SHA1;
  else if (sig && strcmp(sig, "rsa-sha256"))
  {
    r.policy = POLICY_UNKNOWN;
    r.error = "unknown ?sig= (rsa-sha256 or rsa-sha1)";
  }
  kt = query_value(soap, path, "kt");
  if (kt)
  {
    r.response_key_transport = pw_key_transport(kt);
    if (r.response_key_transport < 0)
    {
      r.policy = POLICY_UNKNOWN;
      r.error = "unknown ?kt= (rsa-oaep or rsa-1_5)";
    }
  }
  return r;
}

/* The request policy; fills *checked and *signer.  SOAP_OK or a fault. */
static int check_request(struct soap *soap, const struct route *r, const char **checked,
                         const char **signer)
{
  struct pw_watch *watch = (struct pw_watch *)soap->user;
  X509 *cert;
  *checked = "";
  *signer = "";
  if (r->policy == POLICY_PLAIN)
  {
    *checked = "none";
    return SOAP_OK;
  }
  if (pw_check_timestamp(soap))
    return soap->error;
  pw_append(soap, checked, "timestamp");
  /* The plugin has verified every ds:Signature before the operation runs
   * (soap_wsse_preparefinalrecv): here we require one, and find out what it
   * covers and who made it. */
  if (!soap_wsse_Signature(soap))
    return soap_wsse_sender_fault_subcode(soap, "wsse:InvalidSecurity",
                                          "no ds:Signature in the Security header", NULL);
  if (!soap_wsse_get_KeyInfo_SecurityTokenReferenceURI(soap))
    return soap_wsse_sender_fault_subcode(
      soap, "wsse:InvalidSecurity",
      "the signature's KeyInfo has no wsse:Reference to a BinarySecurityToken", NULL);
  /* The referenced BinarySecurityToken, its chain checked against --ca. */
  cert = soap_wsse_get_KeyInfo_SecurityTokenReferenceX509(soap);
  if (!cert)
  {
    if (soap->error)
      return soap->error;
    return soap_wsse_sender_fault_subcode(soap, "wsse:SecurityTokenUnavailable",
                                          "the signature's certificate was not found", NULL);
  }
  *signer = pw_subject(soap, cert);
  X509_free(cert);
  pw_append(soap, checked, "signature");
  if (pw_verify_body(soap))
    return soap->error;
  pw_append(soap, checked, "body-signed");
  if (!soap_wsse_verify_element(soap, SOAP_NAMESPACE_OF_wsu, "Timestamp"))
    return soap_wsse_sender_fault_subcode(soap, "wsse:FailedCheck",
                                          "the wsu:Timestamp is not signed", NULL);
  pw_append(soap, checked, "timestamp-signed");
  if (r->policy == POLICY_SIGN_ENCRYPT)
  {
    if (!watch || !watch->body_encrypted)
      return soap_wsse_sender_fault_subcode(soap, "wsse:InvalidSecurity",
                                            "the SOAP Body was not encrypted", NULL);
    pw_append(soap, checked, "decrypted");
  }
  return SOAP_OK;
}

/* Timestamp, BinarySecurityToken, signature over Body + Timestamp, and the
 * EncryptedKey when the route asks for an encrypted response. */
static int secure_response(struct soap *soap, const struct route *r)
{
  soap_wsse_delete_Security(soap);
  if (soap_wsse_add_Timestamp(soap, "Time", RESPONSE_TTL_SECS) ||
      soap_wsse_add_BinarySecurityTokenX509(soap, "X509Token", server_cert) ||
      soap_wsse_add_KeyInfo_SecurityTokenReferenceX509(soap, "#X509Token") ||
      soap_wsse_sign_body(soap, r->sign_alg, server_key, 0) ||
      soap_wsse_sign_only(soap, "Time Body"))
    goto fail;
  if (r->response_block_alg > 0 &&
      pw_add_encrypted_key(soap, r->response_block_alg, r->response_key_transport, peer_cert))
    goto fail;
  return SOAP_OK;
fail:
  soap_wsse_delete_Security(soap);
  return soap->error ? soap->error : (soap->error = SOAP_FAULT);
}

int __w__EchoText(struct soap *soap, struct _w__EchoText *req, struct _w__EchoTextResponse *resp)
{
  struct route r = route_of(soap, soap->path);
  const char *checked, *signer;
  if (r.policy == POLICY_UNKNOWN)
  {
    /* The path in the fault string, which gSOAP escapes (a detail is raw XML). */
    const char *path = soap->path ? soap->path : "";
    size_t n = strlen(r.error) + strlen(path) + 8;
    char *msg = (char *)soap_malloc(soap, n);
    soap_wsse_delete_Security(soap);
    if (!msg)
      return soap->error = SOAP_EOM;
    snprintf(msg, n, "%s: %s", r.error, path);
    return soap_sender_fault(soap, msg, NULL);
  }
  if (check_request(soap, &r, &checked, &signer))
  {
    soap_wsse_delete_Security(soap);
    return soap->error;
  }
  resp->text = (req && req->text) ? req->text : (char *)"";
  resp->checked = (char *)checked;
  resp->signer = (char *)signer;
  return secure_response(soap, &r);
}

/* The generated soap_serve() loop, as in ../swa/server.c, with the plugin's
 * inbound processing armed before each request (the plugin resets it after
 * each message).  A fault goes out unsigned, without the request's Security
 * header, and ends the connection. */
static void serve_requests(struct soap *soap)
{
  struct pw_watch watch;
  pw_watch_install(soap, &watch);
  soap->keep_alive = soap->max_keep_alive + 1;
  do
  {
    if (soap->keep_alive > 0 && soap->max_keep_alive > 0)
      soap->keep_alive--;
    watch.body_encrypted = 0;
    soap_wsse_delete_Security(soap);
    if (pw_verify_auto(soap) ||
        soap_wsse_decrypt_auto(soap, SOAP_MEC_ENV_DEC_AES256_CBC, server_key, 0))
    {
      soap_send_fault(soap);
      return;
    }
    if (soap_begin_serve(soap))
    {
      if (soap->error == SOAP_POST)
      {
        soap->keep_alive = 0;
        soap_sender_fault(soap, "request body is not a SOAP envelope", NULL);
        soap_send_fault(soap);
        return;
      }
      if (soap->error >= SOAP_STOP)
        continue;
      soap_wsse_delete_Security(soap);
      soap->keep_alive = 0;
      soap_send_fault(soap);
      return;
    }
    if (soap_serve_request(soap) && soap->error && soap->error < SOAP_STOP)
    {
      soap_wsse_delete_Security(soap);
      soap->keep_alive = 0;
      soap_send_fault(soap);
      return;
    }
    soap_dealloc(soap, NULL);
  } while (soap->keep_alive);
}

static void usage(const char *argv0)
{
  fprintf(stderr,
          "usage: %s --cert server.pem --key server.key --ca ca.pem --peer-cert client.pem "
          "[--port N] [--host ADDR] [--exit-with-parent]\n",
          argv0);
  exit(2);
}

int main(int argc, char **argv)
{
  const char *cert_path = NULL, *key_path = NULL, *ca_path = NULL, *peer_path = NULL;
  char **rest = (char **)calloc((size_t)argc + 1, sizeof(char *));
  int nrest = 0, i;
  struct soap *soap;

  if (!rest)
    return 1;
  rest[nrest++] = argv[0];
  for (i = 1; i < argc; i++)
  {
    if (!strcmp(argv[i], "--cert") && i + 1 < argc)
      cert_path = argv[++i];
    else if (!strcmp(argv[i], "--key") && i + 1 < argc)
      key_path = argv[++i];
    else if (!strcmp(argv[i], "--ca") && i + 1 < argc)
      ca_path = argv[++i];
    else if (!strcmp(argv[i], "--peer-cert") && i + 1 < argc)
      peer_path = argv[++i];
    else
      rest[nrest++] = argv[i];
  }
  if (!cert_path || !key_path || !ca_path || !peer_path)
    usage(argv[0]);
  server_cert = pw_read_cert(cert_path);
  server_key = pw_read_key(key_path);
  peer_cert = pw_read_cert(peer_path);
  if (!server_cert || !server_key || !peer_cert)
    return 1;

  /* Exclusive C14N for what is signed (the plugin's recommendation). */
  soap = soap_new2(SOAP_C_UTFSTRING | SOAP_IO_KEEPALIVE,
                   SOAP_C_UTFSTRING | SOAP_IO_KEEPALIVE | SOAP_XML_CANONICAL);
  if (!soap)
  {
    fprintf(stderr, "soap_new2 failed\n");
    return 1;
  }
  if (soap_register_plugin(soap, soap_wsse))
  {
    soap_print_fault(soap, stderr);
    return 1;
  }
  soap->cafile = ca_path; /* trust anchor for the signers' certificates */
  soap->send_timeout = IDLE_TIMEOUT_SECS;
  soap->recv_timeout = IDLE_TIMEOUT_SECS;
  soap->recv_maxlength = MAX_MESSAGE;
  soap->maxlength = 0;
  return peer_run(nrest, rest, soap, serve_requests);
}
