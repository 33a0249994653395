/*
 * gSOAP type-substitution echo peer for soapgen (see tests/wsdl/polymorphism.wsdl).
 *
 * Built by build.sh: wsdl2h (C++) polymorphism.wsdl -> soapcpp2 -S -> g++ ... -lgsoap++.
 * In C++ gSOAP maps complexContent extension to class inheritance: it reads
 * each element's xsi:type into an instance of that class (a p__Puppy where a
 * p__Animal* is declared) and writes the instance's own xsi:type back, so a
 * derived value soapgen sends must survive gSOAP's object model, fields and
 * all.  (gSOAP maps complexContent restriction to an unrelated class: a Bike
 * cannot sit where a Vehicle is declared; see tests/tests/polymorphism.rs.)
 *
 * Usage: polymorphism-server [--port N] [--host ADDR] [--exit-with-parent]
 *   (../common/peer_main.c) prints "LISTENING <port>", serves forever.
 *
 * Operation (namespace urn:soapgen:poly, document/literal bare): EchoZoo(Zoo)
 * returns the Zoo element it received.
 */
#include "soapH.h"
#include "PolymorphismBinding.nsmap"

extern "C" {
#include "peer_main.h"
}

#include <cstdio>

#define IDLE_TIMEOUT_SECS 30

int __p__EchoZoo(struct soap *soap, _p__Zoo *in, struct __p__EchoZooResponse &out)
{
  if (!in)
    return soap_sender_fault(soap, "EchoZoo: no request element", NULL);
  out.p__Zoo = in;
  return SOAP_OK;
}

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
    std::fprintf(stderr, "soap_new2 failed\n");
    return 1;
  }
  soap->send_timeout = IDLE_TIMEOUT_SECS;
  soap->recv_timeout = IDLE_TIMEOUT_SECS;
  return peer_run(argc, argv, soap, serve_requests);
}
