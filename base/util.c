/*
 * util.c - allocation, string vectors, byte buffers, fatal errors, clocks
 * and time formats, util_write_all, util_tty_foreground, and the $PATH
 * searches util_find_program and util_path_has_file (see util.h).
 *
 * Invariants: no allocator returns NULL (fatal() instead); fatal() runs
 * the hook (util_set_fatal_hook, the one global here) at most once,
 * before it prints; util_tty_foreground and util_path_has_file allocate
 * nothing, so they may run between fork and exec.
 */
#include "base/util.h"

#include <errno.h>
#include <poll.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void (*util_fatal_hook)(void);

void
util_set_fatal_hook(void (*hook)(void))
{
	util_fatal_hook = hook;
}

void
fatal(const char *fmt, ...)
{
	va_list	ap;

	if (util_fatal_hook != NULL) {
		void (*hook)(void) = util_fatal_hook;

		util_fatal_hook = NULL;	/* a failing hook must not recurse */
		hook();
	}
	fprintf(stderr, "ptyvisor: fatal: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(125);
}

void *
xmalloc(size_t n)
{
	void	*p = malloc(n ? n : 1);

	if (p == NULL)
		fatal("out of memory (%zu bytes)", n);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void	*p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		fatal("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	void	*q = realloc(p, n ? n : 1);

	if (q == NULL)
		fatal("out of memory (%zu bytes)", n);
	return q;
}

void *
xreallocarray(void *p, size_t n, size_t size)
{
	void	*q;

	if (size != 0 && n > SIZE_MAX / size)
		fatal("allocation overflow (%zu x %zu)", n, size);
	q = realloc(p, n != 0 && size != 0 ? n * size : 1);
	if (q == NULL)
		fatal("out of memory (%zu x %zu bytes)", n, size);
	return q;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char	*p;
	size_t	 len = strnlen(s, n);

	p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *
xvasprintf(const char *fmt, va_list ap)
{
	char	*s;

	if (vasprintf(&s, fmt, ap) < 0)
		fatal("out of memory formatting a string");
	return s;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

size_t
strv_len(char *const *v)
{
	size_t	n = 0;

	while (v != NULL && v[n] != NULL)
		n++;
	return n;
}

bool
strv_equal(char *const *a, char *const *b)
{
	size_t	i;

	if (a == NULL || b == NULL)
		return a == b;
	for (i = 0; a[i] != NULL && b[i] != NULL; i++)
		if (strcmp(a[i], b[i]) != 0)
			return false;
	return a[i] == NULL && b[i] == NULL;
}

char **
strv_dup(char *const *v)
{
	size_t	  i, n = strv_len(v);
	char	**d = xreallocarray(NULL, n + 1, sizeof *d);

	for (i = 0; i < n; i++)
		d[i] = xstrdup(v[i]);
	d[n] = NULL;
	return d;
}

void
strv_free(char **v)
{
	size_t	i;

	if (v == NULL)
		return;
	for (i = 0; v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

void
buf_reserve(struct buf *b, size_t extra)
{
	size_t	cap = b->cap ? b->cap : 256;

	if (b->len + extra + 1 <= b->cap)
		return;
	while (cap < b->len + extra + 1)
		cap *= 2;
	b->data = xrealloc(b->data, cap);
	b->cap = cap;
}

void
buf_add(struct buf *b, const void *p, size_t n)
{
	if (n == 0)
		return;		/* p may be NULL then (an empty buffer's) */
	buf_reserve(b, n);
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

void
buf_addc(struct buf *b, char c)
{
	buf_reserve(b, 1);
	b->data[b->len++] = c;
}

void
buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		fatal("bad format string");
	buf_reserve(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/*
 * One pass over runs of plain bytes, written in place into room reserved
 * once for the worst case (every byte as \u00XX): output that is mostly
 * short lines has an escape every few bytes, and a call per run and per
 * escape was the recorder's main cost after the screen's.
 */
void
buf_add_json_string(struct buf *b, const char *s, size_t len)
{
	static const char	hex[] = "0123456789abcdef";
	size_t			i = 0, start;
	unsigned char		c;
	char			*q;

	buf_reserve(b, len * 6 + 2);
	q = b->data + b->len;
	*q++ = '"';
	for (;;) {
		start = i;
		while (i < len && (c = (unsigned char)s[i]) >= 0x20 &&
		    c != '"' && c != '\\' && c != 0x7f)
			i++;
		if (i > start)
			memcpy(q, s + start, i - start);
		q += i - start;
		if (i == len)
			break;
		c = (unsigned char)s[i++];
		*q++ = '\\';
		switch (c) {
		case '"':  *q++ = '"'; break;
		case '\\': *q++ = '\\'; break;
		case '\n': *q++ = 'n'; break;
		case '\r': *q++ = 'r'; break;
		case '\t': *q++ = 't'; break;
		default:
			memcpy(q, "u00", 3);
			q[3] = hex[c >> 4];
			q[4] = hex[c & 0xf];
			q += 5;
			break;
		}
	}
	*q++ = '"';
	b->len = (size_t)(q - b->data);
}

void
buf_consume(struct buf *b, size_t n)
{
	if (n >= b->len) {
		b->len = 0;
		return;
	}
	memmove(b->data, b->data + n, b->len - n);
	b->len -= n;
}

char *
buf_cstr(struct buf *b)
{
	buf_reserve(b, 0);
	b->data[b->len] = '\0';
	return b->data;
}

void
buf_free(struct buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

void
buf_trim(struct buf *b, size_t max)
{
	if (b->len == 0 && b->cap > max)
		buf_free(b);
}

uint64_t
util_now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

uint64_t
util_now_us(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

int64_t
util_wall_us(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void
util_format_time(int64_t wall_us, char *out, size_t len)
{
	struct tm	tm;
	time_t		t = (time_t)(wall_us / 1000000);
	char		base[32];

	gmtime_r(&t, &tm);
	strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out, len, "%s.%03dZ", base, (int)(wall_us / 1000 % 1000));
}

void
util_format_duration(int64_t us, char *out, size_t len)
{
	int64_t	s = us / 1000000;

	if (us < 0)
		snprintf(out, len, "-");
	else if (us < 10000000)
		snprintf(out, len, "%.1fs", (double)us / 1e6);
	else if (s < 60)
		snprintf(out, len, "%llds", (long long)s);
	else if (s < 3600)
		snprintf(out, len, "%lldm%02llds", (long long)(s / 60),
		    (long long)(s % 60));
	else
		snprintf(out, len, "%lldh%02lldm", (long long)(s / 3600),
		    (long long)(s / 60 % 60));
}

int
util_write_all(int fd, const void *data, size_t len)
{
	struct pollfd	 pfd = { .fd = fd, .events = POLLOUT };
	const char	*p = data;
	ssize_t		 n;

	while (len > 0) {
		n = write(fd, p, len);
		if (n > 0) {
			p += n;
			len -= (size_t)n;
		} else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			poll(&pfd, 1, -1);
		else if (n < 0 && errno == EINTR)
			continue;
		else
			return -1;
	}
	return 0;
}

bool
util_tty_foreground(void)
{
	pid_t	fg;
	int	fd;

	if ((fd = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC)) < 0)
		return false;
	fg = tcgetpgrp(fd);
	close(fd);
	return fg > 0 && fg == getpgrp();
}

/* Whether path is a regular file this process may execute; errno if not. */
static bool
util_is_program(const char *path)
{
	struct stat	st;

	if (stat(path, &st) != 0)
		return false;
	if (!S_ISREG(st.st_mode)) {
		errno = S_ISDIR(st.st_mode) ? EISDIR : EACCES;
		return false;
	}
	return access(path, X_OK) == 0;
}

bool
util_read_text(const char *path, char *buf, size_t size)
{
	ssize_t	n;
	int	fd;

	if (size == 0 || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	do
		n = read(fd, buf, size - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return true;
}

/* Whether path names a regular file, runnable or not (what a shell finds). */
static bool
util_is_file(const char *path)
{
	struct stat	st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/*
 * Whether is(DIR/name) holds for a directory of $PATH ("/bin:/usr/bin" when
 * unset or empty; an empty entry is "."), in order; the first such path
 * into found (len bytes; NULL: not wanted).  A directory this process may
 * not search holds nothing.  No allocation (a name too long for PATH_MAX
 * is in no directory): safe between fork and exec.
 */
static bool
util_on_path(const char *name, bool (*is)(const char *), char *found,
    size_t len)
{
	const char	*path = getenv("PATH"), *p, *end;
	char		 full[PATH_MAX];
	int		 n;

	if (path == NULL || *path == '\0')
		path = "/bin:/usr/bin";
	for (p = path;; p = end + 1) {
		end = strchr(p, ':');
		if (end == NULL)
			end = p + strlen(p);
		n = end == p ? snprintf(full, sizeof full, "./%s", name) :
		    snprintf(full, sizeof full, "%.*s/%s", (int)(end - p), p,
		    name);
		if (n > 0 && (size_t)n < sizeof full && is(full)) {
			if (found != NULL)
				snprintf(found, len, "%s", full);
			return true;
		}
		if (*end == '\0')
			return false;
	}
}

bool
util_find_program(const char *name)
{
	if (strchr(name, '/') != NULL)
		return util_is_program(name);
	if (util_on_path(name, util_is_program, NULL, 0))
		return true;
	errno = ENOENT;
	return false;
}

char *
util_program_path(const char *name)
{
	char	full[PATH_MAX];

	if (strchr(name, '/') != NULL)
		return util_is_program(name) ? xstrdup(name) : NULL;
	if (util_on_path(name, util_is_program, full, sizeof full))
		return xstrdup(full);
	errno = ENOENT;
	return NULL;
}

bool
util_path_has_file(const char *name)
{
	return util_on_path(name, util_is_file, NULL, 0);
}

int
util_hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool
util_is_shell(const char *name)
{
	static const char *const shells[] = { "sh", "bash", "dash", "zsh",
	    "ksh", "mksh", NULL };
	size_t	i;

	for (i = 0; shells[i] != NULL; i++)
		if (strcmp(name, shells[i]) == 0)
			return true;
	return false;
}

int
util_sync_close(int fd)
{
	int	error = 0;

	if (fd < 0)
		return 0;
	if (fsync(fd) != 0)
		error = errno;
	if (close(fd) != 0 && error == 0 && errno != EINTR)
		error = errno;
	return error;
}
