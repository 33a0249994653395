/*
 * gSOAP's generated C client of encoded.wsdl (rpc/encoded, SOAP 1.1 section 5): one call, for
 * soapgen's tests of servers (the loopback fake, tests/tests/mapping/fake_clients.rs).
 *
 * Built by build.sh: wsdl2h -c encoded.wsdl -> soapcpp2 -c -> gcc client.c soapClient.c soapC.c
 *
 * Usage: encoded-client URL echoItem NAME COUNT      -> item NAME|COUNT
 *        encoded-client URL echoItems NAME COUNT...  -> items NAME|COUNT,NAME|COUNT,...
 *        encoded-client URL echoStrings VALUE...     -> strings VALUE,VALUE,...
 *        encoded-client URL getPair NAME COUNT       -> pair NAME|COUNT NAME|COUNT
 *        encoded-client URL describe NAME COUNT PRICE true|false NOTE -> result TEXT
 *   prints one line, the answer as gSOAP read it (or "fault CODE|REASON"), and exits 0; exits 2
 *   on a transport error or wrong usage.
 */
#include "soapH.h"
#include "EncodedBinding.nsmap"

#include "peer_client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void item(struct e__Item *i) {
  if (i)
    printf("%s|%d", i->name ? i->name : "", i->count);
  else
    printf("-");
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: encoded-client URL OPERATION ARG...\n");
    return 2;
  }
  const char *url = argv[1];
  const char *op = argv[2];
  char **args = argv + 3;
  int n = argc - 3;
  struct soap *soap = soap_new1(SOAP_C_UTFSTRING);
  int rc, out = 0;
  if (!strcmp(op, "echoItem") && n == 2) {
    struct e__Item in = {args[0], atoi(args[1])};
    struct e__echoItemResponse resp;
    soap_default_e__echoItemResponse(soap, &resp);
    rc = soap_call_e__echoItem(soap, url, NULL, &in, &resp);
    if (rc != SOAP_OK)
      out = peer_client_failed(soap, rc);
    else {
      printf("item ");
      item(resp.return_);
      printf("\n");
    }
  } else if (!strcmp(op, "echoItems") && n % 2 == 0) {
    struct ArrayOfItem in;
    in.__size = n / 2;
    in.__ptr = soap_malloc(soap, (n / 2 + 1) * sizeof(struct e__Item *));
    for (int i = 0; i < n / 2; i++) {
      in.__ptr[i] = soap_new_e__Item(soap, 1);
      in.__ptr[i]->name = args[2 * i];
      in.__ptr[i]->count = atoi(args[2 * i + 1]);
    }
    struct e__echoItemsResponse resp;
    soap_default_e__echoItemsResponse(soap, &resp);
    rc = soap_call_e__echoItems(soap, url, NULL, &in, &resp);
    if (rc != SOAP_OK)
      out = peer_client_failed(soap, rc);
    else {
      printf("items ");
      for (int i = 0; resp.return_ && i < resp.return_->__size; i++) {
        if (i)
          printf(",");
        item(resp.return_->__ptr[i]);
      }
      printf("\n");
    }
  } else if (!strcmp(op, "echoStrings")) {
    struct ArrayOfString in;
    in.__size = n;
    in.__ptr = args;
    struct e__echoStringsResponse resp;
    soap_default_e__echoStringsResponse(soap, &resp);
    rc = soap_call_e__echoStrings(soap, url, NULL, &in, &resp);
    if (rc != SOAP_OK)
      out = peer_client_failed(soap, rc);
    else {
      printf("strings ");
      for (int i = 0; resp.return_ && i < resp.return_->__size; i++)
        printf("%s%s", i ? "," : "", resp.return_->__ptr[i] ? resp.return_->__ptr[i] : "");
      printf("\n");
    }
  } else if (!strcmp(op, "getPair") && n == 2) {
    struct e__getPairResponse resp;
    soap_default_e__getPairResponse(soap, &resp);
    rc = soap_call_e__getPair(soap, url, NULL, args[0], atoi(args[1]), &resp);
    if (rc != SOAP_OK)
      out = peer_client_failed(soap, rc);
    else {
      printf("pair ");
      item(resp.return_ ? resp.return_->first : NULL);
      printf(" ");
      item(resp.return_ ? resp.return_->second : NULL);
      printf("\n");
    }
  } else if (!strcmp(op, "describe") && n == 5) {
    char *result = NULL;
    enum xsd__boolean active = strcmp(args[3], "true") == 0 ? xsd__boolean__true_ : xsd__boolean__false_;
    rc = soap_call_e__describe(soap, url, NULL, args[0], atoi(args[1]), atof(args[2]), active,
                               args[4], &result);
    if (rc != SOAP_OK)
      out = peer_client_failed(soap, rc);
    else
      printf("result %s\n", result ? result : "");
  } else {
    fprintf(stderr, "encoded-client: unknown operation or arguments: %s\n", op);
    out = 2;
  }
  soap_destroy(soap);
  soap_end(soap);
  soap_free(soap);
  return out;
}
