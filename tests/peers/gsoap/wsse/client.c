/*
 * gSOAP WS-Security client for the peer in server.c: it proves the server
 * works with gSOAP's own plugin on the other end, without soapgen.
 *
 * Usage: wsse-client --url URL --cert client.pem --key client.key
 *                    --ca ca.pem --peer-cert server.pem
 *                    [--text T] [--encrypt ALG] [--key-transport rsa-oaep|rsa-1_5]
 *                    [--sig rsa-sha256|rsa-sha1] [--require-encrypted-response]
 *                    [--dump-response FILE] [--user NAME --password PW]
 *
 * Sends one EchoText(T) (default "hello") with a wsu:Timestamp (300 s), the
 * --cert certificate as a wsse:BinarySecurityToken (DirectReference) and an
 * XML signature over the Body and the Timestamp made with --key (RSA-SHA256
 * and SHA-256 digests, or RSA-SHA1 and SHA-1); with --encrypt ALG (the
 * names of server.c) the signed Body is then encrypted for --peer-cert
 * (RSA-OAEP unless --key-transport rsa-1_5; SubjectKeyIdentifier).
 *
 * The response must carry a fresh Timestamp and a signature that the plugin
 * verified, made with exactly the --peer-cert certificate (sent as a
 * BinarySecurityToken, chained to --ca), covering the Body and the
 * Timestamp; with --require-encrypted-response its Body must have arrived
 * encrypted (and been decrypted with --key).  Then it prints
 *   text=<the echoed text>
 *   checked=<what the server says it checked>
 *   signer=<the signer the server saw>
 *   response-checked=timestamp,signature,body-signed,timestamp-signed[,decrypted]
 *   response-signer=<the response certificate's subject, RFC 2253>
 *   response-signature-method=<SignatureMethod URI>
 *   response-digest-method=<DigestMethod URI of the first Reference>
 * and exits 0.  A fault or a failed check: the fault or the reason on
 * stderr and exit status 1; a bad command line: status 2.
 * --dump-response FILE writes the raw HTTP response (headers too) to FILE.
 * --user/--password add a wsse:UsernameToken with a PasswordDigest, Nonce and Created
 * (UsernameToken Profile 1.1 section 3.1) before the Timestamp.
 */
#include "soapH.h"
#include "WsseEchoBinding.nsmap"

#include "peer_wsse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(const char *argv0)
{
  fprintf(stderr,
          "usage: %s --url URL --cert client.pem --key client.key --ca ca.pem "
          "--peer-cert server.pem [--text T] [--encrypt ALG] [--key-transport rsa-oaep|rsa-1_5] "
          "[--sig rsa-sha256|rsa-sha1] [--require-encrypted-response] [--dump-response FILE] "
          "[--user NAME --password PW]\n",
          argv0);
  exit(2);
}

static int fail(const char *why)
{
  fprintf(stderr, "wsse-client: %s\n", why);
  return 1;
}

int main(int argc, char **argv)
{
  const char *url = NULL, *cert_path = NULL, *key_path = NULL, *ca_path = NULL,
             *peer_path = NULL, *text = "hello", *encrypt = NULL, *kt = NULL,
             *sig = "rsa-sha256", *dump_path = NULL, *user = NULL, *password = NULL;
  int require_encrypted = 0, sign_alg, block_alg = 0, key_transport = SOAP_MEC_OAEP, i;
  X509 *cert, *peer, *signer;
  EVP_PKEY *key;
  struct soap *soap;
  struct pw_watch watch;
  struct _w__EchoText req;
  struct _w__EchoTextResponse resp;
  ds__SignedInfoType *info;
  const char *checked = "";
  FILE *dump = NULL;

  for (i = 1; i < argc; i++)
  {
    const char *a = argv[i];
    if (!strcmp(a, "--require-encrypted-response"))
      require_encrypted = 1;
    else if (i + 1 >= argc)
      usage(argv[0]);
    else if (!strcmp(a, "--url"))
      url = argv[++i];
    else if (!strcmp(a, "--cert"))
      cert_path = argv[++i];
    else if (!strcmp(a, "--key"))
      key_path = argv[++i];
    else if (!strcmp(a, "--ca"))
      ca_path = argv[++i];
    else if (!strcmp(a, "--peer-cert"))
      peer_path = argv[++i];
    else if (!strcmp(a, "--text"))
      text = argv[++i];
    else if (!strcmp(a, "--encrypt"))
      encrypt = argv[++i];
    else if (!strcmp(a, "--key-transport"))
      kt = argv[++i];
    else if (!strcmp(a, "--sig"))
      sig = argv[++i];
    else if (!strcmp(a, "--dump-response"))
      dump_path = argv[++i];
    else if (!strcmp(a, "--user"))
      user = argv[++i];
    else if (!strcmp(a, "--password"))
      password = argv[++i];
    else
      usage(argv[0]);
  }
  if (!url || !cert_path || !key_path || !ca_path || !peer_path || !user != !password)
    usage(argv[0]);
  if (!strcmp(sig, "rsa-sha256"))
    sign_alg = SOAP_SMD_SIGN_RSA_SHA256;
  else if (!strcmp(sig, "rsa-sha1"))
    sign_alg = SOAP_SMD_SIGN_RSA_SHA1;
  else
    usage(argv[0]);
  if (encrypt && (block_alg = pw_block_alg(encrypt)) < 0)
  {
    fprintf(stderr, "wsse-client: unknown --encrypt %s (one of %s)\n", encrypt, pw_block_alg_names);
    return 2;
  }
  if (kt && (key_transport = pw_key_transport(kt)) < 0)
    usage(argv[0]);

  cert = pw_read_cert(cert_path);
  key = pw_read_key(key_path);
  peer = pw_read_cert(peer_path);
  if (!cert || !key || !peer)
    return 1;
  if (dump_path && !(dump = fopen(dump_path, "wb")))
  {
    perror(dump_path);
    return 1;
  }

  soap = soap_new2(SOAP_C_UTFSTRING, SOAP_C_UTFSTRING | SOAP_XML_CANONICAL);
  if (!soap || soap_register_plugin(soap, soap_wsse))
    return fail("cannot create the gSOAP context");
  soap->cafile = ca_path;
  soap->send_timeout = soap->recv_timeout = 30;
  pw_watch_install(soap, &watch);
  if (dump)
    pw_dump_install(soap, dump);

  /* Outbound: a UsernameToken (PasswordDigest with Nonce and Created) when asked, Timestamp,
   * BST, signature over Body + Timestamp, then the EncryptedKey (the plugin encrypts after
   * signing). */
  if ((user && soap_wsse_add_UsernameTokenDigest(soap, "User", user, password)) ||
      soap_wsse_add_Timestamp(soap, "Time", 300) ||
      soap_wsse_add_BinarySecurityTokenX509(soap, "X509Token", cert) ||
      soap_wsse_add_KeyInfo_SecurityTokenReferenceX509(soap, "#X509Token") ||
      soap_wsse_sign_body(soap, sign_alg, key, 0) || soap_wsse_sign_only(soap, "Time Body") ||
      (block_alg > 0 && pw_add_encrypted_key(soap, block_alg, key_transport, peer)))
  {
    soap_print_fault(soap, stderr);
    return 1;
  }
  /* Inbound: verify every signature, decrypt with our key. */
  if (pw_verify_auto(soap) ||
      soap_wsse_decrypt_auto(soap, SOAP_MEC_ENV_DEC_AES256_CBC, key, 0))
  {
    soap_print_fault(soap, stderr);
    return 1;
  }

  memset(&req, 0, sizeof req);
  memset(&resp, 0, sizeof resp);
  req.text = (char *)text;
  watch.body_encrypted = 0;
  if (soap_call___w__EchoText(soap, url, "urn:soapgen:wsse#EchoText", &req, &resp))
  {
    soap_print_fault(soap, stderr);
    if (dump)
      fclose(dump);
    return 1;
  }
  if (dump)
    fclose(dump);

  /* The response's security, as server.c checks requests. */
  if (pw_check_timestamp(soap))
  {
    soap_print_fault(soap, stderr);
    return 1;
  }
  pw_append(soap, &checked, "timestamp");
  if (!soap_wsse_Signature(soap))
    return fail("the response has no ds:Signature");
  signer = soap_wsse_get_KeyInfo_SecurityTokenReferenceX509(soap);
  if (!signer)
    return fail("the response signature's BinarySecurityToken is missing or untrusted");
  if (X509_cmp(signer, peer))
    return fail("the response was signed with another certificate than --peer-cert");
  pw_append(soap, &checked, "signature");
  if (pw_verify_body(soap))
    return fail("the response Body is not signed");
  pw_append(soap, &checked, "body-signed");
  if (!soap_wsse_verify_element(soap, SOAP_NAMESPACE_OF_wsu, "Timestamp"))
    return fail("the response Timestamp is not signed");
  pw_append(soap, &checked, "timestamp-signed");
  if (watch.body_encrypted)
    pw_append(soap, &checked, "decrypted");
  else if (require_encrypted)
    return fail("the response Body was not encrypted");

  info = soap_wsse_SignedInfo(soap);
  printf("text=%s\n", resp.text ? resp.text : "");
  printf("checked=%s\n", resp.checked ? resp.checked : "");
  printf("signer=%s\n", resp.signer ? resp.signer : "");
  printf("response-checked=%s\n", checked);
  printf("response-signer=%s\n", pw_subject(soap, signer));
  printf("response-signature-method=%s\n",
         info && info->SignatureMethod && info->SignatureMethod->Algorithm
           ? info->SignatureMethod->Algorithm : "");
  printf("response-digest-method=%s\n",
         info && info->__sizeReference > 0 && info->Reference[0]->DigestMethod &&
             info->Reference[0]->DigestMethod->Algorithm
           ? info->Reference[0]->DigestMethod->Algorithm : "");
  X509_free(signer);
  X509_free(cert);
  X509_free(peer);
  EVP_PKEY_free(key);
  soap_destroy(soap);
  soap_end(soap);
  soap_free(soap);
  return 0;
}
