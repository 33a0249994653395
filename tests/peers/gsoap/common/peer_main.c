/* The shared part of the gSOAP peer servers: see peer_main.h. */
#include "peer_main.h"

#include "stdsoap2.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define DEFAULT_BACKLOG 64

/* Set once by peer_run_with() before the first connection is accepted. */
static void (*serve_one)(struct soap *);

static void *serve_connection(void *arg)
{
  struct soap *soap = (struct soap *)arg;
  serve_one(soap);
  soap_destroy(soap);
  soap_end(soap);
  soap_free(soap);
  return NULL;
}

static void usage(const char *argv0, int no_host)
{
  fprintf(stderr, "usage: %s [--port N]%s [--exit-with-parent]\n", argv0,
          no_host ? "" : " [--host ADDR]");
  exit(2);
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

int peer_run(int argc, char **argv, struct soap *soap, void (*serve_requests)(struct soap *))
{
  static const struct peer_options defaults;
  return peer_run_with(argc, argv, soap, serve_requests, &defaults);
}

int peer_run_with(int argc, char **argv, struct soap *soap, void (*serve_requests)(struct soap *),
                  const struct peer_options *options)
{
  const char *host = "127.0.0.1";
  int port = 0;
  int exit_with_parent = 0;
  static pid_t parent;
  struct sockaddr_storage addr;
  socklen_t addrlen = sizeof(addr);
  int i;

  for (i = 1; i < argc; i++)
  {
    if (!strcmp(argv[i], "--port") && i + 1 < argc)
      port = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--host") && i + 1 < argc && !options->no_host)
      host = argv[++i];
    else if (!strcmp(argv[i], "--exit-with-parent"))
      exit_with_parent = 1;
    else
      usage(argv[0], options->no_host);
  }

  if (exit_with_parent)
  {
    pthread_t tid;
    parent = getppid();
    if (pthread_create(&tid, NULL, watch_parent, &parent) != 0)
    {
      perror("pthread_create");
      return 1;
    }
    pthread_detach(tid);
  }

  signal(SIGPIPE, SIG_IGN);

  serve_one = serve_requests;
  soap->bind_flags = SO_REUSEADDR;
  soap->accept_timeout = 0; /* block */
  if (!soap_valid_socket(soap_bind(soap, host, port,
                                   options->backlog ? options->backlog : DEFAULT_BACKLOG)))
  {
    soap_print_fault(soap, stderr);
    return 1;
  }
  if (getsockname(soap->master, (struct sockaddr *)&addr, &addrlen) != 0)
  {
    perror("getsockname");
    return 1;
  }
  if (addr.ss_family == AF_INET6)
    port = ntohs(((struct sockaddr_in6 *)&addr)->sin6_port);
  else
    port = ntohs(((struct sockaddr_in *)&addr)->sin_port);

  printf("LISTENING %d\n", port);
  fflush(stdout);

  for (;;)
  {
    struct soap *tsoap;
    pthread_t tid;

    if (!soap_valid_socket(soap_accept(soap)))
    {
      if (soap->errnum && !options->quiet_accept)
        soap_print_fault(soap, stderr);
      continue;
    }
    tsoap = soap_copy(soap);
    if (!tsoap)
    {
      soap_force_closesock(soap);
      continue;
    }
    if (pthread_create(&tid, NULL, serve_connection, tsoap) != 0)
    {
      /* Out of threads: serve inline rather than dropping the client. */
      serve_connection(tsoap);
      continue;
    }
    pthread_detach(tid);
  }
  /* not reached */
  return 0;
}
