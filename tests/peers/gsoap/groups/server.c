/*
 * gSOAP model-group echo peer for soapgen (see tests/wsdl/groups.wsdl).
 *
 * Built by build.sh: wsdl2h -c groups.wsdl -> soapcpp2 -c -S -> gcc ... -lgsoap.
 * gSOAP reads each request into its own C types (choices as unions with a
 * selector, repeated choices and sequences as arrays of structs) and writes
 * the same value back: every value soapgen sends must survive gSOAP's model
 * of the schema, not only soapgen's own reader.
 *
 * Usage: groups-server [--port N] [--host ADDR] [--exit-with-parent]
 *   (../common/peer_main.c) prints "LISTENING <port>", serves forever.
 *
 * Operations (namespace urn:soapgen:groups, document/literal bare): each
 * EchoX(X) returns the X element it received.
 */
#include "soapH.h"
#include "GroupsBinding.nsmap"

#include "peer_main.h"

#include <stdio.h>

#define IDLE_TIMEOUT_SECS 30

#define ECHO(op, type, field)                                                      \
  int __g__##op(struct soap *soap, type *in, struct __g__##op##Response *out)      \
  {                                                                                \
    if (!in)                                                                       \
      return soap_sender_fault(soap, #op ": no request element", NULL);            \
    out->field = in;                                                               \
    return SOAP_OK;                                                                \
  }

ECHO(EchoTwoChoices, struct _g__TwoChoices, g__TwoChoices)
ECHO(EchoColored, struct g__ColoredShape, g__Colored)
ECHO(EchoLists, struct _g__Lists, g__Lists)
ECHO(EchoNested, struct _g__Nested, g__Nested)
ECHO(EchoPicked, struct _g__Picked, g__Picked)
ECHO(EchoTwice, struct _g__Twice, g__Twice)
ECHO(EchoRows, struct _g__Rows, g__Rows)

static void serve_requests(struct soap *soap)
{
  soap_serve(soap);
}

int main(int argc, char **argv)
{
  /* UTF-8 strings, keep-alive, XML tree (no multi-reference ids). */
  struct soap *soap = soap_new2(SOAP_C_UTFSTRING | SOAP_IO_KEEPALIVE | SOAP_XML_TREE,
                                SOAP_C_UTFSTRING | SOAP_IO_KEEPALIVE | SOAP_XML_TREE);
  if (!soap)
  {
    fprintf(stderr, "soap_new2 failed\n");
    return 1;
  }
  soap->send_timeout = IDLE_TIMEOUT_SECS;
  soap->recv_timeout = IDLE_TIMEOUT_SECS;
  return peer_run(argc, argv, soap, serve_requests);
}
