/*
 * gSOAP's generated C client of globalweather.wsdl: one call, for soapgen's tests of servers
 * (the loopback fake, tests/tests/mapping/fake_clients.rs).
 *
 * Built by build.sh: wsdl2h -c globalweather.wsdl -> soapcpp2 -c -> gcc client.c soapClient.c
 * soapC.c
 *
 * Usage: weather-client URL 11|12 GetWeather [CITY]
 *        weather-client URL 11|12 GetCitiesByCountry [COUNTRY]
 *   11 calls through the SOAP 1.1 binding (soap_call___gw__GetWeather), 12 through the SOAP 1.2
 *   one (soap_call___gw__GetWeather_); without CITY or COUNTRY the element is left out (it is
 *   optional). Prints one line:
 *     weather <GetWeatherResult>|<StatusCode>
 *     cities <GetCitiesByCountryResult, or "-" when absent>
 *   or "fault <code>|<reason>", and exits 0; exits 2 on a transport error or wrong usage.
 */
#include "soapH.h"
#include "GlobalWeatherSoap.nsmap"

#include "peer_client.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: weather-client URL 11|12 GetWeather|GetCitiesByCountry [ARG]\n");
    return 2;
  }
  const char *url = argv[1];
  int v12 = strcmp(argv[2], "12") == 0;
  const char *op = argv[3];
  char *arg = argc > 4 ? argv[4] : NULL;
  struct soap *soap = soap_new1(SOAP_C_UTFSTRING);
  int rc, out = 0;
  if (!strcmp(op, "GetWeather")) {
    struct _gw__GetWeather req;
    struct _gw__GetWeatherResponse resp;
    soap_default__gw__GetWeather(soap, &req);
    soap_default__gw__GetWeatherResponse(soap, &resp);
    req.CityName = arg;
    rc = v12 ? soap_call___gw__GetWeather_(soap, url, NULL, &req, &resp)
             : soap_call___gw__GetWeather(soap, url, NULL, &req, &resp);
    if (rc != SOAP_OK)
      out = peer_client_failed(soap, rc);
    else
      printf("weather %s|%s\n", resp.GetWeatherResult ? resp.GetWeatherResult : "",
             resp.StatusCode ? resp.StatusCode : "");
  } else if (!strcmp(op, "GetCitiesByCountry")) {
    struct _gw__GetCitiesByCountry req;
    struct _gw__GetCitiesByCountryResponse resp;
    soap_default__gw__GetCitiesByCountry(soap, &req);
    soap_default__gw__GetCitiesByCountryResponse(soap, &resp);
    req.CountryName = arg;
    rc = v12 ? soap_call___gw__GetCitiesByCountry_(soap, url, NULL, &req, &resp)
             : soap_call___gw__GetCitiesByCountry(soap, url, NULL, &req, &resp);
    if (rc != SOAP_OK)
      out = peer_client_failed(soap, rc);
    else
      printf("cities %s\n", resp.GetCitiesByCountryResult ? resp.GetCitiesByCountryResult : "-");
  } else {
    fprintf(stderr, "weather-client: unknown operation %s\n", op);
    out = 2;
  }
  soap_destroy(soap);
  soap_end(soap);
  soap_free(soap);
  return out;
}
