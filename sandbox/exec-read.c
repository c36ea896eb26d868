/*
 * exec-read.c - what a program waiting in exec asks, read by ptyvisor
 * (exec checks; the filter and the notifications are execcheck.c's): the
 * path and the words from the caller's memory (process_vm_readv, a page
 * at a time, capped), its directory, parent and threads from /proc, the
 * file through /proc/PID/root or the descriptor and what stat(2) says of
 * it, and whether another thread could change what was read.  Then, for
 * such a shared caller, what its process runs once the exec is done
 * (AT_EXECFN and its words, read through a pidfd), compared with what was
 * judged.  Reads only; answers nothing.
 *
 * Speed: the program waits while it is read, so what a verdict needs is
 * read first and in few calls: the path and the first pointers of argv in
 * one process_vm_readv, the words in another; the file through the tree's
 * root, opened once (openat2 RESOLVE_IN_ROOT), not through /proc/PID of a
 * pid new at every exec (the kernel builds that entry on first use: about
 * 40 us, more than the rest together); a path that is not there answered
 * before its words are read (a shell trying each directory of PATH).
 * Whether another thread could change the words is read from /proc only
 * once the tree has a thread group that made threads; before, none can.
 * The parent and (for an absolute path) the directory, only logged, are
 * read after the answer (sandbox_exec_complete).
 */
#include "sandbox/sandbox.h"
#include "sandbox/sandbox-int.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/kcmp.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "base/util.h"

#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif
#ifndef RESOLVE_IN_ROOT
#define RESOLVE_IN_ROOT 0x10
#endif

/* openat2's argument (linux/openat2.h, which older headers lack). */
struct exec_open_how {
	uint64_t	flags;
	uint64_t	mode;
	uint64_t	resolve;
};

/* How much of an exec's arguments is read: words, and bytes in all. */
#define EXEC_MAX_ARGS	256
#define EXEC_MAX_BYTES	(64 * 1024)
/*
 * Words read in one call, and the first bytes of each: most words are
 * shorter (a longer one is read on, a page at a time).  64 x 256 bytes is
 * one 16 KiB buffer.
 */
#define EXEC_BATCH	64
#define EXEC_CHUNK	256

/*
 * Read len bytes of pid's memory at addr, stopping at the end of a page
 * (the next one may not be mapped): how many, or -1.
 */
static ssize_t
exec_peek(pid_t pid, uint64_t addr, void *out, size_t len)
{
	struct iovec	local, remote;
	size_t		room = 4096 - (size_t)(addr % 4096);

	local.iov_base = out;
	local.iov_len = len < room ? len : room;
	remote.iov_base = (void *)(uintptr_t)addr;
	remote.iov_len = local.iov_len;
	return process_vm_readv(pid, &local, 1, &remote, 1, 0);
}

/* Read a NUL-terminated string of at most max bytes at addr; NULL else. */
static char *
exec_read_str(pid_t pid, uint64_t addr, size_t max, bool *cut)
{
	struct buf	 b = { 0 };
	char		 chunk[512], *nul;
	ssize_t		 n;

	*cut = false;
	while (b.len < max) {
		n = exec_peek(pid, addr, chunk, sizeof chunk);
		if (n <= 0) {
			buf_free(&b);
			return NULL;
		}
		if ((nul = memchr(chunk, '\0', (size_t)n)) != NULL) {
			buf_add(&b, chunk, (size_t)(nul - chunk));
			return buf_cstr(&b);
		}
		buf_add(&b, chunk, (size_t)n);
		addr += (uint64_t)n;
	}
	*cut = true;
	b.len = max;
	return buf_cstr(&b);
}

/* Bytes from addr to the end of its page, at most max. */
static size_t
exec_room(uint64_t addr, size_t max)
{
	size_t	room = 4096 - (size_t)(addr % 4096);

	return room < max ? room : max;
}

/*
 * Read n pieces of pid's memory in one call, each within its page (the
 * kernel moves whole pieces only, in order, stopping at the first that
 * fails): how many bytes of each arrived into got[].  false when none.
 */
static bool
exec_peekv(pid_t pid, size_t n, const uint64_t *addr, const size_t *len,
    char *const *out, size_t *got)
{
	struct iovec	local[EXEC_BATCH + 1], remote[EXEC_BATCH + 1];
	ssize_t		r;
	size_t		i, k;

	if (n == 0 || n > EXEC_BATCH + 1)
		return false;
	for (i = 0; i < n; i++) {
		local[i].iov_base = out[i];
		local[i].iov_len = len[i];
		remote[i].iov_base = (void *)(uintptr_t)addr[i];
		remote[i].iov_len = len[i];
	}
	if ((r = process_vm_readv(pid, local, n, remote, n, 0)) <= 0)
		return false;
	for (i = 0; i < n; i++) {
		k = (size_t)r < len[i] ? (size_t)r : len[i];
		got[i] = k;
		r -= (ssize_t)k;
	}
	return true;
}

/*
 * The string at addr whose first got bytes are in chunk: ended there, or
 * read on; at most max bytes (*cut then).  NULL when unreadable.
 */
static char *
exec_finish_str(pid_t pid, uint64_t addr, const char *chunk, size_t got,
    size_t max, bool *cut)
{
	const char	*nul;
	char		*rest, *s;
	size_t		 n = got < max ? got : max;

	*cut = false;
	if ((nul = memchr(chunk, '\0', n)) != NULL)
		return xstrndup(chunk, (size_t)(nul - chunk));
	if (n == max) {
		*cut = true;
		return xstrndup(chunk, n);
	}
	if (got == 0)
		return exec_read_str(pid, addr, max, cut);
	if ((rest = exec_read_str(pid, addr + n, max - n, cut)) == NULL)
		return NULL;
	s = xasprintf("%.*s%s", (int)n, chunk, rest);
	free(rest);
	return s;
}

/* readlink(2) of a /proc path, allocated; NULL when it cannot be read. */
static char *
exec_readlink(const char *fmt, pid_t pid, int fd)
{
	char	path[64], out[PATH_MAX];
	ssize_t	n;

	snprintf(path, sizeof path, fmt, (int)pid, fd);
	if ((n = readlink(path, out, sizeof out - 1)) < 0)
		return NULL;
	out[n] = '\0';
	return xstrdup(out);
}

char *
sandbox_exec_join(const char *dir, const char *path)
{
	if (path[0] == '/' || dir == NULL)
		return xstrdup(path);
	/* "./x" is x; ".." is left alone (a symlink may lead elsewhere). */
	while (path[0] == '.' && path[1] == '/') {
		path += 2;
		while (*path == '/')
			path++;
	}
	if (strcmp(dir, "/") == 0)
		return xasprintf("/%s", path);
	return xasprintf("%s/%s", dir, path);
}

bool
sandbox_exec_stat_parse(const char *line, const int *want,
    unsigned long *out, int n)
{
	const char	*p = strrchr(line, ')');
	int		 field, k = 0;

	/* The name may hold spaces and parentheses: count after the last. */
	if (p == NULL)
		return false;
	/* After ") " comes field 3. */
	for (field = 2, p++; *p != '\0' && k < n; p++) {
		if (*p != ' ')
			continue;
		field++;
		if (field == want[k])
			out[k++] = strtoul(p + 1, NULL, 10);
	}
	return k == n;
}

/*
 * Fields of pid's /proc/PID/stat (see sandbox_exec_stat_parse); false
 * when unread.  Cheaper for the kernel to write than /proc/PID/status.
 */
static bool
exec_stat_fields(pid_t pid, const int *want, unsigned long *out, int n)
{
	char	 path[64], buf[1024];

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	return util_read_text(path, buf, sizeof buf) &&
	    sandbox_exec_stat_parse(buf, want, out, n);
}

/* Field n (1-based) of a /proc/PID/stat line, as a number; 0 if none. */
static unsigned long
exec_stat_field(pid_t pid, int n)
{
	unsigned long	v = 0;

	return exec_stat_fields(pid, &n, &v, 1) ? v : 0;
}

/* The stat fields read of a caller: its parent, its threads. */
#define EXEC_STAT_PPID		4
#define EXEC_STAT_THREADS	20

pid_t
sandbox_exec_parent_of(pid_t pid)
{
	return (pid_t)exec_stat_field(pid, EXEC_STAT_PPID);
}

/* A process's parent and thread count; false when it cannot be read. */
static bool
exec_status_of(pid_t pid, pid_t *ppid, int *threads)
{
	static const int	 want[] = { EXEC_STAT_PPID, EXEC_STAT_THREADS };
	unsigned long		 v[2];

	*ppid = 0;
	*threads = 1;
	if (!exec_stat_fields(pid, want, v, 2))
		return false;
	*ppid = (pid_t)v[0];
	*threads = (int)v[1];
	return true;
}

/*
 * The caller's parent and how many threads it has; its thread group (its
 * own pid unless it has other threads, then /proc/PID/status says).
 */
static int
exec_status(struct sandbox_exec_call *c)
{
	int	 threads;

	exec_status_of(c->pid, &c->ppid, &threads);
	c->tgid = c->pid;
	if (threads != 1 && (c->tgid = sandbox_exec_tgid(c->pid)) <= 0)
		c->tgid = c->pid;
	return threads;
}

/* The most vfork parents, one above the other, followed. */
#define EXEC_VFORK_DEPTH	8

/*
 * Whether a thread or process other than the caller could write its
 * memory while the exec waits.  Other threads of its group could.  A
 * process sharing its memory is, under the sandbox's filter (no CLONE_VM
 * without CLONE_THREAD or CLONE_VFORK), a vfork parent, which waits in
 * vfork until the child's exec: it cannot, unless it has other threads;
 * and so on up the vfork parents.  (The command's first exec shares its
 * memory with ptyvisor's own init, waiting, and relay, which writes none
 * of it: ns.c.)  Unknown counts as shared.
 */
static bool
exec_is_shared(pid_t pid, pid_t ppid, int threads)
{
	pid_t	up;
	long	r;
	int	depth;

	for (depth = 0; depth < EXEC_VFORK_DEPTH; depth++) {
		if (threads != 1)
			return true;
		if (ppid <= 0)
			return false;
		r = syscall(SYS_kcmp, pid, ppid, KCMP_VM, 0, 0);
		if (r < 0)
			return true;
		if (r != 0)
			return false;	/* its own memory */
		if (!exec_status_of(ppid, &up, &threads))
			return true;
		pid = ppid;
		ppid = up;
	}
	return true;
}

/*
 * Whether c's caller shares its memory with another thread or process,
 * and what the check after the exec needs (see struct sandbox_exec_call).
 */
static void
exec_shared(struct sandbox_exec_call *c, int threads, const char *name,
    int dirfd, bool empty)
{
	c->shared = exec_is_shared(c->pid, c->ppid, threads);
	if (!c->shared)
		return;
	/* Its pid may be reused once it ends: only its pidfd is trusted. */
	c->pidfd = (int)syscall(SYS_pidfd_open, c->tgid, 0);
	c->stack_before = exec_stat_field(c->tgid, 28);
	if (c->at && empty)
		c->execfn = xasprintf("/dev/fd/%d", dirfd);
	else if (c->at && name[0] != '/' && dirfd != AT_FDCWD)
		c->execfn = xasprintf("/dev/fd/%d/%s", dirfd, name);
	else
		c->execfn = xstrdup(name);
}

/* AT_EXECFN of pid's auxiliary vector, read from its memory. */
static char *
exec_execfn(pid_t pid)
{
	char		 path[64];
	unsigned long	 aux[2 * 64];
	char		*s = NULL;
	ssize_t		 n;
	size_t		 i;
	bool		 cut;
	int		 fd;

	snprintf(path, sizeof path, "/proc/%d/auxv", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return NULL;
	n = read(fd, aux, sizeof aux);
	close(fd);
	for (i = 0; n > 0 && i + 1 < (size_t)n / sizeof aux[0]; i += 2) {
		if (aux[i] != AT_EXECFN)
			continue;
		s = exec_read_str(pid, aux[i + 1], PATH_MAX, &cut);
		break;
	}
	return s;
}

/* The words pid runs with, from /proc/PID/cmdline; NULL if unreadable. */
static char **
exec_cmdline(pid_t pid)
{
	char	 path[64], *buf, **v;
	size_t	 len, i = 0, n = 0;
	FILE	*f;

	snprintf(path, sizeof path, "/proc/%d/cmdline", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return NULL;
	buf = xmalloc(EXEC_MAX_BYTES + 1);
	len = fread(buf, 1, EXEC_MAX_BYTES, f);
	fclose(f);
	buf[len] = '\0';
	v = xcalloc(EXEC_MAX_ARGS + 3, sizeof *v);
	while (i < len && n < EXEC_MAX_ARGS + 2) {
		v[n++] = xstrdup(buf + i);
		i += strlen(buf + i) + 1;
	}
	free(buf);
	return v;
}

/* got[from..] against want[wfrom..]: equal, the last one as a prefix when cut. */
static bool
exec_words_tail(char *const *got, size_t ngot, size_t from,
    char *const *want, size_t nwant, size_t wfrom, bool cut)
{
	size_t	k, n = nwant - wfrom;

	if (cut ? ngot - from < n : ngot - from != n)
		return false;
	for (k = 0; k < n; k++) {
		if (cut && wfrom + k == nwant - 1) {
			if (strncmp(got[from + k], want[wfrom + k],
			    strlen(want[wfrom + k])) != 0)
				return false;
		} else if (strcmp(got[from + k], want[wfrom + k]) != 0)
			return false;
	}
	return true;
}

/*
 * Whether the words a process runs with are those judged: all of them (a
 * program), or, for a script the kernel started its interpreter for (the
 * interpreter, maybe its one option, the script's name as exec'd, then
 * the words after the first), the script's name and those words.
 */
static bool
exec_words_match(char *const *got, char *const *want, bool cut,
    const char *execfn)
{
	size_t	ngot = strv_len(got), nwant = strv_len(want), shift;

	if (nwant == 0)
		return true;
	if (exec_words_tail(got, ngot, 0, want, nwant, 0, cut))
		return true;
	for (shift = 1; shift <= 2; shift++)
		if (ngot > shift && execfn != NULL &&
		    strcmp(got[shift], execfn) == 0 &&
		    exec_words_tail(got, ngot, shift + 1, want, nwant, 1, cut))
			return true;
	return false;
}

/* Whether c's process has ended (its pidfd readable), or cannot be told. */
static bool
exec_ended(const struct sandbox_exec_call *c)
{
	struct pollfd	pfd;

	if (c->pidfd < 0)
		return true;
	pfd.fd = c->pidfd;
	pfd.events = POLLIN;
	return poll(&pfd, 1, 0) != 0;
}

void
sandbox_exec_kill(const struct sandbox_exec_call *c)
{
	if (c->pidfd >= 0)
		syscall(SYS_pidfd_send_signal, c->pidfd, SIGKILL, NULL, 0);
}

enum sandbox_exec_verdict
sandbox_exec_verify(const struct sandbox_exec_call *c)
{
	char			 path[64];
	char			*fn, **got;
	unsigned long		 stack;
	enum sandbox_exec_verdict v;

	(void)path;
	if (exec_ended(c))
		return SANDBOX_EXEC_GONE;
	stack = exec_stat_field(c->tgid, 28);
	if (stack == 0 || stack == c->stack_before)
		return SANDBOX_EXEC_NOT_YET;
	fn = exec_execfn(c->tgid);
	got = exec_cmdline(c->tgid);
	/*
	 * The new image is in place but the kernel has yet to write its
	 * auxiliary vector and words (the exec is under way).
	 */
	if (fn == NULL && (got == NULL || got[0] == NULL)) {
		strv_free(got);
		return exec_ended(c) ? SANDBOX_EXEC_GONE :
		    SANDBOX_EXEC_NOT_YET;
	}
	v = got != NULL && exec_words_match(got, c->argv, c->argv_cut,
	    c->execfn) ? SANDBOX_EXEC_SAME : SANDBOX_EXEC_DIFFERS;
	strv_free(got);
	if (fn == NULL || c->execfn == NULL || strcmp(fn, c->execfn) != 0)
		v = SANDBOX_EXEC_DIFFERS;
	/*
	 * Read from a process that ended or exec'd again meanwhile: that is
	 * no verdict.  (Its next exec is judged anyway.)
	 */
	if (v == SANDBOX_EXEC_DIFFERS && (exec_ended(c) ||
	    exec_stat_field(c->tgid, 28) != stack))
		v = exec_ended(c) ? SANDBOX_EXEC_GONE : SANDBOX_EXEC_NOT_YET;
	free(fn);
	return v;
}

/* What stat(2) says of the file c execs, through its open path. */
static void
exec_stat(struct sandbox_exec_call *c)
{
	struct stat	st;

	if (c->open_path == NULL || stat(c->open_path, &st) != 0) {
		c->st_errno = c->open_path != NULL ? errno : 0;
		return;
	}
	c->has_st = true;
	c->dev = st.st_dev;
	c->ino = st.st_ino;
	c->size = st.st_size;
}

/*
 * Find c->path (absolute) as the tree sees it: from its root, ".." and
 * absolute links kept inside it (RESOLVE_IN_ROOT), the file kept open
 * (O_PATH) so a digest reads that very file.  Where openat2 cannot say,
 * through /proc/PID/root as before.
 */
static void
exec_find(struct sandbox_exec_tree *t, int fd, struct sandbox_exec_call *c)
{
	struct exec_open_how	how;
	struct stat		st;
	long			ffd = -1;

	sandbox_exec_tree_root(t, fd, c->pid, c->id);
	if (t->root >= 0) {
		memset(&how, 0, sizeof how);
		how.flags = O_PATH | O_CLOEXEC;
		how.resolve = RESOLVE_IN_ROOT;
		ffd = syscall(SYS_openat2, t->root, c->path, &how, sizeof how);
		if (ffd < 0 && (errno == ENOENT || errno == ENOTDIR)) {
			c->st_errno = errno;
			return;
		}
	}
	if (ffd >= 0 && fstat((int)ffd, &st) == 0) {
		c->file_fd = (int)ffd;
		c->open_path = xasprintf("/proc/self/fd/%d", c->file_fd);
		c->has_st = true;
		c->dev = st.st_dev;
		c->ino = st.st_ino;
		c->size = st.st_size;
		return;
	}
	if (ffd >= 0)
		close((int)ffd);
	c->open_path = xasprintf("/proc/%d/root%s", (int)c->pid, c->path);
	exec_stat(c);
}

/*
 * Read the words at argv_at, whose first have pointers are in ptrs (read
 * with the path), in batches of one call each.  -1 with c->error.
 */
static int
exec_read_words(struct sandbox_exec_call *c, uint64_t argv_at,
    uint64_t *ptrs, size_t have)
{
	char		*buf, *out[EXEC_BATCH];
	uint64_t	 addr[EXEC_BATCH];
	size_t		 len[EXEC_BATCH], got[EXEC_BATCH];
	size_t		 total = 0, n = 0, k, m, i;
	ssize_t		 r;
	bool		 cut, done = false, ok;

	c->argv = xcalloc(EXEC_MAX_ARGS + 1, sizeof *c->argv);
	buf = xmalloc(EXEC_BATCH * EXEC_CHUNK);
	for (i = 0; i < EXEC_BATCH; i++)
		out[i] = buf + i * EXEC_CHUNK;
	while (!done && argv_at != 0 && n < EXEC_MAX_ARGS) {
		if (have == 0) {
			r = exec_peek(c->pid, argv_at + n * sizeof ptrs[0],
			    ptrs, EXEC_BATCH * sizeof ptrs[0]);
			if (r < (ssize_t)sizeof ptrs[0])
				break;
			have = (size_t)r / sizeof ptrs[0];
		}
		/* This batch's words: up to the NULL, within the bound. */
		for (m = 0; m < have && ptrs[m] != 0 &&
		    n + m < EXEC_MAX_ARGS; m++) {
			addr[m] = ptrs[m];
			len[m] = exec_room(ptrs[m], EXEC_CHUNK);
		}
		done = m < have && ptrs[m] == 0;
		ok = m > 0 && exec_peekv(c->pid, m, addr, len, out, got);
		for (k = 0; k < m; k++) {
			if (total >= EXEC_MAX_BYTES) {
				c->argv_cut = true;
				done = true;
				break;
			}
			c->argv[n] = exec_finish_str(c->pid, addr[k], out[k],
			    ok ? got[k] : 0, EXEC_MAX_BYTES - total, &cut);
			if (c->argv[n] == NULL)
				break;
			total += strlen(c->argv[n]) + 1;
			n++;
			if (cut) {
				c->argv_cut = true;
				done = true;
				break;
			}
		}
		if (k < m && c->argv[n] == NULL && !done)
			break;
		have = 0;
	}
	free(buf);
	if (argv_at != 0 && !done && n < EXEC_MAX_ARGS) {
		c->error = xasprintf("cannot read the arguments process %d "
		    "execs", (int)c->pid);
		return -1;
	}
	if (n == EXEC_MAX_ARGS)
		c->argv_cut = true;
	return 0;
}

/* The tree's system call numbers, looked up once (not at every exec). */
static void
exec_tree_numbers(struct sandbox_exec_tree *t)
{
	if (t->nr_execve != 0)
		return;
	t->nr_execve = seccomp_syscall_resolve_name("execve");
	t->nr_execveat = seccomp_syscall_resolve_name("execveat");
}

void
sandbox_exec_complete(struct sandbox_exec_call *c)
{
	if (c->complete)
		return;
	if (c->ppid == 0)
		c->ppid = sandbox_exec_parent_of(c->pid);
	if (c->cwd == NULL)
		c->cwd = exec_readlink("/proc/%d/cwd", c->pid, 0);
	c->complete = true;
}

int
sandbox_exec_read(struct sandbox_exec_tree *t, int fd,
    const struct seccomp_notif *req, struct sandbox_exec_call *c)
{
	char		*name, *dir = NULL, *chunk[2], pbuf[EXEC_CHUNK];
	uint64_t	 path_at, argv_at, ptrs[EXEC_BATCH], addr[2];
	size_t		 len[2], got[2] = { 0, 0 }, have = 0;
	bool		 at, cut, empty;
	int		 dirfd = AT_FDCWD, threads, flags = 0;

	exec_tree_numbers(t);
	c->pid = (pid_t)req->pid;
	at = req->data.nr == t->nr_execveat;
	if (!at && req->data.nr != t->nr_execve) {
		c->error = xasprintf("system call %d is no exec", req->data.nr);
		return -1;
	}
	c->at = at;
	path_at = at ? req->data.args[1] : req->data.args[0];
	argv_at = at ? req->data.args[2] : req->data.args[1];
	if (at) {
		dirfd = (int)req->data.args[0];
		flags = (int)req->data.args[4];
	}
	/* The path and the first pointers of argv: one call. */
	addr[0] = path_at;
	len[0] = exec_room(path_at, sizeof pbuf);
	chunk[0] = pbuf;
	addr[1] = argv_at;
	len[1] = exec_room(argv_at, sizeof ptrs);
	chunk[1] = (char *)ptrs;
	if (!exec_peekv(c->pid, argv_at != 0 ? 2 : 1, addr, len, chunk, got))
		got[0] = 0;
	have = got[1] / sizeof ptrs[0];
	name = exec_finish_str(c->pid, path_at, pbuf, got[0], PATH_MAX, &cut);
	if (name == NULL || cut) {
		c->error = xasprintf("cannot read the memory of process %d "
		    "(the path it execs): %s", (int)c->pid, name == NULL ?
		    strerror(errno) : "too long");
		free(name);
		return -1;
	}
	empty = at && name[0] == '\0' && (flags & AT_EMPTY_PATH);
	/* The file itself: an fd (AT_EMPTY_PATH), or a path from a dir. */
	if (empty) {
		c->path = exec_readlink("/proc/%d/fd/%d", c->pid, dirfd);
		c->open_path = xasprintf("/proc/%d/fd/%d", (int)c->pid, dirfd);
	} else if (name[0] == '/')
		c->path = xstrdup(name);
	else {
		if (at && dirfd != AT_FDCWD)
			dir = exec_readlink("/proc/%d/fd/%d", c->pid, dirfd);
		else
			dir = c->cwd = exec_readlink("/proc/%d/cwd", c->pid, 0);
		c->path = sandbox_exec_join(dir, name);
		if (dir == c->cwd)
			dir = NULL;
	}
	free(dir);
	if (c->path == NULL) {
		c->error = xasprintf("cannot tell which file process %d "
		    "execs", (int)c->pid);
		free(name);
		return -1;
	}
	if (c->open_path != NULL)
		exec_stat(c);
	else if (c->path[0] == '/')
		exec_find(t, fd, c);
	/* Not there: failed as the kernel will, its words not needed. */
	if (!c->has_st && (c->st_errno == ENOENT || c->st_errno == ENOTDIR)) {
		free(name);
		return 0;
	}
	if (exec_read_words(c, argv_at, ptrs, have) != 0) {
		free(name);
		return -1;
	}
	if (sandbox_exec_tree_quiet(t)) {
		/* No thread anywhere: nothing can change what was read. */
		c->tgid = c->pid;
	} else {
		threads = exec_status(c);
		exec_shared(c, threads, name, dirfd, empty);
		c->complete = c->cwd != NULL;
	}
	free(name);
	return 0;
}

void
sandbox_exec_call_free(struct sandbox_exec_call *c)
{
	free(c->path);
	free(c->cwd);
	free(c->error);
	free(c->open_path);
	free(c->execfn);
	if (c->pidfd >= 0)
		close(c->pidfd);
	if (c->file_fd >= 0)
		close(c->file_fd);
	strv_free(c->argv);
	sandbox_exec_call_init(c);
}

void
sandbox_exec_call_init(struct sandbox_exec_call *c)
{
	memset(c, 0, sizeof *c);
	c->pidfd = -1;
	c->file_fd = -1;
}
