/*
 * The part every gSOAP peer server shares (tests/peers/gsoap/, its mtom/ and
 * swa/, tests/peers/globalweather/, bench/gsoap/): command line, parent
 * watch, bind, the "LISTENING <port>" line and a thread per connection.
 * Compiled into each server by its build.sh (common/lib.sh: peer_gcc ...
 * "$PEER_MAIN_C").
 *
 * A server creates and configures its own context (soap_new2 flags,
 * send/recv timeouts, limits, fget/fform hooks ...) and hands it over with
 * the function that serves the requests of one accepted connection:
 *
 *   int main(int argc, char **argv)
 *   {
 *     struct soap *soap = soap_new2(...);
 *     ...
 *     return peer_run(argc, argv, soap, serve_requests);
 *   }
 *
 * Command line: [--port N] [--host ADDR] [--exit-with-parent]
 *   Binds ADDR (default 127.0.0.1) port N (default 0 = any free port) with
 *   SO_REUSEADDR and backlog 64, prints exactly one line "LISTENING <port>"
 *   on stdout, then accepts forever (blocking accept).  Every connection is
 *   served by serve_requests() on a copy of the context (soap_copy) on its
 *   own detached thread (inline when no thread can be created); the copy is
 *   cleaned up (soap_destroy, soap_end, soap_free) when serve_requests
 *   returns.  SIGPIPE is ignored.  Anything else on the command line: a
 *   usage line on stderr and exit status 2.
 *   --exit-with-parent: exit (status 0) as soon as the parent process dies
 *   (polled every 0.5 s; used by the Rust test harness so that a killed test
 *   binary leaves no server behind).
 * Returns 1 (after a message on stderr) when the server cannot start.
 */
#ifndef SOAPGEN_PEER_MAIN_H
#define SOAPGEN_PEER_MAIN_H

struct soap;

int peer_run(int argc, char **argv, struct soap *soap, void (*serve_requests)(struct soap *));

/* peer_run() with a different contract where bench/gsoap/server.c has one;
 * all zero = peer_run(). */
struct peer_options
{
  int backlog;      /* listen() backlog; 0 = 64 */
  int no_host;      /* no --host option: always 127.0.0.1 */
  int quiet_accept; /* failed accepts are not reported on stderr */
};

int peer_run_with(int argc, char **argv, struct soap *soap, void (*serve_requests)(struct soap *),
                  const struct peer_options *options);

#endif
