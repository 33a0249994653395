/*
 * gSOAP's generated C client of echo.wsdl: one call, for soapgen's tests of servers (the
 * loopback fake, tests/tests/mapping/fake.rs).
 *
 * Built by build.sh: wsdl2h -c echo.wsdl -> soapcpp2 -c -> gcc client.c soapClient.c soapC.c
 *
 * Usage: echo-client URL 11|12 echo TEXT
 *        echo-client URL 11|12 fail REASON
 *        echo-client URL 11|12 whoami
 *   11 calls through the SOAP 1.1 binding (soap_call___g__echo), 12 through the SOAP 1.2 one
 *   (soap_call___g__echo_). Prints one line:
 *     result <text>
 *   or, for a SOAP fault,
 *     fault <code>|<reason>|<FailDetail reason or ->|<FailDetail code or ->
 *   and exits 0; exits 2 on a transport error or wrong usage.
 */
#include "soapH.h"
#include "EchoSoap11Binding.nsmap"

#include <stdio.h>
#include <string.h>

static int report(struct soap *soap, int rc, const char *text) {
  if (rc == SOAP_OK) {
    printf("result %s\n", text ? text : "");
    return 0;
  }
  if (!soap->fault || (rc != SOAP_FAULT && rc != SOAP_CLI_FAULT && rc != SOAP_SVR_FAULT)) {
    soap_print_fault(soap, stderr);
    return 2;
  }
  struct SOAP_ENV__Detail *d =
      soap->version == 2 ? soap->fault->SOAP_ENV__Detail : soap->fault->detail;
  const char *code = *soap_faultcode(soap);
  const char *reason = *soap_faultstring(soap);
  if (d && d->g__FailDetail)
    printf("fault %s|%s|%s|%d\n", code ? code : "", reason ? reason : "",
           d->g__FailDetail->reason ? d->g__FailDetail->reason : "", d->g__FailDetail->code);
  else
    printf("fault %s|%s|-|-\n", code ? code : "", reason ? reason : "");
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: echo-client URL 11|12 echo|fail|whoami [ARG]\n");
    return 2;
  }
  const char *url = argv[1];
  int v12 = strcmp(argv[2], "12") == 0;
  const char *op = argv[3];
  const char *arg = argc > 4 ? argv[4] : "";
  struct soap *soap = soap_new1(SOAP_C_UTFSTRING);
  int out;
  if (!strcmp(op, "echo")) {
    struct _g__echo req;
    struct _g__echoResponse resp;
    soap_default__g__echo(soap, &req);
    soap_default__g__echoResponse(soap, &resp);
    req.text = (char *)arg;
    int rc = v12 ? soap_call___g__echo_(soap, url, NULL, &req, &resp)
                 : soap_call___g__echo(soap, url, NULL, &req, &resp);
    out = report(soap, rc, resp.text);
  } else if (!strcmp(op, "fail")) {
    struct _g__fail req;
    struct _g__failResponse resp;
    soap_default__g__fail(soap, &req);
    soap_default__g__failResponse(soap, &resp);
    req.reason = (char *)arg;
    int rc = v12 ? soap_call___g__fail_(soap, url, NULL, &req, &resp)
                 : soap_call___g__fail(soap, url, NULL, &req, &resp);
    out = report(soap, rc, "");
  } else if (!strcmp(op, "whoami")) {
    struct _g__whoami req;
    struct _g__whoamiResponse resp;
    soap_default__g__whoami(soap, &req);
    soap_default__g__whoamiResponse(soap, &resp);
    int rc = v12 ? soap_call___g__whoami_(soap, url, NULL, &req, &resp)
                 : soap_call___g__whoami(soap, url, NULL, &req, &resp);
    out = report(soap, rc, resp.user);
  } else {
    fprintf(stderr, "unknown operation %s\n", op);
    out = 2;
  }
  soap_destroy(soap);
  soap_end(soap);
  soap_free(soap);
  return out;
}
