/*
 * ask.h - a filtered network's proxy asks a person for a host on neither
 * list: a "connect" request on ptyvisor's control socket (doc/protocol.md),
 * queued like a command, answered with `ptyvisor approve/deny` or in the
 * console.  Non-blocking on the loop; one connection per question, so
 * giving up (ask_cancel) withdraws it.
 */
#ifndef PTYVISOR_ASK_H
#define PTYVISOR_ASK_H

#include <stdbool.h>
#include <stdint.h>

struct loop;
struct ask;

/* The answer, from the approved event's scope (doc/protocol.md). */
enum ask_answer {
	ASK_DENIED,	/* no: why is the person's reason, or ours */
	ASK_ONCE,	/* this one connection */
	ASK_SESSION	/* the host and port from now on ("session", or a
			   rule that also reaches later sandboxes) */
};

/* The answer, and why (who approved, or the reason it is no). */
typedef void	(*ask_fn)(void *arg, enum ask_answer answer, const char *why);

/*
 * Ask the server listening on socket_path about host:port; fn is called
 * once, later, from the loop, and the question freed after it.  NULL with
 * *cause when it cannot even be sent (no server, no room).
 */
struct ask	*ask_start(struct loop *l, const char *socket_path,
		    const char *host, uint16_t port, const char *why,
		    ask_fn fn, void *arg, char **cause);

/* Give up before the answer: the question is withdrawn.  NULL: no-op. */
void		 ask_cancel(struct ask *a);

#endif
