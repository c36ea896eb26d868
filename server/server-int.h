/*
 * server-int.h - what the files of server/ share: the server itself, and
 * the functions each file offers the others.  Not for use outside
 * server/.
 *
 * Calls go one way: server.c (the constructor, the log, session events)
 * uses server-spawn.c (an approved request started), follow.c (the rules
 * and settings files) and consoles.c (attached consoles); follow.c uses
 * server.c's program check; server-spawn.c uses server.c's socket path
 * and consoles.c's next pane size; consoles.c uses no other file.
 */
#ifndef PTYVISOR_SERVER_INT_H
#define PTYVISOR_SERVER_INT_H

#include "server/server.h"

#include <stdbool.h>

#include "base/loop.h"

struct approval;
struct approval_request;
struct consoles;
struct control;
struct follow;
struct policy;
struct session;
struct sessions;
struct tui;

struct server {
	struct server_opts	 o;
	struct loop		*loop;
	struct sessions		*ss;
	struct policy		*policy;
	struct approval		*approval;
	struct control		*control;	/* NULL: no socket */
	struct consoles		*consoles;	/* NULL: no socket */
	struct follow		*follow;
	struct tui		*tui;		/* without a socket, or NULL */
	char			*history;	/* history.jsonl */
	struct loop_timer	*forget_timer;
	bool			 stopping;
};

/* server.c: whether name is a program to run, as posix_spawnp finds it. */
bool		 server_find_program(const char *name);

/*
 * server-spawn.c: start an approved request as an agent session on sv (the
 * control server's spawn hook): its argv, cwd, timeout and size, in the
 * agents' sandbox with the profile it asked for and the network only if
 * it asked, its environment as the file's head comment says.
 */
struct session	*server_spawn(struct server *sv,
		    const struct approval_request *r, char **cause);

/* How a followed file's news is told (follow.c). */
enum follow_report {
	FOLLOW_NOTE,	/* for the log: e.g. a file not followed */
	FOLLOW_CHANGE,	/* a file was reloaded: the person sees it */
	FOLLOW_ERROR	/* a file was not reloaded, or part refused */
};

/*
 * follow.c: follow the rules and settings files of sv (o->rules,
 * o->settings).  When the rules file changes its rules replace the old
 * ones.  When the settings file changes, what it sets that the command
 * line did not and that can change while running is applied: the approval
 * mode, the notify program (checked first); the rest applies at the next
 * start.  A file with an error changes nothing.  report(sv, level, line)
 * says what happened.  Never NULL: a directory that cannot be watched is
 * reported, and follow_reload() still works.
 */
struct follow	*follow_new(struct server *sv,
		    void (*report)(struct server *, enum follow_report,
		    const char *));
/* Read both files again now. */
void		 follow_reload(struct follow *f);
void		 follow_free(struct follow *f);

#endif
