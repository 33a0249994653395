/*
 * gSOAP interop peer for soapgen (see echo.wsdl).
 *
 * Built by build.sh: wsdl2h -c echo.wsdl -> soapcpp2 -c -S -> gcc ... -lgsoap
 *
 * Usage: echo-server [--port N] [--host ADDR] [--exit-with-parent]
 *   (common/peer_main.c) Binds ADDR (default 127.0.0.1) port N (default 0 =
 *   any free port), prints exactly one line "LISTENING <port>" on stdout,
 *   then serves forever.
 *   Every accepted connection is served on its own thread with HTTP
 *   keep-alive; idle connections are dropped after 30 s.  Request paths are
 *   ignored (/soap11, /soap12, / ... all reach the same dispatcher); the SOAP
 *   version of a reply follows the envelope namespace of the request.
 *   --exit-with-parent: exit as soon as the parent process dies (used by the
 *   Rust test harness so that a killed test binary leaves no server behind).
 *
 * Operations (namespace urn:soapgen:gsoap, prefix g):
 *   echo(text)    -> text
 *   fail(reason)  -> always a fault: "failed: <reason>", Client (1.1) /
 *                    Sender + Subcode g:InvalidReason (1.2), detail
 *                    <g:FailDetail><g:reason/><g:code>42</g:code></g:FailDetail>
 *   whoami()      -> "user/token" from the <g:Auth> SOAP header,
 *                    Client/Sender fault "missing Auth header" without it.
 */
#include "soapH.h"
#include "EchoSoap11Binding.nsmap"

#include "peer_main.h"

#include <stdio.h>
#include <string.h>

#define FAIL_CODE 42
#define FAIL_SUBCODE "g:InvalidReason"
#define IDLE_TIMEOUT_SECS 30

/* Never echo the request's SOAP header back in the response (gSOAP would
 * otherwise serialize soap->header, i.e. the client's token, into replies). */
static void drop_header(struct soap *soap) { soap->header = NULL; }

static char *join3(struct soap *soap, const char *a, const char *sep, const char *b)
{
  size_t n = strlen(a) + strlen(sep) + strlen(b) + 1;
  char *s = (char *)soap_malloc(soap, n);
  if (s)
    snprintf(s, n, "%s%s%s", a, sep, b);
  return s;
}

/* Client (SOAP 1.1) / Sender (SOAP 1.2) fault, optional 1.2 subcode. */
static int sender_fault(struct soap *soap, const char *msg, const char *subcode12)
{
  if (soap->version == 2 && subcode12)
    return soap_sender_fault_subcode(soap, subcode12, msg, NULL);
  return soap_sender_fault(soap, msg, NULL);
}

static int do_echo(struct soap *soap, struct _g__echo *req, struct _g__echoResponse *resp)
{
  drop_header(soap);
  resp->text = (req && req->text) ? req->text : (char *)"";
  return SOAP_OK;
}

static int do_fail(struct soap *soap, struct _g__fail *req, struct _g__failResponse *resp)
{
  const char *reason = (req && req->reason) ? req->reason : "";
  struct _g__FailDetail *fd;
  struct SOAP_ENV__Detail *detail;
  int rc;
  (void)resp;

  drop_header(soap);
  rc = sender_fault(soap, join3(soap, "failed: ", "", reason), FAIL_SUBCODE);

  fd = (struct _g__FailDetail *)soap_malloc(soap, sizeof(*fd));
  detail = (struct SOAP_ENV__Detail *)soap_malloc(soap, sizeof(*detail));
  if (!fd || !detail)
    return soap->error = SOAP_EOM;
  soap_default__g__FailDetail(soap, fd);
  soap_default_SOAP_ENV__Detail(soap, detail);
  fd->reason = (char *)reason;
  fd->code = FAIL_CODE;
  detail->g__FailDetail = fd;
  if (soap->version == 2)
    soap->fault->SOAP_ENV__Detail = detail; /* <SOAP-ENV:Detail> */
  else
    soap->fault->detail = detail;           /* <detail> */
  return rc;
}

static int do_whoami(struct soap *soap, struct _g__whoami *req, struct _g__whoamiResponse *resp)
{
  struct _g__Auth *auth = soap->header ? soap->header->g__Auth : NULL;
  (void)req;

  drop_header(soap);
  if (!auth || !auth->user || !auth->token)
    return sender_fault(soap, "missing Auth header", NULL);
  resp->user = join3(soap, auth->user, "/", auth->token);
  return SOAP_OK;
}

/* wsdl2h collects both bindings (SOAP 1.1 + 1.2) into one service, so every
 * operation exists twice; the dispatcher only ever reaches the first one
 * (same request element), the "_" twins must exist for linking. */
int __g__echo(struct soap *soap, struct _g__echo *req, struct _g__echoResponse *resp)
{ return do_echo(soap, req, resp); }
int __g__echo_(struct soap *soap, struct _g__echo *req, struct _g__echoResponse *resp)
{ return do_echo(soap, req, resp); }
int __g__fail(struct soap *soap, struct _g__fail *req, struct _g__failResponse *resp)
{ return do_fail(soap, req, resp); }
int __g__fail_(struct soap *soap, struct _g__fail *req, struct _g__failResponse *resp)
{ return do_fail(soap, req, resp); }
int __g__whoami(struct soap *soap, struct _g__whoami *req, struct _g__whoamiResponse *resp)
{ return do_whoami(soap, req, resp); }
int __g__whoami_(struct soap *soap, struct _g__whoami *req, struct _g__whoamiResponse *resp)
{ return do_whoami(soap, req, resp); }

/* Same loop as the generated soap_serve() (soapServer.c), except for one
 * case: a POST whose body is not a SOAP envelope (not XML, wrong envelope
 * namespace, bare payload without Envelope) makes soap_begin_serve() fail with
 * SOAP_POST ("non-SOAP POST, let fform handle it"); stock soap_serve() then
 * sends NO response at all and, on a keep-alive connection, waits for the
 * next request until recv_timeout.  Answer such requests with a Sender fault
 * and close the connection instead. */
struct conn_state
{
  int (*parsehdr)(struct soap *, const char *, const char *); /* gSOAP's own */
  int soap12_content_type; /* request Content-Type is application/soap+xml */
};

static int parse_http_header(struct soap *soap, const char *key, const char *val)
{
  struct conn_state *st = (struct conn_state *)soap->user;
  if (key && !soap_tag_cmp(key, "Content-Type"))
    st->soap12_content_type = val && !soap_tag_cmp(val, "application/soap+xml*");
  return st->parsehdr(soap, key, val);
}

static void serve_requests(struct soap *soap)
{
  struct conn_state st;
  st.parsehdr = soap->fparsehdr;
  st.soap12_content_type = 0;
  soap->user = &st;
  soap->fparsehdr = parse_http_header;

  soap->keep_alive = soap->max_keep_alive + 1;
  do
  {
    if (soap->keep_alive > 0 && soap->max_keep_alive > 0)
      soap->keep_alive--;
    st.soap12_content_type = 0;
    if (soap_begin_serve(soap))
    {
      if (soap->error == SOAP_POST)
      {
        /* No envelope to take the version from: go by the Content-Type. */
        soap_set_version(soap, st.soap12_content_type ? 2 : 1);
        soap->keep_alive = 0;
        soap_sender_fault(soap, "request body is not a SOAP 1.1 or SOAP 1.2 envelope", NULL);
        soap_send_fault(soap);
        return;
      }
      if (soap->error >= SOAP_STOP)
        continue;
      return; /* soap_begin_serve already sent the fault (or the peer left) */
    }
    if (soap_serve_request(soap) && soap->error && soap->error < SOAP_STOP)
    {
      /* Operation faults (fail, whoami without header) and request
       * validation errors end up here; gSOAP closes the connection after a
       * fault ("Connection: close"). */
      soap_send_fault(soap);
      return;
    }
  } while (soap->keep_alive);
}

int main(int argc, char **argv)
{
  /* UTF-8 char* strings in and out; strict input validation (unknown or
   * unqualified elements are rejected instead of silently ignored); HTTP
   * keep-alive. */
  struct soap *soap = soap_new2(SOAP_C_UTFSTRING | SOAP_XML_STRICT | SOAP_IO_KEEPALIVE,
                                SOAP_C_UTFSTRING | SOAP_IO_KEEPALIVE);
  if (!soap)
  {
    fprintf(stderr, "soap_new2 failed\n");
    return 1;
  }
  soap->send_timeout = IDLE_TIMEOUT_SECS;
  soap->recv_timeout = IDLE_TIMEOUT_SECS;
  /* Command line, bind, "LISTENING <port>", a thread per connection. */
  return peer_run(argc, argv, soap, serve_requests);
}
