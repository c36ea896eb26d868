/*
 * mcp-int.h - what the files of the MCP server (mcpd.h) share: its
 * bounds, a job (one command on its own control connection), a call (a
 * tools/call being carried out) and the server.  mcpd.c reads stdin's
 * lines, runs the loop and hands each call to its tool (tools.c lists
 * them; tool-run.c, tool-session.c carry them out); mcp-jobs.c follows
 * the jobs, speaks the control protocol for them (but exec, tool-run.c)
 * and answers the calls waiting on them; mcp-results.c turns a job's
 * state into a tool's answer (no I/O).  Calls go one way: mcpd.c, tools.c,
 * tool-*.c, mcp-jobs.c, mcp-results.c.  Not for use outside mcp/.
 */
#ifndef PTYVISOR_MCP_INT_H
#define PTYVISOR_MCP_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "base/util.h"
#include "control/proto-client.h"
#include "mcp/mcpd.h"
#include "mcp/outcap.h"

struct client;
struct loop;
struct loop_timer;
struct mcp;
struct mcp_call;
struct textout;

/* The terminal a command gets unless told: wide, so lines rarely wrap. */
#define MCP_COLS		200
#define MCP_ROWS		50
/*
 * A call's stdin text: at most what the server holds waiting in a pipe
 * (1 MiB), sent in lines of 64 KiB (at most 384 KiB escaped: within the
 * protocol's 1 MiB line).
 */
#define MCP_STDIN_MAX		(1024 * 1024)
#define MCP_STDIN_CHUNK		(64 * 1024)
/* Finished text kept per job for session_output's paging. */
#define MCP_LOG_MAX		(4 * 1024 * 1024)
/* At most one progress notification per this many milliseconds. */
#define MCP_PROGRESS_MS		500
/* The latest lines a progress notification carries. */
#define MCP_PROGRESS_LINES	5
#define MCP_PROGRESS_BYTES	1024
/* Waiting for the server's hello; session_kill waiting for the end. */
#define MCP_CONNECT_MS		10000
#define MCP_KILL_WAIT_MS	5000
#define MCP_WAIT_MS_MAX		600000
/* stdin is read this much at a time. */
#define MCP_READ		65536
/*
 * The ids of a job's requests: its exec (the server's errors echo it:
 * the job failed), its input and its kill.
 */
#define MCP_EXEC_ID		"x"
#define MCP_INPUT_ID		"in"
#define MCP_KILL_ID		"k"

enum job_state {
	JOB_WAITING,	/* queued: the rules or a person decide */
	JOB_RUNNING,
	JOB_ENDED,	/* exit received */
	JOB_DENIED,
	JOB_FAILED,	/* an error, or the server went away */
};

enum call_kind {
	CALL_RUN,
	CALL_START,
	CALL_OUTPUT,
	CALL_KILL,
};

struct mcpd;

struct job {
	struct mcpd	*d;
	struct job	*next;
	struct client	*cl;
	int		 fd;
	char		*command;	/* for people: the command, quoted */
	int64_t		 request;
	int64_t		 session;	/* 0 until started */
	enum job_state	 state;
	struct textout	*text;
	struct outcap	 cap;		/* everything, capped: run's answer */
	struct buf	 log;		/* the finished text at [base, total) */
	uint64_t	 base;
	uint64_t	 total;
	uint64_t	 read;		/* where session_output stopped */
	struct proto_event exit;	/* the exit event: kind
					   PROTO_EV_EXIT once it came */
	char		*by;		/* who decided */
	char		*reason;	/* a denial's reason */
	char		*error;		/* JOB_FAILED's cause */
	char		*edited;	/* the command a person edited */
	json_t		*stdin_text;	/* run's stdin: sent once started */
	bool		 kept;		/* the session tools may name it */
	bool		 orphan;	/* cancelled: freed when it ends */
};

struct call {
	struct mcpd	*d;
	struct call	*next;
	struct mcp_call	*mc;
	enum call_kind	 kind;
	struct job	*job;
	struct loop_timer *timer;	/* wait_s, wait_ms, kill's wait */
	struct loop_timer *ptimer;	/* the next progress notification */
	uint64_t	 last_progress;
	double		 nprogress;
	uint64_t	 wait_ms;
	uint64_t	 since;		/* session_output's offset */
	size_t		 max;		/* text cap of the answer */
};

struct mcpd {
	struct loop	*loop;
	struct mcp	*mcp;
	struct job	*jobs;
	struct call	*calls;
	struct buf	 in;
	bool		 skipping;	/* the rest of an over-long line */
	char		*socket;
	size_t		 max;		/* default text cap */
	double		 wait_s;	/* default wait_s */
	int		 status;
};

/* mcp-results.c: finished text of a job (textout's callback). */
void		 job_text(void *user, const char *p, size_t len);
/* mcp-results.c: the exit's ending in words ("exit 1"...), or NULL. */
const char	*job_ending(const struct job *j);
/*
 * mcp-results.c: the exit's status, as JSON: null until the job ended and
 * when a signal ended it.
 */
json_t		*job_exit_code(const struct job *j);
/* mcp-results.c: the answer to a run: ended, denied, failed or running. */
json_t		*job_run_result(struct job *j, double waited);
/* mcp-results.c: the wait_ms the hints suggest for a server's wait_s. */
uint64_t	 mcpd_hint_wait_ms(double wait_s);
/* mcp-results.c: the answer to a session_start that started. */
json_t		*job_start_result(struct job *j);
/* mcp-results.c: the answer to session_output. */
json_t		*job_output_result(struct job *j, struct call *c);
/* mcp-results.c: the last lines the job shows, for a progress message. */
char		*job_latest(const struct job *j);
/*
 * mcp-results.c: a number argument in [lo, hi] (null is absent): 0 absent,
 * 1 *v, -1 *msg.
 */
int		 mcpd_arg_number(json_t *args, const char *key, double lo,
		    double hi, double *v, char **msg);

/* mcp-jobs.c: write out's lines to stdout, all of them, and empty it. */
void		 mcpd_flush(struct mcpd *d, struct buf *out);
/* mcp-jobs.c: answer call with result (consumed), then forget the call. */
void		 mcpd_answer(struct mcpd *d, struct call *c, json_t *result);
/* mcp-jobs.c: an isError answer with a message and structured content. */
void		 mcpd_fail(struct mcpd *d, struct call *c, const char *msg,
		    json_t *sc);
/* mcp-jobs.c: forget an answered or abandoned call. */
void		 mcpd_call_done(struct mcpd *d, struct call *c);
/* mcp-jobs.c: free a job (its connection closed: its command killed). */
void		 job_free(struct job *j);
/* mcp-jobs.c: whether a job has stopped (ended, denied or failed). */
bool		 job_over(const struct job *j);
/* mcp-jobs.c: the job changed: answer the calls that can be answered. */
void		 mcpd_check_job(struct mcpd *d, struct job *j);
/* mcp-jobs.c: the loop callback of a job's socket. */
void		 job_readable(struct loop *loop, int fd, short revents,
		    void *arg);
/* mcp-jobs.c: whether session_output has something to say now. */
bool		 call_output_ready(const struct call *c);
/* mcp-jobs.c: the timer of session_output's or session_kill's wait. */
void		 call_waited(struct loop *loop, void *arg);
/* mcp-jobs.c: type len bytes of text into the job's session: 0, or -1. */
int		 job_send_text(struct job *j, const char *text, size_t len,
		    char **cause);
/* mcp-jobs.c: ask the server to end the job's session: 0, or -1. */
int		 job_send_kill(struct job *j, char **cause);
/* mcp-jobs.c: notifications/cancelled: give the call up, stop its command. */
void		 mcpd_cancel(struct mcpd *d, json_t *id);

#endif
