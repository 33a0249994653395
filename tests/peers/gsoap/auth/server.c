/*
 * gSOAP HTTP-authentication peer for soapgen: the echo service of ../echo.wsdl
 * (namespace urn:soapgen:gsoap) behind HTTP Digest authentication (gSOAP's
 * httpda plugin, RFC 7616) and/or TLS that requires a client certificate
 * (gsoapssl, OpenSSL).  Built by build.sh.
 *
 * Usage: auth-server [--digest USER:PASSWORD] [--digest-alg md5|sha256]
 *                    [--stale-after N] [--tls KEYFILE CAFILE] [--docs DIR]
 *                    [--port N] [--host ADDR] [--exit-with-parent]
 *   --digest: every request must carry a Digest Authorization of USER and
 *     PASSWORD in realm "soapgen-tests" with qop=auth or auth-int, verified by
 *     http_da_verify_post (which also refuses a nonce count that does not
 *     grow); otherwise HTTP 401 with the plugin's challenges: SHA-256 then MD5
 *     (--digest-alg sha256, the default), or MD5 alone (--digest-alg md5).
 *   --stale-after N: a nonce answers at most N requests; the next request on
 *     it, even with the right password, gets 401 with a fresh challenge marked
 *     stale=true (RFC 7616 section 3.3).
 *   --docs DIR: HTTP GET serves DIR's files (text/xml): the last segment of
 *     the path, the query ignored (GET /svc/echo.wsdl?wsdl gives DIR/echo.wsdl),
 *     behind the same Digest (verified by http_da_verify_get) and TLS; 404 for
 *     anything else.  Without it GET is refused (405), as gSOAP does.
 *   --tls KEYFILE CAFILE: HTTPS; KEYFILE holds the server's private key and
 *     certificate (PEM), the client must present a certificate that chains to
 *     CAFILE (SOAP_SSL_REQUIRE_CLIENT_AUTHENTICATION), else the handshake
 *     fails.
 *   The rest as common/peer_main.h says ("LISTENING <port>" on stdout, a
 *   thread per connection, keep-alive).
 * One line per decision on stderr, which the tests read:
 *   "digest ok user=U alg=A nc=N"   "digest challenge: <why>"
 *   "digest stale nonce=X"          "tls ok subject=S"    "tls refused: <why>"
 *   "get ok file=F"                 "get missing file=F"
 */
#include "soapH.h"
#include "EchoSoap11Binding.nsmap"
#include "httpda.h"
#include "peer_main.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REALM "soapgen-tests"
#define MAX_NONCES 1024

static const char *docs_dir;
static const char *da_user;
static const char *da_pass;
static int stale_after;
static int use_tls;

/* Per connection: whether the challenge about to be sent is for a stale nonce. */
struct conn
{
  int stale;
};

/* Uses of each nonce the server handed out (nonces are short-lived test data). */
static pthread_mutex_t nonce_lock = PTHREAD_MUTEX_INITIALIZER;
static char *nonces[MAX_NONCES];
static int uses[MAX_NONCES];

static int nonce_use(const char *nonce)
{
  int i, n = -1;
  pthread_mutex_lock(&nonce_lock);
  for (i = 0; i < MAX_NONCES && nonces[i]; i++)
    if (!strcmp(nonces[i], nonce))
      break;
  if (i < MAX_NONCES)
  {
    if (!nonces[i])
      nonces[i] = strdup(nonce);
    n = ++uses[i];
  }
  pthread_mutex_unlock(&nonce_lock);
  return n;
}

/* Installed before the plugin, so the plugin's challenge header passes here:
 * adds stale=true when the connection's request reused an exhausted nonce. */
static int (*send_header)(struct soap *, const char *, const char *);

static int stale_posthdr(struct soap *soap, const char *key, const char *val)
{
  struct conn *c = (struct conn *)soap->user;
  if (c && c->stale && key && val && !strcmp(key, "WWW-Authenticate"))
  {
    size_t n = strlen(val) + 16;
    char *v = (char *)soap_malloc(soap, n);
    if (!v)
      return soap->error = SOAP_EOM;
    snprintf(v, n, "%s, stale=true", val);
    return send_header(soap, key, v);
  }
  return send_header(soap, key, val);
}

/* 0 when the request (of HTTP method `method`) may proceed, else 401 with a challenge. */
static int authenticate_method(struct soap *soap, const char *method)
{
  struct http_da_data *data;
  struct conn *c = (struct conn *)soap->user;
  if (!da_user)
    return 0;
  if (!soap->authrealm || !soap->userid)
  {
    fprintf(stderr, "digest challenge: no credentials\n");
    soap->authrealm = REALM;
    return 401;
  }
  if (strcmp(soap->authrealm, REALM) || strcmp(soap->userid, da_user)
      || http_da_verify_method(soap, method, da_pass))
  {
    fprintf(stderr, "digest challenge: refused user=%s\n", soap->userid);
    soap->authrealm = REALM;
    return 401;
  }
  data = (struct http_da_data *)soap_lookup_plugin(soap, http_da_id);
  if (stale_after > 0 && data && data->nonce && nonce_use(data->nonce) > stale_after)
  {
    fprintf(stderr, "digest stale nonce=%s\n", data->nonce);
    fflush(stderr);
    if (c)
      c->stale = 1;
    soap->authrealm = REALM;
    return 401;
  }
  fprintf(stderr, "digest ok user=%s alg=%s nc=%s\n", soap->userid,
          data && data->alg ? data->alg : "MD5", data && data->ncount ? data->ncount : "-");
  fflush(stderr);
  return 0;
}

static int authenticate(struct soap *soap)
{
  return authenticate_method(soap, "POST");
}

/* HTTP GET (soap->fget): a file of --docs DIR, behind the same authentication. */
static int serve_get(struct soap *soap)
{
  char name[256], file[1024];
  const char *path = soap->path ? soap->path : "";
  const char *q = strchr(path, '?');
  size_t end = q ? (size_t)(q - path) : strlen(path);
  const char *slash;
  size_t start, n;
  FILE *f;
  char buf[4096];
  int rc;
  if (!docs_dir)
    return SOAP_GET_METHOD;
  rc = authenticate_method(soap, "GET");
  if (rc)
    return rc;
  for (slash = path + end; slash > path && slash[-1] != '/'; slash--)
    ;
  start = (size_t)(slash - path);
  n = end - start;
  if (n == 0 || n >= sizeof(name))
    return 404;
  memcpy(name, path + start, n);
  name[n] = '\0';
  if (name[0] == '.' || strchr(name, '\\'))
    return 404;
  snprintf(file, sizeof(file), "%s/%s", docs_dir, name);
  f = fopen(file, "rb");
  if (!f)
  {
    fprintf(stderr, "get missing file=%s\n", name);
    fflush(stderr);
    return 404;
  }
  soap->http_content = "text/xml; charset=utf-8";
  if (soap_response(soap, SOAP_FILE))
  {
    fclose(f);
    return soap->error;
  }
  while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
    if (soap_send_raw(soap, buf, n))
    {
      fclose(f);
      return soap->error;
    }
  fclose(f);
  fprintf(stderr, "get ok file=%s\n", name);
  fflush(stderr);
  return soap_end_send(soap);
}

static int do_echo(struct soap *soap, struct _g__echo *req, struct _g__echoResponse *resp)
{
  int rc = authenticate(soap);
  soap->header = NULL;
  if (rc)
    return rc;
  resp->text = (req && req->text) ? req->text : (char *)"";
  return SOAP_OK;
}

static int refuse(struct soap *soap)
{
  int rc = authenticate(soap);
  soap->header = NULL;
  return rc ? rc : soap_sender_fault(soap, "not served by the auth peer", NULL);
}

int __g__echo(struct soap *soap, struct _g__echo *req, struct _g__echoResponse *resp)
{ return do_echo(soap, req, resp); }
int __g__echo_(struct soap *soap, struct _g__echo *req, struct _g__echoResponse *resp)
{ return do_echo(soap, req, resp); }
int __g__fail(struct soap *soap, struct _g__fail *req, struct _g__failResponse *resp)
{ (void)req; (void)resp; return refuse(soap); }
int __g__fail_(struct soap *soap, struct _g__fail *req, struct _g__failResponse *resp)
{ (void)req; (void)resp; return refuse(soap); }
int __g__whoami(struct soap *soap, struct _g__whoami *req, struct _g__whoamiResponse *resp)
{ (void)req; (void)resp; return refuse(soap); }
int __g__whoami_(struct soap *soap, struct _g__whoami *req, struct _g__whoamiResponse *resp)
{ (void)req; (void)resp; return refuse(soap); }

static void serve_requests(struct soap *soap)
{
  struct conn c;
  c.stale = 0;
  soap->user = &c;
  if (use_tls)
  {
    if (soap_ssl_accept(soap))
    {
      const char *why = *soap_faultstring(soap) ? *soap_faultstring(soap) : "handshake failed";
      const char **detail = soap_faultdetail(soap);
      fprintf(stderr, "tls refused: %s%s%s\n", why, detail && *detail ? ": " : "",
              detail && *detail ? *detail : "");
      fflush(stderr);
      return;
    }
    {
      X509 *peer = SSL_get_peer_certificate(soap->ssl);
      char subject[512] = "";
      if (peer)
      {
        X509_NAME_oneline(X509_get_subject_name(peer), subject, sizeof(subject));
        X509_free(peer);
      }
      fprintf(stderr, "tls ok subject=%s\n", subject);
      fflush(stderr);
    }
  }
  soap->keep_alive = soap->max_keep_alive + 1;
  do
  {
    c.stale = 0;
    if (soap->keep_alive > 0 && soap->max_keep_alive > 0)
      soap->keep_alive--;
    if (soap_begin_serve(soap))
    {
      if (soap->error >= SOAP_STOP)
        continue;
      /* A GET refused by serve_get (401 with the challenge, 404): answered as gSOAP
       * answers a refused POST. */
      if (soap->status == SOAP_GET && soap->error > 0)
        soap_send_fault(soap);
      return;
    }
    if ((soap_serve_request(soap) || (soap->fserveloop && soap->fserveloop(soap)))
        && soap->error && soap->error < SOAP_STOP)
    {
      soap_send_fault(soap);
      return;
    }
    soap_destroy(soap);
    soap_end(soap);
  } while (soap->keep_alive);
}

int main(int argc, char **argv)
{
  const char *keyfile = NULL, *cafile = NULL;
  void *alg = http_da_sha256();
  char **rest = (char **)calloc((size_t)argc + 1, sizeof(char *));
  int i, n = 0;
  struct soap *soap;

  if (!rest)
    return 1;
  rest[n++] = argv[0];
  for (i = 1; i < argc; i++)
  {
    if (!strcmp(argv[i], "--digest") && i + 1 < argc)
    {
      char *up = strdup(argv[++i]);
      char *colon = strchr(up, ':');
      if (!colon)
      {
        fprintf(stderr, "--digest takes USER:PASSWORD\n");
        return 2;
      }
      *colon = '\0';
      da_user = up;
      da_pass = colon + 1;
    }
    else if (!strcmp(argv[i], "--digest-alg") && i + 1 < argc)
    {
      i++;
      if (!strcmp(argv[i], "md5"))
        alg = http_da_md5();
      else if (!strcmp(argv[i], "sha256"))
        alg = http_da_sha256();
      else
      {
        fprintf(stderr, "--digest-alg takes md5 or sha256\n");
        return 2;
      }
    }
    else if (!strcmp(argv[i], "--stale-after") && i + 1 < argc)
      stale_after = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--docs") && i + 1 < argc)
      docs_dir = argv[++i];
    else if (!strcmp(argv[i], "--tls") && i + 2 < argc)
    {
      keyfile = argv[++i];
      cafile = argv[++i];
      use_tls = 1;
    }
    else
      rest[n++] = argv[i];
  }

  soap = soap_new1(SOAP_IO_KEEPALIVE | SOAP_XML_STRICT);
  soap->send_timeout = 30;
  soap->recv_timeout = 30;
  send_header = soap->fposthdr;
  soap->fposthdr = stale_posthdr;
  soap->fget = serve_get;
  if (soap_register_plugin_arg(soap, http_da, alg))
  {
    soap_print_fault(soap, stderr);
    return 1;
  }
  if (use_tls)
  {
    soap_ssl_init();
    if (soap_ssl_server_context(soap, SOAP_SSL_REQUIRE_CLIENT_AUTHENTICATION | SOAP_TLSv1_2 | SOAP_TLSv1_3,
                                keyfile, NULL, cafile, NULL, NULL, NULL, NULL))
    {
      soap_print_fault(soap, stderr);
      return 1;
    }
  }
  return peer_run(n, rest, soap, serve_requests);
}
