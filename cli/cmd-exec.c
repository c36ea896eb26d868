/*
 * cmd-exec.c - `ptyvisor exec` (and `ptyvisor-sh -c`): the agents' shim.  It
 * sends one exec request to the running server, waits for the decision,
 * relays the output and exits with the command's status (doc/protocol.md): the
 * command's own, 128+N for signal N, 124 timed out, 125 ptyvisor error,
 * 126 denied (reason on stderr), 127 not found.
 *
 * It stands in for sh -c: each of our stdin, stdout and stderr that is not
 * a terminal is a pipe for the command (doc/protocol.md §5a) -- stdin
 * relayed with a bounded window of unacknowledged bytes and its EOF,
 * stdout and stderr written back apart, exactly, or as one pipe when ours
 * are one file (the order of their writes kept) -- and the command gets
 * our environment, umask and directory; a command killed by a signal ends
 * us by it too.  Output is always received as exact bytes and copied
 * (--raw, the default); --text keeps the command's stdout on the terminal
 * and prints what a terminal of the session's size shows, as plain text
 * (term/textout.h).
 *
 * SIGINT, SIGTERM and SIGHUP become a kill of the session (a second one
 * gives up at once); before the session starts they withdraw the request.
 * Giving up, the shim ends by that signal itself.
 *
 * exec reads its words by its entry (args.h), getopt's way up to the
 * first operand; ptyvisor-sh reads its own as sh does (-c STRING [NAME
 * [ARGS...]], -l), help only as the first word.
 */
#include "cli/commands.h"
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/exec-opts.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/kcmp.h>

#include "base/quote.h"
#include "pty/pty.h"
#include "control/client.h"
#include "policy/policy.h"
#include "control/proto-client.h"
#include "term/textout.h"
#include "base/util.h"

/* Exit status when the request is denied. */
#define CMD_EXEC_EXIT_DENIED	126
/* Terminal size when stdout is not a terminal: wide, so lines rarely wrap. */
#define CMD_EXEC_TEXT_COLS		200
#define CMD_EXEC_TEXT_ROWS		50

/*
 * Stdin relayed to a pipe: bytes sent per input line, and how many may be
 * on their way before the server says the command took them (`written`):
 * the relay streams any size in bounded memory, at the command's pace.
 */
#define CMD_EXEC_STDIN_CHUNK	(64 * 1024)
#define CMD_EXEC_STDIN_WINDOW	(256 * 1024)

struct cmd_exec_run {
	struct client	*cl;
	bool		 pipes[3];	/* 0-2 relayed as pipes, not the PTY */
	bool		 err_joined;	/* 1, 2 one file: one pipe */
	bool		 stdin_null;	/* 0 is /dev/null: the command's too */
	uint64_t	 stdin_sent;
	uint64_t	 stdin_acked;
	bool		 stdin_done;	/* EOF sent (or nothing more to send) */
	bool		 broken;	/* our stdout or stderr reader left */
	int		 die_sig;	/* the command's end: end like it */
	struct textout	*text;		/* --text; NULL: raw bytes */
	const char	*cwd_file;	/* --cwd-file, or NULL */
	int		 osc7;		/* --cwd-file: where the PTY's output
					   stands in an OSC 7 (0: outside) */
	struct buf	 osc7_held;	/* what may be one, held */
	int64_t		 session;	/* 0: not started */
	int		 rc;
	bool		 waiting_said;
	bool		 done;
};

/* Finished terminal text: to stdout. */
static void
cmd_exec_text(void *user, const char *p, size_t len)
{
	(void)user;
	(void)util_write_all(STDOUT_FILENO, p, len);
}

/* Ask the server to kill the session: 0, or -1 with *cause. */
static int
cmd_exec_kill(struct cmd_exec_run *x, char **cause)
{
	struct buf	line = { 0 };
	int		rc;

	proto_req_kill(&line, "kill", x->session);
	rc = client_send_line(x->cl, &line, cause);
	buf_free(&line);
	return rc;
}

/*
 * Bytes for our fd 1 or 2.  Its reader gone (EPIPE), the command is
 * stopped as a shell's would be by SIGPIPE.
 */
static void
cmd_exec_put(struct cmd_exec_run *x, int fd, const char *p, size_t len)
{
	char	*cause = NULL;

	if (x->broken || util_write_all(fd, p, len) == 0)
		return;
	x->broken = true;
	if (x->session == 0)
		return;
	(void)cmd_exec_kill(x, &cause);
	free(cause);
}

/* Output bytes of the PTY arrived. */
static void
cmd_exec_output(struct cmd_exec_run *x, const char *p, size_t len)
{
	if (x->text == NULL)
		/*
		 * What the terminal shows goes where we have a terminal, else
		 * to stderr (e.g. why a command did not start).
		 */
		cmd_exec_put(x, !x->pipes[1] ? STDOUT_FILENO : STDERR_FILENO, p,
		    len);
	else
		textout_feed(x->text, p, len);
}

/*
 * With --cwd-file, the PTY's output without the OSC 7 a shell reports its
 * directory with (its trap writes it to the terminal; the agent would
 * read it among the command's messages): held while it may be one, given
 * on when it is not, dropped whole when it is.  One longer than
 * CMD_EXEC_OSC7_MAX is given on: no report is that long.
 */
#define CMD_EXEC_OSC7_MAX	8192

static void
cmd_exec_pty_output(struct cmd_exec_run *x, const char *p, size_t len)
{
	static const char	 head[] = "\033]7;";
	struct buf		 out = { 0 };
	size_t			 i;
	char			 c;

	for (i = 0; i < len; i++) {
		c = p[i];
		if (x->osc7 < 4 && c == head[x->osc7]) {
			buf_addc(&x->osc7_held, c);
			x->osc7++;
			continue;
		}
		if (x->osc7 < 4) {
			buf_add(&out, x->osc7_held.data, x->osc7_held.len);
			x->osc7_held.len = 0;
			if (x->osc7 > 0) {
				x->osc7 = 0;
				i--;		/* c may start one */
			} else
				buf_addc(&out, c);
			continue;
		}
		buf_addc(&x->osc7_held, c);
		if (c == '\007' || (c == '\\' && x->osc7 == 5)) {
			x->osc7_held.len = 0;	/* one whole: dropped */
			x->osc7 = 0;
		} else if (x->osc7_held.len > CMD_EXEC_OSC7_MAX) {
			buf_add(&out, x->osc7_held.data, x->osc7_held.len);
			x->osc7_held.len = 0;
			x->osc7 = 0;
		} else
			x->osc7 = c == '\033' ? 5 : 4;
	}
	if (len == 0 && x->osc7_held.len > 0) {	/* the end: given on */
		buf_add(&out, x->osc7_held.data, x->osc7_held.len);
		x->osc7_held.len = 0;
		x->osc7 = 0;
	}
	if (out.len > 0)
		cmd_exec_output(x, out.data, out.len);
	buf_free(&out);
}

/*
 * The command ended having read stdin_acked of the stdin_sent bytes we
 * read ahead for it: a seekable stdin goes back to where the command left
 * it, as after sh -c (a `while read` loop over a file keeps its lines).
 */
static void
cmd_exec_give_back_stdin(const struct cmd_exec_run *x)
{
	struct stat	st;

	if (!x->pipes[0] || x->stdin_sent <= x->stdin_acked ||
	    fstat(STDIN_FILENO, &st) != 0 || !S_ISREG(st.st_mode))
		return;
	(void)lseek(STDIN_FILENO, -(off_t)(x->stdin_sent - x->stdin_acked),
	    SEEK_CUR);
}

/*
 * --cwd-file: the directory the command reported as it ended, or nothing
 * (the file emptied).  Not followed if a link: it is ours to write.
 */
static void
cmd_exec_cwd_file(const char *path, const char *cwd)
{
	int	fd;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
	    0600);
	if (fd < 0 || (cwd != NULL && util_write_all(fd, cwd,
	    strlen(cwd)) != 0))
		fprintf(stderr, "ptyvisor exec: --cwd-file %s: %s\n", path,
		    strerror(errno));
	if (fd >= 0)
		close(fd);
}

/* The command ended: the rest of the screen, then the status. */
static void
cmd_exec_exit(struct cmd_exec_run *x, const struct proto_exit *e)
{
	cmd_exec_give_back_stdin(x);
	if (x->cwd_file != NULL) {
		cmd_exec_pty_output(x, "", 0);
		cmd_exec_cwd_file(x->cwd_file, e->cwd);
	}
	if (x->text != NULL)
		textout_finish(x->text);
	if (x->broken)
		x->rc = 128 + SIGPIPE;
	else if (e->timed_out)
		x->rc = 124;
	else if (e->signal != 0) {
		x->rc = 128 + e->signal;
		x->die_sig = e->signal;
	}
	else
		x->rc = e->code;
	x->done = true;
}

/*
 * A person edited the command before approving it: the agent must know
 * that what runs is not what it sent, whether or not it waited.
 */
static void
cmd_exec_said_edited(char *const *argv)
{
	char	*cmd;

	cmd = quote_argv(argv);
	fprintf(stderr, "ptyvisor: approved after a person edited it; "
	    "running: %s\n", cmd);
	free(cmd);
}

/* Handle one event from the server. */
static void
cmd_exec_event(struct cmd_exec_run *x, const struct proto_event *ev)
{
	switch (ev->kind) {
	case PROTO_EV_QUEUED:
		if (ev->queued.verdict != NULL &&
		    strcmp(ev->queued.verdict, "ask") == 0 &&
		    isatty(STDERR_FILENO)) {
			fprintf(stderr, "ptyvisor: waiting for approval "
			    "(request %lld)...\n", (long long)ev->request);
			x->waiting_said = true;
		}
		break;
	case PROTO_EV_DENIED:
		fprintf(stderr, "ptyvisor: denied by %s%s%s\n",
		    ev->by != NULL ? ev->by : "?", ev->reason != NULL ?
		    ": " : "", ev->reason != NULL ? ev->reason : "");
		x->rc = CMD_EXEC_EXIT_DENIED;
		x->done = true;
		break;
	case PROTO_EV_APPROVED:
		if (ev->argv != NULL)
			cmd_exec_said_edited(ev->argv);
		else if (x->waiting_said)
			fprintf(stderr, "ptyvisor: approved\n");
		break;
	case PROTO_EV_STARTED:
		x->session = ev->session;
		break;
	case PROTO_EV_OUTPUT:
		if (ev->len > 0 && ev->fd != 0)
			cmd_exec_put(x, ev->fd == 2 ? STDERR_FILENO :
			    STDOUT_FILENO, ev->data, ev->len);
		else if (ev->len > 0 && x->cwd_file != NULL)
			cmd_exec_pty_output(x, ev->data, ev->len);
		else if (ev->len > 0)
			cmd_exec_output(x, ev->data, ev->len);
		break;
	case PROTO_EV_WRITTEN:
		x->stdin_acked = ev->bytes;
		break;
	case PROTO_EV_EXIT:
		cmd_exec_exit(x, &ev->exit);
		break;
	case PROTO_EV_ERROR:
		if (ev->id != NULL && strcmp(ev->id, "in") == 0) {
			/* The command no longer takes stdin (it ended or
			 * closed it). */
			x->stdin_done = true;
			break;
		}
		fprintf(stderr, "ptyvisor: %s\n", ev->message);
		x->rc = CLI_EXIT_ERROR;
		x->done = true;
		break;
	default:
		break;
	}
}

/*
 * Our stdin is readable: send what is there to the command's stdin pipe,
 * or its EOF.  A read error (e.g. fd 0 closed) is an EOF too, as for a
 * command whose stdin cannot be read.  -1 with *cause: the server is gone.
 */
static int
cmd_exec_stdin(struct cmd_exec_run *x, char **cause)
{
	static char	 chunk[CMD_EXEC_STDIN_CHUNK];
	struct buf	 line = { 0 };
	ssize_t		 n;
	int		 rc;

	do
		n = read(STDIN_FILENO, chunk, sizeof chunk);
	while (n < 0 && errno == EINTR);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	if (n > 0)
		x->stdin_sent += (uint64_t)n;
	else
		x->stdin_done = true;
	proto_req_input(&line, "in", x->session, true, chunk,
	    n > 0 ? (size_t)n : 0, PROTO_ENC_BASE64, n <= 0);
	rc = client_send_line(x->cl, &line, cause);
	buf_free(&line);
	return rc;
}

/* Whether to read our stdin now: started, not ended, window not full. */
static bool
cmd_exec_wants_stdin(const struct cmd_exec_run *x)
{
	return x->pipes[0] && x->session != 0 && !x->stdin_done &&
	    x->stdin_sent - x->stdin_acked < CMD_EXEC_STDIN_WINDOW;
}

/*
 * A signal to the shim: kill the session; or, before it has started, a
 * second time, or with the server gone, give up and die of that signal
 * (as a program left to its default would: its parent sees the signal).
 */
static bool
cmd_exec_signal(struct cmd_exec_run *x, int sig, int *count)
{
	char	*cause = NULL;

	if (++*count > 1 || x->session == 0) {
		x->rc = 128 + sig;
		x->die_sig = sig;
		return true;
	}
	if (cmd_exec_kill(x, &cause) != 0) {
		free(cause);
		x->rc = 128 + sig;
		x->die_sig = sig;
		return true;
	}
	return false;
}

/* Whether fd is /dev/null (the character device 1:3). */
static bool
cmd_exec_is_null(int fd)
{
	struct stat	st;

	return fstat(fd, &st) == 0 && S_ISCHR(st.st_mode) &&
	    major(st.st_rdev) == 1 && minor(st.st_rdev) == 3;
}

/*
 * Whether fds a and b are one open file (`>out 2>&1`, `2>&1 | cat`): then
 * the command's stdout and stderr are one pipe too, as they are one file
 * under sh -c, so what it writes to both arrives in the order written
 * (two pipes, read apart, cannot tell it).  kcmp(2) says it exactly; where
 * it is not allowed (containers' filters, a kernel without it), the same
 * file at the same offset with the same flags is taken for it.
 */
static bool
cmd_exec_one_file(int a, int b)
{
	struct stat	sa, sb;
	pid_t		self = getpid();
	long		r;
	off_t		oa, ob;

	r = syscall(SYS_kcmp, (long)self, (long)self, (long)KCMP_FILE,
	    (long)a, (long)b);
	if (r >= 0)
		return r == 0;
	if (fstat(a, &sa) != 0 || fstat(b, &sb) != 0 ||
	    sa.st_dev != sb.st_dev || sa.st_ino != sb.st_ino ||
	    fcntl(a, F_GETFL) != fcntl(b, F_GETFL))
		return false;
	oa = lseek(a, 0, SEEK_CUR);
	ob = lseek(b, 0, SEEK_CUR);
	return oa == ob;
}

/*
 * Build the exec request: our environment, umask and directory for the
 * command, as sh -c passes them (a variable that is not UTF-8 cannot
 * travel as JSON text and stays behind: proto_req_exec).  -1 (said) for a
 * profile the server does not know.
 */
static int
cmd_exec_request(struct buf *line, const struct cmd_exec *o,
    struct pty_size size, const struct cmd_exec_run *x)
{
	extern char		**environ;
	struct proto_exec	  ex;
	char			  cwd[PATH_MAX];
	char			**env;
	mode_t			  mask;

	memset(&ex, 0, sizeof ex);
	/*
	 * The profile travels parsed (struct proto_exec): a name the server
	 * would refuse gets the server's own answer here.
	 */
	if (o->sandbox != NULL && !sandbox_profile_lookup(o->sandbox,
	    &ex.sandbox)) {
		fprintf(stderr, "ptyvisor: %s\n", PROTO_MSG_BAD_SANDBOX);
		return -1;
	}
	ex.has_sandbox = o->sandbox != NULL;
	ex.argv = o->argv;
	env = xcalloc(o->nenv + 1, sizeof *env);
	if (o->nenv > 0)
		memcpy(env, o->env, o->nenv * sizeof *env);
	ex.env = env;
	ex.cols = size.cols;
	ex.rows = size.rows;
	ex.network = o->network;
	ex.encoding = PROTO_ENC_BASE64;
	if (o->cwd != NULL && realpath(o->cwd, cwd) != NULL)
		ex.cwd = cwd;
	else if (o->cwd != NULL)
		ex.cwd = o->cwd;
	else if (getcwd(cwd, sizeof cwd) != NULL)
		ex.cwd = cwd;
	ex.timeout_ms = o->timeout > 0 ? (uint64_t)o->timeout * 1000 : 0;
	ex.why = o->why;
	ex.network_allow = o->network_allow;
	ex.environ = environ;
	mask = umask(0);
	umask(mask);
	ex.has_umask = true;
	ex.umask = (unsigned int)mask;
	memcpy(ex.pipes, x->pipes, sizeof ex.pipes);
	ex.err_joined = x->err_joined;
	ex.stdin_null = x->stdin_null;
	ex.report_cwd = o->cwd_file != NULL;
	proto_req_exec(line, "1", &ex);
	free(env);
	return 0;
}

/*
 * The command was killed by sig: so are we, as `sh -c` would be, so our
 * parent sees the signal itself (a shell's $? is 128+sig either way).
 * Signals that stop or do nothing by default are left alone (the caller
 * then returns 128+sig); no core file is ours to write.
 */
static void
cmd_exec_die(int sig)
{
	struct rlimit	no_core = { 0, 0 };
	sigset_t	set;

	if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN ||
	    sig == SIGTTOU || sig == SIGCONT || sig == SIGCHLD ||
	    sig == SIGWINCH || sig == SIGURG || sig <= 0 || sig >= NSIG)
		return;
	(void)setrlimit(RLIMIT_CORE, &no_core);
	fflush(stdout);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}

/*
 * Which of our 0-2 are pipes for the command (each that is not a
 * terminal; --text renders the terminal's screen, so stdout stays on it)
 * and the terminal's size: that of the first of our stdout, stderr and
 * stdin that is a terminal.
 */
static void
cmd_exec_setup(const struct cmd_exec *o, struct cmd_exec_run *x,
    struct pty_size *size)
{
	static const int size_from[] = { STDOUT_FILENO, STDERR_FILENO,
			    STDIN_FILENO };
	struct winsize	 ws;
	bool		 text = o->mode == 't';
	int		 fd;

	for (fd = 0; fd < 3; fd++)
		x->pipes[fd] = !isatty(fd) && !(fd == STDOUT_FILENO && text);
	/*
	 * A stdin on /dev/null is the command's own (stdio "null"), as under
	 * sh -c: nothing to relay, no EOF to send and see taken.
	 */
	if (x->pipes[0] && cmd_exec_is_null(STDIN_FILENO)) {
		x->pipes[0] = false;
		x->stdin_null = true;
	}
	x->err_joined = x->pipes[1] && x->pipes[2] &&
	    cmd_exec_one_file(STDOUT_FILENO, STDERR_FILENO);
	for (fd = 0; fd < 3; fd++) {
		if (isatty(size_from[fd]) &&
		    ioctl(size_from[fd], TIOCGWINSZ, &ws) == 0 &&
		    ws.ws_col > 0 && ws.ws_row > 0) {
			size->cols = ws.ws_col;
			size->rows = ws.ws_row;
			break;
		}
	}
	if (text)
		x->text = textout_new(size->rows, size->cols, cmd_exec_text, NULL);
}

/*
 * The server's events that have arrived, without waiting for more: 0, or
 * -1 with *cause when the server is lost.
 */
static int
cmd_exec_events(struct cmd_exec_run *x, char **cause)
{
	struct proto_event	ev;
	int			rc = 0;

	while (!x->done &&
	    (rc = client_read_event(x->cl, 0, &ev, cause)) == 1) {
		cmd_exec_event(x, &ev);
		proto_event_free(&ev);
	}
	return rc == 0 || x->done ? 0 : rc;
}

/*
 * Relay until the command ends or we must go: the server's events, our
 * stdin to the command's, a signal to a kill.  0 (x->rc says how it
 * ended), or -1 with *cause when the server is lost.
 */
static int
cmd_exec_relay(struct cmd_exec_run *x, int sfd, char **cause)
{
	struct pollfd		 pfd[3];
	struct signalfd_siginfo	 si;
	int			 rc, nsig = 0;

	/*
	 * The request went with our hello: its first events may have come
	 * with the server's, already read; the socket may say nothing more.
	 */
	rc = cmd_exec_events(x, cause);
	while (rc == 0 && !x->done) {
		pfd[0].fd = client_fd(x->cl);
		pfd[0].events = POLLIN;
		pfd[1].fd = sfd;
		pfd[1].events = POLLIN;
		pfd[2].fd = cmd_exec_wants_stdin(x) ? STDIN_FILENO : -1;
		pfd[2].events = POLLIN;
		pfd[2].revents = 0;
		if (poll(pfd, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			*cause = xasprintf("poll: %s", strerror(errno));
			break;
		}
		if (sfd >= 0 && (pfd[1].revents & POLLIN) &&
		    read(sfd, &si, sizeof si) == (ssize_t)sizeof si &&
		    cmd_exec_signal(x, (int)si.ssi_signo, &nsig))
			break;
		if (pfd[2].fd >= 0 && pfd[2].revents != 0 &&
		    (rc = cmd_exec_stdin(x, cause)) != 0)
			break;
		if (!(pfd[0].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		rc = cmd_exec_events(x, cause);
	}
	return rc;
}

/* Run the request through the server; the shim's exit status. */
static int
cmd_exec_main(const struct cmd_exec *o)
{
	const struct config	*cfg;
	const char		*inside;
	struct cmd_exec_run	 x;
	struct pty_size		 size = { CMD_EXEC_TEXT_COLS,
				     CMD_EXEC_TEXT_ROWS };
	sigset_t		 set;
	struct buf		 line = { 0 };
	char			*cause = NULL, *path;
	int			 sfd, rc = 0, fd;

	/* A closed 0-2 must not become a file of ours: /dev/null stands in. */
	for (fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", fd == 0 ?
		    O_RDONLY : O_WRONLY) != fd)
			return CLI_EXIT_ERROR;
	if ((cfg = cli_config()) == NULL)
		return CLI_EXIT_ERROR;
	memset(&x, 0, sizeof x);
	x.cwd_file = o->cwd_file;
	cmd_exec_setup(o, &x, &size);

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	sfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);

	x.rc = CLI_EXIT_ERROR;
	/* The request goes with the hello. */
	if (cmd_exec_request(&line, o, size, &x) != 0)
		goto out;
	path = o->socket != NULL ? xstrdup(o->socket) : cli_socket_path(cfg);
	x.cl = client_connect_send(path, 10000, &line, &cause);
	free(path);
	if (x.cl == NULL) {
		cli_error("exec", "%s", cause);
		if ((inside = getenv("PTYVISOR_SESSION")) != NULL)
			fprintf(stderr, "ptyvisor exec: this shell runs inside "
			    "ptyvisor session %s, whose sandbox cannot reach the "
			    "control socket: by design, so that nothing "
			    "supervised can ask for (or approve) more.  Run the "
			    "command here directly: it is already supervised "
			    "and recorded.  Or run 'ptyvisor exec' from a shell "
			    "outside ptyvisor.\n", inside);
		goto out;
	}
	rc = cmd_exec_relay(&x, sfd, &cause);
	if (rc < 0 && !x.done) {
		cli_error("exec", "%s", cause);
		x.rc = CLI_EXIT_ERROR;
	}
out:
	buf_free(&line);
	free(cause);
	client_free(x.cl);
	textout_free(x.text);
	buf_free(&x.osc7_held);
	if (sfd >= 0)
		close(sfd);
	if (x.die_sig != 0)
		cmd_exec_die(x.die_sig);
	return x.rc;
}

/*
 * `ptyvisor exec [OPTIONS] -- CMD [ARGS...]` or `-c STRING` (which runs
 * sh -c STRING; words after it are not looked at).
 */
static int
cmd_exec_exec(int argc, char **argv)
{
	struct cmd_exec	 o;
	struct args_end	 end;
	char		*sh[] = { "sh", "-c", NULL, NULL };
	int		 rc;

	memset(&o, 0, sizeof o);
	if ((rc = args_parse(&cmd_exec_entry, argc, argv, &o,
	    &end)) != ARGS_GO_ON)
		goto out;
	if (o.string == NULL && end.first >= argc) {
		cli_error("exec", "no command given (usage: ptyvisor exec "
		    "[OPTIONS] -- CMD [ARGS...])");
		rc = CLI_EXIT_ERROR;
		goto out;
	}
	sh[2] = (char *)o.string;
	o.argv = strv_dup(o.string != NULL ? sh : argv + end.first);
	rc = cmd_exec_main(&o);
out:
	strv_free(o.argv);
	free(o.env);
	free(o.network_allow);
	return rc;
}

int
cmd_exec_sh(int argc, char **argv)
{
	struct cmd_exec	 o;
	char			**v;
	int			  rc, i, first;

	memset(&o, 0, sizeof o);
	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0)) {
		exec_opts_usage(stdout);
		return 0;
	}
	if (argc >= 3 && strcmp(argv[1], "-c") == 0)
		first = 2;
	else if (argc >= 3 && (strcmp(argv[1], "-lc") == 0 ||
	    strcmp(argv[1], "-cl") == 0))
		first = 2;
	else if (argc >= 4 && strcmp(argv[1], "-l") == 0 &&
	    strcmp(argv[2], "-c") == 0)
		first = 3;
	else {
		cli_error(NULL, "usage: ptyvisor-sh -c STRING [NAME [ARGS...]]");
		return CLI_EXIT_ERROR;
	}
	/* sh -c STRING [NAME [ARGS...]]: the same words go to the server. */
	v = xcalloc((size_t)(argc - first) + 3, sizeof *v);
	v[0] = xstrdup(first == 3 || strcmp(argv[1], "-c") != 0 ? "bash" :
	    "sh");
	v[1] = xstrdup(first == 3 || strcmp(argv[1], "-c") != 0 ? "-lc" :
	    "-c");
	for (i = first; i < argc; i++)
		v[2 + i - first] = xstrdup(argv[i]);
	o.argv = v;
	rc = cmd_exec_main(&o);
	strv_free(o.argv);
	return rc;
}

const struct cmd_entry cmd_exec_entry = {
	.name = "exec",
	.summary = "the agents' shim: run a command through the server",
	.exec = cmd_exec_exec,
	.options = exec_opts_tables,
	.flags = ARGS_SEE_HELP,
	.usage = exec_opts_usage,
	.option = exec_opts_option,
};
