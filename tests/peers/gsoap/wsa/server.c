/*
 * gSOAP WS-Addressing peer for soapgen (see build.sh): the Echo operation of urn:soapgen:wsa
 * behind gSOAP's wsaapi plugin, built twice: wsa5-server (WS-Addressing 1.0, import/wsa5.h,
 * -DSOAP_WSA_2005) and wsa-server (the 2004/08 submission, import/wsa.h).
 *
 * Usage: wsa5-server|wsa-server [--port N] [--host ADDR] [--exit-with-parent]
 *   (../common/peer_main.c) prints "LISTENING <port>", serves forever, SOAP 1.1 and 1.2 (the
 *   reply is in the request's version).
 *
 * A request is refused with a SOAP fault from the plugin (soap_wsa_sender_fault) unless it has
 * wsa:Action equal to urn:soapgen:wsa:AddressedEcho:EchoRequest, a wsa:MessageID, a wsa:To and
 * a wsa:ReplyTo whose Address is this version's anonymous URI (so a client speaking the other
 * version, which gSOAP also parses, is told apart).  gSOAP itself faults on a header block with
 * mustUnderstand="1" it does not know (SOAP 1.1 §4.2.3), such as h:Unknown.
 *
 * The reply (soap_wsa_reply): wsa:Action = ...:EchoResponse with mustUnderstand="1",
 * wsa:RelatesTo = the request's MessageID, and the blocks h:Session (mustUnderstand, "session-"
 * + the request's h:Tenant) and h:Note ("from gSOAP"); its body echoes text and what the peer
 * received.  The path changes the reply: /wrong-relates relates it to another message,
 * /no-relates leaves wsa:RelatesTo out, /no-session leaves h:Session out, /wrong-action gives
 * it the wsa:Action ...:OtherResponse.  /relay accepts a non-anonymous wsa:ReplyTo, to which
 * the plugin then relays the reply (answering the request with HTTP 202).  /refuse answers with
 * the plugin's sender fault (wsa:Action .../soap/fault; relayed to a non-anonymous wsa:FaultTo
 * by the plugin), /refuse-declared with the same fault carrying the WSDL fault's action
 * ...:Echo:Fault:Refused (WS-Addressing Metadata's default pattern).
 */
#include "soapH.h"
#include "AddressedEcho.nsmap"
#include "wsaapi.h"

#include "peer_main.h"

#include <stdio.h>
#include <string.h>

#define IDLE_TIMEOUT_SECS 30
#define REQUEST_ACTION "urn:soapgen:wsa:AddressedEcho:EchoRequest"
#define RESPONSE_ACTION "urn:soapgen:wsa:AddressedEcho:EchoResponse"
#define OTHER_ACTION "urn:soapgen:wsa:AddressedEcho:OtherResponse"
#define REFUSED_ACTION "urn:soapgen:wsa:AddressedEcho:Echo:Fault:Refused"

#ifdef SOAP_WSA_2005
#define ANONYMOUS "http://www.w3.org/2005/08/addressing/anonymous"
#else
#define ANONYMOUS "http://schemas.xmlsoap.org/ws/2004/08/addressing/role/anonymous"
#endif

int w__Echo(struct soap *soap, char *text, struct w__EchoResponse *out)
{
  struct SOAP_ENV__Header *h;
  const char *path = soap->path;
  const char *tenant;
  if (soap_wsa_check(soap))
    return soap->error;
  h = soap->header;
  if (!h->SOAP_WSA(MessageID))
    return soap_wsa_sender_fault(soap, "no wsa:MessageID", NULL);
  if (!h->SOAP_WSA(To))
    return soap_wsa_sender_fault(soap, "no wsa:To", NULL);
  if (strcmp(h->SOAP_WSA(Action), REQUEST_ACTION))
    return soap_wsa_sender_fault(soap, "wsa:Action is not " REQUEST_ACTION, h->SOAP_WSA(Action));
  if (!h->SOAP_WSA(ReplyTo) || !h->SOAP_WSA(ReplyTo)->Address
      || (strcmp(h->SOAP_WSA(ReplyTo)->Address, ANONYMOUS) && !strstr(path, "/relay")))
    return soap_wsa_sender_fault(soap, "wsa:ReplyTo is not " ANONYMOUS, NULL);
  if (strstr(path, "/refuse"))
  {
    int err = soap_wsa_sender_fault(soap, "refused as asked", NULL);
    /* The fault's header (the plugin's, or none when it went to wsa:FaultTo). */
    if (strstr(path, "/refuse-declared") && soap->header && soap->header->SOAP_WSA(Action))
      soap->header->SOAP_WSA(Action) = REFUSED_ACTION;
    return err;
  }
  out->text = text;
  out->action = h->SOAP_WSA(Action);
  out->to = h->SOAP_WSA(To);
  out->messageID = h->SOAP_WSA(MessageID);
  out->replyTo = h->SOAP_WSA(ReplyTo)->Address;
  out->tenant = h->h__Tenant;
  out->locale = h->h__Locale;
  tenant = h->h__Tenant ? h->h__Tenant : "";
  if (soap_wsa_reply(soap, NULL, RESPONSE_ACTION))
    return soap->error;
  h = soap->header; /* the reply's */
  h->h__Tenant = NULL;
  h->h__Locale = NULL;
  if (!strstr(path, "/no-session"))
  {
    size_t n = strlen(tenant) + 9;
    h->h__Session = (char *)soap_malloc(soap, n);
    snprintf(h->h__Session, n, "session-%s", tenant);
  }
  h->h__Note = "from gSOAP";
  if (strstr(path, "/wrong-relates") && h->SOAP_WSA(RelatesTo))
    h->SOAP_WSA(RelatesTo)->__item = "urn:uuid:00000000-0000-4000-8000-000000000000";
  if (strstr(path, "/no-relates"))
    h->SOAP_WSA(RelatesTo) = NULL;
  if (strstr(path, "/wrong-action"))
    h->SOAP_WSA(Action) = OTHER_ACTION;
  return SOAP_OK;
}

/* wsa.h / wsa5.h declare a one-way SOAP_ENV__Fault operation (for relayed faults): this peer
 * relays none and accepts none. */
int SOAP_ENV__Fault(struct soap *soap, char *faultcode, char *faultstring, char *faultactor,
                    struct SOAP_ENV__Detail *detail, struct SOAP_ENV__Code *code,
                    struct SOAP_ENV__Reason *reason, char *node, char *role,
                    struct SOAP_ENV__Detail *detail12)
{
  (void)faultcode; (void)faultstring; (void)faultactor; (void)detail; (void)code;
  (void)reason; (void)node; (void)role; (void)detail12;
  return soap_sender_fault(soap, "this peer accepts no relayed faults", NULL);
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
  if (soap_register_plugin(soap, soap_wsa))
  {
    soap_print_fault(soap, stderr);
    return 1;
  }
  soap->send_timeout = IDLE_TIMEOUT_SECS;
  soap->recv_timeout = IDLE_TIMEOUT_SECS;
  return peer_run(argc, argv, soap, serve_requests);
}
