/*
 * gSOAP server of ../shared/bench/large_objects.wsdl for soapgen's side-by-side benchmark
 * (bench/run.sh).  Built by build.sh: wsdl2h -c -> soapcpp2 -c -> gcc -O2.
 *
 * Usage: lo-server [--port N] [--exit-with-parent]
 *   Binds 127.0.0.1 port N (0 = any free port), prints one line "LISTENING <port>", serves forever.
 *   A thread per connection, HTTP keep-alive without a request limit.  Any path; the reply's SOAP
 *   version follows the request envelope (1.1 or 1.2).
 *
 * Operations (urn:soapgen:bench): Echo(item*) -> the same items; Ping(value) -> value.
 */
#include "soapH.h"
#include "LargeObjectsSoap11.nsmap"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int do_echo(struct soap *soap, struct _b__Echo *req, struct _b__EchoResponse *resp)
{
  (void)soap;
  resp->__sizeitem = req ? req->__sizeitem : 0;
  resp->item = req ? req->item : NULL;
  return SOAP_OK;
}

static int do_ping(struct soap *soap, struct _b__Ping *req, struct _b__PingResponse *resp)
{
  (void)soap;
  resp->value = (req && req->value) ? req->value : (char *)"";
  return SOAP_OK;
}

/* wsdl2h puts both bindings in one service: the "_" twins (SOAP 1.2 binding) are never reached by
 * the dispatcher (same request elements) but must exist for linking. */
int __b__Echo(struct soap *s, struct _b__Echo *q, struct _b__EchoResponse *r) { return do_echo(s, q, r); }
int __b__Echo_(struct soap *s, struct _b__Echo *q, struct _b__EchoResponse *r) { return do_echo(s, q, r); }
int __b__Ping(struct soap *s, struct _b__Ping *q, struct _b__PingResponse *r) { return do_ping(s, q, r); }
int __b__Ping_(struct soap *s, struct _b__Ping *q, struct _b__PingResponse *r) { return do_ping(s, q, r); }

static void *serve_connection(void *arg)
{
  struct soap *soap = (struct soap *)arg;
  soap_serve(soap);
  soap_destroy(soap);
  soap_end(soap);
  soap_free(soap);
  return NULL;
}

static void *watch_parent(void *arg)
{
  pid_t parent = *(pid_t *)arg;
  for (;;)
  {
    usleep(500 * 1000);
    if (getppid() != parent)
      _exit(0);
  }
  return NULL;
}

int main(int argc, char **argv)
{
  int port = 0, i;
  static pid_t parent;
  struct soap *soap;
  struct sockaddr_in addr;
  socklen_t addrlen = sizeof(addr);

  for (i = 1; i < argc; i++)
  {
    if (!strcmp(argv[i], "--port") && i + 1 < argc)
      port = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--exit-with-parent"))
    {
      pthread_t tid;
      parent = getppid();
      if (pthread_create(&tid, NULL, watch_parent, &parent) == 0)
        pthread_detach(tid);
    }
    else
    {
      fprintf(stderr, "usage: %s [--port N] [--exit-with-parent]\n", argv[0]);
      return 2;
    }
  }
  signal(SIGPIPE, SIG_IGN);
  soap = soap_new2(SOAP_C_UTFSTRING | SOAP_IO_KEEPALIVE, SOAP_C_UTFSTRING | SOAP_IO_KEEPALIVE);
  if (!soap)
    return 1;
  soap->bind_flags = SO_REUSEADDR;
  soap->max_keep_alive = 0; /* no limit on requests per connection */
  soap->send_timeout = soap->recv_timeout = 60;
  if (!soap_valid_socket(soap_bind(soap, "127.0.0.1", port, 128)))
  {
    soap_print_fault(soap, stderr);
    return 1;
  }
  if (getsockname(soap->master, (struct sockaddr *)&addr, &addrlen) != 0)
  {
    perror("getsockname");
    return 1;
  }
  printf("LISTENING %d\n", ntohs(addr.sin_port));
  fflush(stdout);
  for (;;)
  {
    struct soap *tsoap;
    pthread_t tid;
    if (!soap_valid_socket(soap_accept(soap)))
      continue;
    tsoap = soap_copy(soap);
    if (!tsoap)
    {
      soap_force_closesock(soap);
      continue;
    }
    if (pthread_create(&tid, NULL, serve_connection, tsoap) != 0)
    {
      serve_connection(tsoap);
      continue;
    }
    pthread_detach(tid);
  }
  return 0;
}
