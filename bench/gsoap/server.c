/*
 * gSOAP server of tests/wsdl/large_objects.wsdl for soapgen's side-by-side benchmark
 * (bench/run.sh).  Built by build.sh: wsdl2h -c -> soapcpp2 -c -> gcc -O2.
 *
 * Usage: lo-server [--port N] [--exit-with-parent]
 *   Binds 127.0.0.1 port N (0 = any free port), prints one line "LISTENING <port>", serves forever
 *   (that part is tests/peers/gsoap/common/peer_main.c, see main()).
 *   A thread per connection, HTTP keep-alive without a request limit.  Any path; the reply's SOAP
 *   version follows the request envelope (1.1 or 1.2).
 *
 * Operations (urn:soapgen:bench): Echo(item*) -> the same items; Ping(value) -> value.
 */
#include "soapH.h"
#include "LargeObjectsSoap11.nsmap"

#include "peer_main.h"

static int do_echo(struct soap *soap, struct _b__Echo *req, struct _b__EchoResponse *resp)
{
  (void)soap;
  resp->__sizeitem = req ? req->__sizeitem : 0;
  resp->item = req ? req->item : NULL;
  return SOAP_OK;
}

static int do_ping(struct soap *soap, struct _b__Ping *req, struct _b__PingResponse *resp)
{
  (void)soap;
  resp->value = (req && req->value) ? req->value : (char *)"";
  return SOAP_OK;
}

/* wsdl2h puts both bindings in one service: the "_" twins (SOAP 1.2 binding) are never reached by
 * the dispatcher (same request elements) but must exist for linking. */
int __b__Echo(struct soap *s, struct _b__Echo *q, struct _b__EchoResponse *r) { return do_echo(s, q, r); }
int __b__Echo_(struct soap *s, struct _b__Echo *q, struct _b__EchoResponse *r) { return do_echo(s, q, r); }
int __b__Ping(struct soap *s, struct _b__Ping *q, struct _b__PingResponse *r) { return do_ping(s, q, r); }
int __b__Ping_(struct soap *s, struct _b__Ping *q, struct _b__PingResponse *r) { return do_ping(s, q, r); }

static void serve_requests(struct soap *soap)
{
  soap_serve(soap);
}

int main(int argc, char **argv)
{
  /* The benchmark's contract, unlike the test peers': no --host, failed accepts not reported,
   * backlog 1024: the soak's clients open 1,000 connections at once, which a backlog of 128
   * turns into resets while the listener spawns a thread per connection. */
  static const struct peer_options options = {.backlog = 1024, .no_host = 1, .quiet_accept = 1};
  struct soap *soap =
      soap_new2(SOAP_C_UTFSTRING | SOAP_IO_KEEPALIVE, SOAP_C_UTFSTRING | SOAP_IO_KEEPALIVE);
  if (!soap)
    return 1;
  soap->max_keep_alive = 0; /* no limit on requests per connection */
  soap->send_timeout = soap->recv_timeout = 60;
  /* Command line, bind, "LISTENING <port>", a thread per connection
   * (tests/peers/gsoap/common/peer_main.c). */
  return peer_run_with(argc, argv, soap, serve_requests, &options);
}
