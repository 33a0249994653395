/*
 * gSOAP's generated C client of mtom.wsdl: one EchoData call, for soapgen's tests of servers
 * (the loopback fake, tests/tests/mapping/fake_clients.rs).
 *
 * Built by build.sh: wsdl2h -c mtom.wsdl (xop.h, xmime5.h) -> soapcpp2 -c -> gcc client.c
 * soapClient.c soapC.c
 *
 * Usage: mtom-client URL 11|12 mtom|inline SIZE
 *   Sends EchoData(name "blob", data of SIZE bytes, byte i = (i * 7) mod 251) through the SOAP
 *   1.1 (11) or 1.2 (12) binding: with `mtom`, SOAP_ENC_MTOM on and the value's content type
 *   set, so gSOAP sends it as an MTOM part (xop:Include); with `inline`, as base64 text. Prints
 *     echo <name>|<size>|<data: "same" when the bytes are those sent, else "differ">|<mtom or
 *     inline: how the answer carried the data (gSOAP's id of an xop:Include part, or none)>
 *   or "fault <code>|<reason>", and exits 0; exits 2 on a transport error or wrong usage.
 */
#include "soapH.h"
#include "MtomSoap11Binding.nsmap"

#include "peer_client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: mtom-client URL 11|12 mtom|inline SIZE\n");
    return 2;
  }
  const char *url = argv[1];
  int v12 = strcmp(argv[2], "12") == 0;
  int mtom = strcmp(argv[3], "mtom") == 0;
  int size = atoi(argv[4]);
  struct soap *soap = soap_new1(SOAP_C_UTFSTRING | (mtom ? SOAP_ENC_MTOM : 0));
  unsigned char *bytes = soap_malloc(soap, size > 0 ? size : 1);
  for (int i = 0; i < size; i++)
    bytes[i] = (unsigned char)((i * 7) % 251);
  struct _m__EchoData req;
  struct _m__EchoDataResponse resp;
  soap_default__m__EchoData(soap, &req);
  soap_default__m__EchoDataResponse(soap, &resp);
  req.name = "blob";
  req.data.__ptr = bytes;
  req.data.__size = size;
  if (mtom)
    req.data.type = "application/octet-stream";
  int rc = v12 ? soap_call___m__EchoData_(soap, url, NULL, &req, &resp)
               : soap_call___m__EchoData(soap, url, NULL, &req, &resp);
  int out = 0;
  if (rc == SOAP_OK) {
    int same = resp.data.__size == size && (size == 0 || !memcmp(resp.data.__ptr, bytes, size));
    printf("echo %s|%lld|%s|%s\n", resp.name ? resp.name : "", (long long)resp.size,
           same ? "same" : "differ", resp.data.id ? "mtom" : "inline");
  } else {
    out = peer_client_failed(soap, rc);
  }
  soap_destroy(soap);
  soap_end(soap);
  soap_free(soap);
  return out;
}
