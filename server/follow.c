/*
 * follow.c - a server's rules and settings files, followed (see
 * follow.h): a change reloads them in place, and a file with an error
 * changes nothing, with the error reported.
 *
 * Invariants: what the command line set is never replaced by the file
 * (the approval mode, the notify program); a notify program is checked
 * before it replaces the old one.
 */
#include "server/follow.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/watch.h"
#include "conf/config.h"
#include "control/approval.h"
#include "policy/policy.h"

/* The rules and settings files of a server, followed. */
struct follow {
	struct policy			*policy;
	struct approval			*approval;
	struct follow_files		 files;		/* borrowed paths */
	struct watch			*rules_watch;
	struct watch			*settings_watch;
	void				(*report)(void *, enum follow_report,
					    const char *);
	void				*user;
};

/* Read the rules file again; its new rules replace the old ones. */
static void
follow_rules(void *arg)
{
	struct follow	*f = arg;
	char			*cause = NULL, *line;
	size_t			 n = 0;

	if (policy_reload_file(f->policy, f->files.rules, &n, &cause) != 0) {
		line = xasprintf("rules not reloaded, the old ones stay: %s",
		    cause);
		f->report(f->user, FOLLOW_ERROR, line);
		free(cause);
	} else {
		line = xasprintf("rules reloaded from %s: %zu rule%s",
		    f->files.rules, n, n == 1 ? "" : "s");
		f->report(f->user, FOLLOW_CHANGE, line);
	}
	free(line);
}

/* Read the settings file again; apply what may change while running. */
static void
follow_settings(void *arg)
{
	struct follow	*f = arg;
	struct config		*cfg = config_new();
	struct policy		*p = f->policy;
	enum policy_mode	 mode = POLICY_UNTRUSTED;
	const char		*notify;
	char			*cause = NULL, *line, *bad = NULL;

	if (config_load(cfg, f->files.settings, true, &cause) != 0) {
		line = xasprintf("settings not reloaded, nothing changed: "
		    "config %s", cause);
		f->report(f->user, FOLLOW_ERROR, line);
		free(line);
		free(cause);
		config_free(cfg);
		return;
	}
	if (!f->files.mode_given) {
		if (!config_approval_mode(cfg, &mode))
			mode = POLICY_UNTRUSTED;
		policy_set_mode(p, mode);
	}
	if (!f->files.notify_given) {
		notify = config_notify(cfg);
		if (notify != NULL && !util_find_program(notify))
			bad = xasprintf("; notify program %s: %s, the old one "
			    "stays", notify, strerror(errno));
		else
			approval_set_notify(f->approval, notify);
	}
	line = xasprintf("settings reloaded from %s: approval %s%s%s; other "
	    "changes apply at the next start", f->files.settings,
	    policy_mode_name(policy_mode(p)), f->files.mode_given ?
	    " (from the command line)" : "", bad != NULL ? bad : "");
	f->report(f->user, bad != NULL ? FOLLOW_ERROR : FOLLOW_CHANGE,
	    line);
	free(line);
	free(bad);
	config_free(cfg);
}

/* Watch path, calling fn(f) on a change; a failure is reported. */
static struct watch *
follow_watch(struct follow *f, struct loop *loop, const char *what,
    const char *path, void (*fn)(void *))
{
	struct watch	*w;
	char		*cause = NULL, *line;

	if ((w = watch_new(loop, path, fn, f, &cause)) == NULL) {
		line = xasprintf("%s file %s is not followed (%s)", what, path,
		    cause);
		f->report(f->user, FOLLOW_NOTE, line);
		free(line);
		free(cause);
	}
	return w;
}

struct follow *
follow_new(struct loop *loop, struct approval *a,
    const struct follow_files *files,
    void (*report)(void *, enum follow_report, const char *), void *user)
{
	struct follow	*f = xcalloc(1, sizeof *f);

	f->policy = approval_policy(a);
	f->approval = a;
	f->files = *files;
	f->report = report;
	f->user = user;
	f->rules_watch = follow_watch(f, loop, "rules", files->rules,
	    follow_rules);
	f->settings_watch = follow_watch(f, loop, "settings",
	    files->settings, follow_settings);
	return f;
}

void
follow_reload(struct follow *f)
{
	follow_settings(f);
	follow_rules(f);
}

void
follow_free(struct follow *f)
{
	if (f == NULL)
		return;
	watch_free(f->rules_watch);
	watch_free(f->settings_watch);
	free(f);
}

