/*
 * tap.h - a tiny Test Anything Protocol producer for the unit tests.
 *
 * Each check prints "ok N - name" or "not ok N - name" with the failing
 * expression and location as a diagnostic; tap_done() prints the plan and
 * returns the exit status (non-zero when anything failed).  Header-only so
 * every test program is a single .c file.
 */
#ifndef PTYVISOR_TAP_H
#define PTYVISOR_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_count;
static int tap_failed;

/* Report one result; returns cond so callers can bail out early. */
__attribute__((format(printf, 4, 5), unused)) static int
tap_ok_at(int cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	printf("%s %d - ", cond ? "ok" : "not ok", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	fflush(stdout);
	return cond;
}

#define ok(cond, ...) tap_ok_at(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

#define is_int(got, want, ...) do {					\
	long long tap_g_ = (long long)(got), tap_w_ = (long long)(want); \
	if (!ok(tap_g_ == tap_w_, __VA_ARGS__))				\
		printf("#   got %lld, want %lld\n", tap_g_, tap_w_);	\
} while (0)

#define is_str(got, want, ...) do {					\
	const char *tap_g_ = (got), *tap_w_ = (want);			\
	int tap_c_ = tap_g_ != NULL && tap_w_ != NULL ?			\
	    strcmp(tap_g_, tap_w_) == 0 : tap_g_ == tap_w_;		\
	if (!ok(tap_c_, __VA_ARGS__))					\
		printf("#   got \"%s\", want \"%s\"\n",			\
		    tap_g_ ? tap_g_ : "(null)", tap_w_ ? tap_w_ : "(null)"); \
} while (0)

/* Diagnostic line; does not count as a test. */
#define diag(...) do { printf("# "); printf(__VA_ARGS__); printf("\n"); } while (0)

/* Skip N tests with a reason. */
__attribute__((unused)) static void
tap_skip(int n, const char *why)
{
	while (n-- > 0)
		printf("ok %d # SKIP %s\n", ++tap_count, why);
}

/* Print the plan; the exit status of the test program. */
__attribute__((unused)) static int
tap_done(void)
{
	printf("1..%d\n", tap_count);
	if (tap_count == 0) {
		printf("# no test ran: that is a failure\n");
		return 1;
	}
	return tap_failed ? 1 : 0;
}

#endif
