/*
 * gSOAP SOAP-with-Attachments interop peer for soapgen (see swa.wsdl).
 *
 * Built by build.sh: wsdl2h -c swa.wsdl -> soapcpp2 -c -S -> gcc ... -lgsoap.
 * wsdl2h reads the WSDL's mime:multipartRelated bindings into the generated
 * header as documentation only (the MIME parts are not parameters of the
 * service functions), which is gSOAP's model of SwA: the application reads the
 * request's attachments from soap->mime.list and adds the reply's with
 * soap_set_mime() + soap_set_mime_attachment().  This server does exactly
 * that, as a gSOAP application written from this WSDL would.
 *
 * Usage: swa-server [--port N] [--host ADDR] [--exit-with-parent]
 *   (../common/peer_main.c) Binds ADDR (default 127.0.0.1) port N (default
 *   0 = any free port), prints exactly one line "LISTENING <port>" on
 *   stdout, then serves forever (a thread per connection, HTTP keep-alive,
 *   idle connections dropped after 30 s).  SOAP 1.1 only (WS-I Attachments
 *   Profile 1.0 is SOAP 1.1).
 *
 * The first segment of the request path chooses how the reply names its
 * attachments (the rest of the path and any query are ignored):
 *   /wsi    Content-IDs as WS-I AP 1.0 R2933 prescribes, <photo=N@gsoap>,
 *           <thumbnail=N@gsoap>, and the thumbnail FIRST: only a client that
 *           matches the part names finds the right bytes;
 *   /plain  no Content-ID at all (what gSOAP sends when the application gives
 *           none), photo then thumbnail: only the order of the WSDL's
 *           mime:parts tells them apart;
 *   other   Client fault "unknown path ...".
 *
 * Operations (namespace urn:soapgen:swa, prefix p):
 *   EchoPhoto(name) + attachments photo, thumbnail
 *       The request's attachments are found by their Content-IDs, which must
 *       start with "photo=" and "thumbnail=" (R2933; a Client fault names what
 *       is missing).  Reply: name, photoSize, thumbnailSize, received (one line
 *       per request attachment: "<Content-ID> <Content-Type> <size>", after a
 *       first line "Content-Type: <the request's HTTP Content-Type>"), and the
 *       same bytes back as attachments photo (image/jpeg) and thumbnail
 *       (image/png).
 *   EchoRef(name, photo: swaRef)
 *       The attachment whose Content-ID the swaRef's cid: URL names (angle
 *       brackets and %-escapes as RFC 2392 says), sent back as a new attachment
 *       <echo-N@gsoap> with the same Content-Type, referenced by the reply's
 *       swaRef "cid:echo-N@gsoap"; size = its byte count.  A swaRef naming no
 *       attachment is a Client fault.
 * Messages up to MAX_MESSAGE bytes are accepted.
 */
#include "soapH.h"
#include "SwaSoapBinding.nsmap"

#include "peer_main.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IDLE_TIMEOUT_SECS 30
#define MAX_MESSAGE (256UL * 1024 * 1024)

enum reply_mode { REPLY_WSI, REPLY_PLAIN, REPLY_UNKNOWN };

struct conn_state
{
  int (*parsehdr)(struct soap *, const char *, const char *); /* gSOAP's own */
  char content_type[512];                                      /* the request's */
};

static int parse_http_header(struct soap *soap, const char *key, const char *val)
{
  struct conn_state *st = (struct conn_state *)soap->user;
  if (key && val && !soap_tag_cmp(key, "Content-Type"))
  {
    strncpy(st->content_type, val, sizeof st->content_type - 1);
    st->content_type[sizeof st->content_type - 1] = '\0';
  }
  return st->parsehdr(soap, key, val);
}

static enum reply_mode path_mode(const char *path)
{
  size_t n;
  if (!path)
    return REPLY_UNKNOWN;
  while (*path == '/')
    path++;
  n = strcspn(path, "/?#");
  if (n == 3 && !strncmp(path, "wsi", 3))
    return REPLY_WSI;
  if (n == 5 && !strncmp(path, "plain", 5))
    return REPLY_PLAIN;
  return REPLY_UNKNOWN;
}

static int sender_fault(struct soap *soap, const char *fmt, const char *arg)
{
  size_t n = strlen(fmt) + (arg ? strlen(arg) : 0) + 32;
  char *msg = (char *)soap_malloc(soap, n);
  if (!msg)
    return soap->error = SOAP_EOM;
  snprintf(msg, n, fmt, arg ? arg : "");
  return soap_sender_fault(soap, msg, NULL);
}

/* A Content-ID without its angle brackets, in soap-allocated memory. */
static const char *bare_id(struct soap *soap, const char *id)
{
  size_t n;
  char *out;
  if (!id)
    return "";
  while (*id == ' ' || *id == '<')
    id++;
  n = strlen(id);
  while (n > 0 && (id[n - 1] == '>' || id[n - 1] == ' '))
    n--;
  out = (char *)soap_malloc(soap, n + 1);
  if (!out)
    return "";
  memcpy(out, id, n);
  out[n] = '\0';
  return out;
}

/* The Content-ID a cid: URL names: "cid:" dropped, %XX undone (RFC 2392). */
static const char *cid_to_id(struct soap *soap, const char *url)
{
  size_t n, i, j;
  char *out;
  if (!url)
    return "";
  while (*url == ' ')
    url++;
  if (!soap_tag_cmp(url, "cid:*"))
    url += 4;
  n = strlen(url);
  out = (char *)soap_malloc(soap, n + 1);
  if (!out)
    return "";
  for (i = 0, j = 0; i < n; i++)
  {
    if (url[i] == '%' && i + 2 < n + 1 && isxdigit((unsigned char)url[i + 1]) &&
        isxdigit((unsigned char)url[i + 2]))
    {
      char hex[3] = {url[i + 1], url[i + 2], 0};
      out[j++] = (char)strtol(hex, NULL, 16);
      i += 2;
    }
    else
      out[j++] = url[i];
  }
  while (j > 0 && out[j - 1] == ' ')
    j--;
  out[j] = '\0';
  return bare_id(soap, out);
}

/* The received attachment whose Content-ID starts with `prefix` (R2933). */
static struct soap_multipart *by_prefix(struct soap *soap, const char *prefix)
{
  struct soap_multipart *a;
  for (a = soap->mime.list; a; a = a->next)
    if (!strncmp(bare_id(soap, a->id), prefix, strlen(prefix)))
      return a;
  return NULL;
}

/* A non-NULL pointer for a 0-byte attachment (gSOAP skips NULL ones). */
static const char *data_of(struct soap *soap, struct soap_multipart *a)
{
  if (a && a->ptr)
    return a->ptr;
  return (const char *)soap_malloc(soap, 1);
}

/* Adds one reply attachment; the first call switches the reply to MIME. */
static int attach(struct soap *soap, const char *ptr, size_t size, const char *type, const char *id)
{
  if (!(soap->omode & SOAP_ENC_MIME))
    soap_set_mime(soap, NULL, NULL);
  if (soap_set_mime_attachment(soap, ptr, size, SOAP_MIME_BINARY, type, id, NULL, NULL))
    return soap->error = SOAP_EOM;
  return SOAP_OK;
}

static int do_echo_photo(struct soap *soap, struct _p__EchoPhoto *req,
                         struct __p__EchoPhotoResponse *out)
{
  struct conn_state *st = (struct conn_state *)soap->user;
  enum reply_mode mode = path_mode(soap->path);
  struct soap_multipart *photo, *thumb, *a;
  struct _p__EchoPhotoResponse *resp;
  size_t len;
  char *received, line[600];

  soap->header = NULL;
  if (mode == REPLY_UNKNOWN)
    return sender_fault(soap, "unknown path %s: use /wsi or /plain", soap->path);
  photo = by_prefix(soap, "photo=");
  thumb = by_prefix(soap, "thumbnail=");
  if (!photo)
    return sender_fault(soap, "no attachment whose Content-ID starts with %s (WS-I AP R2933)", "photo=");
  if (!thumb)
    return sender_fault(soap, "no attachment whose Content-ID starts with %s (WS-I AP R2933)", "thumbnail=");

  len = strlen(st->content_type) + 32;
  for (a = soap->mime.list; a; a = a->next)
    len += (a->id ? strlen(a->id) : 4) + (a->type ? strlen(a->type) : 4) + 32;
  received = (char *)soap_malloc(soap, len);
  if (!received)
    return soap->error = SOAP_EOM;
  snprintf(received, len, "Content-Type: %s\n", st->content_type);
  for (a = soap->mime.list; a; a = a->next)
  {
    snprintf(line, sizeof line, "%s %s %lu\n", a->id ? a->id : "none",
             a->type ? a->type : "none", (unsigned long)a->size);
    strncat(received, line, len - strlen(received) - 1);
  }

  resp = (struct _p__EchoPhotoResponse *)soap_malloc(soap, sizeof *resp);
  if (!resp)
    return soap->error = SOAP_EOM;
  memset(resp, 0, sizeof *resp);
  resp->name = (req && req->name) ? req->name : (char *)"";
  resp->photoSize = (LONG64)photo->size;
  resp->thumbnailSize = (LONG64)thumb->size;
  resp->received = received;
  out->p__EchoPhotoResponse = resp;

  if (mode == REPLY_WSI)
  {
    /* Reversed order, named Content-IDs. */
    if (attach(soap, data_of(soap, thumb), thumb->size, "image/png", "<thumbnail=2@gsoap>") ||
        attach(soap, data_of(soap, photo), photo->size, "image/jpeg", "<photo=1@gsoap>"))
      return soap->error;
  }
  else
  {
    /* WSDL order, no Content-IDs. */
    if (attach(soap, data_of(soap, photo), photo->size, "image/jpeg", NULL) ||
        attach(soap, data_of(soap, thumb), thumb->size, "image/png", NULL))
      return soap->error;
  }
  return SOAP_OK;
}

static int do_echo_ref(struct soap *soap, struct _p__EchoRef *req, struct _p__EchoRefResponse *resp)
{
  static int counter;
  enum reply_mode mode = path_mode(soap->path);
  const char *wanted;
  struct soap_multipart *a;
  char *id, *url;
  int n;

  soap->header = NULL;
  if (mode == REPLY_UNKNOWN)
    return sender_fault(soap, "unknown path %s: use /wsi or /plain", soap->path);
  wanted = cid_to_id(soap, req ? req->photo : NULL);
  for (a = soap->mime.list; a; a = a->next)
    if (!strcmp(bare_id(soap, a->id), wanted))
      break;
  if (!a)
    return sender_fault(soap, "the swaRef %s names no attachment", req ? req->photo : "(none)");
  n = __sync_add_and_fetch(&counter, 1);
  id = (char *)soap_malloc(soap, 48);
  url = (char *)soap_malloc(soap, 48);
  if (!id || !url)
    return soap->error = SOAP_EOM;
  snprintf(id, 48, "<echo-%d@gsoap>", n);
  snprintf(url, 48, "cid:echo-%d@gsoap", n);
  resp->name = (req && req->name) ? req->name : (char *)"";
  resp->size = (LONG64)a->size;
  resp->photo = url;
  return attach(soap, data_of(soap, a), a->size, a->type ? a->type : "application/octet-stream", id);
}

int __p__EchoPhoto(struct soap *soap, struct _p__EchoPhoto *req, struct __p__EchoPhotoResponse *out)
{ return do_echo_photo(soap, req, out); }
int __p__EchoRef(struct soap *soap, struct _p__EchoRef *req, struct _p__EchoRefResponse *resp)
{ return do_echo_ref(soap, req, resp); }

/* The generated soap_serve() loop, as in ../mtom/server.c: a POST that is
 * not a SOAP envelope gets a Client fault; faults are sent as plain SOAP. */
static void serve_requests(struct soap *soap)
{
  struct conn_state st;
  st.parsehdr = soap->fparsehdr;
  st.content_type[0] = '\0';
  soap->user = &st;
  soap->fparsehdr = parse_http_header;

  soap->keep_alive = soap->max_keep_alive + 1;
  do
  {
    if (soap->keep_alive > 0 && soap->max_keep_alive > 0)
      soap->keep_alive--;
    st.content_type[0] = '\0';
    soap_clr_mime(soap);
    if (soap_begin_serve(soap))
    {
      if (soap->error == SOAP_POST)
      {
        soap->keep_alive = 0;
        soap_sender_fault(soap, "request body is not a SOAP envelope", NULL);
        soap_send_fault(soap);
        return;
      }
      if (soap->error >= SOAP_STOP)
        continue;
      return;
    }
    if (soap_serve_request(soap) && soap->error && soap->error < SOAP_STOP)
    {
      soap_clr_mime(soap);
      soap_send_fault(soap);
      return;
    }
    soap_clr_mime(soap);
    soap_dealloc(soap, NULL);
  } while (soap->keep_alive);
}

int main(int argc, char **argv)
{
  struct soap *soap = soap_new2(SOAP_C_UTFSTRING | SOAP_XML_STRICT | SOAP_IO_KEEPALIVE,
                                SOAP_C_UTFSTRING | SOAP_IO_KEEPALIVE);
  if (!soap)
  {
    fprintf(stderr, "soap_new2 failed\n");
    return 1;
  }
  soap->send_timeout = IDLE_TIMEOUT_SECS;
  soap->recv_timeout = IDLE_TIMEOUT_SECS;
  soap->recv_maxlength = MAX_MESSAGE;
  soap->maxlength = 0;
  /* Command line, bind, "LISTENING <port>", a thread per connection. */
  return peer_run(argc, argv, soap, serve_requests);
}
