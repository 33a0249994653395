/*
 * gSOAP echo peer of the XSD kinds for soapgen (see tests/wsdl/kinds.wsdl).
 *
 * Built by build.sh: wsdl2h -c -d kinds.wsdl -> soapcpp2 -c -S -> gcc ... -lgsoap.
 * gSOAP reads each request into its own C types (substitution groups as
 * unions with a selector, derived types as flat structs, enumerations as C
 * enums, a list of enumerations as a bit mask, nillable and optional elements
 * as pointers, wildcards, mixed content and xs:anyType as DOM nodes, an
 * element with no type as a literal XML string) and writes the same value
 * back: every value soapgen sends must survive gSOAP's model of the schema,
 * not only soapgen's own reader.
 *
 * Usage: kinds-server [--port N] [--host ADDR] [--exit-with-parent]
 *   (../common/peer_main.c) prints "LISTENING <port>", serves forever.
 *
 * Operations (namespace urn:soapgen:kinds, document/literal wrapped): each
 * EchoX(v) returns the v it received in EchoXResponse.
 */
#include "soapH.h"
#include "KindsBinding.nsmap"

#include "peer_main.h"

#include <stdio.h>

#define IDLE_TIMEOUT_SECS 30

#define ECHO(op)                                                                         \
  int __k__##op(struct soap *soap, struct _k__##op *in, struct _k__##op##Response *out) \
  {                                                                                      \
    if (!in || !in->v)                                                                   \
      return soap_sender_fault(soap, #op ": no v in the request", NULL);                \
    out->v = in->v;                                                                      \
    return SOAP_OK;                                                                      \
  }

ECHO(EchoSubstSeq)
ECHO(EchoSubstAll)
ECHO(EchoSubstMany)
ECHO(EchoDerived)
ECHO(EchoSimple)
ECHO(EchoNils)
ECHO(EchoDefaults)
ECHO(EchoOpen)
ECHO(EchoMixed)
ECHO(EchoAnything)
ECHO(EchoNames)

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
