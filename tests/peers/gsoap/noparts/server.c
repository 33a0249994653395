/*
 * gSOAP peer for soapgen's empty requests (see tests/wsdl/noparts.wsdl).
 *
 * Built by build.sh: wsdl2h -c noparts.wsdl -> soapcpp2 -a -c -S -> gcc ... -lgsoap.
 * Every input message of the WSDL has no parts, so every request's Body is empty: gSOAP picks
 * the operation by SOAPAction (-a) and its generated code then expects the Body to end.
 *
 * Usage: noparts-server [--port N] [--host ADDR] [--exit-with-parent]
 *   (../common/peer_main.c) prints "LISTENING <port>", serves forever.
 *
 * Operations (namespace urn:soapgen:noparts, document/literal):
 *   Touch     counts one call; its response Body is empty too;
 *   GetCount  returns <CountResponse><count>N</count></CountResponse>, N the Touch calls so far.
 */
#include "soapH.h"
#include "NoPartsBinding.nsmap"

#include "peer_main.h"

#include <stdio.h>

#define IDLE_TIMEOUT_SECS 30

/* Touch calls so far; connections are served on threads of their own. */
static int touches;

int __np__Touch(struct soap *soap, struct __np__TouchResponse *out)
{
  (void)soap;
  (void)out;
  __atomic_add_fetch(&touches, 1, __ATOMIC_SEQ_CST);
  return SOAP_OK;
}

int __np__GetCount(struct soap *soap, struct _np__CountResponse *out)
{
  (void)soap;
  out->count = __atomic_load_n(&touches, __ATOMIC_SEQ_CST);
  return SOAP_OK;
}

static void serve_requests(struct soap *soap)
{
  soap_serve(soap);
}

int main(int argc, char **argv)
{
  /* UTF-8 strings, keep-alive; XML_STRICT: content the schema does not allow is an error. */
  struct soap *soap = soap_new2(SOAP_C_UTFSTRING | SOAP_IO_KEEPALIVE | SOAP_XML_STRICT,
                                SOAP_C_UTFSTRING | SOAP_IO_KEEPALIVE);
  if (!soap)
  {
    fprintf(stderr, "soap_new2 failed\n");
    return 1;
  }
  soap->send_timeout = IDLE_TIMEOUT_SECS;
  soap->recv_timeout = IDLE_TIMEOUT_SECS;
  return peer_run(argc, argv, soap, serve_requests);
}
