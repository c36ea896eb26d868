/*
 * proto.h - the control protocol's JSON lines (doc/protocol.md): requests
 * parsed into plain structs with full validation (an exec into struct
 * proto_exec, the one value carried to the session), events built as
 * single lines.
 *
 * Parsing never trusts its input: anything wrong (bad JSON, a duplicate
 * key, an unknown op, a missing or mistyped field, a value out of range, an
 * over-long line) yields an error code and a message for an "error" event,
 * and the request id when one could be read, so the answer can echo it.
 * Unknown fields are ignored (newer clients may send more).  Every built
 * event is one compact JSON object followed by a newline; strings in it are
 * always valid UTF-8 (invalid bytes in output become U+FFFD).  The
 * client's half -- requests built, events decoded -- is proto-client.h.
 */
#ifndef PTYVISOR_PROTO_H
#define PTYVISOR_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sandbox/sandbox.h"

struct buf;
struct json_t;

#define PROTO_VERSION		1
/* Longest request line, newline excluded (doc/protocol.md). */
#define PROTO_LINE_MAX		(1024 * 1024)
/* Longest request id; ids are echoed in every answer. */
#define PROTO_ID_MAX		128
/*
 * Longest "by" of a decide: a front end's name, an address and a token's
 * name fit many times over; the bound keeps a log line a line.
 */
#define PROTO_BY_MAX		200
/* Longest exec timeout: a week.  Longer is a mistake, not a wish. */
#define PROTO_TIMEOUT_MAX_S	(7 * 24 * 3600)
/*
 * Longest screen event's drawing (proto_ev_screen): a 200x60 screen with
 * an attribute change in every other cell fits; so does its JSON line
 * (an escape is 6 bytes there, a sequence at least 4 here) well within
 * the bound on what a client may leave unread (doc/protocol.md §9).
 */
#define PROTO_SCREEN_MAX	(256 * 1024)
/* Terminal size bounds for exec and resize. */
#define PROTO_SIZE_MAX		1000
#define PROTO_DEFAULT_COLS	80
#define PROTO_DEFAULT_ROWS	24

enum proto_op {
	PROTO_OP_HELLO,
	PROTO_OP_EXEC,
	PROTO_OP_INPUT,
	PROTO_OP_KILL,
	PROTO_OP_RESIZE,
	PROTO_OP_LIST,
	PROTO_OP_SUBSCRIBE,
	PROTO_OP_DECIDE,
	PROTO_OP_ATTACH,
	PROTO_OP_SHUTDOWN,
	PROTO_OP_CONNECT,	/* a filtered network's proxy asks for a
				   host */
	PROTO_OP_SCREEN		/* a session's screen as it is now */
};

/* Error codes; proto_err_name gives the "code" string of an error event. */
enum proto_err {
	PROTO_ERR_JSON,		/* malformed-json */
	PROTO_ERR_NOT_OBJECT,	/* not-an-object */
	PROTO_ERR_UNKNOWN_OP,	/* unknown-op */
	PROTO_ERR_MISSING,	/* missing-field */
	PROTO_ERR_TYPE,		/* wrong-type */
	PROTO_ERR_VALUE,	/* bad-value */
	PROTO_ERR_TOO_LONG,	/* line-too-long */
	PROTO_ERR_VERSION,	/* bad-version: close the connection after */
	/* For the server's own answers; the parser never returns these. */
	PROTO_ERR_NO_SESSION,	/* no-such-session */
	PROTO_ERR_NO_REQUEST,	/* no-such-request */
	PROTO_ERR_STATE,	/* bad-state, e.g. input to an exited session */
	PROTO_ERR_INTERNAL	/* internal */
};

enum proto_encoding {
	PROTO_ENC_TEXT,		/* "data": UTF-8 text */
	PROTO_ENC_BASE64	/* "b64": exact bytes */
};

/*
 * An exec request: what an agent asks to run, the one value that describes
 * it from the wire to the session.  Parsed once (proto_parse), then carried
 * by the approval queue (control/approval.h embeds it, edits change its
 * argv), shown in queued and list events and to the notify program, and
 * turned into the session's options by the server's spawn hook.  A new
 * field is added here, in proto.c (parse), proto-events.c (events) and
 * the client's half (proto-requests.c builds it, proto-decode.c reads it
 * back from events), and nowhere else.  Strings are owned by the request
 * (proto_exec_free).
 */
struct proto_exec {
	char			**argv;		/* non-empty, argv[0] non-empty */
	char			 *cwd;		/* absolute; NULL: not given */
	char			**env;		/* "NAME=VALUE"...; NULL: none */
	/* "environ": the caller's whole environment; NULL: not sent. */
	char			**environ;
	uint64_t		  timeout_ms;	/* 0: no timeout */
	bool			  has_sandbox;	/* false: the server's default */
	enum sandbox_profile	  sandbox;	/* parsed once, by its name */
	bool			  network;
	char			 *network_allow; /* host list (checked); NULL */
	unsigned int		  cols;		/* 1..PROTO_SIZE_MAX */
	unsigned int		  rows;
	char			 *why;		/* agent's reason; may be NULL */
	enum proto_encoding	  encoding;	/* of the output events */
	bool			  pipes[3];	/* "stdio": 0-2 as pipes */
	bool			  err_joined;	/* 2 on 1's pipe (2>&1) */
	bool			  stdin_null;	/* 0 is /dev/null ("null") */
	/*
	 * "report_cwd": a shell's -c command reports, as it ends, the
	 * directory it ended in (OSC 7 on its terminal), for the exit
	 * event's "cwd"; the shell and the command are as approved.
	 */
	bool			  report_cwd;
	bool			  has_umask;	/* "umask" given */
	unsigned int		  umask;	/* 0..0777 */
	/*
	 * "env_dropped": the names of the secret variables the approval
	 * queue took out of environ (policy_env_secret); NULL: none.  The
	 * server's to say, in events and the history: never read from a
	 * client's request.
	 */
	char			**env_dropped;
};

/* A parsed request.  Free with proto_request_free. */
struct proto_request {
	enum proto_op		 op;
	char			*id;		/* NULL only for hello */
	int			 version;	/* hello */
	struct proto_exec	 exec;		/* exec */
	int64_t			 session;	/* input, kill, resize,
						   screen: >= 1 */
	char			*data;		/* input: bytes (NUL-terminated) */
	size_t			 datalen;
	bool			 to_stdin;	/* input: "stream":"stdin" */
	bool			 eof;		/* input: close stdin after data */
	unsigned int		 cols;		/* resize */
	unsigned int		 rows;
	int64_t			 request;	/* decide: >= 1 */
	bool			 approve;	/* decide */
	bool			 remember;	/* decide */
	bool			 once;		/* decide: a host, this once */
	char			*reason;	/* decide; may be NULL */
	/*
	 * decide: the rule to remember (with remember; NULL: the queue's
	 * suggestion), the command as a person edited it (exec.argv, with
	 * approve alone), and who decided as the client names them ("web
	 * (127.0.0.1, token phone)"; NULL: "user").  attach: who decides in
	 * the console, named the same way (NULL: "user (console N, TTY)").
	 */
	char			*rule;
	char			*by;
	/*
	 * attach: the console's TERM and size (cols, rows), watch only, its
	 * terminal's name (may be NULL), and whether to open a session in it
	 * (exec.argv, NULL: the shell; exec.cwd).
	 */
	char			*term;
	char			*tty;
	bool			 readonly;
	bool			 new_session;
	bool			 pass_tty;	/* its terminal passed with the line */
	char			*host;		/* connect: normalized */
	unsigned int		 port;		/* connect: 1..65535 */
	char			*why;		/* connect; may be NULL */
};

/* Why a line was refused. */
struct proto_error {
	enum proto_err	code;
	char		message[256];
	bool		has_id;			/* id could be read */
	char		id[PROTO_ID_MAX + 1];
};

/*
 * Parse one request line of len bytes (a trailing "\n" or "\r\n" is
 * ignored).  Returns the request, or NULL with *err filled.
 */
struct proto_request	*proto_parse(const char *line, size_t len,
			     struct proto_error *err);
void			 proto_request_free(struct proto_request *req);
/* Free what x owns and empty it (a new, empty value); NULL: no-op. */
void			 proto_exec_free(struct proto_exec *x);

/*
 * What the server answers an exec request that struct proto_exec cannot
 * hold, for the clients that refuse it themselves before sending (exec,
 * mcp): a profile it does not know, and (with the field's name) a
 * variable name that proto_env_name_ok() refuses.
 */
#define PROTO_MSG_BAD_SANDBOX	"'sandbox' must be read-only, " \
				"workspace-write or danger-full-access"
#define PROTO_FMT_BAD_ENV_NAME	"'%s' has a bad variable name"
/* Whether name can be a variable's name in a request: not empty, no '='. */
bool			 proto_env_name_ok(const char *name);

const char	*proto_op_name(enum proto_op op);
const char	*proto_err_name(enum proto_err code);

/*
 * A request waiting for a decision, as queued and list events and the
 * notify program describe it: the request itself (borrowed, never copied)
 * and what the queue made of it.
 */
struct proto_pending {
	int64_t			 request;
	const struct proto_exec	*exec;		/* argv, cwd, sandbox, network,
						   network_allow, why */
	const char		*verdict;	/* "allow", "ask", "deny" */
	const char		*by;		/* what decided the verdict */
	pid_t			 client_pid;	/* 0: omitted */
	const char		*client_exe;	/* NULL: omitted */
	/*
	 * Variables of the caller's environment that steer what runs and
	 * differ from the server's ("NAME=VALUE"); NULL: omitted.
	 */
	char *const		*environ_differs;
	/* The verdict for a person ("... sets core.fsmonitor"); NULL: omitted. */
	const char		*detail;
	bool			 connect;	/* a host asked for ("connect") */
	/*
	 * An exec inside a running session (exec checks): its process
	 * waits in execve.  check_session 0: not one.
	 */
	int64_t			 check_session;
	pid_t			 check_pid;
	const char		*check_path;	/* the file executed */
	const char		*check_chain;	/* "#12 make ← sh -c … ← git" */
};

/* A session, for list results. */
struct proto_session {
	int64_t		 session;
	pid_t		 pid;		/* 0: omitted */
	char *const	*argv;
	const char	*cwd;		/* NULL: omitted */
	const char	*state;		/* e.g. "running", "exited" */
	bool		 agent;		/* started by a control client */
};

/* How a session ended. */
struct proto_exit {
	int64_t		 session;
	int		 code;		/* exit status when signal is 0 */
	int		 signal;	/* terminating signal, 0: none */
	bool		 timed_out;
	uint64_t	 duration_ms;
	const char	*recording;	/* path; NULL: omitted */
	const char	*ending;	/* its name (record/ending.h); NULL: omitted */
	const char	*cwd;		/* the directory the command last
					   reported (OSC 7); NULL: omitted */
};

/*
 * Event builders: each appends one JSON line (with its newline) to b.  id
 * is the request id to echo, NULL for none (unsolicited events).
 */
void	proto_ev_hello(struct buf *b);
void	proto_ev_error(struct buf *b, const char *id, enum proto_err code,
	    const char *message);
/* A bare acknowledgement for requests with nothing else to say. */
void	proto_ev_ok(struct buf *b, const char *id);
/*
 * ok to an approval whose rule was remembered but could not be written to
 * the rules file: not_saved says why.
 */
void	proto_ev_ok_not_saved(struct buf *b, const char *id, const char *why);
/*
 * The answer to attach: the console's number.  After this line the
 * connection carries frames, not lines (doc/protocol.md, "Consoles").
 */
void	proto_ev_attached(struct buf *b, const char *id, unsigned long console,
	    bool tty);
void	proto_ev_queued(struct buf *b, const char *id,
	    const struct proto_pending *pending);
/*
 * "approved" or "denied"; by is "user" or the rule; reason may be NULL;
 * argv, when not NULL, is the command as a person edited it (what runs);
 * scope, when not NULL, how far an approved host reaches ("once",
 * "session", "rule").
 */
void	proto_ev_decided(struct buf *b, const char *id, int64_t request,
	    bool approved, const char *by, const char *reason,
	    char *const *argv, const char *scope);
/* A pending request its client gave up on (for subscribers). */
void	proto_ev_withdrawn(struct buf *b, int64_t request);
void	proto_ev_started(struct buf *b, const char *id, int64_t request,
	    int64_t session, pid_t pid);
/*
 * Output of a session: as "data" text (invalid UTF-8 bytes become U+FFFD;
 * see proto_utf8_complete to carry split sequences over) or as "b64".
 */
void	proto_ev_output(struct buf *b, const char *id, int64_t session,
	    uint64_t seq, const void *data, size_t len,
	    enum proto_encoding enc);
/*
 * Output of a command's stdout (fd 1) or stderr (fd 2) pipe: an output
 * event with "stream":"stdout" or "stderr" (the PTY's carries none).
 */
void	proto_ev_stream(struct buf *b, const char *id, int64_t session,
	    uint64_t seq, int fd, const void *data, size_t len,
	    enum proto_encoding enc);
/*
 * The answer to screen: session's size and len bytes that draw its screen
 * on a terminal of that size just reset (term/screen.h's screen_redraw),
 * "partial" when rows were left out past PROTO_SCREEN_MAX.
 */
void	proto_ev_screen(struct buf *b, const char *id, int64_t session,
	    unsigned int cols, unsigned int rows, const void *data,
	    size_t len, bool partial);
/* A session's terminal has a new size (for subscribers). */
void	proto_ev_resized(struct buf *b, int64_t session, unsigned int cols,
	    unsigned int rows);
/*
 * To a subscriber that fell behind: bytes of session's output were left
 * out for it (its screen is to be asked for again).
 */
void	proto_ev_skipped(struct buf *b, int64_t session, uint64_t bytes);
/* How many bytes of its stdin pipe the command has taken so far. */
void	proto_ev_written(struct buf *b, const char *id, int64_t session,
	    uint64_t total);
void	proto_ev_exit(struct buf *b, const char *id,
	    const struct proto_exit *exit);
void	proto_ev_list(struct buf *b, const char *id,
	    const struct proto_session *sessions, size_t nsessions,
	    const struct proto_pending *pending, size_t npending);
/*
 * The one argument of the notify program (Codex's `notify` convention): a
 * JSON object with "type":"approval-requested", the request, the command
 * quoted and as argv, and what a person needs to decide; a field that is
 * not valid UTF-8 is left out.  Caller frees.
 */
char	*proto_notify_json(const struct proto_pending *p);

/*
 * Append object o to b as one compact line (keys in insertion order) and
 * release it: every line the codec builds, event or request, ends here.
 */
void	proto_json_line(struct buf *b, struct json_t *o);

/*
 * How many of the n bytes at p can be sent as text now: all but an
 * incomplete UTF-8 sequence at the very end (at most 3 bytes), which the
 * caller keeps for the next read.
 */
size_t	proto_utf8_complete(const void *p, size_t n);

/* RFC 4648 base64 with padding.  Decode is strict: -1 on any bad input. */
void	proto_base64_encode(struct buf *out, const void *p, size_t n);

/*
 * Console frames after attach (doc/protocol.md §5b): a type byte, the
 * payload's length (4 bytes, big-endian), the payload.  A size frame's
 * payload is rows then columns, 2 bytes each, big-endian.
 */
#define PROTO_FRAME_HEAD	5
void	proto_frame_head(unsigned char head[PROTO_FRAME_HEAD], char type,
	    uint32_t len);
/* The header at p (n bytes there): false until it is whole. */
bool	proto_frame_peek(const void *p, size_t n, char *type, uint32_t *len);
void	proto_frame_size(unsigned char p[4], unsigned int rows,
	    unsigned int cols);
void	proto_frame_size_read(const unsigned char p[4], unsigned int *rows,
	    unsigned int *cols);
int	proto_base64_decode(struct buf *out, const char *s, size_t n);

#endif
