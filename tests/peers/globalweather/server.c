/*
 * GlobalWeather peer for soapgen: a gSOAP server generated from the
 * real-world webservicex.net GlobalWeather WSDL
 * (examples/wsdl/globalweather.wsdl, used unchanged), serving a small
 * built-in, deterministic data set the way the original .asmx service did.
 *
 * Built by build.sh: wsdl2h -c globalweather.wsdl -> soapcpp2 -c -S -> gcc ... -lgsoap
 *
 * Usage: globalweather-server [--port N] [--host ADDR] [--exit-with-parent]
 *   Same contract as the gSOAP echo peer (../gsoap/common/peer_main.c):
 *   binds ADDR (default 127.0.0.1) port N (default 0 = any free port),
 *   prints exactly one line "LISTENING <port>" on stdout, then serves
 *   forever, one thread per connection, HTTP keep-alive (idle connections
 *   dropped after 30 s).
 *   --exit-with-parent: exit as soon as the parent process dies.
 *
 * SOAP ports (SOAP 1.1 and 1.2, any path, SOAPAction ignored, the reply
 * version follows the request envelope), namespace http://www.webserviceX.NET
 * (prefix gw):
 *   GetWeather(CityName) -> GetWeatherResult (string), StatusCode (string)
 *     Known city (full name as listed by GetCitiesByCountry, or its short
 *     name, ASCII case-insensitive): GetWeatherResult is the original
 *     service's document as a string,
 *       <?xml version="1.0" encoding="utf-16"?>
 *       <CurrentWeather>
 *         <Location/> <Time/> <Wind/> <Visibility/> [<SkyConditions/>]
 *         <Temperature/> <DewPoint/> <RelativeHumidity/> <Pressure/>
 *         <Status>Success</Status>
 *       </CurrentWeather>
 *     (the "utf-16" declaration inside a UTF-8 message is what .NET's
 *     StringWriter produced and the original service sent; values keep the
 *     original's leading blank, e.g. "<Temperature> 71 F (22 C)</Temperature>"),
 *     StatusCode "200".  Unknown or missing city: GetWeatherResult
 *     "Data Not Found" (as the original), StatusCode "404".
 *     This WSDL revision has no CountryName in the GetWeather request (the
 *     original service's WSDL had one).  For clients written against the
 *     original WSDL, one qualified <gw:CountryName> inside <gw:GetWeather> is
 *     tolerated and, when non-empty, must match the city's country (case-
 *     insensitive substring) or the answer is "Data Not Found".
 *   GetCitiesByCountry(CountryName) -> GetCitiesByCountryResult (string)
 *     "<NewDataSet>\n  <Table>\n    <Country>..</Country>\n    <City>..</City>\n
 *     </Table>...\n</NewDataSet>" (ADO.NET DataSet.GetXml() layout, no XML
 *     declaration) for every city whose country contains CountryName
 *     (ASCII case-insensitive; empty or missing CountryName = all cities),
 *     "<NewDataSet />" when nothing matches.
 *
 * HTTP GET/POST ports (the WSDL's GlobalWeatherHttpGet/HttpPost bindings,
 * served by hand since wsdl2h skips non-SOAP bindings):
 *   GET  <any>/GetWeather?CityName=..&CountryName=..
 *   GET  <any>/GetCitiesByCountry?CountryName=..
 *   POST <any>/GetWeather | <any>/GetCitiesByCountry with an
 *        application/x-www-form-urlencoded body
 *   -> 200 text/xml; charset=utf-8:
 *      <?xml version="1.0" encoding="utf-8"?>\n<string xmlns="http://www.webserviceX.NET">(escaped result)</string>
 *   A missing parameter: 400 text/plain; another last path segment: 404
 *   text/plain ("Request format is unrecognized for URL ...", as .asmx).
 *   GET <any>?wsdl (any case) -> the WSDL, with the four service addresses
 *   pointing to http://<Host header>/globalweather.asmx (like .asmx?WSDL).
 *   All of these keep the connection alive and send Content-Length.
 *
 * Input is validated strictly (SOAP_XML_STRICT) apart from the CountryName
 * tolerance above; faults are Client (1.1, HTTP 500) / Sender (1.2, HTTP
 * 400) as in the echo peer.
 */
#define _GNU_SOURCE /* strcasestr, memmem */
#include "soapH.h"
#include "GlobalWeatherSoap.nsmap"

#include "peer_main.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define IDLE_TIMEOUT_SECS 30

/* The WSDL, embedded by build.sh (gen/wsdl_blob.c). */
extern const unsigned char globalweather_wsdl[];
extern const unsigned long globalweather_wsdl_len;

/* ------------------------------------------------------------------------ */
/* Data: one METAR-style observation per station, fixed in time.           */
/* ------------------------------------------------------------------------ */

struct station
{
  const char *country;
  const char *city;        /* as listed by GetCitiesByCountry */
  const char *alias;       /* short name GetWeather also accepts */
  const char *location;
  const char *time;
  const char *wind;
  const char *visibility;
  const char *sky;         /* NULL: not reported, element omitted */
  const char *temperature;
  const char *dew_point;
  const char *humidity;
  const char *pressure;
};

static const struct station stations[] = {
  { "Australia", "Sydney Airport", "Sydney",
    "Sydney Airport, Australia (YSSY) 33-57S 151-11E 3M",
    "Mar 14, 2017 - 07:00 PM EDT / 2017.03.14 2300 UTC",
    " from the SSE (160 degrees) at 9 MPH (8 KT):0", " greater than 7 mile(s):0",
    " partly cloudy", " 71 F (22 C)", " 62 F (17 C)", " 73%", " 29.97 in. Hg (1015 hPa)" },
  { "Australia", "Melbourne Airport", "Melbourne",
    "Melbourne Airport, Australia (YMML) 37-40S 144-50E 132M",
    "Mar 14, 2017 - 07:00 PM EDT / 2017.03.14 2300 UTC",
    " from the N (360 degrees) at 13 MPH (11 KT):0", " greater than 7 mile(s):0",
    " mostly cloudy", " 64 F (18 C)", " 50 F (10 C)", " 59%", " 30.04 in. Hg (1017 hPa)" },
  { "Australia", "Perth Airport", "Perth",
    "Perth Airport, Australia (YPPH) 31-56S 115-57E 29M",
    "Mar 14, 2017 - 07:00 PM EDT / 2017.03.14 2300 UTC",
    " from the E (090 degrees) at 15 MPH (13 KT):0", " greater than 7 mile(s):0",
    NULL, " 84 F (29 C)", " 46 F (8 C)", " 26%", " 29.88 in. Hg (1012 hPa)" },
  { "Germany", "Berlin-Tegel", "Berlin",
    "Berlin-Tegel, Germany (EDDT) 52-34N 013-19E 37M",
    "Mar 14, 2017 - 06:50 PM EDT / 2017.03.14 2250 UTC",
    " from the W (270 degrees) at 10 MPH (9 KT):0", " greater than 7 mile(s):0",
    " overcast", " 45 F (7 C)", " 39 F (4 C)", " 81%", " 30.09 in. Hg (1019 hPa)" },
  { "Germany", "Frankfurt / M-Flughafen", "Frankfurt",
    "Frankfurt / M-Flughafen, Germany (EDDF) 50-02N 008-36E 113M",
    "Mar 14, 2017 - 06:50 PM EDT / 2017.03.14 2250 UTC",
    " from the SW (220 degrees) at 7 MPH (6 KT):0", " 6 mile(s):0",
    " mostly cloudy", " 48 F (9 C)", " 41 F (5 C)", " 76%", " 30.06 in. Hg (1018 hPa)" },
  { "Germany", "Muenchen", "Munich",
    "Muenchen, Germany (EDDM) 48-21N 011-47E 446M",
    "Mar 14, 2017 - 06:50 PM EDT / 2017.03.14 2250 UTC",
    " Calm:0", " 4 mile(s):0",
    " mist", " 39 F (4 C)", " 37 F (3 C)", " 93%", " 30.12 in. Hg (1020 hPa)" },
  { "Switzerland", "Z\xC3\xBCrich-Kloten", "Zurich",
    "Z\xC3\xBCrich-Kloten, Switzerland (LSZH) 47-29N 008-32E 432M",
    "Mar 14, 2017 - 06:50 PM EDT / 2017.03.14 2250 UTC",
    " from the NE (050 degrees) at 6 MPH (5 KT):0", " greater than 7 mile(s):0",
    " clear", " 41 F (5 C)", " 32 F (0 C)", " 70%", " 30.15 in. Hg (1021 hPa)" },
  { "Japan", "Tokyo International Airport", "Tokyo",
    "Tokyo International Airport, Japan (RJTT) 35-33N 139-47E 8M",
    "Mar 14, 2017 - 07:00 PM EDT / 2017.03.14 2300 UTC",
    " from the NNW (340 degrees) at 12 MPH (10 KT):0", " greater than 7 mile(s):0",
    " partly cloudy", " 46 F (8 C)", " 27 F (-3 C)", " 46%", " 30.21 in. Hg (1023 hPa)" },
  { "Japan", "Osaka International Airport", "Osaka",
    "Osaka International Airport, Japan (RJOO) 34-47N 135-27E 12M",
    "Mar 14, 2017 - 07:00 PM EDT / 2017.03.14 2300 UTC",
    " from the N (010 degrees) at 5 MPH (4 KT):0", " greater than 7 mile(s):0",
    " mostly clear", " 48 F (9 C)", " 30 F (-1 C)", " 49%", " 30.18 in. Hg (1022 hPa)" },
  { "United Kingdom", "London / Heathrow Airport", "London",
    "London / Heathrow Airport, United Kingdom (EGLL) 51-29N 000-27W 24M",
    "Mar 14, 2017 - 06:50 PM EDT / 2017.03.14 2250 UTC",
    " from the SW (230 degrees) at 8 MPH (7 KT):0", " greater than 7 mile(s):0",
    " mostly cloudy", " 52 F (11 C)", " 45 F (7 C)", " 76%", " 30.24 in. Hg (1024 hPa)" },
  { "United Kingdom", "Manchester Airport", "Manchester",
    "Manchester Airport, United Kingdom (EGCC) 53-21N 002-16W 69M",
    "Mar 14, 2017 - 06:50 PM EDT / 2017.03.14 2250 UTC",
    " from the WSW (250 degrees) at 12 MPH (10 KT):0", " 5 mile(s):0",
    " overcast", " 50 F (10 C)", " 46 F (8 C)", " 87%", " 30.18 in. Hg (1022 hPa)" },
  { "United States", "New York, Kennedy International Airport", "New York",
    "New York, Kennedy International Airport, NY, United States (KJFK) 40-38-23N 073-45-44W 3M",
    "Mar 14, 2017 - 06:51 PM EDT / 2017.03.14 2251 UTC",
    " from the NE (040 degrees) at 35 MPH (30 KT) gusting to 47 MPH (41 KT):0", " 1/4 mile(s):0",
    " overcast", " 30 F (-1 C)", " 28 F (-2 C)", " 92%", " 29.33 in. Hg (0993 hPa)" },
  { "United States", "Chicago O'Hare International Airport", "Chicago",
    "Chicago O'Hare International Airport, IL, United States (KORD) 41-59-10N 087-54-31W 200M",
    "Mar 14, 2017 - 05:51 PM CDT / 2017.03.14 2251 UTC",
    " from the NW (320 degrees) at 16 MPH (14 KT):0", " 10 mile(s):0",
    " mostly cloudy", " 23 F (-5 C)", " 9 F (-13 C)", " 54%", " 30.08 in. Hg (1018 hPa)" },
  { "United States", "San Francisco International Airport", "San Francisco",
    "San Francisco International Airport, CA, United States (KSFO) 37-37-08N 122-22-30W 3M",
    "Mar 14, 2017 - 03:56 PM PDT / 2017.03.14 2256 UTC",
    " from the WNW (290 degrees) at 20 MPH (17 KT):0", " 10 mile(s):0",
    " clear", " 64 F (18 C)", " 43 F (6 C)", " 46%", " 30.14 in. Hg (1020 hPa)" },
};
#define N_STATIONS (sizeof(stations) / sizeof(stations[0]))

static const char DATA_NOT_FOUND[] = "Data Not Found";

/* ------------------------------------------------------------------------ */
/* Small string builder (malloc'ed; copied into gSOAP's arena at the end).  */
/* ------------------------------------------------------------------------ */

struct buf
{
  char *s;
  size_t len, cap;
  int oom;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
  if (b->oom)
    return;
  if (b->len + n + 1 > b->cap)
  {
    size_t cap = b->cap ? b->cap : 256;
    char *p;
    while (b->len + n + 1 > cap)
      cap *= 2;
    p = (char *)realloc(b->s, cap);
    if (!p)
    {
      b->oom = 1;
      return;
    }
    b->s = p;
    b->cap = cap;
  }
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = '\0';
}

static void buf_str(struct buf *b, const char *s) { buf_add(b, s, strlen(s)); }

/* XML character data escaping (& < >), enough for element content. */
static void buf_text(struct buf *b, const char *s)
{
  for (; *s; s++)
  {
    switch (*s)
    {
    case '&': buf_str(b, "&amp;"); break;
    case '<': buf_str(b, "&lt;"); break;
    case '>': buf_str(b, "&gt;"); break;
    default: buf_add(b, s, 1);
    }
  }
}

static void buf_elem(struct buf *b, const char *indent, const char *name, const char *value)
{
  buf_str(b, indent);
  buf_str(b, "<");
  buf_str(b, name);
  buf_str(b, ">");
  buf_text(b, value);
  buf_str(b, "</");
  buf_str(b, name);
  buf_str(b, ">\n");
}

/* Moves the built string into soap's arena (freed with the request). */
static char *buf_finish(struct soap *soap, struct buf *b)
{
  char *r = NULL;
  if (!b->oom)
    r = soap_strdup(soap, b->s ? b->s : "");
  free(b->s);
  b->s = NULL;
  return r;
}

/* ------------------------------------------------------------------------ */
/* The two operations (shared by the SOAP and the HTTP GET/POST ports).     */
/* ------------------------------------------------------------------------ */

static int country_matches(const struct station *st, const char *country)
{
  return !country || !*country || strcasestr(st->country, country) != NULL;
}

static const struct station *find_station(const char *city, const char *country)
{
  size_t i;
  if (!city || !*city)
    return NULL;
  for (i = 0; i < N_STATIONS; i++)
  {
    const struct station *st = &stations[i];
    if ((!strcasecmp(city, st->city) || !strcasecmp(city, st->alias)) && country_matches(st, country))
      return st;
  }
  return NULL;
}

/* GetWeatherResult; *found tells whether the city is known. */
static char *weather_xml(struct soap *soap, const char *city, const char *country, int *found)
{
  const struct station *st = find_station(city, country);
  struct buf b = { NULL, 0, 0, 0 };
  *found = st != NULL;
  if (!st)
    return soap_strdup(soap, DATA_NOT_FOUND);
  buf_str(&b, "<?xml version=\"1.0\" encoding=\"utf-16\"?>\n<CurrentWeather>\n");
  buf_elem(&b, "  ", "Location", st->location);
  buf_elem(&b, "  ", "Time", st->time);
  buf_elem(&b, "  ", "Wind", st->wind);
  buf_elem(&b, "  ", "Visibility", st->visibility);
  if (st->sky)
    buf_elem(&b, "  ", "SkyConditions", st->sky);
  buf_elem(&b, "  ", "Temperature", st->temperature);
  buf_elem(&b, "  ", "DewPoint", st->dew_point);
  buf_elem(&b, "  ", "RelativeHumidity", st->humidity);
  buf_elem(&b, "  ", "Pressure", st->pressure);
  buf_elem(&b, "  ", "Status", "Success");
  buf_str(&b, "</CurrentWeather>");
  return buf_finish(soap, &b);
}

/* GetCitiesByCountryResult. */
static char *cities_xml(struct soap *soap, const char *country)
{
  struct buf b = { NULL, 0, 0, 0 };
  size_t i;
  int n = 0;
  for (i = 0; i < N_STATIONS; i++)
  {
    if (!country_matches(&stations[i], country))
      continue;
    if (n++ == 0)
      buf_str(&b, "<NewDataSet>\n");
    buf_str(&b, "  <Table>\n");
    buf_elem(&b, "    ", "Country", stations[i].country);
    buf_elem(&b, "    ", "City", stations[i].city);
    buf_str(&b, "  </Table>\n");
  }
  if (n == 0)
    buf_str(&b, "<NewDataSet />");
  else
    buf_str(&b, "</NewDataSet>");
  return buf_finish(soap, &b);
}

/* ------------------------------------------------------------------------ */
/* Per-connection state                                                     */
/* ------------------------------------------------------------------------ */

struct conn_state
{
  int (*parsehdr)(struct soap *, const char *, const char *); /* gSOAP's own */
  int soap12_content_type;  /* request Content-Type is application/soap+xml */
  char host[256];           /* request Host header */
  const char *country;      /* tolerated <gw:CountryName> of GetWeather */
  int country_count;        /* how many were tolerated in this request */
};

static struct conn_state *state(struct soap *soap) { return (struct conn_state *)soap->user; }

/* Client (SOAP 1.1) / Sender (SOAP 1.2) fault. */
static int sender_fault(struct soap *soap, const char *msg)
{
  return soap_sender_fault(soap, msg, NULL);
}

/* ------------------------------------------------------------------------ */
/* SOAP operations (generated dispatcher -> these)                          */
/* ------------------------------------------------------------------------ */

static int do_get_weather(struct soap *soap, struct _gw__GetWeather *req,
                          struct _gw__GetWeatherResponse *resp)
{
  struct conn_state *cs = state(soap);
  int found;
  soap->header = NULL;
  if (cs->country_count > 1)
    return sender_fault(soap, "Validation constraint violation: more than one CountryName in GetWeather");
  resp->GetWeatherResult = weather_xml(soap, req ? req->CityName : NULL, cs->country, &found);
  if (!resp->GetWeatherResult)
    return soap->error = SOAP_EOM;
  resp->StatusCode = found ? (char *)"200" : (char *)"404";
  return SOAP_OK;
}

static int do_get_cities(struct soap *soap, struct _gw__GetCitiesByCountry *req,
                         struct _gw__GetCitiesByCountryResponse *resp)
{
  soap->header = NULL;
  /* The CountryName tolerance is for GetWeather only: a second CountryName
   * in GetCitiesByCountry is a validation error as everywhere else. */
  if (state(soap)->country_count > 0)
    return sender_fault(soap, "Validation constraint violation: more than one CountryName in GetCitiesByCountry");
  resp->GetCitiesByCountryResult = cities_xml(soap, req ? req->CountryName : NULL);
  if (!resp->GetCitiesByCountryResult)
    return soap->error = SOAP_EOM;
  return SOAP_OK;
}

/* wsdl2h collects both SOAP bindings (1.1 + 1.2) into one service, so every
 * operation exists twice; the dispatcher only ever reaches the first one
 * (same request element), the "_" twins must exist for linking. */
int __gw__GetWeather(struct soap *soap, struct _gw__GetWeather *req, struct _gw__GetWeatherResponse *resp)
{ return do_get_weather(soap, req, resp); }
int __gw__GetWeather_(struct soap *soap, struct _gw__GetWeather *req, struct _gw__GetWeatherResponse *resp)
{ return do_get_weather(soap, req, resp); }
int __gw__GetCitiesByCountry(struct soap *soap, struct _gw__GetCitiesByCountry *req, struct _gw__GetCitiesByCountryResponse *resp)
{ return do_get_cities(soap, req, resp); }
int __gw__GetCitiesByCountry_(struct soap *soap, struct _gw__GetCitiesByCountry *req, struct _gw__GetCitiesByCountryResponse *resp)
{ return do_get_cities(soap, req, resp); }

/* Strict mode rejects unknown elements, except where this says SOAP_OK:
 * a qualified gw:CountryName directly inside the operation element (gSOAP's
 * soap->level is 3 there: Envelope, Body, operation), see the header
 * comment.  Its value is read here; gSOAP then skips to the end tag. */
static int ignore_element(struct soap *soap, const char *tag)
{
  struct conn_state *cs = state(soap);
  if (soap->level == 3 && !soap_match_tag(soap, tag, "gw:CountryName"))
  {
    const char *value = "";
    if (soap->body)
    {
      value = soap_string_in(soap, 1, -1, -1, NULL);
      if (!value)
        return soap->error;
    }
    cs->country = value;
    cs->country_count++;
    return SOAP_OK;
  }
  return SOAP_TAG_MISMATCH;
}

/* ------------------------------------------------------------------------ */
/* HTTP GET / POST ports and ?wsdl                                          */
/* ------------------------------------------------------------------------ */

/* Sends a complete 200/4xx response with a Content-Length. */
static int send_text(struct soap *soap, int status, const char *content_type, const char *body, size_t len)
{
  soap_mode omode = soap->omode;
  int rc = SOAP_OK;
  soap->http_content = content_type;
  /* Buffer the whole body so gSOAP can emit Content-Length and keep the
   * connection alive (SOAP_FILE responses are streamed otherwise). */
  soap->omode = (soap->omode & ~SOAP_IO) | SOAP_IO_STORE;
  if (soap_response(soap, SOAP_FILE + status)
   || soap_send_raw(soap, body, len)
   || soap_end_send(soap))
    rc = soap_closesock(soap);
  soap->omode = omode;
  return rc;
}

/* Last path segment before '?', e.g. "/globalweather.asmx/GetWeather?x" -> "GetWeather". */
static void path_method(const char *path, char *out, size_t outlen)
{
  const char *end = strchr(path, '?');
  const char *start;
  size_t n;
  if (!end)
    end = path + strlen(path);
  start = end;
  while (start > path && start[-1] != '/')
    start--;
  n = (size_t)(end - start);
  if (n >= outlen)
    n = outlen - 1;
  memcpy(out, start, n);
  out[n] = '\0';
}

/* <string xmlns="http://www.webserviceX.NET">escaped</string>, the .asmx
 * HTTP GET/POST answer.  query: urlencoded key=value pairs (decoded in place). */
static int http_operation(struct soap *soap, char *query)
{
  char method[64];
  const char *city = NULL, *country = NULL, *result;
  struct buf b = { NULL, 0, 0, 0 };
  int found, rc;

  path_method(soap->path, method, sizeof(method));
  while (query && *query)
  {
    char *key = soap_query_key(soap, &query);
    char *val = soap_query_val(soap, &query);
    if (!key)
      break;
    if (!strcmp(key, "CityName"))
      city = val ? val : "";
    else if (!strcmp(key, "CountryName"))
      country = val ? val : "";
  }
  if (!strcasecmp(method, "GetWeather"))
  {
    if (!city || !country)
      goto missing;
    result = weather_xml(soap, city, country, &found);
  }
  else if (!strcasecmp(method, "GetCitiesByCountry"))
  {
    if (!country)
      goto missing;
    result = cities_xml(soap, country);
  }
  else
  {
    static const char msg[] = "Request format is unrecognized for URL unexpectedly ending in '/%s'.\n";
    char text[sizeof(msg) + sizeof(method)];
    snprintf(text, sizeof(text), msg, method);
    return send_text(soap, 404, "text/plain; charset=utf-8", text, strlen(text));
  }
  if (!result)
    return soap->error = SOAP_EOM;
  buf_str(&b, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<string xmlns=\"http://www.webserviceX.NET\">");
  buf_text(&b, result);
  buf_str(&b, "</string>");
  if (b.oom)
  {
    free(b.s);
    return soap->error = SOAP_EOM;
  }
  rc = send_text(soap, 200, "text/xml; charset=utf-8", b.s, b.len);
  free(b.s);
  return rc;

missing:
  {
    static const char text[] = "Missing parameter: CityName and CountryName are required (GetWeather), CountryName (GetCitiesByCountry).\n";
    return send_text(soap, 400, "text/plain; charset=utf-8", text, strlen(text));
  }
}

static int send_wsdl(struct soap *soap)
{
  static const char original[] = "http://www.webservicex.com/globalweather.asmx";
  const char *host = *state(soap)->host ? state(soap)->host : "127.0.0.1";
  const char *p = (const char *)globalweather_wsdl;
  const char *end = p + globalweather_wsdl_len;
  struct buf b = { NULL, 0, 0, 0 };
  int rc;
  while (p < end)
  {
    const char *hit = memmem(p, (size_t)(end - p), original, sizeof(original) - 1);
    if (!hit)
    {
      buf_add(&b, p, (size_t)(end - p));
      break;
    }
    buf_add(&b, p, (size_t)(hit - p));
    buf_str(&b, "http://");
    buf_text(&b, host);
    buf_str(&b, "/globalweather.asmx");
    p = hit + sizeof(original) - 1;
  }
  if (b.oom)
  {
    free(b.s);
    return soap->error = SOAP_EOM;
  }
  rc = send_text(soap, 200, "text/xml; charset=utf-8", b.s, b.len);
  free(b.s);
  return rc;
}

static int http_get(struct soap *soap)
{
  char *query = soap_query(soap); /* "?key=val&...", or NULL */
  const char *q = query && *query == '?' ? query + 1 : query;
  soap->header = NULL;
  if (q && (!strcasecmp(q, "wsdl") || !strncasecmp(q, "wsdl&", 5)))
    return send_wsdl(soap);
  return http_operation(soap, query);
}

static int http_form(struct soap *soap)
{
  char *form = soap_http_get_form(soap);
  if (!form && soap->error)
    return soap->error;
  return http_operation(soap, form);
}

/* ------------------------------------------------------------------------ */
/* Serving                                                                  */
/* ------------------------------------------------------------------------ */

static int parse_http_header(struct soap *soap, const char *key, const char *val)
{
  struct conn_state *st = state(soap);
  if (key && !soap_tag_cmp(key, "Content-Type"))
  {
    st->soap12_content_type = val && !soap_tag_cmp(val, "application/soap+xml*");
    if (val && (!soap_tag_cmp(val, "application/x-www-form-urlencoded")
             || !soap_tag_cmp(val, "application/x-www-form-urlencoded;*")))
    {
      soap->fform = http_form; /* the HTTP POST port: body is a form */
      return soap->error = SOAP_FORM;
    }
  }
  else if (key && val && !soap_tag_cmp(key, "Host"))
  {
    strncpy(st->host, val, sizeof(st->host) - 1);
    st->host[sizeof(st->host) - 1] = '\0';
  }
  return st->parsehdr(soap, key, val);
}

/* Same loop as the generated soap_serve() (soapServer.c), plus a Sender
 * fault for a POST whose body is not a SOAP envelope (stock soap_serve()
 * sends no response at all), as in the echo peer. */
static void serve_requests(struct soap *soap)
{
  struct conn_state st;
  memset(&st, 0, sizeof(st));
  st.parsehdr = soap->fparsehdr;
  soap->user = &st;
  soap->fparsehdr = parse_http_header;
  soap->fget = http_get;
  soap->fignore = ignore_element;

  soap->keep_alive = soap->max_keep_alive + 1;
  do
  {
    if (soap->keep_alive > 0 && soap->max_keep_alive > 0)
      soap->keep_alive--;
    st.soap12_content_type = 0;
    st.host[0] = '\0';
    st.country = NULL;
    st.country_count = 0;
    soap->fform = NULL;
    if (soap_begin_serve(soap))
    {
      if (soap->error == SOAP_POST)
      {
        /* No envelope to take the version from: go by the Content-Type. */
        soap_set_version(soap, st.soap12_content_type ? 2 : 1);
        soap->keep_alive = 0;
        soap_sender_fault(soap, "request body is not a SOAP 1.1 or SOAP 1.2 envelope", NULL);
        soap_send_fault(soap);
        return;
      }
      if (soap->error >= SOAP_STOP)
        continue;
      return; /* soap_begin_serve already sent the fault (or the peer left) */
    }
    if (soap_serve_request(soap) && soap->error && soap->error < SOAP_STOP)
    {
      soap_send_fault(soap);
      return;
    }
  } while (soap->keep_alive);
}

int main(int argc, char **argv)
{
  /* UTF-8 char* strings in and out; strict input validation; HTTP
   * keep-alive. */
  struct soap *soap = soap_new2(SOAP_C_UTFSTRING | SOAP_XML_STRICT | SOAP_IO_KEEPALIVE,
                                SOAP_C_UTFSTRING | SOAP_IO_KEEPALIVE);
  if (!soap)
  {
    fprintf(stderr, "soap_new2 failed\n");
    return 1;
  }
  soap->send_timeout = IDLE_TIMEOUT_SECS;
  soap->recv_timeout = IDLE_TIMEOUT_SECS;
  /* Command line, bind, "LISTENING <port>", a thread per connection
   * (../gsoap/common/peer_main.c). */
  return peer_run(argc, argv, soap, serve_requests);
}
