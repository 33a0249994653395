/*
 * gSOAP MTOM / base64 interop peer for soapgen (see mtom.wsdl).
 *
 * Built by build.sh: wsdl2h -c mtom.wsdl (typemap with #import "xop.h" and
 * "xmime5.h") -> soapcpp2 -c -S -> gcc ... -lgsoap.  wsdl2h maps the
 * xmime-annotated xs:base64Binary elements to struct xsd__base64Binary
 * {__ptr, __size, id, type, options}: gSOAP sends such a value as an MTOM
 * attachment when SOAP_ENC_MTOM is on and `type` (or `id`) is set, inline
 * base64 otherwise; it receives both (xop:Include resolved to the part).
 *
 * Usage: mtom-server [--port N] [--host ADDR] [--exit-with-parent]
 *   (../common/peer_main.c) Binds ADDR (default 127.0.0.1) port N (default
 *   0 = any free port), prints exactly one line "LISTENING <port>" on stdout,
 *   then serves forever.
 *   Every accepted connection is served on its own thread with HTTP
 *   keep-alive; idle connections are dropped after 30 s.  The SOAP version of
 *   a reply follows the envelope namespace of the request.
 *
 * The first segment of the request path chooses how the reply carries its
 * base64Binary value (the rest of the path and any query are ignored, so
 * /mtom, /mtom/soap12 and /mtom?x are the same):
 *   /mtom    always MTOM: multipart/related; type="application/xop+xml",
 *            the bytes in a binary part referenced by <xop:Include href="cid:..."/>
 *            (also for 0 bytes, and also when the request was plain SOAP)
 *   /inline  always inline base64 (one line, no breaks) in a plain SOAP reply,
 *            also when the request was MTOM
 *   /auto    MTOM if and only if the request was MTOM (Content-Type
 *            multipart/related with application/xop+xml), inline otherwise
 *   other    Client/Sender fault "unknown path ..."
 * Requests may be MTOM or plain SOAP with inline base64 on every path.
 *
 * Operations (namespace urn:soapgen:mtom, prefix m):
 *   EchoData(name, data)   -> (name, size, data): the same name and bytes;
 *                             size = byte count received
 *   GetData(size, pattern) -> data of `size` bytes:
 *       pattern "mod251" (default; also absent or empty):
 *                 byte i = (i * 31 + 7) mod 251
 *       pattern "zeros":  every byte 0
 *       size < 0, size > MAX_DATA or another pattern: Client/Sender fault.
 * Messages up to MAX_MESSAGE bytes are accepted (64 MiB payloads inline as
 * base64 included).
 */
#include "soapH.h"
#include "MtomSoap11Binding.nsmap"

#include "peer_main.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IDLE_TIMEOUT_SECS 30
/* Largest GetData / EchoData payload. */
#define MAX_DATA (256L * 1024 * 1024)
/* Largest request message (a MAX_DATA payload as base64 plus envelope). */
#define MAX_MESSAGE (512UL * 1024 * 1024)
#define OCTET_STREAM "application/octet-stream"

enum reply_mode { REPLY_MTOM, REPLY_INLINE, REPLY_AUTO, REPLY_UNKNOWN };

struct conn_state
{
  int (*parsehdr)(struct soap *, const char *, const char *); /* gSOAP's own */
  int soap12_content_type; /* request Content-Type is application/soap+xml */
  int request_mtom;        /* request was multipart/related + application/xop+xml */
};

static int parse_http_header(struct soap *soap, const char *key, const char *val)
{
  struct conn_state *st = (struct conn_state *)soap->user;
  if (key && !soap_tag_cmp(key, "Content-Type"))
  {
    st->soap12_content_type = val && !soap_tag_cmp(val, "application/soap+xml*");
    st->request_mtom = val && !soap_tag_cmp(val, "multipart/related*") &&
                       strstr(val, "application/xop+xml") != NULL;
  }
  return st->parsehdr(soap, key, val);
}

/* The mode named by the first segment of soap->path ("/mtom/...", "/inline?..."). */
static enum reply_mode path_mode(const char *path)
{
  size_t n;
  if (!path)
    return REPLY_UNKNOWN;
  while (*path == '/')
    path++;
  n = strcspn(path, "/?#");
  if (n == 4 && !strncmp(path, "mtom", 4))
    return REPLY_MTOM;
  if (n == 6 && !strncmp(path, "inline", 6))
    return REPLY_INLINE;
  if (n == 4 && !strncmp(path, "auto", 4))
    return REPLY_AUTO;
  return REPLY_UNKNOWN;
}

/* Client (SOAP 1.1) / Sender (SOAP 1.2) fault with a formatted message. */
static int sender_fault(struct soap *soap, const char *fmt, const char *arg)
{
  size_t n = strlen(fmt) + (arg ? strlen(arg) : 0) + 32;
  char *msg = (char *)soap_malloc(soap, n);
  if (!msg)
    return soap->error = SOAP_EOM;
  snprintf(msg, n, fmt, arg ? arg : "");
  return soap_sender_fault(soap, msg, NULL);
}

/* Decide MTOM or inline for this reply and prepare `data` accordingly.
 * Returns SOAP_OK or a fault. */
static int choose_output(struct soap *soap, struct xsd__base64Binary *data)
{
  struct conn_state *st = (struct conn_state *)soap->user;
  enum reply_mode mode = path_mode(soap->path);
  int mtom;

  switch (mode)
  {
  case REPLY_MTOM:
    mtom = 1;
    break;
  case REPLY_INLINE:
    mtom = 0;
    break;
  case REPLY_AUTO:
    mtom = st->request_mtom;
    break;
  default:
    return sender_fault(soap, "unknown path %s: use /mtom, /inline or /auto", soap->path);
  }

  /* id: NULL lets gSOAP number the attachment; options: no description. */
  data->id = NULL;
  data->options = NULL;
  if (mtom)
  {
    soap_clr_omode(soap, SOAP_ENC_DIME);
    soap_set_omode(soap, SOAP_ENC_MTOM);
    data->type = (char *)OCTET_STREAM;
    /* gSOAP writes a NULL pointer inline (as an empty element): give a
     * 0-byte value a real pointer so that it is an attachment too. */
    if (!data->__ptr)
      data->__ptr = (unsigned char *)soap_malloc(soap, 1);
  }
  else
  {
    soap_clr_omode(soap, SOAP_ENC_MTOM | SOAP_ENC_MIME | SOAP_ENC_DIME);
    soap->mode &= ~(SOAP_ENC_MTOM | SOAP_ENC_MIME | SOAP_ENC_DIME);
    data->type = NULL;
  }
  return SOAP_OK;
}

static int do_echo(struct soap *soap, struct _m__EchoData *req, struct _m__EchoDataResponse *resp)
{
  soap->header = NULL;
  resp->name = (req && req->name) ? req->name : (char *)"";
  if (req)
  {
    resp->data.__ptr = req->data.__ptr;
    resp->data.__size = req->data.__ptr ? req->data.__size : 0;
  }
  resp->size = resp->data.__size;
  return choose_output(soap, &resp->data);
}

static unsigned char *fill_pattern(struct soap *soap, long size, int zeros)
{
  unsigned char *p = (unsigned char *)soap_malloc(soap, size > 0 ? (size_t)size : 1);
  long i;
  unsigned v = 7; /* (i * 31 + 7) mod 251, kept incrementally */
  if (!p)
    return NULL;
  if (zeros)
  {
    memset(p, 0, (size_t)size);
    return p;
  }
  for (i = 0; i < size; i++)
  {
    p[i] = (unsigned char)v;
    v += 31;
    if (v >= 251)
      v -= 251;
  }
  return p;
}

static int do_get(struct soap *soap, struct _m__GetData *req, struct _m__GetDataResponse *resp)
{
  const char *pattern = (req && req->pattern) ? req->pattern : "";
  LONG64 size = req ? req->size : 0;
  int zeros;
  char num[32];

  soap->header = NULL;
  if (!*pattern || !strcmp(pattern, "mod251"))
    zeros = 0;
  else if (!strcmp(pattern, "zeros"))
    zeros = 1;
  else
    return sender_fault(soap, "unknown pattern \"%s\" (mod251 or zeros)", pattern);
  if (size < 0 || size > MAX_DATA)
  {
    snprintf(num, sizeof num, "%lld", (long long)size);
    return sender_fault(soap, "size %s out of range (0 .. 268435456)", num);
  }
  resp->data.__ptr = fill_pattern(soap, (long)size, zeros);
  if (!resp->data.__ptr)
    return soap->error = SOAP_EOM;
  resp->data.__size = (int)size;
  return choose_output(soap, &resp->data);
}

/* wsdl2h collects both bindings (SOAP 1.1 + 1.2) into one service, so every
 * operation exists twice; the dispatcher only ever reaches the first one
 * (same request element), the "_" twins must exist for linking. */
int __m__EchoData(struct soap *soap, struct _m__EchoData *req, struct _m__EchoDataResponse *resp)
{ return do_echo(soap, req, resp); }
int __m__EchoData_(struct soap *soap, struct _m__EchoData *req, struct _m__EchoDataResponse *resp)
{ return do_echo(soap, req, resp); }
int __m__GetData(struct soap *soap, struct _m__GetData *req, struct _m__GetDataResponse *resp)
{ return do_get(soap, req, resp); }
int __m__GetData_(struct soap *soap, struct _m__GetData *req, struct _m__GetDataResponse *resp)
{ return do_get(soap, req, resp); }

/* Same loop as the generated soap_serve() (soapServer.c), as in
 * ../server.c: a POST that is not a SOAP envelope gets a Sender fault
 * (stock soap_serve() would send nothing).  Faults are sent as plain SOAP,
 * never MTOM. */
static void serve_requests(struct soap *soap)
{
  struct conn_state st;
  st.parsehdr = soap->fparsehdr;
  st.soap12_content_type = 0;
  st.request_mtom = 0;
  soap->user = &st;
  soap->fparsehdr = parse_http_header;

  soap->keep_alive = soap->max_keep_alive + 1;
  do
  {
    if (soap->keep_alive > 0 && soap->max_keep_alive > 0)
      soap->keep_alive--;
    st.soap12_content_type = 0;
    st.request_mtom = 0;
    soap_clr_omode(soap, SOAP_ENC_MTOM | SOAP_ENC_MIME | SOAP_ENC_DIME);
    if (soap_begin_serve(soap))
    {
      if (soap->error == SOAP_POST)
      {
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
      soap_clr_omode(soap, SOAP_ENC_MTOM | SOAP_ENC_MIME | SOAP_ENC_DIME);
      soap->mode &= ~(SOAP_ENC_MTOM | SOAP_ENC_MIME | SOAP_ENC_DIME);
      soap_send_fault(soap);
      return;
    }
    /* Free this request's data (up to hundreds of MiB) before the next one
     * (soap_end would also close the connection). */
    soap_dealloc(soap, NULL);
  } while (soap->keep_alive);
}

int main(int argc, char **argv)
{
  /* UTF-8 strings, strict validation, keep-alive (as ../server.c). */
  struct soap *soap = soap_new2(SOAP_C_UTFSTRING | SOAP_XML_STRICT | SOAP_IO_KEEPALIVE,
                                SOAP_C_UTFSTRING | SOAP_IO_KEEPALIVE);
  if (!soap)
  {
    fprintf(stderr, "soap_new2 failed\n");
    return 1;
  }
  soap->send_timeout = IDLE_TIMEOUT_SECS;
  soap->recv_timeout = IDLE_TIMEOUT_SECS;
  /* Large payloads: no string length limit, messages up to MAX_MESSAGE. */
  soap->recv_maxlength = MAX_MESSAGE;
  soap->maxlength = 0;
  /* Command line, bind, "LISTENING <port>", a thread per connection. */
  return peer_run(argc, argv, soap, serve_requests);
}
