/*
 * follow.c - a server's rules and settings files, followed (see
 * server-int.h): a change reloads them in place, and a file with an error
 * changes nothing, with the error reported.
 *
 * Invariants: what the command line set is never replaced by the file
 * (the approval mode, the notify program); a notify program is checked
 * before it replaces the old one.
 */
#include "server/server-int.h"

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
	struct server			*sv;
	struct policy			*policy;
	struct approval			*approval;
	const struct server_opts	*flags;
	const char			*settings;	/* its path */
	struct watch			*rules_watch;
	struct watch			*settings_watch;
	void				(*report)(struct server *,
					    enum follow_report, const char *);
};

/* Read the rules file again; its new rules replace the old ones. */
static void
follow_rules(void *arg)
{
	struct follow	*f = arg;
	char			*cause = NULL, *line;
	size_t			 n = 0;

	if (policy_reload_file(f->policy, f->flags->rules, &n, &cause) != 0) {
		line = xasprintf("rules not reloaded, the old ones stay: %s",
		    cause);
		f->report(f->sv, FOLLOW_ERROR, line);
		free(cause);
	} else {
		line = xasprintf("rules reloaded from %s: %zu rule%s",
		    f->flags->rules, n, n == 1 ? "" : "s");
		f->report(f->sv, FOLLOW_CHANGE, line);
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

	if (config_load(cfg, f->settings, true, &cause) != 0) {
		line = xasprintf("settings not reloaded, nothing changed: "
		    "config %s", cause);
		f->report(f->sv, FOLLOW_ERROR, line);
		free(line);
		free(cause);
		config_free(cfg);
		return;
	}
	if (!f->flags->mode_given) {
		if (!config_approval_mode(cfg, &mode))
			mode = POLICY_UNTRUSTED;
		policy_set_mode(p, mode);
	}
	if (!f->flags->notify_given) {
		notify = config_notify(cfg);
		if (notify != NULL && !server_find_program(notify))
			bad = xasprintf("; notify program %s: %s, the old one "
			    "stays", notify, strerror(errno));
		else
			approval_set_notify(f->approval, notify);
	}
	line = xasprintf("settings reloaded from %s: approval %s%s%s; other "
	    "changes apply at the next start", f->settings,
	    policy_mode_name(policy_mode(p)), f->flags->mode_given ?
	    " (from the command line)" : "", bad != NULL ? bad : "");
	f->report(f->sv, bad != NULL ? FOLLOW_ERROR : FOLLOW_CHANGE,
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
		f->report(f->sv, FOLLOW_NOTE, line);
		free(line);
		free(cause);
	}
	return w;
}

struct follow *
follow_new(struct server *sv,
    void (*report)(struct server *, enum follow_report, const char *))
{
	struct follow	*f = xcalloc(1, sizeof *f);

	f->sv = sv;
	f->policy = sv->policy;
	f->approval = sv->approval;
	f->flags = &sv->o;
	f->settings = sv->o.settings;
	f->report = report;
	f->rules_watch = follow_watch(f, sv->loop, "rules", sv->o.rules,
	    follow_rules);
	f->settings_watch = follow_watch(f, sv->loop, "settings",
	    f->settings, follow_settings);
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

