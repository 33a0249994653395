/*
 * gSOAP rpc/encoded (SOAP 1.1 section 5) interop peer for soapgen (see
 * encoded.wsdl).
 *
 * Built by build.sh: wsdl2h -c encoded.wsdl -> soapcpp2 -c -S -> gcc ...
 * -lgsoap.  gSOAP serialises rpc/encoded natively: xsi:type on every value,
 * SOAP-ENC arrays with SOAP-ENC:arrayType, and a pointer that appears twice in
 * a reply as one multi-reference value (href="#_1" on each accessor,
 * <id="_1"> as an independent element of the Body).
 *
 * Usage: encoded-server [--port N] [--host ADDR] [--exit-with-parent]
 *   (../common/peer_main.c) Binds ADDR (default 127.0.0.1) port N (default
 *   0 = any free port), prints exactly one line "LISTENING <port>" on
 *   stdout, then serves forever, one thread per connection, HTTP keep-alive.
 *
 * Operations (namespace urn:soapgen:encoded, prefix e):
 *   echoItem(item)       -> the same Item
 *   echoItems(items)     -> the same ArrayOfItem
 *   echoStrings(values)  -> the same strings, then "n=<count>"
 *   getPair(name, count) -> Pair{first, second} where both are the SAME Item
 *                           {name, count} (one pointer: a multiRef value)
 *   describe(name, count, price, active, note)
 *                        -> "name|count|price|active|note" as read ("-" for a
 *                           missing string)
 */
#include "soapH.h"
#include "EncodedBinding.nsmap"

#include "peer_main.h"

#include <stdio.h>

#define IDLE_TIMEOUT_SECS 30

int e__echoItem(struct soap *soap, struct e__Item *item, struct e__echoItemResponse *out)
{
  if (!item)
    return soap_sender_fault(soap, "echoItem: no item", NULL);
  out->return_ = item;
  return SOAP_OK;
}

int e__echoItems(struct soap *soap, struct ArrayOfItem *items, struct e__echoItemsResponse *out)
{
  if (!items)
    return soap_sender_fault(soap, "echoItems: no items", NULL);
  out->return_ = items;
  return SOAP_OK;
}

int e__echoStrings(struct soap *soap, struct ArrayOfString *values,
                   struct e__echoStringsResponse *out)
{
  int n = values ? values->__size : 0;
  int i;
  struct ArrayOfString *a = soap_new_ArrayOfString(soap, 1);
  char *last = (char *)soap_malloc(soap, 32);
  if (!a || !last)
    return SOAP_EOM;
  soap_default_ArrayOfString(soap, a);
  a->__ptr = (char **)soap_malloc(soap, sizeof(char *) * (n + 1));
  for (i = 0; i < n; i++)
    a->__ptr[i] = values->__ptr[i];
  snprintf(last, 32, "n=%d", n);
  a->__ptr[n] = last;
  a->__size = n + 1;
  out->return_ = a;
  return SOAP_OK;
}

int e__getPair(struct soap *soap, char *name, int count, struct e__getPairResponse *out)
{
  struct e__Item *item = soap_new_e__Item(soap, 1);
  struct e__Pair *pair = soap_new_e__Pair(soap, 1);
  if (!item || !pair)
    return SOAP_EOM;
  item->name = name ? name : (char *)"";
  item->count = count;
  pair->first = item;
  pair->second = item; /* the same pointer twice: serialised as href/id */
  out->return_ = pair;
  return SOAP_OK;
}

int e__describe(struct soap *soap, char *name, int count, double price,
                enum xsd__boolean active, char *note, char **return_)
{
  char *out = (char *)soap_malloc(soap, 512);
  if (!out)
    return SOAP_EOM;
  snprintf(out, 512, "%s|%d|%.2f|%s|%s", name ? name : "-", count, price,
           active == xsd__boolean__true_ ? "true" : "false", note ? note : "-");
  *return_ = out;
  return SOAP_OK;
}

static void serve_requests(struct soap *soap)
{
  soap_serve(soap);
}

int main(int argc, char **argv)
{
  /* UTF-8 strings, keep-alive; multi-reference serialisation is gSOAP's
   * default in SOAP 1.1 encoding (no SOAP_XML_TREE). */
  struct soap *soap =
      soap_new2(SOAP_C_UTFSTRING | SOAP_IO_KEEPALIVE, SOAP_C_UTFSTRING | SOAP_IO_KEEPALIVE);
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
