/*
 * control-int.h - what the files of the control socket server share: the
 * server, its clients, the sessions it reports on and the execs waiting
 * for a decision, and the functions each file offers the others.  Not for
 * use outside control.c, conn.c, console.c, forward.c and requests.c.
 *
 * Calls go one way, down: control.c (socket, accept, reading lines) uses
 * requests.c (answers), console.c (a console's frames), forward.c (events,
 * a waiting exec forgotten) and conn.c (output, close); requests.c uses
 * console.c (attach) and conn.c, and adds the waiting execs forward.c
 * tracks; console.c and forward.c use conn.c; conn.c uses none of them
 * (its close only clears fields of the tracked sessions and waiting
 * execs).  Upcalls only come back through the session and approval
 * subscriptions (tables owned by session/ and approval.c).
 */
#ifndef PTYVISOR_CONTROL_INT_H
#define PTYVISOR_CONTROL_INT_H

#include "control/control.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "control/approval.h"
#include "control/proto.h"
#include "base/loop.h"
#include "base/util.h"
#include "session/session.h"

/* A connected client. */
struct control_client {
	struct control		*c;
	unsigned long		 serial;	/* for the log */
	int			 fd;
	pid_t			 pid;
	char			*exe;
	struct buf		 in;
	struct buf		 out;
	bool			 hello;
	bool			 subscribed;
	bool			 closing;	/* draining out, then close */
	bool			 dead;
	void			*console;	/* attached: frames, not lines */
	int			 fds[2];	/* passed with its last line */
	int			 nfds;
	struct loop_timer	*close_timer;
	struct loop_timer	*hello_timer;	/* until its hello */
	struct loop_timer	*batch_timer;	/* output lines waiting */
	/* A subscriber behind: the sessions whose output it was not sent. */
	struct control_skip	*skipped;
	size_t			 nskipped;
};

/* Output of session left out for a subscriber: bytes of it. */
struct control_skip {
	int64_t			 session;
	uint64_t		 bytes;
};

/* An exec request waiting for its decision. */
struct control_req {
	uint64_t		 request;
	struct control_client	*client;	/* NULL once it left */
	char			*id;
	enum proto_encoding	 enc;
};

/* A session the server reports on. */
struct control_sess {
	struct session		*s;
	unsigned long		 id;
	uint64_t		 request;	/* 0: not started by a client */
	struct control_client	*owner;		/* NULL: nobody waits */
	char			*req_id;
	enum proto_encoding	 enc;
	uint64_t		 seq;
	unsigned char		 carry[4];	/* incomplete UTF-8 tail */
	size_t			 ncarry;
	bool			 started;	/* started event sent */
	/* The command's stdout and stderr pipes (forward.c's pipe section). */
	unsigned char		 pipe_carry[3][4];	/* [1], [2] as carry */
	size_t			 npipe_carry[3];
	bool			 held;		/* owner behind: output not read */
};

/*
 * Output queued for its owner beyond which the session's output (PTY and
 * pipes) is no longer read (the command blocks, as on a full pipe), and
 * below which it is read again: far below CONTROL_OUT_MAX, so an agent
 * that reads slowly (exec --text rendering a flood) is waited for, never
 * dropped.
 */
#define CONTROL_PIPE_HOLD	(128 * 1024)
/*
 * Output events wait up to CONTROL_BATCH_MS, or until CONTROL_BATCH bytes
 * are queued, to go to their client in one send (any other event sends
 * them first, in order).  A PTY gives ~4 KiB a read, each its own event:
 * sent one by one, each woke the client.  Well below CONTROL_PIPE_HOLD.
 */
#define CONTROL_BATCH		(32 * 1024)
#define CONTROL_BATCH_MS	1
#define CONTROL_PIPE_RESUME	(32 * 1024)

/* The server. */
struct control {
	struct loop		*loop;
	struct sessions		*ss;
	struct approval		*a;
	struct control_hooks	 hooks;
	void			*user;
	char			*path;
	int			 fd;
	dev_t			 dev;
	ino_t			 ino;
	bool			 keep;
	unsigned long		 serial;

	struct control_client	**clients;
	size_t			 nclients;
	struct loop_timer	*reap_timer;
	struct loop_timer	*accept_timer;

	struct control_req	**reqs;
	size_t			 nreqs;
	struct control_sess	**sess;
	size_t			 nsess;
};

/* conn.c: log one line through the hook. */
void	control_log(struct control *c, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* conn.c: queue a built event line for a client and try to send it. */
void	control_send(struct control_client *cl, struct buf *line);
/* conn.c: send line to every subscribed client except skip. */
void	control_broadcast(struct control *c, struct buf *line,
	    struct control_client *skip);
/* conn.c: control_send for output: batched. */
void	control_send_output(struct control_client *cl, struct buf *line);
/*
 * Send line, bytes of session's output (an output event, batched as
 * control_send_output, or a pipe's), to every subscriber but skip; one
 * too far behind has the session's output left out until it has read
 * most of what waits, then is told (skipped), never dropped for it.
 */
void	control_broadcast_session(struct control *c, struct buf *line,
	    struct control_client *skip, int64_t session, size_t bytes,
	    bool batched);
/* Tell now the subscribers that had session's output left out (it ends). */
void	control_skip_end(struct control *c, int64_t session);
/* conn.c: whether control_broadcast would send to anyone. */
bool	control_has_subscribers(const struct control *c,
	    const struct control_client *skip);
/* conn.c: send an error event, and log it. */
void	control_error(struct control_client *cl, const char *id,
	    enum proto_err code, const char *message);
/* conn.c: free dead clients, outside callbacks that may still hold them. */
void	control_reap(struct loop *l, void *arg);
/* conn.c: close the descriptors a client passed and nobody took. */
void	control_drop_fds(struct control_client *cl);
/* conn.c: drop a client now: kill its sessions, withdraw its requests. */
void	control_client_close(struct control_client *cl);
/* conn.c: close after what is queued has been sent (or a grace has passed). */
void	control_client_finish(struct control_client *cl);
/* conn.c: write what the socket takes now; watch POLLOUT for the rest. */
void	control_client_flush(struct control_client *cl);

/* conn.c: the client's queue went below CONTROL_PIPE_RESUME: read on. */
void	control_pipes_resume(struct control_client *cl);
/* forward.c: forget a waiting exec. */
void	control_req_remove(struct control *c, struct control_req *cr);
/* forward.c: what the server subscribes to (control_new). */
extern const struct session_events	control_session_events;
extern const struct approval_events	control_approval_events;

/* requests.c: parse and answer one line (without its newline). */
void	control_line(struct control_client *cl, const char *line, size_t len);

/* console.c: answer attach: the connection becomes a console's. */
void	control_op_attach(struct control_client *cl, struct proto_request *req);
/* console.c: handle the frames a console's client sent (cl->in). */
void	control_console_frames(struct control_client *cl);

#endif
