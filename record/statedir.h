/*
 * statedir.h - where ptyvisor keeps its files, and naming new sessions.
 *
 * The state directory is $PTYVISOR_STATE_DIR, else $XDG_STATE_HOME/ptyvisor,
 * else ~/.local/state/ptyvisor.  Directories are created 0700; recordings
 * live in sessions/<id>.cast, a filtered network's log beside its
 * recording (<id>.net.jsonl), a running session's marker in
 * sessions/<id>.running (lost.h), the index in history.jsonl, the ids of
 * sessions whose files the budget removed in pruned (prune.h).
 */
#ifndef PTYVISOR_STATEDIR_H
#define PTYVISOR_STATEDIR_H

#include <stdbool.h>
#include <stddef.h>

/* Resolve the state directory path (not created).  Caller frees. */
char	*statedir_path(char **cause);

/*
 * Make sure dir and dir/sessions exist (0700) and that files can be
 * created there.  Returns -1 with *cause naming the problem.
 */
int	 statedir_prepare(const char *dir, char **cause);

/*
 * The largest session id with a recording in dir/sessions or pruned from
 * it (so an id is never given twice), or 0.
 */
unsigned long	statedir_last_id(const char *dir);
/* The largest id pruned from dir/sessions, or 0 (reads the list only). */
unsigned long	statedir_last_pruned_id(const char *dir);

/* dir/sessions/<id>.cast; caller frees. */
char	*statedir_cast_path(const char *dir, unsigned long id);

/*
 * The connections a session's filtered network made, one JSON line each,
 * next to its recording: <id>.net.jsonl for <id>.cast.  Caller frees.
 */
char	*statedir_net_log_path(const char *cast_path);
/* The exec checks' log next to a recording: <id>.exec.jsonl.  Allocated. */
char	*statedir_exec_log_path(const char *cast_path);

/* dir/history.jsonl; caller frees. */
char	*statedir_history_path(const char *dir);

/* dir/pruned: one session id a line, appended as its files go. */
char	*statedir_pruned_path(const char *dir);

/*
 * The ids in dir/pruned, ascending, *n of them (NULL when none; a line
 * that is not a number is skipped).  Caller frees.
 */
unsigned long	*statedir_pruned(const char *dir, size_t *n);

/* Whether id is among ids (ascending, as statedir_pruned() gives them). */
bool	statedir_pruned_has(const unsigned long *ids, size_t n,
	    unsigned long id);

/*
 * Whether the recording of session id, at path recording (NULL: it had
 * none), is one the budget removed: id among ids and no file there since
 * (a path of its own written again).  For `ptyvisor history`, `show` and
 * the web page alike.
 */
bool	statedir_recording_pruned(const unsigned long *ids, size_t n,
	    unsigned long id, const char *recording);

#endif
