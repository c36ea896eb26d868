/*
 * util.h - allocation that never fails, string vectors, growable byte
 * buffers, fatal errors, wall and monotonic clocks and the one format of
 * times and durations, a write that writes all, whether the process is
 * in its terminal's foreground, and whether a program name can be run.
 * Used by every folder but pty/.
 */
#ifndef PTYVISOR_UTIL_H
#define PTYVISOR_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Handler run by fatal() before it prints and exits (the TUI restores the
 * terminal there).  NULL for none.
 */
void	util_set_fatal_hook(void (*hook)(void));

/* Print "ptyvisor: fatal: ..." on stderr and exit 125; never returns. */
void	fatal(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));

/* Allocators that never return NULL (fatal() on exhaustion). */
void	*xmalloc(size_t n);
void	*xcalloc(size_t n, size_t size);
void	*xrealloc(void *p, size_t n);
void	*xreallocarray(void *p, size_t n, size_t size);
char	*xstrdup(const char *s);
char	*xstrndup(const char *s, size_t n);
char	*xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char	*xvasprintf(const char *fmt, va_list ap);

/* Duplicate a NULL-terminated string vector (deep copy); free with strv_free. */
char	**strv_dup(char *const *v);
void	 strv_free(char **v);
size_t	 strv_len(char *const *v);
/* Whether two vectors hold the same strings (NULL equals only NULL). */
bool	 strv_equal(char *const *a, char *const *b);

/* A growable byte buffer.  Zero-initialise; buf_free releases the data. */
struct buf {
	char	*data;
	size_t	 len;
	size_t	 cap;
};

void	buf_reserve(struct buf *b, size_t extra);
void	buf_add(struct buf *b, const void *p, size_t n);
void	buf_addc(struct buf *b, char c);
void	buf_adds(struct buf *b, const char *s);
void	buf_printf(struct buf *b, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Append s (len bytes of UTF-8) as a quoted JSON string. */
void	buf_add_json_string(struct buf *b, const char *s, size_t len);
/* Drop the first n bytes. */
void	buf_consume(struct buf *b, size_t n);
/* NUL-terminate without counting the NUL in len; returns data. */
char	*buf_cstr(struct buf *b);
void	buf_free(struct buf *b);
/*
 * An empty buffer holding more than max bytes gives them back (a burst's
 * high-water mark is not kept for the rest of a long, quiet life).
 */
void	buf_trim(struct buf *b, size_t max);

/* Milliseconds and microseconds on CLOCK_MONOTONIC. */
uint64_t	util_now_ms(void);
uint64_t	util_now_us(void);
/* Microseconds since the Unix epoch (CLOCK_REALTIME). */
int64_t		util_wall_us(void);
/* Format a wall time (us since the epoch) as RFC 3339 UTC with ms. */
void		util_format_time(int64_t wall_us, char *out, size_t len);

/*
 * A duration for a person, short: "0.4s" under ten seconds, then "12s",
 * "3m04s", "2h05m"; "-" when negative.  The one format of history, show,
 * the history pane and pane titles.
 */
void		util_format_duration(int64_t us, char *out, size_t len);

/*
 * Write all of data to fd, waiting (poll) when it is non-blocking and
 * full.  0, or -1 with errno.
 */
int		util_write_all(int fd, const void *data, size_t len);

/*
 * Whether name (a program's base name) is a shell whose -c runs a command
 * string: sh, bash, dash, zsh, ksh, mksh.
 */
bool		util_is_shell(const char *name);

/* The value of a hex digit, or -1. */
int		util_hex_value(char c);

/*
 * Whether this process is in the foreground process group of a controlling
 * terminal (where the terminal's ^C and ^Z reach it).  No allocation: safe
 * between fork and exec.
 */
bool		util_tty_foreground(void);

/*
 * Whether name is a program this process may run, found as posix_spawnp
 * finds it (a path, else searched in $PATH, "/bin:/usr/bin" when unset);
 * false with errno (ENOENT, EISDIR, EACCES...) when not.
 */
bool		util_find_program(const char *name);
/*
 * Read a small file (a /proc entry) into buf, at most size - 1 bytes, and
 * end it with a NUL.  false when it cannot be read or is empty.
 */
bool		util_read_text(const char *path, char *buf, size_t size);
/*
 * fsync fd, then close it, whatever the fsync said: 0, or the first error
 * (a close interrupted by a signal is not one).  fd < 0 does nothing.
 */
int		util_sync_close(int fd);
/* The same search: the path found (allocated), NULL with errno when none. */
char		*util_program_path(const char *name);

/*
 * Whether a directory of $PATH (as util_find_program searches it) holds a
 * regular file called name, runnable or not: where a shell would find the
 * name.  A directory this process may not search holds nothing, as for
 * bash and dash.  No allocation: safe between fork and exec.
 */
bool		util_path_has_file(const char *name);

#endif
