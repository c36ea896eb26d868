/*
 * cmd-attach.c - the console's client: `ptyvisor attach` (and, through
 * cli_attach(), the second half of a plain `ptyvisor` once a server runs),
 * `ptyvisor ls` and `ptyvisor kill-server`; the socket -L NAME names
 * (cli_socket_for()).  The three read their words by their entries
 * (args.h), getopt's way, up to the first operand, which is refused; -r
 * is attach's alone.
 *
 * The client owns nothing but its terminal: it puts it in raw mode and
 * passes it to the server with the attach request, which then reads the
 * keys and draws there itself (as tmux's server does); the client sends
 * the terminal's size when it changes and gives the terminal back when
 * the server says the console ended (detached, exited) or when it is told
 * to go (SIGHUP: the terminal closed; SIGTERM).  Where the terminal
 * cannot be passed (a socket ssh forwards), the client carries what is
 * typed and what is drawn itself, as frames (control/console.c).  Its
 * death is a detach: every session lives in the server.
 */
#include "cli/commands.h"
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/term-raw.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "base/util.h"
#include "control/client.h"
#include "control/control.h"
#include "control/proto-client.h"

/* How long to wait for the server's answer to attach. */
#define CMD_ATTACH_TIMEOUT_MS	10000

/* One frame to the server: type, 4-byte big-endian length, payload. */
static int
cmd_attach_send(int fd, char type, const void *data, size_t len)
{
	unsigned char	head[PROTO_FRAME_HEAD];

	proto_frame_head(head, type, (uint32_t)len);
	if (util_write_all(fd, head, sizeof head) != 0 ||
	    (len > 0 && util_write_all(fd, data, len) != 0))
		return -1;
	return 0;
}

static int
cmd_attach_send_size(int fd)
{
	struct winsize	ws;
	unsigned char	p[4];

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0 || ws.ws_row == 0 ||
	    ws.ws_col == 0)
		return 0;
	proto_frame_size(p, ws.ws_row, ws.ws_col);
	return cmd_attach_send(fd, 'r', p, sizeof p);
}

/*
 * Handle the frames in in: output to the terminal; an end frame's reason
 * into *why.  -1 on a frame no server sends.
 */
static int
cmd_attach_frames(struct buf *in, char **why)
{
	const char	*p;
	uint32_t	 len;
	size_t		 off = 0;
	char		 type;

	while (*why == NULL && proto_frame_peek(in->data + off, in->len - off,
	    &type, &len)) {
		if (in->len - off < PROTO_FRAME_HEAD + (size_t)len)
			break;
		p = in->data + off + PROTO_FRAME_HEAD;
		if (type == 'o')
			(void)util_write_all(STDOUT_FILENO, p, len);
		else if (type == 'x')
			*why = xasprintf("%.*s", (int)(len > 200 ? 200 : len),
			    p);
		else
			return -1;
		off += PROTO_FRAME_HEAD + len;
	}
	buf_consume(in, off);
	return 0;
}

/* The terminal's name without /dev/ ("pts/3"), or NULL. */
static const char *
cmd_attach_tty(void)
{
	const char	*tty = ttyname(STDIN_FILENO);

	if (tty != NULL && strncmp(tty, "/dev/", 5) == 0)
		tty += 5;
	return tty;
}

/*
 * Ask the server at path for a console on this terminal, passed with the
 * request and put in raw mode: the socket, with what came past the
 * answer in *in and whether we carry keys and frames ourselves in
 * *relay; -1 after a message (the terminal restored first), with the
 * exit status in *rc.
 */
static int
cmd_attach_open(const char *path, char *const *argv, bool new_session,
    bool readonly, struct buf *in, bool *relay, int *rc)
{
	struct client		*cl = NULL;
	struct winsize		 ws;
	struct proto_request	 req;
	struct proto_event	 ev;
	struct buf		 line = { 0 };
	const char		*term = getenv("TERM"), *tty = cmd_attach_tty();
	char			*cause = NULL, cwd[PATH_MAX];
	int			 fd = -1, ttyfds[2] = { STDIN_FILENO, STDOUT_FILENO };
	bool			 raw = false;

	memset(&ev, 0, sizeof ev);
	*rc = CLI_EXIT_ERROR;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		cause = xstrdup("a console needs a terminal on stdin and "
		    "stdout");
		goto out;
	}
	if (term == NULL || *term == '\0') {
		cause = xstrdup("TERM is not set: which terminal is this?");
		goto out;
	}
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0 || ws.ws_row == 0 ||
	    ws.ws_col == 0) {
		ws.ws_row = 24;
		ws.ws_col = 80;
	}
	if ((cl = client_connect(path, 5000, &cause)) == NULL) {
		*rc = 1;
		goto out;
	}
	memset(&req, 0, sizeof req);
	req.id = (char *)"attach";
	req.term = (char *)term;
	req.cols = ws.ws_col;
	req.rows = ws.ws_row;
	req.readonly = readonly;
	req.new_session = new_session;
	req.pass_tty = true;
	if (tty != NULL && strlen(tty) <= 64)
		req.tty = (char *)tty;
	if (new_session && getcwd(cwd, sizeof cwd) != NULL)
		req.exec.cwd = cwd;
	req.exec.argv = (char **)argv;
	proto_req_attach(&line, &req);
	/* Raw before the server reads the terminal; restored on every way out. */
	if (term_raw(NULL) != 0) {
		cause = xasprintf("terminal: %s", strerror(errno));
		goto out;
	}
	raw = true;
	*rc = 1;
	if (client_send_fds(cl, &line, ttyfds, 2, &cause) != 0 ||
	    client_wait_event(cl, "attach", CMD_ATTACH_TIMEOUT_MS, &ev,
	    &cause) != 1) {
		if (cause == NULL)
			cause = xstrdup("no answer from the server");
		goto out;
	}
	if (ev.kind != PROTO_EV_ATTACHED) {
		cause = xstrdup(ev.message != NULL ? ev.message : "refused");
		goto out;
	}
	/* The server took the terminal, or we carry keys and frames. */
	*relay = !ev.tty;
	fd = client_take_socket(cl, in);
	*rc = 0;
out:
	if (*rc != 0 && raw)
		term_restore();
	if (*rc != 0)
		cli_error("attach", "%s", cause);
	free(cause);
	buf_free(&line);
	proto_event_free(&ev);
	client_free(cl);
	return fd;
}

/*
 * The console's life on socket fd: frames to the terminal, keys (when we
 * relay them) and sizes to the server, signals.  Why it ended ("" when
 * told to go or the terminal went); *rc 1 when the server was lost.
 */
static char *
cmd_attach_loop(int fd, int sfd, bool relay, struct buf *in, int *rc)
{
	struct pollfd	 pfd[3];
	char		*why = NULL, buf[65536];
	ssize_t		 n;

	/* The size may have changed since the request. */
	(void)cmd_attach_send_size(fd);
	if (cmd_attach_frames(in, &why) != 0)
		why = xstrdup("the server sent garbage");
	while (why == NULL) {
		pfd[0].fd = relay ? STDIN_FILENO : -1;
		pfd[0].events = POLLIN;
		pfd[1].fd = fd;
		pfd[1].events = POLLIN;
		pfd[2].fd = sfd;
		pfd[2].events = POLLIN;
		if (poll(pfd, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			why = xasprintf("poll: %s", strerror(errno));
			break;
		}
		if (pfd[2].revents & POLLIN) {
			struct signalfd_siginfo si;

			if (read(sfd, &si, sizeof si) == (ssize_t)sizeof si) {
				if (si.ssi_signo == SIGWINCH)
					(void)cmd_attach_send_size(fd);
				else if (si.ssi_signo == SIGCONT)
					(void)cmd_attach_send_size(fd);
				else {
					/* Told to go: the console detaches. */
					why = xstrdup("");
					break;
				}
			}
		}
		if (pfd[1].revents & (POLLIN | POLLHUP | POLLERR)) {
			n = read(fd, buf, sizeof buf);
			if (n == 0 || (n < 0 && errno != EINTR &&
			    errno != EAGAIN)) {
				why = xstrdup("lost");
				*rc = 1;
				break;
			}
			if (n > 0) {
				buf_add(in, buf, (size_t)n);
				if (cmd_attach_frames(in, &why) != 0) {
					why = xstrdup("the server sent "
					    "garbage");
					*rc = 1;
				}
			}
		}
		if (why == NULL && (pfd[0].revents & (POLLIN | POLLHUP |
		    POLLERR))) {
			n = read(STDIN_FILENO, buf, sizeof buf);
			if (n == 0 || (n < 0 && errno != EINTR &&
			    errno != EAGAIN)) {
				why = xstrdup("");	/* terminal gone */
				break;
			}
			if (n > 0 && cmd_attach_send(fd, 'k', buf, (size_t)n) != 0) {
				why = xstrdup("lost");
				*rc = 1;
			}
		}
	}
	return why;
}

int
cli_attach(const char *path, char *const *argv, bool new_session,
    bool readonly)
{
	struct buf	 in = { 0 };
	sigset_t	 mask;
	char		*why;
	int		 fd, sfd, rc;
	bool		 relay = false;

	if ((fd = cmd_attach_open(path, argv, new_session, readonly, &in,
	    &relay, &rc)) < 0)
		return rc;
	sigemptyset(&mask);
	sigaddset(&mask, SIGWINCH);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGQUIT);
	sigaddset(&mask, SIGCONT);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	signal(SIGPIPE, SIG_IGN);
	if ((sfd = signalfd(-1, &mask, SFD_CLOEXEC)) < 0) {
		why = xasprintf("signalfd: %s", strerror(errno));
		rc = CLI_EXIT_ERROR;
	} else
		why = cmd_attach_loop(fd, sfd, relay, &in, &rc);
	term_restore();
	close(fd);
	if (sfd >= 0)
		close(sfd);
	buf_free(&in);
	if (sfd < 0)
		cli_error("attach", "%s", why);
	else if (strcmp(why, "detached") == 0 || strcmp(why, "gone") == 0)
		printf("[detached from %s]\n", path != NULL ? path :
		    "the server");
	else if (strcmp(why, "lost") == 0)
		fprintf(stderr, "[lost the server at %s]\n", path != NULL ?
		    path : "its socket");
	else if (*why != '\0')
		printf("[%s]\n", strcmp(why, "exited") == 0 ? "exited" : why);
	free(why);
	return rc;
}

/* -L NAME: a name for a server's socket, as tmux's -L. */
char *
cli_socket_for(const char *name, const char *path)
{
	const char	*p;

	if (path != NULL)
		return xstrdup(path);
	if (name == NULL)
		return control_socket_path();
	for (p = name; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' ||
		    *p == '.'))
			break;
	if (*name == '\0' || *name == '.' || *p != '\0' || p - name > 64)
		return NULL;
	return control_socket_named(name);
}

/* What the command lines of attach, ls and kill-server say. */
struct cmd_attach {
	const char	*name;		/* -L */
	const char	*socket;	/* --socket */
	bool		 readonly;	/* attach -r */
};

enum {
	CMD_ATTACH_READ_ONLY = 256,
	CMD_ATTACH_SOCKET,
	CMD_ATTACH_NAME,
};

/* attach's own; the others say -r is unknown, as they always did. */
static const struct args_option cmd_attach_read_only[] = {
	{ "read-only", 'r', false, CMD_ATTACH_READ_ONLY },
	ARGS_END
};
/* The server's socket, in all three. */
static const struct args_option cmd_attach_server[] = {
	{ "socket", 0, true, CMD_ATTACH_SOCKET },
	{ NULL, 'L', true, CMD_ATTACH_NAME },
	ARGS_HELP_OPTION,
	ARGS_END
};
static const struct args_option *const cmd_attach_tables[] = {
	cmd_attach_read_only, cmd_attach_server, NULL
};
static const struct args_option *const cmd_attach_server_tables[] = {
	cmd_attach_server, NULL
};

/* Take one option of any of the three (args_parse()). */
static int
cmd_attach_option(void *state, int key, const char *value, char **cause)
{
	struct cmd_attach	*c = state;

	(void)cause;
	switch (key) {
	case CMD_ATTACH_READ_ONLY:
		c->readonly = true;
		break;
	case CMD_ATTACH_SOCKET:
		c->socket = value;
		break;
	case CMD_ATTACH_NAME:
		c->name = value;
		break;
	}
	return 0;
}

/*
 * The words of attach, ls or kill-server (e's) read into *c, and the
 * server's socket into *path (caller frees): ARGS_GO_ON, else the exit
 * status after a message or the help.
 */
static int
cmd_attach_args(const struct cmd_entry *e, int argc, char **argv,
    struct cmd_attach *c, char **path)
{
	struct args_end	end;
	int		rc;

	memset(c, 0, sizeof *c);
	*path = NULL;
	if ((rc = args_parse(e, argc, argv, c, &end)) != ARGS_GO_ON)
		return rc;
	if (end.first < argc) {
		cli_error(e->name, "unexpected argument '%s'",
		    argv[end.first]);
		return CLI_EXIT_ERROR;
	}
	if ((*path = cli_socket_for(c->name, c->socket)) == NULL) {
		cli_error(e->name, "-L '%s': a name is letters, digits, '-', "
		    "'_' and '.' (not first), at most 64", c->name);
		return CLI_EXIT_ERROR;
	}
	return ARGS_GO_ON;
}

static void
cmd_attach_usage(FILE *f)
{
	fprintf(f,
	    "usage: ptyvisor attach [-r] [-L NAME | --socket PATH]\n\n"
	    "Show a running server's console on this terminal: the sessions,\n"
	    "panes, focus and prompts as the last console left them.  C-g d\n"
	    "detaches again (everything keeps running); closing the terminal\n"
	    "or losing the ssh connection does the same.\n\n"
	    "Options:\n"
	    "  -r, --read-only   watch only: no keys reach a session, nothing\n"
	    "                    is approved or started\n"
	    "  -L NAME           the server named NAME (its socket NAME.sock\n"
	    "                    in the default socket's directory)\n"
	    "  --socket PATH     the server listening on PATH (default\n"
	    "                    $PTYVISOR_SOCKET, else the default socket)\n"
	    "  -h, --help        show this help\n");
}

/* `ptyvisor attach`: this terminal becomes a console of the server. */
static int
cmd_attach_exec(int argc, char **argv)
{
	struct cmd_attach	 c;
	char			*path;
	int			 rc;

	if ((rc = cmd_attach_args(&cmd_attach_entry, argc, argv, &c,
	    &path)) == ARGS_GO_ON)
		rc = cli_attach(path, NULL, false, c.readonly);
	free(path);
	return rc;
}

/* One server's line and its sessions'; -1 when nobody answers on path. */
static int
cmd_attach_ls_server(const char *path)
{
	struct client		*cl;
	struct proto_event	 ev;
	struct proto_session	*s;
	struct buf		 line = { 0 };
	char			*cause = NULL;
	size_t			 i, k, n, nrun = 0;

	/* A busy server may take a while to say hello; a stale socket not. */
	if ((cl = client_connect(path, 5000, &cause)) == NULL) {
		if (strstr(cause, "no hello") != NULL)
			printf("%s: not answering (%s)\n", path, cause);
		free(cause);
		return -1;
	}
	proto_req_list(&line, "ls");
	if (client_send_line(cl, &line, &cause) != 0 ||
	    client_wait_event(cl, "ls", 5000, &ev, &cause) != 1) {
		buf_free(&line);
		printf("%s: no answer (%s)\n", path, cause != NULL ? cause :
		    "timeout");
		free(cause);
		client_free(cl);
		return 0;
	}
	buf_free(&line);
	for (i = 0; i < ev.nsessions; i++)
		if (ev.sessions[i].state != NULL &&
		    strcmp(ev.sessions[i].state, "running") == 0)
			nrun++;
	printf("%s: pid %ld, %zu session%s (%zu running), %zu waiting for "
	    "approval\n", path, client_server_pid(cl), ev.nsessions,
	    ev.nsessions == 1 ? "" : "s", nrun, ev.npending);
	for (i = 0; i < ev.nsessions; i++) {
		s = &ev.sessions[i];
		printf("  #%lld %-8s pid %-7lld %s", (long long)s->session,
		    s->state != NULL ? s->state : "?", (long long)s->pid,
		    s->agent ? "agent " : "");
		n = strv_len(s->argv);
		for (k = 0; k < n && k < 8; k++)
			printf("%s%s", k > 0 ? " " : "", s->argv[k]);
		printf("%s\n", n > 8 ? " ..." : "");
	}
	proto_event_free(&ev);
	client_free(cl);
	return 0;
}

/* The --help text of ls. */
static void
cmd_attach_ls_usage(FILE *f)
{
	fprintf(f, "usage: ptyvisor ls [-L NAME | --socket PATH]\n\n"
	    "List the servers that answer in the sockets' directory (and "
	    "on\n$PTYVISOR_SOCKET), each with its sessions; with -L or "
	    "--socket,\nthat server only.  Exit status 1 when none "
	    "answers.\n");
}

/*
 * Every server that answers in the sockets' directory and on
 * $PTYVISOR_SOCKET (once), each with its sessions: how many answered.
 */
static int
cmd_attach_ls_all(void)
{
	DIR		*d;
	struct dirent	*de;
	const char	*env = getenv("PTYVISOR_SOCKET");
	char		*dir, *p;
	size_t		 len;
	int		 found = 0;

	dir = control_socket_dir();
	if ((d = opendir(dir)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			len = strlen(de->d_name);
			if (len < 6 || strcmp(de->d_name + len - 5, ".sock") != 0)
				continue;
			p = xasprintf("%s/%s", dir, de->d_name);
			if (env == NULL || strcmp(env, p) != 0)
				found += cmd_attach_ls_server(p) == 0;
			free(p);
		}
		closedir(d);
	}
	if (env != NULL && *env != '\0')
		found += cmd_attach_ls_server(env) == 0;
	if (found == 0)
		fprintf(stderr, "ptyvisor ls: no server answers (in %s%s%s)\n",
		    dir, env != NULL ? " or on " : "", env != NULL ? env : "");
	free(dir);
	return found;
}

/* `ptyvisor ls`: exit status 1 when no server answers. */
static int
cmd_attach_ls_exec(int argc, char **argv)
{
	struct cmd_attach	 c;
	char			*path;
	int			 rc;

	if ((rc = cmd_attach_args(&cmd_ls_entry, argc, argv, &c,
	    &path)) != ARGS_GO_ON)
		goto out;
	/* One server named on the command line. */
	if (c.name != NULL || c.socket != NULL) {
		rc = cmd_attach_ls_server(path) == 0 ? 0 : 1;
		if (rc != 0)
			fprintf(stderr, "ptyvisor ls: no server on %s\n", path);
	} else
		rc = cmd_attach_ls_all() > 0 ? 0 : 1;
out:
	free(path);
	return rc;
}

/* The --help text of kill-server. */
static void
cmd_attach_kill_server_usage(FILE *f)
{
	fprintf(f, "usage: ptyvisor kill-server [-L NAME | --socket PATH]\n\n"
	    "End a server: every session is killed and its recording\n"
	    "flushed, every console and agent told, the socket removed.\n");
}

/* `ptyvisor kill-server`: done when the server's process is gone. */
static int
cmd_attach_kill_server_exec(int argc, char **argv)
{
	struct cmd_attach	 c;
	struct client		*cl = NULL;
	struct proto_event	 ev;
	struct buf		 line = { 0 };
	char			*path, *cause = NULL;
	long			 pid;
	uint64_t		 until;
	int			 rc;

	memset(&ev, 0, sizeof ev);
	if ((rc = cmd_attach_args(&cmd_kill_server_entry, argc, argv, &c,
	    &path)) != ARGS_GO_ON)
		goto out;
	rc = 1;
	if ((cl = client_connect(path, 5000, &cause)) == NULL) {
		cli_error("kill-server", "%s", cause);
		goto out;
	}
	pid = client_server_pid(cl);
	proto_req_shutdown(&line, "k");
	if (client_send_line(cl, &line, &cause) != 0 ||
	    client_wait_event(cl, "k", 10000, &ev, &cause) != 1 ||
	    ev.kind != PROTO_EV_OK) {
		cli_error("kill-server", "%s", cause != NULL ? cause :
		    ev.message != NULL ? ev.message : "refused");
		goto out;
	}
	client_free(cl);
	cl = NULL;
	/* Done when the server is gone (its sessions ended and flushed). */
	until = util_now_ms() + 15000;
	while (pid > 0 && kill((pid_t)pid, 0) == 0 && util_now_ms() < until)
		usleep(20000);
	rc = pid > 0 && kill((pid_t)pid, 0) == 0;
	if (rc)
		cli_error("kill-server", "pid %ld still runs after 15 s", pid);
out:
	free(cause);
	buf_free(&line);
	proto_event_free(&ev);
	client_free(cl);
	free(path);
	return rc;
}

const struct cmd_entry cmd_attach_entry = {
	.name = "attach",
	.summary = "show a running server's console here",
	.exec = cmd_attach_exec,
	.options = cmd_attach_tables,
	.flags = ARGS_SEE_HELP,
	.usage = cmd_attach_usage,
	.option = cmd_attach_option,
};

const struct cmd_entry cmd_ls_entry = {
	.name = "ls",
	.summary = "list the servers and their sessions",
	.exec = cmd_attach_ls_exec,
	.options = cmd_attach_server_tables,
	.flags = ARGS_SEE_HELP,
	.usage = cmd_attach_ls_usage,
	.option = cmd_attach_option,
};

const struct cmd_entry cmd_kill_server_entry = {
	.name = "kill-server",
	.summary = "end a server and its sessions",
	.exec = cmd_attach_kill_server_exec,
	.options = cmd_attach_server_tables,
	.flags = ARGS_SEE_HELP,
	.usage = cmd_attach_kill_server_usage,
	.option = cmd_attach_option,
};
