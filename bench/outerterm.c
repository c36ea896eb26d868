/*
 * outerterm.c - a headless outer terminal for the benchmarks.
 *
 * It opens a pty of the given size, runs the program under test (a
 * multiplexer) on it, reads everything the program draws as fast as it
 * can and counts it, types scripted keys, and times what it sees.  Text
 * is matched after escape sequences are dropped, so colours between the
 * characters of a marker do not hide it.  It is a child subreaper: a
 * server that daemonises (tmux, screen) stays its descendant, is reaped
 * by it and so its CPU time is counted with the rest of the tree.
 *
 * Steps run in the order given on the command line:
 *   -r TEXT   wait until TEXT is drawn
 *   -k KEYS   type KEYS (C escapes: \e \r \n \t \\ \xHH)
 *   -d MS     wait MS milliseconds (still reading)
 *   -m TEXT   wait until TEXT is drawn; its time since the start is wall_s
 *   -l N      N echo probes, one every -i MS (default 20): each types one
 *             CJK character the screen has not shown before (U+4E00 + k)
 *             and times until it is drawn
 *   -M DIR:N  wait until DIR holds N files named done.*, read for another
 *             half second, take the largest RSS among the descendants, then
 *             create DIR/quit
 * After the steps: -e waits for the program to end by itself (up to the
 * timeout); otherwise the descendants get SIGTERM, then SIGKILL.
 *
 * Without a pty (-P) the program's output goes to a pipe that is drained
 * and counted: the agents' path, measured like `script`.
 *
 * Other options: -g COLSxROWS (120x40), -t SECONDS (timeout, 300),
 * -o FILE (a copy of every byte drawn, to see what went wrong),
 * -w FILE (the workload's `times` output: its CPU is left out of
 * mux_cpu_s), -s PID (add this process's CPU over the run: a server the
 * program talks to).  Results go to stdout as key=value words on one line.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum step_kind { ST_READY, ST_KEYS, ST_DELAY, ST_MARK, ST_PROBES, ST_MEM };

struct step {
	enum step_kind kind;
	const char *arg;
};

#define OT_MAX_STEPS 64
#define OT_MAX_PROBES 100000
/* The longest text waited for: the tail kept of the drawn text. */
#define OT_TAIL 64

/* Escape-sequence states of the text filter. */
enum vt_state { VT_TEXT, VT_ESC, VT_CSI, VT_STR, VT_STR_ESC, VT_ESC_INT };

static int master = -1;
static pid_t child;
static int child_status = -1;
static double t_start;
static unsigned long long drawn_bytes;
static enum vt_state vt = VT_TEXT;
static char tail[OT_TAIL];
static size_t tail_len;
static const char *wanted;	/* text being waited for, or NULL */
static int seen;		/* wanted has been drawn */
static int dump_fd = -1;	/* -o: a copy of everything drawn */

/* Seconds on the monotonic clock. */
static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
die(const char *what)
{
	fprintf(stderr, "outerterm: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* One byte of drawn text: kept in the tail, matched against wanted. */
static void
text_byte(unsigned char c)
{
	size_t n;

	if (tail_len == OT_TAIL) {
		memmove(tail, tail + 1, OT_TAIL - 1);
		tail_len--;
	}
	tail[tail_len++] = (char)c;
	if (wanted == NULL || seen)
		return;
	n = strlen(wanted);
	if (n <= tail_len && memcmp(tail + tail_len - n, wanted, n) == 0)
		seen = 1;
}

/* Feed drawn bytes through a small escape-sequence filter. */
static void
filter(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = p[i];

		switch (vt) {
		case VT_TEXT:
			if (c == 0x1b)
				vt = VT_ESC;
			else if (c >= 0x20 && c != 0x7f)
				text_byte(c);
			break;
		case VT_ESC:
			if (c == '[')
				vt = VT_CSI;
			else if (c == ']' || c == 'P' || c == 'X' ||
			    c == '^' || c == '_')
				vt = VT_STR;
			else if (c >= 0x20 && c <= 0x2f)
				vt = VT_ESC_INT;
			else
				vt = VT_TEXT;
			break;
		case VT_CSI:
			if (c >= 0x40 && c <= 0x7e)
				vt = VT_TEXT;
			else if (c == 0x1b)
				vt = VT_ESC;
			break;
		case VT_STR:
			if (c == 0x07)
				vt = VT_TEXT;
			else if (c == 0x1b)
				vt = VT_STR_ESC;
			break;
		case VT_STR_ESC:
			vt = c == '\\' ? VT_TEXT : VT_STR;
			break;
		case VT_ESC_INT:
			if (c >= 0x30)
				vt = VT_TEXT;
			break;
		}
	}
}

/* Note the child's end if it has come; reap orphans handed to us. */
static void
reap(void)
{
	pid_t p;
	int st;

	while ((p = waitpid(-1, &st, WNOHANG)) > 0)
		if (p == child)
			child_status = st;
}

/*
 * Read what is drawn until the deadline, or until wanted is seen when
 * stop_on_seen is set.  Returns 1 if wanted was seen, else 0.
 */
static int
pump(double deadline, int stop_on_seen)
{
	unsigned char buf[65536];
	struct pollfd pfd;
	ssize_t r;
	double left;

	for (;;) {
		if (stop_on_seen && seen)
			return 1;
		left = deadline - now();
		if (left <= 0)
			return seen;
		if (master < 0) {
			reap();
			usleep(left > 0.01 ? 10000 : (useconds_t)(left * 1e6));
			continue;
		}
		pfd.fd = master;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, (int)(left * 1000) + 1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll");
		}
		if (pfd.revents == 0)
			continue;
		r = read(master, buf, sizeof buf);
		if (r > 0) {
			drawn_bytes += (unsigned long long)r;
			if (dump_fd >= 0 && write(dump_fd, buf, (size_t)r) < 0)
				die("write -o");
			filter(buf, (size_t)r);
		} else if (r < 0 && (errno == EINTR || errno == EAGAIN)) {
			continue;
		} else {
			/* EIO: every process left the pty. */
			close(master);
			master = -1;
		}
	}
}

/* Wait (reading) until text is drawn; 0 if it was, -1 on timeout. */
static int
wait_text(const char *text, double deadline)
{
	wanted = text;
	seen = 0;
	if (tail_len > 0) {
		size_t n = strlen(text);

		if (n <= tail_len &&
		    memmem(tail, tail_len, text, n) != NULL)
			seen = 1;
	}
	pump(deadline, 1);
	wanted = NULL;
	return seen ? 0 : -1;
}

/* Type bytes into the pty. */
static void
type(const char *p, size_t n)
{
	ssize_t w;

	while (n > 0 && master >= 0) {
		w = write(master, p, n);
		if (w < 0) {
			if (errno == EINTR || errno == EAGAIN) {
				pump(now() + 0.001, 0);
				continue;
			}
			die("write");
		}
		p += w;
		n -= (size_t)w;
	}
}

/* Decode the C escapes of a -k argument into out; returns its length. */
static size_t
unescape(const char *s, char *out)
{
	size_t n = 0;
	unsigned v;

	while (*s != '\0') {
		if (*s != '\\' || s[1] == '\0') {
			out[n++] = *s++;
			continue;
		}
		s++;
		switch (*s) {
		case 'e': out[n++] = 0x1b; s++; break;
		case 'r': out[n++] = '\r'; s++; break;
		case 'n': out[n++] = '\n'; s++; break;
		case 't': out[n++] = '\t'; s++; break;
		case 'x':
			if (sscanf(s + 1, "%2x", &v) == 1 &&
			    isxdigit((unsigned char)s[1])) {
				out[n++] = (char)v;
				s += isxdigit((unsigned char)s[2]) ? 3 : 2;
			} else
				out[n++] = *s++;
			break;
		default: out[n++] = *s++; break;
		}
	}
	return n;
}

/* The pids whose parent is parent, from /proc; returns their count. */
static size_t
children_of(pid_t parent, pid_t *out, size_t max)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	size_t n = 0;

	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL && n < max) {
		char path[300], buf[512], *rp;
		long ppid;
		FILE *f;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
		if ((f = fopen(path, "re")) == NULL)
			continue;
		if (fgets(buf, sizeof buf, f) != NULL &&
		    (rp = strrchr(buf, ')')) != NULL &&
		    sscanf(rp + 2, "%*c %ld", &ppid) == 1 && ppid == parent)
			out[n++] = (pid_t)atol(e->d_name);
		fclose(f);
	}
	closedir(d);
	return n;
}

/* Every descendant of ours, breadth first; returns their count. */
static size_t
descendants(pid_t *out, size_t max)
{
	size_t n = children_of(getpid(), out, max), i;

	for (i = 0; i < n && n < max; i++)
		n += children_of(out[i], out + n, max - n);
	return n;
}

/* VmRSS of a process in kB and its name, or -1. */
static long
rss_of(pid_t pid, char *comm, size_t commlen)
{
	char path[64], line[256];
	long kb = -1;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, "Name:", 5) == 0)
			snprintf(comm, commlen, "%s", line + 5 +
			    strspn(line + 5, " \t"));
		else if (sscanf(line, "VmRSS: %ld", &kb) == 1)
			break;
	}
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	return kb;
}

/* Count done.* files in dir. */
static int
count_done(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL)
		if (strncmp(e->d_name, "done.", 5) == 0)
			n++;
	closedir(d);
	return n;
}

/* The memory step: see the header. */
static void
step_mem(const char *arg, double deadline)
{
	char dir[4096], comm[64] = "", best_comm[64] = "?", path[4200];
	pid_t pids[4096];
	const char *colon = strrchr(arg, ':');
	long best = -1, kb;
	size_t n, i;
	int want, fd;

	if (colon == NULL || (size_t)(colon - arg) >= sizeof dir) {
		fprintf(stderr, "outerterm: -M DIR:N\n");
		exit(2);
	}
	memcpy(dir, arg, (size_t)(colon - arg));
	dir[colon - arg] = '\0';
	want = atoi(colon + 1);
	while (count_done(dir) < want && now() < deadline)
		pump(now() + 0.1, 0);
	/* Half a second for the last lines to be taken in and drawn. */
	pump(now() + 0.5, 0);
	n = descendants(pids, sizeof pids / sizeof pids[0]);
	for (i = 0; i < n; i++) {
		kb = rss_of(pids[i], comm, sizeof comm);
		if (kb > best) {
			best = kb;
			snprintf(best_comm, sizeof best_comm, "%s", comm);
		}
	}
	printf("sessions_done=%d rss_kb=%ld rss_of=%s ", count_done(dir),
	    best, best_comm);
	snprintf(path, sizeof path, "%s/quit", dir);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600)) >= 0)
		close(fd);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The probes step: see the header. */
static void
step_probes(int count, double period, double deadline)
{
	static double lat[OT_MAX_PROBES];
	char probe[8];
	int i, n = 0, lost = 0;
	double t0, next = now();

	for (i = 0; i < count && now() < deadline; i++) {
		unsigned cp = 0x4e00 + (unsigned)i;

		probe[0] = (char)(0xe0 | (cp >> 12));
		probe[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		probe[2] = (char)(0x80 | (cp & 0x3f));
		probe[3] = '\0';
		pump(next, 0);
		wanted = probe;
		seen = 0;
		t0 = now();
		type(probe, 3);
		/* A probe not drawn within 2 s counts as lost. */
		if (pump(t0 + 2.0, 1))
			lat[n++] = (now() - t0) * 1000.0;
		else
			lost++;
		wanted = NULL;
		next = t0 + period;
	}
	qsort(lat, (size_t)n, sizeof lat[0], cmp_double);
	if (n == 0) {
		printf("probes=0 lost=%d ", lost);
		return;
	}
	printf("probes=%d lost=%d lat_min_ms=%.3f lat_p50_ms=%.3f "
	    "lat_p99_ms=%.3f lat_max_ms=%.3f ", n, lost, lat[0],
	    lat[n / 2], lat[(int)((n - 1) * 0.99 + 0.5)], lat[n - 1]);
}

/* CPU seconds (user + system) of one process so far, or 0. */
static double
cpu_of(pid_t pid)
{
	char path[64], buf[1024], *rp;
	unsigned long ut, st;
	FILE *f;
	double s = 0;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return 0;
	if (fgets(buf, sizeof buf, f) != NULL &&
	    (rp = strrchr(buf, ')')) != NULL &&
	    sscanf(rp + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
	    "%lu %lu", &ut, &st) == 2)
		s = (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
	fclose(f);
	return s;
}

/* Sum the four times of a shell's `times` output ("0m1.25s 0m0.10s"). */
static double
times_file(const char *path)
{
	FILE *f = fopen(path, "re");
	double total = 0, sec;
	long min;

	if (f == NULL)
		return -1;
	while (fscanf(f, " %ldm%lfs", &min, &sec) == 2)
		total += (double)min * 60 + sec;
	fclose(f);
	return total;
}

/* SIGTERM, then SIGKILL after 2 s, to every descendant still there. */
static void
end_all(void)
{
	pid_t pids[4096];
	size_t n, i;
	int round;

	for (round = 0; round < 2; round++) {
		n = descendants(pids, sizeof pids / sizeof pids[0]);
		if (n == 0)
			return;
		for (i = 0; i < n; i++)
			kill(pids[i], round == 0 ? SIGTERM : SIGKILL);
		/* Still reading: a program blocked writing to the pty
		 * would not see its signal. */
		for (i = 0; i < 100 && descendants(pids, 1) > 0; i++) {
			reap();
			pump(now() + 0.02, 0);
		}
	}
	reap();
}

static void
usage(void)
{
	fprintf(stderr, "usage: outerterm [-P] [-g COLSxROWS] [-t S] "
	    "[-w FILE] [-s PID] [-e] [-o FILE] [-r TEXT|-k KEYS|-d MS|-m TEXT|"
	    "-l N|-i MS|-M DIR:N]... -- CMD [ARGS...]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	struct step steps[OT_MAX_STEPS];
	struct winsize ws = { .ws_col = 120, .ws_row = 40 };
	struct rusage ru;
	const char *times_path = NULL;
	double timeout = 300, period = 0.020, deadline, wall = -1;
	double server_cpu0 = 0, tree_cpu, work_cpu;
	pid_t server = 0;
	int nsteps = 0, wait_end = 0, no_pty = 0, failed = 0;
	int opt, i, pfd[2];
	char keys[4096];

	while ((opt = getopt(argc, argv, "+Pg:t:w:s:eo:r:k:d:m:l:i:M:")) != -1) {
		switch (opt) {
		case 'P': no_pty = 1; break;
		case 'g':
			if (sscanf(optarg, "%hux%hu", &ws.ws_col,
			    &ws.ws_row) != 2)
				usage();
			break;
		case 't': timeout = atof(optarg); break;
		case 'w': times_path = optarg; break;
		case 's': server = (pid_t)atol(optarg); break;
		case 'e': wait_end = 1; break;
		case 'o':
			dump_fd = open(optarg, O_WRONLY | O_CREAT | O_TRUNC |
			    O_CLOEXEC, 0600);
			if (dump_fd < 0)
				die(optarg);
			break;
		case 'i': period = atof(optarg) / 1000.0; break;
		case 'r': case 'k': case 'd': case 'm': case 'l': case 'M':
			if (nsteps == OT_MAX_STEPS)
				usage();
			steps[nsteps].kind = opt == 'r' ? ST_READY :
			    opt == 'k' ? ST_KEYS : opt == 'd' ? ST_DELAY :
			    opt == 'm' ? ST_MARK : opt == 'l' ? ST_PROBES :
			    ST_MEM;
			if ((opt == 'r' || opt == 'm') &&
			    strlen(optarg) >= OT_TAIL)
				usage();
			if (opt == 'k' && strlen(optarg) >= sizeof keys)
				usage();
			steps[nsteps++].arg = optarg;
			break;
		default: usage();
		}
	}
	if (optind >= argc)
		usage();
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		die("PR_SET_CHILD_SUBREAPER");
	if (server > 0)
		server_cpu0 = cpu_of(server);
	t_start = now();
	if (no_pty) {
		if (pipe2(pfd, O_CLOEXEC) < 0)
			die("pipe");
		child = fork();
		if (child == 0) {
			int null = open("/dev/null", O_RDONLY);

			dup2(null, 0);
			dup2(pfd[1], 1);
			dup2(pfd[1], 2);
			execvp(argv[optind], argv + optind);
			_exit(127);
		}
		close(pfd[1]);
		master = pfd[0];
	} else {
		child = forkpty(&master, NULL, NULL, &ws);
		if (child == 0) {
			setenv("TERM", "xterm-256color", 1);
			execvp(argv[optind], argv + optind);
			fprintf(stderr, "outerterm: %s: %s\n", argv[optind],
			    strerror(errno));
			_exit(127);
		}
	}
	if (child < 0)
		die("fork");
	fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
	deadline = t_start + timeout;

	for (i = 0; i < nsteps; i++) {
		const char *a = steps[i].arg;

		switch (steps[i].kind) {
		case ST_READY:
			if (wait_text(a, deadline) < 0) {
				printf("timeout_waiting_for=%s ", a);
				failed = 1;
			}
			break;
		case ST_KEYS:
			type(keys, unescape(a, keys));
			break;
		case ST_DELAY:
			pump(now() + atof(a) / 1000.0, 0);
			break;
		case ST_MARK:
			if (wait_text(a, deadline) < 0) {
				printf("timeout_waiting_for=%s ", a);
				failed = 1;
			} else
				wall = now() - t_start;
			break;
		case ST_PROBES:
			step_probes(atoi(a) > OT_MAX_PROBES ? OT_MAX_PROBES :
			    atoi(a), period, deadline);
			break;
		case ST_MEM:
			step_mem(a, deadline);
			break;
		}
		if (failed)
			break;
	}
	if (wait_end || no_pty) {
		/* The program ends by itself: read until it has, and until
		 * every descendant (a daemonised server too) has. */
		pid_t one[1];

		while (now() < deadline && (child_status == -1 ||
		    descendants(one, 1) > 0))
			pump(now() + 0.02, 0);
		if (no_pty && wall < 0)
			wall = now() - t_start;
	}
	end_all();
	if (getrusage(RUSAGE_CHILDREN, &ru) < 0)
		die("getrusage");
	tree_cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	    ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	if (server > 0)
		tree_cpu += cpu_of(server) - server_cpu0;
	printf("bytes=%llu tree_cpu_s=%.3f", drawn_bytes, tree_cpu);
	if (wall >= 0)
		printf(" wall_s=%.3f", wall);
	if (times_path != NULL) {
		work_cpu = times_file(times_path);
		if (work_cpu >= 0)
			printf(" work_cpu_s=%.3f mux_cpu_s=%.3f", work_cpu,
			    tree_cpu - work_cpu);
	}
	if (child_status != -1 && WIFEXITED(child_status))
		printf(" rc=%d", WEXITSTATUS(child_status));
	printf("\n");
	return failed ? 1 : 0;
}
