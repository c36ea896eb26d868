/*
 * client-test.c - the control protocol against a real `ptyvisor serve` on
 * a private socket: every op, bad input of every kind, clients that
 * vanish, stall or crowd in, and no fd or child left behind.
 *
 * Needs $PTYVISOR (the binary).  Everything runs in a mktemp directory;
 * the server is started and stopped by pid.
 */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "tests/tap.h"

/* How long any expected event may take. */
#define WAIT_MS	10000

static char	 sock_path[100];
static pid_t	 server;

/* A raw connection with its read buffer. */
struct conn {
	int		fd;
	struct buf	in;
};

/* Connect without saying anything; NULL on failure. */
static struct conn *
conn_raw(void)
{
	struct sockaddr_un	 sun;
	struct conn		*c;
	int			 fd;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, sock_path, strlen(sock_path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sun, sizeof sun) != 0) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	c = xcalloc(1, sizeof *c);
	c->fd = fd;
	return c;
}

static void
conn_close(struct conn *c)
{
	if (c == NULL)
		return;
	close(c->fd);
	buf_free(&c->in);
	free(c);
}

/* Send a string as is (add the newline yourself). */
static int
conn_send(struct conn *c, const char *s, size_t len)
{
	size_t	off = 0;
	ssize_t	n;

	while (off < len) {
		n = send(c->fd, s + off, len - off, MSG_NOSIGNAL);
		if (n <= 0)
			return -1;
		off += (size_t)n;
	}
	return 0;
}

static int
conn_line(struct conn *c, const char *s)
{
	return conn_send(c, s, strlen(s)) == 0 && conn_send(c, "\n", 1) == 0 ?
	    0 : -1;
}

/*
 * The next event within ms: an object, or NULL on timeout; *closed is set
 * when the server closed the connection (EOF or reset).
 */
static json_t *
conn_read(struct conn *c, int ms, bool *closed)
{
	struct pollfd	 pfd = { .fd = c->fd, .events = POLLIN };
	uint64_t	 end = util_now_ms() + (uint64_t)ms;
	char		 buf[65536], *nl;
	ssize_t		 n;
	json_t		*ev;
	size_t		 len;

	if (closed != NULL)
		*closed = false;
	for (;;) {
		if (c->in.len > 0 &&
		    (nl = memchr(c->in.data, '\n', c->in.len)) != NULL) {
			len = (size_t)(nl - c->in.data);
			ev = json_loadb(c->in.data, len, 0, NULL);
			buf_consume(&c->in, len + 1);
			if (ev != NULL)
				return ev;
			continue;
		}
		if (util_now_ms() >= end)
			return NULL;
		if (poll(&pfd, 1, (int)(end - util_now_ms())) <= 0)
			continue;
		n = recv(c->fd, buf, sizeof buf, 0);
		if (n > 0)
			buf_add(&c->in, buf, (size_t)n);
		else {
			if (closed != NULL)
				*closed = true;
			return NULL;
		}
	}
}

/* The string field key, or "". */
static const char *
str(json_t *ev, const char *key)
{
	json_t	*v = json_object_get(ev, key);

	return json_is_string(v) ? json_string_value(v) : "";
}

static long long
num(json_t *ev, const char *key)
{
	return json_integer_value(json_object_get(ev, key));
}

/* Read until an event named name arrives (others dropped); NULL if not. */
static json_t *
conn_expect(struct conn *c, const char *name)
{
	json_t	*ev;
	bool	 closed;

	while ((ev = conn_read(c, WAIT_MS, &closed)) != NULL) {
		if (strcmp(str(ev, "event"), name) == 0)
			return ev;
		json_decref(ev);
	}
	return NULL;
}

/* True when the server closes c within the wait (events are skipped). */
static bool
conn_closed(struct conn *c)
{
	json_t	*ev;
	bool	 closed = false;

	while ((ev = conn_read(c, WAIT_MS, &closed)) != NULL)
		json_decref(ev);
	return closed;
}

/* Connect and do the hello handshake. */
static struct conn *
conn_hello(void)
{
	struct conn	*c = conn_raw();
	json_t		*ev;

	if (c == NULL)
		return NULL;
	ev = conn_read(c, WAIT_MS, NULL);
	if (ev == NULL || strcmp(str(ev, "event"), "hello") != 0) {
		json_decref(ev);
		conn_close(c);
		return NULL;
	}
	json_decref(ev);
	conn_line(c, "{\"op\":\"hello\",\"version\":1}");
	return c;
}

/* Send a line and return the first answer (an error or anything else). */
static json_t *
conn_ask(struct conn *c, const char *line)
{
	conn_line(c, line);
	return conn_read(c, WAIT_MS, NULL);
}

/* Check that a line gets an error with code; the connection stays. */
static void
bad(struct conn *c, const char *line, const char *code, const char *name)
{
	json_t	*ev = conn_ask(c, line);

	ok(ev != NULL && strcmp(str(ev, "event"), "error") == 0 &&
	    strcmp(str(ev, "code"), code) == 0, "%s: error %s (%s)", name,
	    code, ev != NULL ? str(ev, "message") : "nothing");
	json_decref(ev);
}

/* Entries in /proc/PID/fd. */
static int
count_fds(pid_t pid)
{
	char		 path[64];
	DIR		*d;
	struct dirent	*e;
	int		 n = 0;

	snprintf(path, sizeof path, "/proc/%ld/fd", (long)pid);
	if ((d = opendir(path)) == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

/* Processes whose parent is pid. */
static int
count_children(pid_t pid)
{
	DIR		*d = opendir("/proc");
	struct dirent	*e;
	char		 path[300], buf[512], *p;
	FILE		*f;
	int		 n = 0;
	long		 ppid;

	while (d != NULL && (e = readdir(d)) != NULL) {
		snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		if (fgets(buf, sizeof buf, f) != NULL &&
		    (p = strrchr(buf, ')')) != NULL &&
		    sscanf(p + 2, "%*c %ld", &ppid) == 1 && ppid == pid)
			n++;
		fclose(f);
	}
	if (d != NULL)
		closedir(d);
	return n;
}

/* Wait until count(pid) == want; returns the last count. */
static int
wait_count(int (*count)(pid_t), int want)
{
	uint64_t	end = util_now_ms() + WAIT_MS;
	int		n;

	while ((n = count(server)) != want && util_now_ms() < end)
		usleep(20000);
	return n;
}

/* Is a process alive (and not a zombie)? */
static bool
alive(pid_t pid)
{
	char	 path[64], buf[512], *p;
	FILE	*f;
	bool	 yes = false;

	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return false;
	if (fgets(buf, sizeof buf, f) != NULL &&
	    (p = strrchr(buf, ')')) != NULL)
		yes = p[2] != 'Z';
	fclose(f);
	return yes;
}

/* CPU ticks (user + system) of pid so far, or -1. */
static long long
cpu_ticks(pid_t pid)
{
	char		 path[64], buf[1024], *p;
	unsigned long	 ut, st;
	FILE		*f;
	size_t		 n;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* After the command name: state is field 3, utime 14, stime 15. */
	if ((p = strrchr(buf, ')')) == NULL || sscanf(p + 2,
	    "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut,
	    &st) != 2)
		return -1;
	return (long long)(ut + st);
}

/* Whether pid stops using CPU (one second without a tick) in WAIT_MS. */
static bool
cpu_settles(pid_t pid)
{
	uint64_t	end = util_now_ms() + WAIT_MS;
	long long	before = cpu_ticks(pid), now;

	while (before >= 0 && util_now_ms() < end) {
		usleep(1000 * 1000);
		if ((now = cpu_ticks(pid)) == before)
			return true;
		before = now;
	}
	return false;
}

/* Wait until pid is gone. */
static bool
wait_gone(pid_t pid)
{
	uint64_t	end = util_now_ms() + WAIT_MS;

	while (alive(pid) && util_now_ms() < end)
		usleep(20000);
	return !alive(pid);
}

/* Does b hold s? */
static bool
has(const struct buf *b, const char *s)
{
	return b->len > 0 && memmem(b->data, b->len, s, strlen(s)) != NULL;
}

/* Whatever ends this test, the server does not outlive it. */
static void
stop_server(void)
{
	if (server > 0)
		kill(server, SIGKILL);
}

static void
stop_server_signal(int sig)
{
	stop_server();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Start the server; returns once it answers. */
static void
start_server(const char *dir)
{
	const char	*bin = getenv("PTYVISOR");
	char		*rules, *log;
	FILE		*f;
	struct conn	*c;
	uint64_t	 end;

	rules = xasprintf("%s/config/rules", dir);
	log = xasprintf("%s/serve.log", dir);
	f = fopen(rules, "w");
	if (f == NULL)
		fatal("cannot write %s", rules);
	fputs("allow echo **\nallow cat\nallow sleep **\nallow yes\n"
	    "allow sh -c **\ndeny rm **\n", f);
	fclose(f);
	if ((server = fork()) == 0) {
		if (freopen(log, "w", stderr) == NULL ||
		    freopen("/dev/null", "w", stdout) == NULL)
			_exit(127);
		execl(bin, "ptyvisor", "serve", "--approval", "on-request",
		    (char *)NULL);
		_exit(127);
	}
	atexit(stop_server);
	signal(SIGTERM, stop_server_signal);
	signal(SIGINT, stop_server_signal);
	signal(SIGABRT, stop_server_signal);
	free(rules);
	free(log);
	end = util_now_ms() + WAIT_MS;
	while ((c = conn_raw()) == NULL && util_now_ms() < end)
		usleep(20000);
	conn_close(c);
}

/* exec echo and check the whole sequence of events. */
static void
test_exec_echo(struct conn *c, struct conn *sub)
{
	json_t	*ev;
	bool	 ok_seq = true;

	conn_line(c, "{\"op\":\"exec\",\"id\":\"e1\",\"argv\":[\"echo\","
	    "\"h\\u00e9llo\"],\"cwd\":\"/\"}");
	ev = conn_read(c, WAIT_MS, NULL);
	ok(ev != NULL && strcmp(str(ev, "event"), "queued") == 0 &&
	    strcmp(str(ev, "id"), "e1") == 0 &&
	    strcmp(str(ev, "verdict"), "allow") == 0,
	    "exec: queued, verdict allow, id echoed");
	json_decref(ev);
	ev = conn_read(c, WAIT_MS, NULL);
	ok(ev != NULL && strcmp(str(ev, "event"), "approved") == 0 &&
	    strstr(str(ev, "by"), "allow echo **") != NULL,
	    "approved by the rule (%s)", ev ? str(ev, "by") : "");
	json_decref(ev);
	ev = conn_read(c, WAIT_MS, NULL);
	ok(ev != NULL && strcmp(str(ev, "event"), "started") == 0 &&
	    num(ev, "session") > 0 && num(ev, "pid") > 0, "started with a "
	    "session and a pid");
	json_decref(ev);
	ev = conn_read(c, WAIT_MS, NULL);
	ok(ev != NULL && strcmp(str(ev, "event"), "output") == 0 &&
	    num(ev, "seq") == 1 && strcmp(str(ev, "data"),
	    "h\xc3\xa9llo\r\n") == 0, "output text, seq 1");
	json_decref(ev);
	ev = conn_expect(c, "exit");
	ok(ev != NULL && num(ev, "code") == 0 && strcmp(str(ev, "id"),
	    "e1") == 0 && json_is_false(json_object_get(ev, "timed_out")) &&
	    json_is_integer(json_object_get(ev, "duration_ms")) &&
	    strstr(str(ev, "recording"), ".cast") != NULL,
	    "exit code 0, timed_out false, duration, recording");
	ok(ev != NULL && strcmp(str(ev, "ending"), "exit 0") == 0,
	    "exit names its ending: %s", ev != NULL ? str(ev, "ending") : "-");
	json_decref(ev);

	/* The subscriber saw it all, without the id. */
	ev = conn_expect(sub, "queued");
	ok_seq = ev != NULL && json_object_get(ev, "id") == NULL;
	json_decref(ev);
	ev = conn_expect(sub, "started");
	ok_seq = ok_seq && ev != NULL;
	json_decref(ev);
	ev = conn_expect(sub, "output");
	ok_seq = ok_seq && ev != NULL && strstr(str(ev, "data"), "llo");
	json_decref(ev);
	ev = conn_expect(sub, "exit");
	ok_seq = ok_seq && ev != NULL && num(ev, "code") == 0;
	json_decref(ev);
	ok(ok_seq, "subscriber sees queued, started, output, exit");
}

int
main(void)
{
	char		 dir[] = "/tmp/pvctlXXXXXX", *s;
	struct conn	*c, *c2, *sub, *idle, *many[50];
	json_t		*ev;
	bool		 closed;
	long long	 sess, req, pid;
	int		 fds0, kids0, i, n;
	char		*big;
	struct buf	 all = { 0 };

	if (getenv("PTYVISOR") == NULL) {
		printf("1..0 # SKIP PTYVISOR not set\n");
		return 0;
	}
	signal(SIGPIPE, SIG_IGN);
	if (mkdtemp(dir) == NULL)
		fatal("mkdtemp");
	s = xasprintf("%s/config", dir);
	mkdir(s, 0700);
	free(s);
	snprintf(sock_path, sizeof sock_path, "%s/run/ptyvisor.sock", dir);
	setenv("PTYVISOR_SOCKET", sock_path, 1);
	s = xasprintf("%s/state", dir);
	setenv("PTYVISOR_STATE_DIR", s, 1);
	free(s);
	s = xasprintf("%s/config", dir);
	setenv("PTYVISOR_CONFIG", s, 1);
	free(s);
	start_server(dir);

	/* Handshake. */
	c = conn_raw();
	ok(c != NULL, "connect");
	ev = c != NULL ? conn_read(c, WAIT_MS, NULL) : NULL;
	ok(ev != NULL && strcmp(str(ev, "event"), "hello") == 0 &&
	    num(ev, "version") == 1 && strncmp(str(ev, "server"),
	    "ptyvisor ", 9) == 0, "server says hello first");
	json_decref(ev);
	if (c == NULL)
		return tap_done();
	fds0 = count_fds(server);
	kids0 = count_children(server);
	diag("server fds %d children %d with one client", fds0, kids0);
	conn_close(c);

	c = conn_raw();
	json_decref(conn_read(c, WAIT_MS, NULL));
	conn_line(c, "{\"op\":\"hello\",\"version\":2}");
	ev = conn_read(c, WAIT_MS, NULL);
	ok(ev != NULL && strcmp(str(ev, "code"), "bad-version") == 0,
	    "another version: bad-version error");
	json_decref(ev);
	ok(conn_closed(c), "and the connection is closed");
	conn_close(c);

	c = conn_raw();
	json_decref(conn_read(c, WAIT_MS, NULL));
	conn_line(c, "{\"op\":\"list\",\"id\":\"x\"}");
	ev = conn_read(c, WAIT_MS, NULL);
	ok(ev != NULL && strcmp(str(ev, "event"), "error") == 0 &&
	    strcmp(str(ev, "id"), "x") == 0, "no hello first: error");
	json_decref(ev);
	ok(conn_closed(c), "and the connection is closed");
	conn_close(c);

	/* Bad input on one connection, which keeps working. */
	c = conn_hello();
	ok(c != NULL, "hello handshake");
	bad(c, "{\"op\":", "malformed-json", "truncated JSON");
	bad(c, "[1,2]", "not-an-object", "an array");
	bad(c, "{\"op\":\"frobnicate\",\"id\":\"1\"}", "unknown-op",
	    "unknown op");
	bad(c, "{\"op\":\"exec\",\"id\":\"1\",\"argv\":\"ls\"}", "wrong-type",
	    "argv as a string");
	bad(c, "{\"op\":\"exec\",\"id\":\"1\",\"argv\":[\"ls\"],\"cwd\":"
	    "\"tmp\"}", "bad-value", "relative cwd");
	bad(c, "{\"op\":\"exec\",\"id\":\"1\",\"argv\":[]}", "bad-value",
	    "empty argv");
	bad(c, "{\"op\":\"kill\",\"id\":\"1\",\"session\":\"7\"}",
	    "wrong-type", "session as a string");
	bad(c, "{\"op\":\"kill\",\"id\":\"1\",\"session\":99999}",
	    "no-such-session", "kill of no session");
	bad(c, "{\"op\":\"decide\",\"id\":\"1\",\"request\":99999,"
	    "\"decision\":\"approve\"}", "no-such-request",
	    "decide of no request");
	bad(c, "\xff\xfe{}", "malformed-json", "invalid UTF-8");
	ev = conn_ask(c, "{\"op\":\"list\",\"id\":\"l1\"}");
	ok(ev != NULL && strcmp(str(ev, "event"), "list") == 0 &&
	    strcmp(str(ev, "id"), "l1") == 0 &&
	    json_is_array(json_object_get(ev, "sessions")) &&
	    json_is_array(json_object_get(ev, "pending")),
	    "after all that, list still answers");
	json_decref(ev);

	/* A 2 MiB line: error and close, others unaffected. */
	c2 = conn_hello();
	big = xmalloc(2 * 1024 * 1024 + 1);
	memset(big, 'a', 2 * 1024 * 1024);
	big[2 * 1024 * 1024] = '\n';
	conn_send(c2, big, 2 * 1024 * 1024 + 1);
	free(big);
	ev = conn_expect(c2, "error");
	ok(ev != NULL && strcmp(str(ev, "code"), "line-too-long") == 0,
	    "2 MiB line: line-too-long");
	json_decref(ev);
	ok(conn_closed(c2), "and the connection is closed");
	conn_close(c2);

	/* A client that sends nothing does not block the others. */
	idle = conn_raw();
	sub = conn_hello();
	ev = conn_ask(sub, "{\"op\":\"subscribe\",\"id\":\"s\"}");
	ok(ev != NULL && strcmp(str(ev, "event"), "ok") == 0, "subscribe: ok");
	json_decref(ev);

	test_exec_echo(c, sub);

	/* base64 output. */
	conn_line(c, "{\"op\":\"exec\",\"id\":\"b\",\"argv\":[\"sh\",\"-c\","
	    "\"printf 'a\\\\377b'\"],\"encoding\":\"base64\"}");
	ev = conn_expect(c, "output");
	ok(ev != NULL && strcmp(str(ev, "b64"), "Yf9i") == 0,
	    "base64 output has the exact bytes (%s)", ev ? str(ev, "b64") : "");
	json_decref(ev);
	json_decref(conn_expect(c, "exit"));

	/* input, resize. */
	conn_line(c, "{\"op\":\"exec\",\"id\":\"i\",\"argv\":[\"sh\",\"-c\","
	    "\"read x; echo got $x; read y; stty size\"]}");
	ev = conn_expect(c, "started");
	sess = ev != NULL ? num(ev, "session") : 0;
	json_decref(ev);
	s = xasprintf("{\"op\":\"input\",\"id\":\"in\",\"session\":%lld,"
	    "\"data\":\"abc\\n\"}", sess);
	conn_line(c, s);
	free(s);
	all.len = 0;
	while ((ev = conn_read(c, WAIT_MS, NULL)) != NULL) {
		if (strcmp(str(ev, "event"), "output") == 0)
			buf_adds(&all, str(ev, "data"));
		json_decref(ev);
		if (has(&all, "got abc"))
			break;
	}
	ok(has(&all, "got abc"),
	    "input reaches the session");
	s = xasprintf("{\"op\":\"resize\",\"id\":\"r\",\"session\":%lld,"
	    "\"cols\":101,\"rows\":31}", sess);
	ev = conn_ask(c, s);
	free(s);
	ok(ev != NULL && strcmp(str(ev, "event"), "ok") == 0, "resize: ok");
	json_decref(ev);
	s = xasprintf("{\"op\":\"input\",\"id\":\"in\",\"session\":%lld,"
	    "\"b64\":\"Cg==\"}", sess);
	conn_line(c, s);
	free(s);
	all.len = 0;
	while ((ev = conn_read(c, WAIT_MS, NULL)) != NULL) {
		n = strcmp(str(ev, "event"), "exit") == 0;
		if (strcmp(str(ev, "event"), "output") == 0)
			buf_adds(&all, str(ev, "data"));
		json_decref(ev);
		if (n)
			break;
	}
	ok(has(&all, "31 101"),
	    "the session sees the new size");

	/* kill. */
	conn_line(c, "{\"op\":\"exec\",\"id\":\"k\",\"argv\":[\"sleep\","
	    "\"30\"]}");
	ev = conn_expect(c, "started");
	sess = ev != NULL ? num(ev, "session") : 0;
	json_decref(ev);
	s = xasprintf("{\"op\":\"kill\",\"id\":\"k2\",\"session\":%lld}",
	    sess);
	conn_line(c, s);
	free(s);
	ev = conn_expect(c, "exit");
	ok(ev != NULL && num(ev, "signal") > 0, "kill: exit by signal %lld",
	    ev != NULL ? num(ev, "signal") : 0);
	ok(ev != NULL && strcmp(str(ev, "ending"), "cancelled") == 0,
	    "a kill from the client is named cancelled, not a signal: %s",
	    ev != NULL ? str(ev, "ending") : "-");
	json_decref(ev);

	/* Timeout. */
	conn_line(c, "{\"op\":\"exec\",\"id\":\"t\",\"argv\":[\"sleep\","
	    "\"30\"],\"timeout_s\":0.5}");
	ev = conn_expect(c, "exit");
	ok(ev != NULL && json_is_true(json_object_get(ev, "timed_out")),
	    "timeout: timed_out true");
	ok(ev != NULL && strcmp(str(ev, "ending"), "timeout") == 0,
	    "timeout: named timeout, not its signal");
	json_decref(ev);

	/* Denied by rule. */
	conn_line(c, "{\"op\":\"exec\",\"id\":\"d\",\"argv\":[\"rm\","
	    "\"x\"]}");
	ev = conn_expect(c, "denied");
	ok(ev != NULL && strstr(str(ev, "by"), "deny rm") != NULL &&
	    strcmp(str(ev, "id"), "d") == 0, "denied by the rule");
	json_decref(ev);

	/* Asked: list shows it; decide approve from another client. */
	c2 = conn_hello();
	conn_line(c, "{\"op\":\"exec\",\"id\":\"a\",\"argv\":[\"true\"],"
	    "\"why\":\"because\"}");
	ev = conn_expect(c, "queued");
	req = ev != NULL ? num(ev, "request") : 0;
	ok(ev != NULL && strcmp(str(ev, "verdict"), "ask") == 0 &&
	    strcmp(str(ev, "why"), "because") == 0 && num(ev,
	    "client_pid") == getpid(), "asked: queued with verdict ask, "
	    "why, client pid");
	json_decref(ev);
	ev = conn_ask(c2, "{\"op\":\"list\",\"id\":\"l\"}");
	ok(ev != NULL && json_array_size(json_object_get(ev, "pending")) ==
	    1 && num(json_array_get(json_object_get(ev, "pending"), 0),
	    "request") == req, "list shows the pending request");
	json_decref(ev);
	s = xasprintf("{\"op\":\"decide\",\"id\":\"dc\",\"request\":%lld,"
	    "\"decision\":\"approve\"}", req);
	ev = conn_ask(c2, s);
	free(s);
	ok(ev != NULL && strcmp(str(ev, "event"), "ok") == 0, "decide: ok");
	json_decref(ev);
	ev = conn_read(c, WAIT_MS, NULL);
	ok(ev != NULL && strcmp(str(ev, "event"), "approved") == 0 &&
	    strcmp(str(ev, "by"), "user") == 0, "approved by user");
	json_decref(ev);
	ev = conn_expect(c, "exit");
	ok(ev != NULL && num(ev, "code") == 0, "and it ran");
	json_decref(ev);

	/* Denied by a person with a reason. */
	conn_line(c, "{\"op\":\"exec\",\"id\":\"n\",\"argv\":[\"true\"]}");
	ev = conn_expect(c, "queued");
	req = ev != NULL ? num(ev, "request") : 0;
	json_decref(ev);
	s = xasprintf("{\"op\":\"decide\",\"id\":\"dc\",\"request\":%lld,"
	    "\"decision\":\"deny\",\"reason\":\"not today\"}", req);
	json_decref(conn_ask(c2, s));
	free(s);
	ev = conn_expect(c, "denied");
	ok(ev != NULL && strcmp(str(ev, "reason"), "not today") == 0,
	    "denied by user with the reason");
	json_decref(ev);

	/* A client vanishing: its session dies, its request is withdrawn. */
	c2 = (conn_close(c2), conn_hello());
	conn_line(c2, "{\"op\":\"exec\",\"id\":\"v\",\"argv\":[\"sleep\","
	    "\"30\"]}");
	ev = conn_expect(c2, "started");
	pid = ev != NULL ? num(ev, "pid") : 0;
	json_decref(ev);
	conn_line(c2, "{\"op\":\"exec\",\"id\":\"w\",\"argv\":[\"true\"]}");
	json_decref(conn_expect(c2, "queued"));
	conn_close(c2);
	ok(pid > 0 && wait_gone((pid_t)pid), "vanished client: its session "
	    "is killed");
	ev = conn_expect(sub, "withdrawn");
	ok(ev != NULL, "its pending request is withdrawn");
	json_decref(ev);

	/*
	 * A client that never reads a flood is waited for, not dropped: its
	 * command is held (blocked on its terminal, using no CPU) while the
	 * server serves others; once the client reads, the output flows on.
	 */
	c2 = conn_hello();
	conn_line(c2, "{\"op\":\"exec\",\"id\":\"y\",\"argv\":[\"yes\"]}");
	ev = conn_expect(sub, "started");
	pid = ev != NULL ? num(ev, "pid") : 0;
	json_decref(ev);
	ev = conn_ask(c, "{\"op\":\"list\",\"id\":\"fl\"}");
	while (ev != NULL && strcmp(str(ev, "event"), "list") != 0) {
		json_decref(ev);
		ev = conn_read(c, WAIT_MS, NULL);
	}
	ok(ev != NULL, "list answers during a flood");
	json_decref(ev);
	ok(pid > 0 && cpu_settles((pid_t)pid), "the flood of a client that "
	    "does not read is held: the command stops using CPU");
	{
		/* Not reading: only watch for the hang-up. */
		uint64_t	end = util_now_ms() + 2000;
		struct pollfd	p = { .fd = c2->fd, .events = 0 };

		closed = false;
		while (!closed && util_now_ms() < end) {
			p.revents = 0;
			poll(&p, 1, 50);
			closed = (p.revents & (POLLHUP | POLLERR)) != 0;
		}
	}
	ok(!closed, "the client that does not read is waited for, not "
	    "disconnected");
	n = 0;
	while (n < 4 * 1024 * 1024 && (ev = conn_expect(c2, "output")) !=
	    NULL) {
		n += (int)strlen(str(ev, "data"));
		json_decref(ev);
	}
	ok(n >= 4 * 1024 * 1024, "reading again, the output flows on (%d "
	    "bytes, more than the server holds for a client)", n);
	conn_close(c2);
	ok(pid > 0 && wait_gone((pid_t)pid), "and closing it kills the "
	    "command");

	/* 50 clients at once. */
	for (i = 0; i < 50; i++)
		many[i] = conn_raw();
	for (i = 0; i < 50; i++) {
		if (many[i] == NULL)
			continue;
		conn_line(many[i], "{\"op\":\"hello\",\"version\":1}");
		conn_line(many[i], i % 2 ? "{\"op\":\"list\",\"id\":\"m\"}" :
		    "{\"op\":\"exec\",\"id\":\"m\",\"argv\":[\"echo\",\"m\"]}");
	}
	n = 0;
	for (i = 0; i < 50; i++) {
		if (many[i] == NULL)
			continue;
		ev = conn_expect(many[i], i % 2 ? "list" : "exit");
		if (ev != NULL)
			n++;
		json_decref(ev);
		conn_close(many[i]);
	}
	is_int(n, 50, "50 clients at once all get their answer");

	/* Nothing left behind. */
	conn_close(idle);
	conn_close(c);
	conn_close(sub);
	c = conn_hello();
	is_int(wait_count(count_children, kids0), kids0,
	    "no child left (as many as at the start)");
	is_int(wait_count(count_fds, fds0), fds0,
	    "no fd left (as many as with one client at the start)");
	conn_close(c);

	kill(server, SIGTERM);
	waitpid(server, &i, 0);
	server = 0;
	ok(WIFEXITED(i) && WEXITSTATUS(i) == 0, "serve exits 0 on SIGTERM");
	ok(access(sock_path, F_OK) != 0, "and removes its socket");
	buf_free(&all);
	s = xasprintf("rm -rf '%s'", dir);
	if (system(s) != 0)
		diag("cannot remove %s", dir);
	free(s);
	return tap_done();
}
