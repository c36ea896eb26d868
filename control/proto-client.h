/*
 * proto-client.h - the client's half of the control protocol
 * (doc/protocol.md), as proto.h is the server's: every request a client
 * sends, built as one line (proto-requests.c), and every event it
 * receives, decoded into one plain struct (proto-decode.c).
 *
 * An exec is built from the struct proto_exec the server parses it into,
 * an attach from the struct proto_request, so one struct describes a
 * request both ways; decoded events fill the structs proto.h's event
 * builders take (proto_pending, proto_session, proto_exit).  A client
 * spells no key of the protocol itself: it fills a struct, calls a
 * builder, and reads the decoded event.
 *
 * Invariants: a built request is one compact JSON object and its newline,
 * its keys in a fixed order; a string that is not UTF-8 cannot be JSON
 * text and is left out, whatever it is (an environment variable, as
 * doc/protocol.md says of `ptyvisor exec`, but also a word of argv).  The
 * decoder requires every field the server always sends and the right
 * type for every field present, takes an output's bytes from "b64" or,
 * failing that, "data", and gives an event it does not know as
 * PROTO_EV_UNKNOWN (newer servers may send more).
 */
#ifndef PTYVISOR_PROTO_CLIENT_H
#define PTYVISOR_PROTO_CLIENT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "control/proto.h"
#include "base/util.h"

/*
 * Request builders: each appends one JSON line (with its newline) to b.
 * id is the request's id, echoed in the answers.
 */
void	proto_req_hello(struct buf *b);
/* An exec: what ex holds (NULL and zero fields left out). */
void	proto_req_exec(struct buf *b, const char *id,
	    const struct proto_exec *ex);
/*
 * Input to a session: len bytes as "b64" or as "data" text (invalid UTF-8
 * becomes U+FFFD); to its stdin pipe when to_stdin, then closed when eof
 * (an EOF alone carries no bytes).
 */
void	proto_req_input(struct buf *b, const char *id, int64_t session,
	    bool to_stdin, const void *data, size_t len,
	    enum proto_encoding enc, bool eof);
void	proto_req_kill(struct buf *b, const char *id, int64_t session);
/* A session's screen as it is now (answered by a screen event). */
void	proto_req_screen(struct buf *b, const char *id, int64_t session);
void	proto_req_resize(struct buf *b, const char *id, int64_t session,
	    unsigned int cols, unsigned int rows);
void	proto_req_list(struct buf *b, const char *id);
void	proto_req_subscribe(struct buf *b, const char *id);
void	proto_req_shutdown(struct buf *b, const char *id);
/*
 * Approve or deny req->request: req's id, approve, remember (as req->rule,
 * NULL: the suggestion), once (a host, this once), reason, exec.argv (the
 * command as edited; NULL: as asked) and by (who decided; NULL: "user").
 */
void	proto_req_decide(struct buf *b, const struct proto_request *req);
/*
 * Become a console: req's id, term, cols, rows, readonly, new_session,
 * pass_tty, and tty, by, exec.cwd and exec.argv when not NULL.
 */
void	proto_req_attach(struct buf *b, const struct proto_request *req);
/* A filtered network's proxy asks for host:port (why may be NULL). */
void	proto_req_connect(struct buf *b, const char *id, const char *host,
	    unsigned int port, const char *why);

enum proto_ev_kind {
	PROTO_EV_UNKNOWN,	/* an event this client does not know */
	PROTO_EV_HELLO,
	PROTO_EV_ERROR,
	PROTO_EV_OK,
	PROTO_EV_ATTACHED,
	PROTO_EV_QUEUED,
	PROTO_EV_APPROVED,
	PROTO_EV_DENIED,
	PROTO_EV_WITHDRAWN,
	PROTO_EV_STARTED,
	PROTO_EV_OUTPUT,
	PROTO_EV_WRITTEN,
	PROTO_EV_EXIT,
	PROTO_EV_LIST,
	PROTO_EV_SCREEN,
	PROTO_EV_RESIZED,
	PROTO_EV_SKIPPED
};

/*
 * A decoded event: kind says which fields hold something.  Strings and
 * vectors belong to the event (NULL: not sent); proto_event_free releases
 * them.
 */
struct proto_event {
	enum proto_ev_kind	 kind;
	const char		*id;		/* the request's; NULL: none */
	int			 version;	/* hello */
	const char		*server;	/* hello: "ptyvisor X.Y" */
	pid_t			 pid;		/* hello: the server's;
						   started: the command's;
						   0: not said */
	const char		*code;		/* error: e.g. "bad-value" */
	const char		*message;	/* error */
	const char		*not_saved;	/* ok: why a rule was not
						   saved */
	unsigned long		 console;	/* attached */
	bool			 tty;		/* attached: terminal taken */
	struct proto_pending	 queued;	/* queued */
	int64_t			 request;	/* approved, denied,
						   withdrawn, started */
	const char		*by;		/* approved, denied */
	const char		*reason;	/* denied */
	char *const		*argv;		/* approved: as edited */
	const char		*scope;		/* approved: a host's */
	int64_t			 session;	/* started, output,
						   written, screen,
						   resized */
	uint64_t		 seq;		/* output */
	int			 fd;		/* output: 1 stdout, 2 stderr
						   (pipes), 0 the PTY */
	const char		*data;		/* output: the bytes;
						   screen: its drawing */
	size_t			 len;
	unsigned int		 cols;		/* screen, resized */
	unsigned int		 rows;
	bool			 partial;	/* screen: rows left out */
	uint64_t		 bytes;		/* written */
	struct proto_exit	 exit;		/* exit */
	struct proto_session	*sessions;	/* list */
	size_t			 nsessions;
	struct proto_pending	*pending;	/* list */
	size_t			 npending;

	/* What the fields point into (private). */
	json_t			*json;
	struct buf		 raw;		/* output's decoded b64 */
	void			**owned;	/* vectors allocated */
	size_t			 nowned;
};

/*
 * Decode event object o into *ev (which keeps a reference to o): 0, or -1
 * with *cause when it is not an event or a field is missing or of the
 * wrong type (*ev then holds nothing).
 */
int	proto_event_decode(json_t *o, struct proto_event *ev, char **cause);
/* The same from one line of len bytes (its newline may be left on). */
int	proto_event_parse(const char *line, size_t len, struct proto_event *ev,
	    char **cause);
/* Release what ev holds; ev may then be decoded into again. */
void	proto_event_free(struct proto_event *ev);

#endif
