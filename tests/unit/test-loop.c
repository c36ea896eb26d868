/*
 * test-loop.c - unit tests for the event loop: timer order, cancellation,
 * timers added from timers, equal deadlines, fd priority, removal during
 * dispatch, paused fds, normal fds taking turns to go first, urgent
 * timers, priority changes, yielding to a ready high-priority fd, signals
 * through signalfd, loop_stop.  Only the order of events is checked,
 * never how long they took.
 */
#include "base/loop.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/tap.h"

/* Turns to wait for something before giving up (each at most 1 s). */
#define TEST_TURNS 50

static int	fired[64];
static int	nfired;

static void
record_timer(struct loop *l, void *arg)
{
	(void)l;
	if (nfired < 64)
		fired[nfired++] = (int)(intptr_t)arg;
}

static void
stop_timer(struct loop *l, void *arg)
{
	record_timer(l, arg);
	loop_stop(l);
}

static void
chain_timer(struct loop *l, void *arg)
{
	record_timer(l, arg);
	loop_timer_add(l, 0, stop_timer, (void *)(intptr_t)2);
}

static int	again_left;

/* A timer that adds itself again for now, as a feed done in slices does. */
static void
again_timer(struct loop *l, void *arg)
{
	record_timer(l, arg);
	if (--again_left > 0)
		loop_timer_add(l, 0, again_timer, arg);
}

/* Run turns until n timers fired or the bound is hit. */
static void
run_until(struct loop *l, int n)
{
	int	turns = 0;

	while (nfired < n && turns++ < TEST_TURNS)
		loop_once(l, 1000);
}

static void
test_timers(struct loop *l)
{
	struct loop_timer	*t;
	int			 i, in_order = 1;

	nfired = 0;
	loop_timer_add(l, 30, record_timer, (void *)30);
	loop_timer_add(l, 10, record_timer, (void *)10);
	loop_timer_add(l, 20, record_timer, (void *)20);
	run_until(l, 3);
	is_int(nfired, 3, "three timers fired");
	ok(fired[0] == 10 && fired[1] == 20 && fired[2] == 30,
	    "in deadline order (%d, %d, %d)", fired[0], fired[1], fired[2]);

	nfired = 0;
	t = loop_timer_add(l, 5, record_timer, (void *)1);
	loop_timer_add(l, 40, stop_timer, (void *)2);
	loop_timer_cancel(l, t);
	loop_timer_cancel(l, NULL);
	is_int(loop_run(l), 0, "loop_run returns after loop_stop");
	ok(nfired == 1 && fired[0] == 2, "a cancelled timer never fires");

	nfired = 0;
	loop_timer_add(l, 1, chain_timer, (void *)1);
	loop_run(l);
	ok(nfired == 2 && fired[0] == 1 && fired[1] == 2,
	    "a timer added from a timer callback fires");

	nfired = 0;
	for (i = 0; i < 10; i++)
		loop_timer_add(l, 15, record_timer, (void *)(intptr_t)i);
	run_until(l, 10);
	for (i = 0; i < 10; i++)
		if (fired[i] != i)
			in_order = 0;
	ok(nfired == 10 && in_order, "equal deadlines keep insertion order");

	nfired = 0;
	loop_timer_add(l, 0, record_timer, (void *)2);
	loop_timer_urgent(l, record_timer, (void *)1);
	loop_once(l, 0);
	ok(nfired >= 1 && fired[0] == 1,
	    "an urgent timer added outside a callback runs on the next turn, "
	    "before a due ordinary one");
	run_until(l, 2);
	is_int(nfired, 2, "and the ordinary one still fires");

	/*
	 * Between two runs of a timer that adds itself again at once, the
	 * loop polls (keys get their turn): it fired until the millisecond
	 * changed before.
	 */
	nfired = 0;
	again_left = 1000;
	loop_timer_add(l, 0, again_timer, (void *)7);
	loop_once(l, 1000);
	is_int(nfired, 1, "a timer that adds itself again for now runs once "
	    "a turn");
	run_until(l, 3);
	is_int(nfired, 3, "and once in each later turn (the timer is armed "
	    "again for the same millisecond)");
	again_left = 0;
	run_until(l, 4);
	is_int(nfired, 4, "its last run adds no other");
}

struct fd_test {
	int	 order[8];
	int	 n;
	int	 victim;	/* fd to remove when called, or -1 */
	int	 pair[2];	/* if victim is -2: remove the other one */
	int	 drain;
	int	 want_urgent;	/* the first call adds an urgent timer */
	struct loop_timer *urgent;
};

/* An urgent timer: notes its turn in the order as fd -1. */
static void
urgent_cb(struct loop *l, void *arg)
{
	struct fd_test	*ft = arg;

	(void)l;
	if (ft->n < 8)
		ft->order[ft->n++] = -1;
}

static void
fd_cb(struct loop *l, int fd, short revents, void *arg)
{
	struct fd_test	*ft = arg;
	char		 buf[64];

	(void)revents;
	if (ft->n < 8)
		ft->order[ft->n++] = fd;
	if (ft->drain && read(fd, buf, sizeof buf) < 0)
		diag("read failed");
	if (ft->victim == -2)
		ft->victim = fd == ft->pair[0] ? ft->pair[1] : ft->pair[0];
	if (ft->victim >= 0) {
		loop_del_fd(l, ft->victim);
		ft->victim = -1;
	}
	if (ft->n == 1 && ft->want_urgent)
		ft->urgent = loop_timer_urgent(l, urgent_cb, ft);
}

/* A non-blocking pipe with a byte waiting. */
static void
ready_pipe(int p[2])
{
	if (pipe2(p, O_CLOEXEC | O_NONBLOCK) != 0 || write(p[1], "x", 1) != 1)
		abort();
}

/*
 * Ready normal fds take turns to go first; an urgent timer runs right
 * after the callback that added it; a priority change counts from the
 * next turn; loop_high_pending sees a ready high-priority fd only.
 */
static void
test_turns_and_urgent(struct loop *l)
{
	struct fd_test	ft;
	int		a[2], b[2], c[2], firsts[2], i;

	ready_pipe(a);
	ready_pipe(b);
	ready_pipe(c);
	for (i = 0; i < 2; i++) {
		memset(&ft, 0, sizeof ft);
		ft.victim = -1;
		if (i == 0) {
			loop_add_fd(l, a[0], POLLIN, LOOP_PRIO_NORMAL, fd_cb,
			    &ft);
			loop_add_fd(l, b[0], POLLIN, LOOP_PRIO_NORMAL, fd_cb,
			    &ft);
		}
		loop_once(l, 1000);
		firsts[i] = ft.order[0];
		if (ft.n != 2)
			diag("turn %d: %d fds dispatched", i, ft.n);
	}
	ok(firsts[0] != firsts[1],
	    "two ready normal fds take turns to go first");

	memset(&ft, 0, sizeof ft);
	ft.victim = -1;
	ft.want_urgent = 1;
	loop_once(l, 1000);
	ok(ft.n == 3 && ft.order[1] == -1,
	    "an urgent timer runs right after the callback that added it "
	    "(%d: %d %d %d)", ft.n, ft.order[0], ft.order[1], ft.order[2]);

	memset(&ft, 0, sizeof ft);
	ft.victim = -1;
	ft.urgent = loop_timer_urgent(l, urgent_cb, &ft);
	loop_timer_cancel(l, ft.urgent);
	loop_once(l, 0);
	ok(ft.n == 2 && ft.order[0] != -1 && ft.order[1] != -1,
	    "a cancelled urgent timer does not run");

	ok(!loop_high_pending(l, -1), "no high-priority fd: nothing pending");
	loop_add_fd(l, c[0], POLLIN, LOOP_PRIO_NORMAL, fd_cb, &ft);
	loop_set_prio(l, c[0], LOOP_PRIO_HIGH);
	ok(loop_high_pending(l, -1), "a ready fd made high-priority is pending");
	ok(!loop_high_pending(l, c[0]), "but not to the one it is excepted for");
	memset(&ft, 0, sizeof ft);
	ft.victim = -1;
	loop_once(l, 1000);
	ok(ft.n == 3 && ft.order[0] == c[0],
	    "and goes first from the next turn");
	loop_set_events(l, c[0], 0);
	ok(!loop_high_pending(l, -1), "a paused high-priority fd is not pending");
	loop_del_fd(l, a[0]);
	loop_del_fd(l, b[0]);
	loop_del_fd(l, c[0]);
	for (i = 0; i < 2; i++) {
		close(a[i]);
		close(b[i]);
		close(c[i]);
	}
}

static void
test_fds(struct loop *l)
{
	struct fd_test	ft;
	int		normal[2], high[2], a[2], b[2];

	memset(&ft, 0, sizeof ft);
	ft.victim = -1;
	ready_pipe(normal);
	ready_pipe(high);
	/* Registered first, but normal priority. */
	loop_add_fd(l, normal[0], POLLIN, LOOP_PRIO_NORMAL, fd_cb, &ft);
	loop_add_fd(l, high[0], POLLIN, LOOP_PRIO_HIGH, fd_cb, &ft);
	loop_once(l, 1000);
	is_int(ft.n, 2, "both ready fds dispatched in one turn");
	ok(ft.order[0] == high[0] && ft.order[1] == normal[0],
	    "the high-priority fd first");
	loop_del_fd(l, normal[0]);
	loop_del_fd(l, high[0]);

	/* Whichever of a and b goes first removes the other. */
	memset(&ft, 0, sizeof ft);
	ready_pipe(a);
	ready_pipe(b);
	ft.victim = -2;
	ft.pair[0] = a[0];
	ft.pair[1] = b[0];
	loop_add_fd(l, a[0], POLLIN, LOOP_PRIO_NORMAL, fd_cb, &ft);
	loop_add_fd(l, b[0], POLLIN, LOOP_PRIO_NORMAL, fd_cb, &ft);
	loop_once(l, 1000);
	ok(ft.n == 1,
	    "an fd removed by another's callback is not dispatched");
	loop_once(l, 0);
	is_int(ft.n, 2, "the remover is dispatched again (still ready)");
	ok(ft.order[1] == ft.order[0], "and the removed one still is not");
	loop_del_fd(l, ft.order[0]);

	/* Paused (events 0): not dispatched; resumed: dispatched. */
	memset(&ft, 0, sizeof ft);
	ft.victim = -1;
	ft.drain = 1;
	loop_add_fd(l, b[0], POLLIN, LOOP_PRIO_NORMAL, fd_cb, &ft);
	loop_set_events(l, b[0], 0);
	loop_once(l, 0);
	is_int(ft.n, 0, "a paused fd is not dispatched");
	loop_set_events(l, b[0], POLLIN);
	loop_once(l, 1000);
	is_int(ft.n, 1, "a resumed fd is dispatched");
	loop_del_fd(l, b[0]);

	test_turns_and_urgent(l);

	close(normal[0]);
	close(normal[1]);
	close(high[0]);
	close(high[1]);
	close(a[0]);
	close(a[1]);
	close(b[0]);
	close(b[1]);
}

static int	got_sig;

static void
sig_cb(struct loop *l, int sig, void *arg)
{
	(void)l;
	(void)arg;
	got_sig = sig;
}

static void
test_signals(struct loop *l)
{
	char		*cause = NULL;
	sigset_t	 cur;
	int		 turns = 0;

	if (!ok(loop_add_signal(l, SIGUSR1, sig_cb, NULL, &cause) == 0,
	    "loop_add_signal")) {
		diag("%s", cause);
		free(cause);
		return;
	}
	sigprocmask(SIG_SETMASK, NULL, &cur);
	ok(sigismember(&cur, SIGUSR1), "SIGUSR1 is blocked for the process");
	raise(SIGUSR1);
	is_int(got_sig, 0, "the handler does not run from the signal itself");
	while (got_sig == 0 && turns++ < TEST_TURNS)
		loop_once(l, 1000);
	is_int(got_sig, SIGUSR1, "the handler runs from loop_once");
}

/* Prepare hooks: what they saw, in order. */
static int	prep_calls[8];
static int	nprep;
static int	prep_timer_ran;

static void
prep_hook(struct loop *l, void *arg)
{
	(void)l;
	if (nprep < 8)
		prep_calls[nprep++] = (int)(intptr_t)arg;
}

static void
prep_self_removing(struct loop *l, void *arg)
{
	prep_hook(l, arg);
	loop_del_prepare(l, prep_self_removing, arg);
}

static void
prep_urgent(struct loop *l, void *arg)
{
	(void)l;
	(void)arg;
	prep_timer_ran = nprep + 1;	/* 1: before any hook ran */
}

static void
test_prepare(struct loop *l)
{
	nprep = 0;
	loop_add_prepare(l, prep_hook, (void *)(intptr_t)1);
	loop_add_prepare(l, prep_self_removing, (void *)(intptr_t)2);
	loop_timer_urgent(l, prep_urgent, NULL);
	loop_once(l, 0);
	ok(nprep == 2 && prep_calls[0] == 1 && prep_calls[1] == 2,
	    "prepare hooks run once a turn, in the order added");
	ok(prep_timer_ran == 1, "after the urgent timers (output they made "
	    "is gathered in the same turn)");
	loop_once(l, 0);
	ok(nprep == 3 && prep_calls[2] == 1,
	    "a hook that removed itself runs no more; the others do");
	loop_del_prepare(l, prep_hook, (void *)(intptr_t)1);
	loop_once(l, 0);
	ok(nprep == 3, "loop_del_prepare removes a hook");
}

int
main(void)
{
	struct loop	*l;
	char		*cause = NULL;
	sigset_t	 cur;

	l = loop_new(&cause);
	if (!ok(l != NULL, "loop_new")) {
		diag("%s", cause);
		return tap_done();
	}
	test_timers(l);
	test_fds(l);
	test_signals(l);
	test_prepare(l);
	loop_free(l);
	sigprocmask(SIG_SETMASK, NULL, &cur);
	ok(!sigismember(&cur, SIGUSR1), "loop_free restores the signal mask");
	loop_free(NULL);
	return tap_done();
}
