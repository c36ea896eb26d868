/*
 * ownport.h - the TCP ports ptyvisor's own processes listen on (its web
 * front end), which a sandbox's relay of the host's loopback never
 * reaches, whoever allowed them.
 *
 * A process that listens claims its port for as long as it holds the
 * claim: an abstract UNIX socket named after the port, in the network
 * namespace it listens in.  The claim goes with the process, so nothing
 * is left behind by a crash; a sandboxed command, in a network namespace
 * of its own, can neither make nor see one.  Anyone may claim a port, so
 * a claim only ever keeps a relay from connecting (fail safe), never lets
 * one through.
 */
#ifndef PTYVISOR_OWNPORT_H
#define PTYVISOR_OWNPORT_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Claim port for this process: the claim's socket (close-on-exec; closing
 * it gives the port up), or -1 with errno (EADDRINUSE: claimed already).
 */
int	ownport_claim(uint16_t port);

/* Whether a process of ptyvisor's holds a claim on port. */
bool	ownport_is_claimed(uint16_t port);

#endif
