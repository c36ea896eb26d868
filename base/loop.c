/*
 * loop.c - poll + signalfd + timerfd event loop (see loop.h).
 *
 * Invariants: watched fds live in one array; removal during dispatch marks
 * the slot dead and the array is compacted only between turns, so indices
 * stay valid while callbacks run.  Timers are kept in a list sorted by
 * deadline and the timerfd is always armed for the earliest one that is
 * not urgent; urgent timers have deadline 0, so they are the head of the
 * list, in the order they were added, and run after each callback (and
 * before polling, for those added outside a callback).  Prepare callbacks
 * run once per turn, after the urgent timers and before the wait; one
 * removed meanwhile is marked and dropped after the run.
 */
#include "base/loop.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"

struct loop_watch {
	int		fd;		/* -1 once removed */
	short		events;
	enum loop_prio	prio;
	enum loop_prio	prio_next;	/* from the next turn */
	loop_fd_fn	fn;
	void		*arg;
};

struct loop_timer {
	uint64_t		deadline_ms;
	uint64_t		seq;		/* order of insertion */
	loop_timer_fn		fn;
	void			*arg;
	struct loop_timer	*next;
};

struct loop_sig {
	int		sig;
	loop_signal_fn	fn;
	void		*arg;
};

struct loop_prep {
	loop_prepare_fn	fn;		/* NULL once removed */
	void		*arg;
};

struct loop {
	struct loop_watch	*watches;
	size_t			 nwatches;
	size_t			 capwatches;
	bool			 dirty;		/* dead slots to compact */

	struct pollfd		*pfds;
	size_t			 cappfds;
	struct pollfd		*hpfds;		/* loop_high_pending's */
	size_t			 caphpfds;
	size_t			 next_first;	/* normal fd served first */

	int			 timerfd;
	uint64_t		 armed_ms;	/* timerfd's deadline, 0: none */
	struct loop_timer	*timers;
	uint64_t		 timer_seq;	/* the next timer's seq */

	int			 sigfd;
	sigset_t		 sigmask;
	sigset_t		 oldmask;
	struct loop_sig		*sigs;
	size_t			 nsigs;

	struct loop_prep	*preps;
	size_t			 npreps;

	bool			 stop;
};

struct loop *
loop_new(char **cause)
{
	struct loop	*l = xcalloc(1, sizeof *l);

	l->timerfd = timerfd_create(CLOCK_MONOTONIC,
	    TFD_NONBLOCK | TFD_CLOEXEC);
	if (l->timerfd < 0) {
		*cause = xasprintf("timerfd: %s", strerror(errno));
		free(l);
		return NULL;
	}
	l->sigfd = -1;
	sigemptyset(&l->sigmask);
	sigprocmask(SIG_SETMASK, NULL, &l->oldmask);
	return l;
}

void
loop_free(struct loop *l)
{
	struct loop_timer	*t, *next;

	if (l == NULL)
		return;
	for (t = l->timers; t != NULL; t = next) {
		next = t->next;
		free(t);
	}
	if (l->sigfd >= 0) {
		close(l->sigfd);
		sigprocmask(SIG_SETMASK, &l->oldmask, NULL);
	}
	close(l->timerfd);
	free(l->sigs);
	free(l->preps);
	free(l->watches);
	free(l->pfds);
	free(l->hpfds);
	free(l);
}

/* The live watch for fd, or NULL. */
static struct loop_watch *
find_watch(struct loop *l, int fd)
{
	size_t	i;

	for (i = 0; i < l->nwatches; i++)
		if (l->watches[i].fd == fd)
			return &l->watches[i];
	return NULL;
}

void
loop_add_fd(struct loop *l, int fd, short events, enum loop_prio prio,
    loop_fd_fn fn, void *arg)
{
	struct loop_watch	*w;

	if (find_watch(l, fd) != NULL)
		fatal("fd %d registered twice in the loop", fd);
	if (l->nwatches == l->capwatches) {
		l->capwatches = l->capwatches ? l->capwatches * 2 : 16;
		l->watches = xreallocarray(l->watches, l->capwatches,
		    sizeof *l->watches);
	}
	w = &l->watches[l->nwatches++];
	w->fd = fd;
	w->events = events;
	w->prio = w->prio_next = prio;
	w->fn = fn;
	w->arg = arg;
}

void
loop_set_events(struct loop *l, int fd, short events)
{
	struct loop_watch	*w = find_watch(l, fd);

	if (w != NULL)
		w->events = events;
}

void
loop_set_prio(struct loop *l, int fd, enum loop_prio prio)
{
	struct loop_watch	*w = find_watch(l, fd);

	/* Not at once: an fd must not be dispatched twice in one turn. */
	if (w != NULL)
		w->prio_next = prio;
}

bool
loop_high_pending(struct loop *l, int except)
{
	size_t	i, n = 0;

	for (i = 0; i < l->nwatches; i++) {
		/* Input only: a client we owe output is no reason to yield. */
		if (l->watches[i].fd < 0 || l->watches[i].fd == except ||
		    !(l->watches[i].events & POLLIN) ||
		    l->watches[i].prio_next != LOOP_PRIO_HIGH)
			continue;
		if (n == l->caphpfds) {
			l->caphpfds = l->caphpfds ? l->caphpfds * 2 : 8;
			l->hpfds = xreallocarray(l->hpfds, l->caphpfds,
			    sizeof *l->hpfds);
		}
		l->hpfds[n].fd = l->watches[i].fd;
		l->hpfds[n].events = POLLIN;
		l->hpfds[n].revents = 0;
		n++;
	}
	return n > 0 && poll(l->hpfds, n, 0) > 0;
}

void
loop_del_fd(struct loop *l, int fd)
{
	struct loop_watch	*w = find_watch(l, fd);

	if (w != NULL) {
		w->fd = -1;
		l->dirty = true;
	}
}

/* Drop removed watches between turns. */
static void
compact(struct loop *l)
{
	size_t	i, j = 0;

	for (i = 0; i < l->nwatches; i++)
		if (l->watches[i].fd >= 0)
			l->watches[j++] = l->watches[i];
	l->nwatches = j;
	l->dirty = false;
}

/* Read every pending signal and run its handler. */
static void
dispatch_signals(struct loop *l)
{
	struct signalfd_siginfo	si;
	ssize_t			n;
	size_t			i;

	for (;;) {
		n = read(l->sigfd, &si, sizeof si);
		if (n != (ssize_t)sizeof si)
			return;		/* EAGAIN: drained */
		for (i = 0; i < l->nsigs; i++)
			if (l->sigs[i].sig == (int)si.ssi_signo)
				l->sigs[i].fn(l, l->sigs[i].sig,
				    l->sigs[i].arg);
	}
}

int
loop_add_signal(struct loop *l, int sig, loop_signal_fn fn, void *arg,
    char **cause)
{
	int	fd;

	sigaddset(&l->sigmask, sig);
	if (sigprocmask(SIG_BLOCK, &l->sigmask, NULL) != 0) {
		*cause = xasprintf("sigprocmask: %s", strerror(errno));
		return -1;
	}
	fd = signalfd(l->sigfd, &l->sigmask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (fd < 0) {
		*cause = xasprintf("signalfd: %s", strerror(errno));
		return -1;
	}
	l->sigfd = fd;
	l->sigs = xreallocarray(l->sigs, l->nsigs + 1, sizeof *l->sigs);
	l->sigs[l->nsigs].sig = sig;
	l->sigs[l->nsigs].fn = fn;
	l->sigs[l->nsigs].arg = arg;
	l->nsigs++;
	return 0;
}

/*
 * Arm the timerfd for the earliest timer, or disarm it; not again for
 * the deadline it already has (a system call per loop turn saved under
 * load, where timers come and go every turn).  Urgent timers run from
 * the loop without the timerfd.
 */
static void
arm_timerfd(struct loop *l)
{
	struct itimerspec	its;
	uint64_t		want = 0;
	struct loop_timer	*t = l->timers;

	while (t != NULL && t->deadline_ms == 0)
		t = t->next;
	if (t != NULL)
		want = t->deadline_ms;
	if (want == l->armed_ms)
		return;
	l->armed_ms = want;
	memset(&its, 0, sizeof its);
	if (want != 0) {
		its.it_value.tv_sec = (time_t)(want / 1000);
		its.it_value.tv_nsec = (long)(want % 1000) * 1000000;
	}
	timerfd_settime(l->timerfd, TFD_TIMER_ABSTIME, &its, NULL);
}

/* Insert a timer due at deadline_ms (0: urgent). */
static struct loop_timer *
timer_insert(struct loop *l, uint64_t deadline_ms, loop_timer_fn fn,
    void *arg)
{
	struct loop_timer	*t = xcalloc(1, sizeof *t), **pp;

	t->deadline_ms = deadline_ms;
	t->seq = l->timer_seq++;
	t->fn = fn;
	t->arg = arg;
	/* Equal deadlines keep insertion order. */
	for (pp = &l->timers; *pp != NULL; pp = &(*pp)->next)
		if ((*pp)->deadline_ms > t->deadline_ms)
			break;
	t->next = *pp;
	*pp = t;
	if (l->timers == t)
		arm_timerfd(l);
	return t;
}

struct loop_timer *
loop_timer_add(struct loop *l, uint64_t delay_ms, loop_timer_fn fn, void *arg)
{
	uint64_t	deadline_ms = util_now_ms() + delay_ms;

	/* Deadline 0 means urgent; a monotonic clock is past it anyway. */
	return timer_insert(l, deadline_ms > 0 ? deadline_ms : 1, fn, arg);
}

struct loop_timer *
loop_timer_urgent(struct loop *l, loop_timer_fn fn, void *arg)
{
	return timer_insert(l, 0, fn, arg);
}

/* Take the first timer off the list, free it, then call it. */
static void
fire_first(struct loop *l)
{
	struct loop_timer	*t = l->timers;
	loop_timer_fn		 fn = t->fn;
	void			*arg = t->arg;

	l->timers = t->next;
	free(t);
	fn(l, arg);
}

/* Run the urgent timers (those added since), then re-arm the timerfd. */
static void
run_urgent(struct loop *l)
{
	if (l->timers == NULL || l->timers->deadline_ms != 0)
		return;
	while (l->timers != NULL && l->timers->deadline_ms == 0)
		fire_first(l);
	arm_timerfd(l);
}

void
loop_timer_cancel(struct loop *l, struct loop_timer *t)
{
	struct loop_timer	**pp;

	if (t == NULL)
		return;
	for (pp = &l->timers; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == t) {
			*pp = t->next;
			free(t);
			arm_timerfd(l);
			return;
		}
	}
}

/* Fire every timer whose deadline has passed. */
static void
dispatch_timers(struct loop *l)
{
	uint64_t	now = util_now_ms(), expirations, last = l->timer_seq;

	while (read(l->timerfd, &expirations, sizeof expirations) > 0)
		;
	l->armed_ms = 0;	/* it expired: a one-shot timerfd is disarmed */
	/*
	 * Only the timers that were due when this began (and urgent ones):
	 * one that a callback adds for now waits for the next turn, after
	 * the poll.  Otherwise work done in slices by a timer that adds
	 * itself again at once (a flooding pane's feed, which stops when the
	 * person's keys wait) ran again and again until the millisecond
	 * changed, and the keys waited for it.
	 */
	while (l->timers != NULL && (l->timers->deadline_ms == 0 ||
	    (l->timers->deadline_ms <= now && l->timers->seq < last)))
		fire_first(l);
	arm_timerfd(l);
}

/* The prepare hooks, in the order added; removed ones are dropped after. */
static void
run_prepare(struct loop *l)
{
	size_t	i, k;

	for (i = 0; i < l->npreps; i++)
		if (l->preps[i].fn != NULL)
			l->preps[i].fn(l, l->preps[i].arg);
	for (i = k = 0; i < l->npreps; i++)
		if (l->preps[i].fn != NULL)
			l->preps[k++] = l->preps[i];
	l->npreps = k;
}

int
loop_once(struct loop *l, int timeout_ms)
{
	size_t	n, i, k, base, first;
	int	rc;

	run_urgent(l);		/* added outside the loop's callbacks */
	run_prepare(l);
	if (l->dirty)
		compact(l);
	n = l->nwatches + 2;
	if (n > l->cappfds) {
		l->cappfds = n;
		l->pfds = xreallocarray(l->pfds, n, sizeof *l->pfds);
	}
	l->pfds[0].fd = l->timerfd;
	l->pfds[0].events = POLLIN;
	l->pfds[1].fd = l->sigfd;	/* poll ignores a negative fd */
	l->pfds[1].events = POLLIN;
	base = 2;
	for (i = 0; i < l->nwatches; i++) {
		l->watches[i].prio = l->watches[i].prio_next;
		l->pfds[base + i].fd = l->watches[i].events ?
		    l->watches[i].fd : -1;
		l->pfds[base + i].events = l->watches[i].events;
		l->pfds[base + i].revents = 0;
	}
	rc = poll(l->pfds, n, timeout_ms);
	if (rc < 0)
		return errno == EINTR ? 0 : -1;
	if (rc == 0)
		return 0;
	if (l->pfds[1].revents & POLLIN) {
		dispatch_signals(l);
		run_urgent(l);
	}
	/*
	 * High-priority fds first, then the rest, each followed by the
	 * urgent timers it added; then timers.  The normal pass starts one
	 * fd further every turn, so no session is always served last.
	 */
	n = l->nwatches;	/* callbacks may append: not polled yet */
	for (i = 0; i < n; i++) {
		struct loop_watch	*w = &l->watches[i];
		short			 rev = l->pfds[base + i].revents;

		if (w->fd < 0 || w->prio != LOOP_PRIO_HIGH || rev == 0 ||
		    w->fd != l->pfds[base + i].fd)
			continue;
		w->fn(l, w->fd, rev, w->arg);
		run_urgent(l);
	}
	first = n > 0 ? l->next_first++ % n : 0;
	for (k = 0; k < n; k++) {
		struct loop_watch	*w;
		short			 rev;

		i = (first + k) % n;
		w = &l->watches[i];
		rev = l->pfds[base + i].revents;
		if (w->fd < 0 || w->prio != LOOP_PRIO_NORMAL || rev == 0 ||
		    w->fd != l->pfds[base + i].fd)
			continue;
		w->fn(l, w->fd, rev, w->arg);
		run_urgent(l);
	}
	if (l->pfds[0].revents & POLLIN)
		dispatch_timers(l);
	return 0;
}

void
loop_add_prepare(struct loop *l, loop_prepare_fn fn, void *arg)
{
	l->preps = xreallocarray(l->preps, l->npreps + 1, sizeof *l->preps);
	l->preps[l->npreps].fn = fn;
	l->preps[l->npreps].arg = arg;
	l->npreps++;
}

void
loop_del_prepare(struct loop *l, loop_prepare_fn fn, void *arg)
{
	size_t	i;

	for (i = 0; i < l->npreps; i++)
		if (l->preps[i].fn == fn && l->preps[i].arg == arg) {
			l->preps[i].fn = NULL;
			return;
		}
}

int
loop_run(struct loop *l)
{
	l->stop = false;
	while (!l->stop)
		if (loop_once(l, -1) != 0)
			return -1;
	return 0;
}

void
loop_stop(struct loop *l)
{
	l->stop = true;
}
