/*
 * loop.h - the single-threaded event loop: poll(2) over registered fds,
 * signals through one signalfd, one-shot timers through one timerfd, and
 * prepare callbacks run just before each wait.
 *
 * Fds registered with LOOP_PRIO_HIGH (the person's terminal, the control
 * socket, the focused pane's PTY) are dispatched before the others in
 * every turn, so a flooding session cannot delay typing or approving; the
 * others are served in turn, starting one further each turn, so none is
 * always last.  A long callback can ask whether a high-priority fd is
 * waiting (loop_high_pending) and come back later.  Urgent timers
 * (loop_timer_urgent) run as soon as the callback that added them returns,
 * before the rest of the turn.  Callbacks may add and remove fds and
 * timers freely, including their own.
 */
#ifndef PTYVISOR_LOOP_H
#define PTYVISOR_LOOP_H

#include <stdbool.h>
#include <stdint.h>

struct loop;
struct loop_timer;

enum loop_prio {
	LOOP_PRIO_NORMAL = 0,
	LOOP_PRIO_HIGH = 1,
};

typedef void	(*loop_fd_fn)(struct loop *, int fd, short revents, void *arg);
typedef void	(*loop_timer_fn)(struct loop *, void *arg);
typedef void	(*loop_signal_fn)(struct loop *, int sig, void *arg);
typedef void	(*loop_prepare_fn)(struct loop *, void *arg);

/* A new loop, or NULL with *cause.  Free with loop_free. */
struct loop	*loop_new(char **cause);

/* Free the loop; restores the signal mask it changed. */
void		 loop_free(struct loop *l);

/* Watch fd for events (POLLIN/POLLOUT); the fd stays owned by the caller. */
void	loop_add_fd(struct loop *l, int fd, short events, enum loop_prio prio,
	    loop_fd_fn fn, void *arg);

/* Change the events watched on fd (0 pauses it). */
void	loop_set_events(struct loop *l, int fd, short events);

/* Change the priority of fd (from the next turn). */
void	loop_set_prio(struct loop *l, int fd, enum loop_prio prio);

/*
 * True when a high-priority fd watched for input, other than except (-1:
 * none), has input now (a poll that does not wait): for work done in
 * slices, to yield to the person between them.  The fd whose work it is
 * is the except: a watched pane that floods does not yield to itself.
 */
bool	loop_high_pending(struct loop *l, int except);

/* Stop watching fd; safe from inside any callback. */
void	loop_del_fd(struct loop *l, int fd);

/*
 * Call fn(arg) in every turn just before the loop waits (after the urgent
 * timers): for output gathered during the turn, sent once.  Remove with
 * loop_del_prepare (same fn and arg); safe from inside callbacks.
 */
void	loop_add_prepare(struct loop *l, loop_prepare_fn fn, void *arg);
void	loop_del_prepare(struct loop *l, loop_prepare_fn fn, void *arg);

/*
 * Deliver sig through the loop's signalfd: it is blocked for the process
 * and fn runs from the loop.  Returns -1 with *cause on failure.
 */
int	loop_add_signal(struct loop *l, int sig, loop_signal_fn fn, void *arg,
	    char **cause);

/*
 * Call fn once, delay_ms from now.  The handle is valid until the timer
 * fires (the loop frees it before calling fn) or is cancelled.
 */
struct loop_timer	*loop_timer_add(struct loop *l, uint64_t delay_ms,
			    loop_timer_fn fn, void *arg);

/*
 * Call fn once, as soon as the current callback returns to the loop:
 * before the normal-priority fds and the ordinary timers still to come in
 * this turn.  Urgent timers run in the order they were added.  The handle
 * is like loop_timer_add's; loop_timer_cancel cancels it.
 */
struct loop_timer	*loop_timer_urgent(struct loop *l, loop_timer_fn fn,
			    void *arg);

/* Cancel a pending timer; NULL is a no-op. */
void	loop_timer_cancel(struct loop *l, struct loop_timer *t);

/*
 * Run one turn: wait at most timeout_ms (-1 forever) for something to
 * happen, then dispatch it.  Returns -1 on a poll error.
 */
int	loop_once(struct loop *l, int timeout_ms);

/* Run turns until loop_stop() is called. */
int	loop_run(struct loop *l);

/* Make loop_run() return after the current turn. */
void	loop_stop(struct loop *l);

#endif
