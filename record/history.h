/*
 * history.h - the index of finished sessions, history.jsonl.
 *
 * One JSON object per line, appended with a single write(2) on an O_APPEND
 * descriptor so concurrent ptyvisor processes never interleave lines.
 * Reading skips (and counts) lines that do not parse, so a crash mid-write
 * costs at most that one line; a write the disk cuts short is cut off, so
 * the next line is not glued to half of one.
 */
#ifndef PTYVISOR_HISTORY_H
#define PTYVISOR_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * One finished session, or one agent's request that never ran (denied,
 * or withdrawn before anyone answered: id 0).  Strings are owned by the
 * entry.
 */
/* A filtered network's connections, summed from its log (history_net_sum). */
struct history_net {
	uint64_t	connections;	/* every line of the log */
	uint64_t	allowed;	/* decision "allow" */
	uint64_t	denied;		/* decision "deny" */
	uint64_t	asked;		/* a person was asked (either way) */
	uint64_t	sent;		/* bytes to the hosts */
	uint64_t	received;	/* bytes from them */
};

struct history_entry {
	unsigned long	  id;		/* session id; 0: it never ran */
	unsigned long	  request;	/* the agent's request, or 0 */
	char		**argv;
	char		 *cwd;
	int64_t		  start_us;	/* wall clock, us since the epoch */
	int64_t		  end_us;
	char		 *state;	/* exited ... denied withdrawn */
	bool		  has_code;
	int		  code;		/* exit code, when has_code */
	int		  signal;	/* terminating signal, or 0 */
	char		 *profile;	/* sandbox profile, or "none" */
	char		 *decision;	/* approve/allow/deny..., may be NULL */
	char		 *by;		/* who decided, may be NULL */
	char		 *recording;	/* path of the .cast, may be NULL */
	uint64_t	  bytes;	/* output bytes */
	/* Output bytes the recording's cap left out (record.h), or 0. */
	uint64_t	  recording_dropped;
	char		 *error;	/* why it failed to start, may be NULL */
	bool		  agent;	/* submitted by an agent */
	/*
	 * Names of the secret variables dropped from the agent's environment
	 * (policy_env_secret); NULL: none.
	 */
	char		**env_dropped;
	bool		  has_net;	/* it had a filtered network: */
	struct history_net net;		/* its connections */
	bool		  has_execs;	/* its execs were checked: */
	unsigned long	  execs;	/* how many (its exec log) */
	unsigned long	  execs_denied;	/* of them refused */
};

/*
 * Sum the proxy's log at path (one JSON line per connection) into *out.
 * -1 when there is no such file (no filtered network); lines that do not
 * parse are not counted.
 */
int	history_net_sum(const char *path, struct history_net *out);

/* Append e to path (created 0600).  -1 with *cause on failure. */
int	history_append(const char *path, const struct history_entry *e,
	    char **cause);
/*
 * history_append() but for the fsync: the line is there for every reader
 * when it returns 0, and *sync_fd is the file's descriptor, to fsync and
 * close (util_sync_close()) after telling whoever waits (session/exit.c).
 */
int	history_append_end(const char *path, const struct history_entry *e,
	    int *sync_fd, char **cause);

/* Every entry of path, oldest first.  A missing file is an empty list. */
struct history_list {
	struct history_entry	*v;
	size_t			 n;
	size_t			 skipped;	/* lines that did not parse */
};

int	history_load(const char *path, struct history_list *out, char **cause);
/*
 * The same for the whole lines within the last max bytes of the file only
 * (a line cut by that bound is left out): the newest entries, at a cost
 * that does not grow with the history.
 */
int	history_load_tail(const char *path, size_t max, struct history_list *out,
	    char **cause);
void	history_list_free(struct history_list *l);

/* Release the strings of one entry (not the entry itself). */
void	history_entry_clear(struct history_entry *e);

/* Encode e as one JSON line with a trailing newline; caller frees. */
char	*history_encode(const struct history_entry *e);

/* Decode one line; -1 when it is not a valid entry. */
int	history_decode(const char *line, struct history_entry *e);

#endif
