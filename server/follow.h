/*
 * follow.h - a server's rules and settings files, followed: when the
 * rules file changes its rules replace the old ones; when the settings
 * file changes, what it sets that the command line did not and that can
 * change while running is applied (the approval mode, the notify program,
 * checked first); the rest applies at the next start.  A file with an
 * error changes nothing.  Each outcome is told to the caller's report.
 */
#ifndef PTYVISOR_FOLLOW_H
#define PTYVISOR_FOLLOW_H

#include <stdbool.h>

struct approval;
struct follow;
struct loop;

/* How a followed file's news is told. */
enum follow_report {
	FOLLOW_NOTE,	/* for the log: e.g. a file not followed */
	FOLLOW_CHANGE,	/* a file was reloaded: the person sees it */
	FOLLOW_ERROR	/* a file was not reloaded, or part refused */
};

/* The files and what the command line set instead (borrowed). */
struct follow_files {
	const char	*rules;
	const char	*settings;
	bool		 mode_given;	/* the file's approval mode stays out */
	bool		 notify_given;	/* the file's notify program stays out */
};

/*
 * Follow the files on loop for the queue a (its policy's rules and mode,
 * its notify program); report(user, level, line) says what happened.
 * Never NULL: a directory that cannot be watched is reported, and
 * follow_reload() still works.
 */
struct follow	*follow_new(struct loop *loop, struct approval *a,
		    const struct follow_files *files,
		    void (*report)(void *, enum follow_report, const char *),
		    void *user);
/* Read both files again now. */
void		 follow_reload(struct follow *f);
void		 follow_free(struct follow *f);

#endif
