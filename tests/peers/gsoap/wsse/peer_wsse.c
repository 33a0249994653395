/* Shared by the gSOAP WS-Security peer's server and client: see peer_wsse.h. */
#include "peer_wsse.h"

#include <openssl/bn.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

X509 *pw_read_cert(const char *path)
{
  X509 *cert = NULL;
  FILE *f = fopen(path, "r");
  if (!f)
  {
    perror(path);
    return NULL;
  }
  cert = PEM_read_X509(f, NULL, NULL, NULL);
  fclose(f);
  if (!cert)
    fprintf(stderr, "%s: no PEM certificate\n", path);
  return cert;
}

EVP_PKEY *pw_read_key(const char *path)
{
  EVP_PKEY *key = NULL;
  FILE *f = fopen(path, "r");
  if (!f)
  {
    perror(path);
    return NULL;
  }
  key = PEM_read_PrivateKey(f, NULL, NULL, NULL);
  fclose(f);
  if (!key)
    fprintf(stderr, "%s: no unencrypted PEM private key\n", path);
  return key;
}

const char pw_block_alg_names[] =
  "aes128-cbc, aes192-cbc, aes256-cbc, 3des, aes128-gcm, aes192-gcm, aes256-gcm";

int pw_block_alg(const char *name)
{
  static const struct { const char *name; int alg; } algs[] = {
    {"aes128-cbc", SOAP_MEC_ENV_ENC_AES128_CBC},
    {"aes192-cbc", SOAP_MEC_ENV_ENC_AES192_CBC},
    {"aes256-cbc", SOAP_MEC_ENV_ENC_AES256_CBC},
    {"3des", SOAP_MEC_ENV_ENC_DES_CBC},
    {"aes128-gcm", SOAP_MEC_ENV_ENC_AES128_GCM},
    {"aes192-gcm", SOAP_MEC_ENV_ENC_AES192_GCM},
    {"aes256-gcm", SOAP_MEC_ENV_ENC_AES256_GCM},
  };
  size_t i;
  if (!name)
    return -1;
  for (i = 0; i < sizeof algs / sizeof algs[0]; i++)
    if (!strcmp(name, algs[i].name))
      return algs[i].alg;
  return -1;
}

int pw_key_transport(const char *name)
{
  if (!name || !strcmp(name, "rsa-oaep"))
    return SOAP_MEC_OAEP;
  if (!strcmp(name, "rsa-1_5"))
    return 0;
  return -1;
}

const char *pw_subject(struct soap *soap, X509 *cert)
{
  BIO *bio;
  char *mem = NULL, *out;
  long n;
  if (!cert)
    return "";
  bio = BIO_new(BIO_s_mem());
  if (!bio)
    return "";
  if (X509_NAME_print_ex(bio, X509_get_subject_name(cert), 0, XN_FLAG_RFC2253) < 0)
  {
    BIO_free(bio);
    return "";
  }
  n = BIO_get_mem_data(bio, &mem);
  out = (char *)soap_malloc(soap, (size_t)n + 1);
  if (!out)
  {
    BIO_free(bio);
    return "";
  }
  memcpy(out, mem, (size_t)n);
  out[n] = '\0';
  BIO_free(bio);
  return out;
}

int pw_add_encrypted_key(struct soap *soap, int block_alg, int key_transport, X509 *cert)
{
  const ASN1_OCTET_STRING *ski = X509_get0_subject_key_id(cert);
  _wsse__Security *security;
  if (ski && ski->length > 0)
  {
    /* The plugin takes the key identifier as a C string (strlen): a binary
     * SubjectKeyIdentifier may hold NUL bytes, so a placeholder goes in and
     * the real bytes replace it below, before anything is sent. */
    if (soap_wsse_add_EncryptedKey(soap, block_alg | key_transport, "EK", cert, "ski", NULL, NULL))
      return soap->error;
    security = soap_wsse_Security(soap);
    if (!security || !security->xenc__EncryptedKey || !security->xenc__EncryptedKey->ds__KeyInfo ||
        !security->xenc__EncryptedKey->ds__KeyInfo->wsse__SecurityTokenReference ||
        !security->xenc__EncryptedKey->ds__KeyInfo->wsse__SecurityTokenReference->KeyIdentifier)
      return soap_wsse_receiver_fault(soap, "pw_add_encrypted_key", "no KeyIdentifier to fill in");
    security->xenc__EncryptedKey->ds__KeyInfo->wsse__SecurityTokenReference->KeyIdentifier->__item =
      soap_s2base64(soap, ski->data, NULL, ski->length);
    return SOAP_OK;
  }
  else
  {
    BIO *bio = BIO_new(BIO_s_mem());
    BIGNUM *bn = ASN1_INTEGER_to_BN(X509_get0_serialNumber(cert), NULL);
    char *serial = bn ? BN_bn2dec(bn) : NULL, *mem = NULL, *issuer;
    long n;
    int rc;
    if (!bio || !serial ||
        X509_NAME_print_ex(bio, X509_get_issuer_name(cert), 0, XN_FLAG_RFC2253) < 0)
    {
      BIO_free(bio);
      BN_free(bn);
      OPENSSL_free(serial);
      return soap->error = SOAP_EOM;
    }
    n = BIO_get_mem_data(bio, &mem);
    issuer = (char *)soap_malloc(soap, (size_t)n + 1);
    if (issuer)
    {
      memcpy(issuer, mem, (size_t)n);
      issuer[n] = '\0';
    }
    rc = issuer ? soap_wsse_add_EncryptedKey(soap, block_alg | key_transport, "EK", cert, NULL,
                                             issuer, serial)
                : (soap->error = SOAP_EOM);
    BIO_free(bio);
    BN_free(bn);
    OPENSSL_free(serial);
    return rc;
  }
}

/* Expires as seconds + microseconds since the epoch; 0 on success. */
static int parse_expires(struct soap *soap, const char *text, time_t *secs, long *usecs)
{
  const char *t, *dot;
  long frac = 0, scale = 100000;
  if (soap_s2dateTime(soap, text, secs))
    return -1;
  /* gSOAP drops the fraction: take up to six digits after the seconds. */
  t = strchr(text, 'T');
  dot = t ? strchr(t, '.') : NULL;
  if (dot)
  {
    for (dot++; isdigit((unsigned char)*dot) && scale > 0; dot++, scale /= 10)
      frac += (*dot - '0') * scale;
  }
  *usecs = frac;
  return 0;
}

int pw_check_timestamp(struct soap *soap)
{
  _wsu__Timestamp *ts = soap_wsse_Timestamp(soap);
  struct timeval now;
  time_t secs;
  long usecs;
  if (!ts)
    return soap_wsse_sender_fault_subcode(soap, "wsse:InvalidSecurity",
                                          "no wsu:Timestamp in the Security header", NULL);
  if (!ts->Expires)
    return soap_wsse_sender_fault_subcode(soap, "wsse:InvalidSecurity",
                                          "the wsu:Timestamp has no wsu:Expires", NULL);
  if (soap_wsse_verify_Timestamp(soap))
    return soap->error;
  if (parse_expires(soap, ts->Expires, &secs, &usecs))
    return soap_wsse_sender_fault_subcode(soap, "wsse:InvalidSecurity",
                                          "wsu:Expires is not an xsd:dateTime", ts->Expires);
  gettimeofday(&now, NULL);
  if (secs < now.tv_sec || (secs == now.tv_sec && usecs <= (long)now.tv_usec))
    return soap_wsse_sender_fault_subcode(soap, "wsu:MessageExpired", "Message has expired",
                                          ts->Expires);
  return SOAP_OK;
}

int pw_verify_body(struct soap *soap)
{
  /* The DOM names the envelope namespace as the first row of the namespace
   * table does (its `ns`, the SOAP 1.1 URI), whatever the message's
   * version: the row's `out` (the SOAP 1.2 URI after a SOAP 1.2 message) is
   * what soap_wsse_verify_body() looks for. */
  const struct Namespace *table = soap->local_namespaces ? soap->local_namespaces : soap->namespaces;
  if (table && table->ns && soap_wsse_verify_element(soap, table->ns, "Body") == 1)
    return SOAP_OK;
  return soap_wsse_sender_fault(soap, "Message body not signed", NULL);
}

void pw_append(struct soap *soap, const char **list, const char *item)
{
  size_t n = strlen(*list) + strlen(item) + 2;
  char *out = (char *)soap_malloc(soap, n);
  if (!out)
    return;
  if (**list)
    snprintf(out, n, "%s,%s", *list, item);
  else
    snprintf(out, n, "%s", item);
  *list = out;
}

static int watch_element(struct soap *soap, const char *tag)
{
  struct pw_watch *watch = (struct pw_watch *)soap->user;
  /* soap->level counts the open ancestors: Envelope and Body = 2 for a
   * child of the Body. */
  if (watch && soap->part == SOAP_IN_BODY && soap->level == 2 &&
      !soap_match_tag(soap, tag, "xenc:EncryptedData"))
    watch->body_encrypted = 1;
  return watch && watch->inner ? watch->inner(soap, tag) : SOAP_OK;
}

void pw_watch_install(struct soap *soap, struct pw_watch *watch)
{
  watch->inner = soap->feltbegin;
  watch->plugin_final = NULL;
  watch->body_encrypted = 0;
  soap->user = watch;
  soap->feltbegin = watch_element;
}

/* After a message was parsed: signed -> the plugin's own check; unsigned ->
 * what that check does besides requiring a signature (end the decryption,
 * reset the ids to sign/encrypt next), as in soap_wsse_preparefinalrecv. */
static int final_recv(struct soap *soap)
{
  struct pw_watch *watch = (struct pw_watch *)soap->user;
  struct soap_wsse_data *data = (struct soap_wsse_data *)soap_lookup_plugin(soap, soap_wsse_id);
  if (!watch || !watch->plugin_final || !data)
    return soap->error = SOAP_PLUGIN_ERROR;
  if (soap_wsse_Signature(soap))
    return watch->plugin_final(soap);
  soap->omode &= ~SOAP_SEC_WSUID;
  data->sigid = NULL;
  data->encid = NULL;
  if (data->deco_alg != SOAP_MEC_NONE && data->mec && soap_mec_end(soap, data->mec))
    return soap_wsse_fault(soap, wsse__FailedCheck, NULL);
  data->deco_alg = SOAP_MEC_NONE;
  return SOAP_OK;
}

int pw_verify_auto(struct soap *soap)
{
  struct pw_watch *watch = (struct pw_watch *)soap->user;
  if (!watch)
    return soap->error = SOAP_PLUGIN_ERROR;
  /* Put the plugin's hook back first: it would otherwise chain to ours. */
  if (soap->fpreparefinalrecv == final_recv)
    soap->fpreparefinalrecv = watch->plugin_final;
  if (soap_wsse_verify_auto(soap, SOAP_SMD_NONE, NULL, 0))
    return soap->error;
  watch->plugin_final = soap->fpreparefinalrecv;
  soap->fpreparefinalrecv = final_recv;
  return SOAP_OK;
}

static FILE *dump_file;
static size_t (*dump_inner)(struct soap *, char *, size_t);

static size_t dump_recv(struct soap *soap, char *buf, size_t len)
{
  size_t n = dump_inner(soap, buf, len);
  if (n > 0 && dump_file)
    fwrite(buf, 1, n, dump_file);
  return n;
}

void pw_dump_install(struct soap *soap, FILE *dump)
{
  dump_file = dump;
  dump_inner = soap->frecv;
  soap->frecv = dump_recv;
}
