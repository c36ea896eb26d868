/*
 * ask-server.h - the asker (net/ask.h) a filtered network's proxy is given
 * in ptyvisor: a host on neither list becomes a "connect" request on the
 * server's control socket (doc/protocol.md), one connection a question,
 * so that closing it withdraws the question.
 */
#ifndef PTYVISOR_ASK_SERVER_H
#define PTYVISOR_ASK_SERVER_H

#include "net/ask.h"

/* Asks the server listening on the control socket named by where. */
extern const struct asker	ask_server;

#endif
