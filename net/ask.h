/*
 * ask.h - how a filtered network's proxy asks a person about a host on
 * neither list: an interface the caller hands the proxy (struct asker,
 * carried from sandbox_opts.net_asker through proxy_opts.asker), so that
 * net/ knows nothing of who is asked or how.  ptyvisor's asks the server
 * on its control socket (control/ask-server.h): queued like a command,
 * answered with `ptyvisor approve/deny` or in the console.
 *
 * Whatever the implementation, it is non-blocking on the proxy's loop and
 * keeps one question per start: giving up (cancel) withdraws it.
 */
#ifndef PTYVISOR_ASK_H
#define PTYVISOR_ASK_H

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

/* Who the proxy asks; a const struct the implementation provides. */
struct asker {
	/*
	 * Ask whoever listens at where (a socket's path) about host:port; fn
	 * is called once, later, from l's loop, and the question freed after
	 * it.  NULL with *cause when it cannot even be asked (nobody there,
	 * no room).
	 */
	struct ask	*(*start)(struct loop *l, const char *where,
			    const char *host, uint16_t port, const char *why,
			    ask_fn fn, void *arg, char **cause);
	/* Give up before the answer: the question is withdrawn. */
	void		 (*cancel)(struct ask *a);
};

#endif
