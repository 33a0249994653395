/*
 * What the peers' one-call gSOAP clients (client.c beside each server) print for a failed call:
 * a SOAP fault as the line "fault <code>|<reason>" (exit status 0: a fault is an answer), any
 * other failure (transport, protocol) with gSOAP's own report on stderr (exit status 2).
 *
 * Include after soapH.h. common/ is on the include path of every peer build (lib.sh).
 */
#ifndef PEER_CLIENT_H
#define PEER_CLIENT_H

#include <stdio.h>

/* The exit status of a call that returned `rc` (not SOAP_OK), its line printed. */
static int peer_client_failed(struct soap *soap, int rc)
{
  if (soap->fault && (rc == SOAP_FAULT || rc == SOAP_CLI_FAULT || rc == SOAP_SVR_FAULT)) {
    const char *code = *soap_faultcode(soap);
    const char *reason = *soap_faultstring(soap);
    printf("fault %s|%s\n", code ? code : "", reason ? reason : "");
    return 0;
  }
  soap_print_fault(soap, stderr);
  return 2;
}

#endif
