/*
 * exec-rtt.c - one exec's round trip, without the cost of starting a
 * program: N times execve() of a file that exists but cannot run (the
 * kernel refuses it with EACCES after the check), each call timed.
 * Unsupervised that is the kernel's path lookup; in a session with exec
 * checks it is the notification, the server's reading and judging, and
 * the answer.  Prints min, median, p90 and p99 in microseconds.
 * A measuring tool of bench/exec-checks.sh, not part of ptyvisor.
 *
 * Usage: exec-rtt [N] [FILE]   (defaults: 2000, /etc/passwd)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Microseconds on the monotonic clock. */
static double
now_us(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* qsort: doubles ascending. */
static int
cmp(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
	int		 n = argc > 1 ? atoi(argv[1]) : 2000, i, err = 0;
	char		*file = argc > 2 ? argv[2] : "/etc/passwd";
	char		*av[] = { file, "probe", NULL }, *ev[] = { NULL };
	double		*v, t;

	if (n <= 0 || (v = calloc((size_t)n, sizeof *v)) == NULL)
		return 2;
	for (i = 0; i < n; i++) {
		t = now_us();
		execve(file, av, ev);
		err = errno;
		v[i] = now_us() - t;
	}
	qsort(v, (size_t)n, sizeof *v, cmp);
	printf("%.1f %.1f %.1f %.1f %s\n", v[0], v[n / 2], v[n * 9 / 10],
	    v[n * 99 / 100], strerror(err));
	free(v);
	return 0;
}
