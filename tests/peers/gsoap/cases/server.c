/*
 * gSOAP peer for soapgen's issue-4 cases (see the WSDLs in tests/wsdl/cases; build.sh generates one
 * server for the five WSDLs with wsdl2h -c and soapcpp2 -c -S, dispatching on the request element).
 *
 * Usage: cases-server [--port N] [--host ADDR] [--exit-with-parent]
 *   (../common/peer_main.c) prints "LISTENING <port>", serves forever.
 *
 * subcode.wsdl (urn:soapgen:cases:subcode, SOAP 1.2):
 *   Check(value) echoes value, except (SOAP 1.2 Part 1 §5.4.1, Code/Value env:Sender, HTTP 400):
 *   "bad"      one Subcode, sc:Invalid: gSOAP writes the prefix sc, which is declared on the
 *              Envelope (an ancestor of the Value);
 *   "bad deep" the Subcode chain sc:Invalid / {urn:soapgen:cases:extra}TooDeep / sc:Last: for
 *              gSOAP's "URI":local form it declares a fresh prefix (_0) for
 *              urn:soapgen:cases:extra on the Subcode element around that Value, so that
 *              binding is in scope for the second Value only.
 *   Repeat(value, times) returns value `times` times (none for 0 or less, although the WSDL says
 *   at least one: gSOAP does not check what it sends).
 * unqualified.wsdl (urn:soapgen:cases:unq): Echo(order) returns the order gSOAP decoded (its
 *   unqualified children id, item, code read and written in no namespace).
 * no_namespace.wsdl: Ping(point...) (elements in no namespace) returns count = the sum of x + y
 *   over the points.
 * any_type.wsdl (urn:soapgen:cases:anytype): Echo(holder) returns the content of holder's blob,
 *   then of its Note if present, as blob elements (gSOAP keeps anyType content as literal XML).
 * xmime.wsdl (urn:soapgen:cases:xmime): Echo(photo) returns photo's data once per character of its
 *   name.
 */
#include "soapH.h"
#include "SubcodeBinding.nsmap" /* every namespace of the five WSDLs */

#include "peer_main.h"

#include <stdio.h>
#include <string.h>

#define IDLE_TIMEOUT_SECS 30

/* A Subcode holding value, for the chain under an existing Code. */
static struct SOAP_ENV__Code *subcode(struct soap *soap, const char *value)
{
  struct SOAP_ENV__Code *c = (struct SOAP_ENV__Code *)soap_malloc(soap, sizeof(*c));
  if (!c)
    return NULL;
  soap_default_SOAP_ENV__Code(soap, c);
  c->SOAP_ENV__Value = soap_strdup(soap, value);
  return c;
}

int __sc__Check(struct soap *soap, struct _sc__Check *in, struct _sc__CheckResponse *out)
{
  const char *v = in && in->value ? in->value : "";
  if (!strcmp(v, "bad"))
    return soap_sender_fault_subcode(soap, "sc:Invalid", "invalid value: bad", NULL);
  if (!strcmp(v, "bad deep"))
  {
    struct SOAP_ENV__Code *first, *second;
    soap_sender_fault_subcode(soap, "sc:Invalid", "invalid value: bad deep", NULL);
    /* soap_sender_fault_subcode made Code/Value env:Sender and Code/Subcode/Value sc:Invalid. */
    if (!soap->fault || !soap->fault->SOAP_ENV__Code || !soap->fault->SOAP_ENV__Code->SOAP_ENV__Subcode)
      return soap_receiver_fault(soap, "no fault to extend", NULL);
    first = soap->fault->SOAP_ENV__Code->SOAP_ENV__Subcode;
    second = subcode(soap, "\"urn:soapgen:cases:extra\":TooDeep");
    if (!second)
      return SOAP_EOM;
    second->SOAP_ENV__Subcode = subcode(soap, "sc:Last");
    first->SOAP_ENV__Subcode = second;
    return SOAP_FAULT;
  }
  out->value = soap_strdup(soap, v);
  return SOAP_OK;
}

int __sc__Repeat(struct soap *soap, struct _sc__Repeat *in, struct _sc__RepeatResponse *out)
{
  int i, n = in && in->times > 0 ? in->times : 0;
  if (n > 1000)
    return soap_sender_fault(soap, "times over 1000", NULL);
  out->__sizeitem = n;
  out->item = n ? (char **)soap_malloc(soap, (size_t)n * sizeof(char *)) : NULL;
  if (n && !out->item)
    return SOAP_EOM;
  for (i = 0; i < n; i++)
    out->item[i] = soap_strdup(soap, in->value ? in->value : "");
  return SOAP_OK;
}

int __u__Echo(struct soap *soap, struct _u__Echo *in, struct _u__EchoResponse *out)
{
  (void)soap;
  out->order = in ? in->order : NULL;
  return SOAP_OK;
}

int __nons__Ping(struct soap *soap, struct Ping *in, struct PingResponse *out)
{
  int i;
  (void)soap;
  out->count = 0;
  for (i = 0; in && i < in->__sizepoint; i++)
    out->count += in->point[i].x + in->point[i].y;
  return SOAP_OK;
}

int __at__Echo(struct soap *soap, struct _at__Echo *in, struct _at__EchoResponse *out)
{
  struct at__Holder *h = in ? in->holder : NULL;
  if (!h)
    return soap_sender_fault(soap, "no holder", NULL);
  out->__sizeblob = h->Note ? 2 : 1;
  out->blob = (char **)soap_malloc(soap, 2 * sizeof(char *));
  if (!out->blob)
    return SOAP_EOM;
  out->blob[0] = h->blob;
  out->blob[1] = h->Note;
  return SOAP_OK;
}

int __xm__Echo(struct soap *soap, struct _xm__Echo *in, struct _xm__EchoResponse *out)
{
  int i, n;
  struct xm__Photo *p = in ? in->photo : NULL;
  if (!p || !p->name)
    return soap_sender_fault(soap, "no photo", NULL);
  n = (int)strlen(p->name);
  out->__sizedata = n;
  out->data = n ? (struct xsd__base64Binary *)soap_malloc(soap, (size_t)n * sizeof(*out->data)) : NULL;
  if (n && !out->data)
    return SOAP_EOM;
  for (i = 0; i < n; i++)
    out->data[i] = p->data;
  return SOAP_OK;
}

static void serve_requests(struct soap *soap)
{
  soap_serve(soap);
}

int main(int argc, char **argv)
{
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
