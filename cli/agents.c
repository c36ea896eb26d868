/*
 * agents.c - the agents' server as the console and `serve` both assemble
 * it: its options (command line, then settings file, then defaults) and
 * the spawn hook that starts an approved request as an agent session.
 *
 * Invariants: an approved request runs in the sandbox it asked for, with
 * the network only if it asked; a profile we do not know fails the start
 * (fail closed).  Its environment is the agent's own when it sent it
 * (without what a session keeps: session_environ_caller), else ours
 * without LD_*, scrubbed by the sandbox; the request's variables on top.
 */
#include "cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "base/watch.h"
#include "control/approval.h"
#include "conf/config.h"
#include "policy/policy.h"
#include "sandbox/sandbox.h"
#include "session/session.h"

/* What agents' sessions are told they run on: ptyvisor's emulator. */
#define CLI_AGENT_TERM	"xterm-256color"

/* Fill what the command line left open: settings file, then defaults. */
void
cli_server_defaults(const struct config *cfg, struct cli_server_opts *o)
{
	if (!o->mode_given && (cfg == NULL ||
	    !config_approval_mode(cfg, &o->mode)))
		o->mode = POLICY_UNTRUSTED;
	if (o->rules == NULL && cfg != NULL && config_rules(cfg) != NULL)
		o->rules = xstrdup(config_rules(cfg));
	o->rules_named = o->rules != NULL;
	if (o->rules == NULL)
		o->rules = cli_rules_path();
	o->notify_given = o->notify != NULL;
	if (o->notify == NULL && cfg != NULL)
		o->notify = config_notify(cfg);
	if (o->socket == NULL)
		o->socket = o->socket_path = cli_socket_path(cfg);
}

/* Free what cli_server_defaults() allocated. */
void
cli_server_opts_free(struct cli_server_opts *o)
{
	free(o->rules);
	free(o->socket_path);
	o->rules = o->socket_path = NULL;
}


/* Whether path is a regular file this process may execute; errno if not. */
static bool
cli_is_program(const char *path)
{
	struct stat	st;

	if (stat(path, &st) != 0)
		return false;
	if (!S_ISREG(st.st_mode)) {
		errno = S_ISDIR(st.st_mode) ? EISDIR : EACCES;
		return false;
	}
	return access(path, X_OK) == 0;
}

/* A program name as posix_spawnp finds it: a path, or searched in $PATH. */
static bool
cli_find_program(const char *name)
{
	const char	*path = getenv("PATH"), *p, *end;
	char		*full;
	bool		 found = false;

	if (strchr(name, '/') != NULL)
		return cli_is_program(name);
	if (path == NULL || *path == '\0')
		path = "/bin:/usr/bin";
	for (p = path; !found; p = end + 1) {
		end = strchr(p, ':');
		if (end == NULL)
			end = p + strlen(p);
		full = xasprintf("%.*s/%s", (int)(end - p),
		    end == p ? "." : p, name);
		found = cli_is_program(full);
		free(full);
		if (*end == '\0')
			break;
	}
	if (!found)
		errno = ENOENT;
	return found;
}

int
cli_server_check(const struct cli_server_opts *o, char **cause)
{
	int	fd;

	if (o->rules_named) {
		if ((fd = open(o->rules, O_RDONLY | O_CLOEXEC)) < 0) {
			*cause = xasprintf("rules file %s: %s", o->rules,
			    strerror(errno));
			return -1;
		}
		close(fd);
	}
	if (o->notify != NULL && !cli_find_program(o->notify)) {
		*cause = xasprintf("notify program %s: %s", o->notify,
		    errno == ENOENT && strchr(o->notify, '/') == NULL ?
		    "not found in $PATH" : strerror(errno));
		return -1;
	}
	return 0;
}

struct policy *
cli_agents_policy(const struct cli_server_opts *o, char **cause)
{
	struct policy	*p;

	if (cli_server_check(o, cause) != 0)
		return NULL;
	p = policy_new(o->mode);
	if (policy_load_file(p, o->rules, cause) != 0) {
		policy_free(p);
		return NULL;
	}
	return p;
}

struct approval *
cli_agents_queue(struct loop *loop, struct policy *p,
    const struct cli_server_opts *o, const char *profile, const char *history)
{
	struct approval	*a = approval_new(loop, p);

	approval_set_history(a, history);
	approval_set_rules_path(a, o->rules);
	approval_set_notify(a, o->notify);
	if (profile != NULL)
		approval_set_default_sandbox(a, profile);
	return a;
}

/* The control server's spawn hook: start an approved request. */
struct session *
cli_spawn_request(struct sessions *ss, const struct approval_request *r,
    const struct cli_agent_opts *o, char **cause)
{
	struct session_opts	 so;
	struct sandbox_opts	 sbo;
	struct session		*s;
	char			**envp, **extra = NULL;
	char *const		 *over;

	/*
	 * The sandbox the request asked for, network only if it asked; a
	 * profile we do not know fails the start (fail closed).
	 */
	if (o != NULL && o->sandbox != NULL)
		sbo = *o->sandbox;
	else
		sandbox_opts_init(&sbo);
	if (r->sandbox != NULL &&
	    sandbox_profile_parse(r->sandbox, &sbo.profile, cause) != 0)
		return NULL;
	sbo.network = r->network;
	/* A host on neither list is asked where the request came from. */
	sbo.net_ask = o != NULL ? o->socket : NULL;
	sbo.net_asker = &ask_server;
	/* Hosts the request asked for, shown to whoever approved it. */
	if (r->network_allow != NULL &&
	    sandbox_opts_add_network(&sbo, false, r->network_allow,
	    cause) != 0)
		return NULL;
	/*
	 * Agents' commands run on our emulator, whatever our own TERM; with
	 * the agent's own environment when it sent it (nothing of ours).  A
	 * known read-only command runs with git's program-running settings
	 * turned off (it sets no variables itself: those are asked).
	 */
	memset(&so, 0, sizeof so);
	over = r->known_safe && (r->env == NULL || r->env[0] == NULL) ?
	    policy_known_safe_env() : r->env;
	if (r->environ != NULL) {
		envp = xcalloc(1, sizeof *envp);
		extra = session_environ_caller(r->environ, CLI_AGENT_TERM,
		    over);
		so.env_extra = extra;
	} else {
		envp = session_environ(CLI_AGENT_TERM, true);
		so.env_extra = over;
	}
	so.argv = r->argv;
	so.cwd = r->cwd;
	so.envp = envp;
	if (o != NULL && o->cols > 0 && o->rows > 0) {
		so.size.cols = o->cols;
		so.size.rows = o->rows;
	} else {
		so.size.cols = (unsigned short)(r->cols > 0 ? r->cols : 80);
		so.size.rows = (unsigned short)(r->rows > 0 ? r->rows : 24);
	}
	so.timeout_s = (unsigned)((r->timeout_ms + 999) / 1000);
	so.sandbox = &sbo;
	so.scrollback = o != NULL ? o->scrollback : 0;
	so.term = CLI_AGENT_TERM;
	so.decision = "approved";
	so.by = r->decided_by;
	so.agent = true;
	so.request = (unsigned long)r->id;
	memcpy(so.pipes, r->pipes, sizeof so.pipes);
	so.err_joined = r->err_joined;
	so.has_umask = r->has_umask;
	so.umask = (mode_t)r->umask;
	s = sessions_start(ss, &so, cause);
	strv_free(envp);
	strv_free(extra);
	return s;
}

/* The rules and settings files of an agents' server, followed. */
struct cli_follow {
	struct policy			*policy;
	struct approval			*approval;
	const struct cli_server_opts	*flags;
	char				*settings;	/* its path */
	struct watch			*rules_watch;
	struct watch			*settings_watch;
	void				(*report)(void *, enum cli_report,
					    const char *);
	void				*user;
};

/* Read the rules file again; its new rules replace the old ones. */
static void
cli_follow_rules(void *arg)
{
	struct cli_follow	*f = arg;
	char			*cause = NULL, *line;
	size_t			 n = 0;

	if (policy_reload_file(f->policy, f->flags->rules, &n, &cause) != 0) {
		line = xasprintf("rules not reloaded, the old ones stay: %s",
		    cause);
		f->report(f->user, CLI_REPORT_ERROR, line);
		free(cause);
	} else {
		line = xasprintf("rules reloaded from %s: %zu rule%s",
		    f->flags->rules, n, n == 1 ? "" : "s");
		f->report(f->user, CLI_REPORT_CHANGE, line);
	}
	free(line);
}

/* Read the settings file again; apply what may change while running. */
static void
cli_follow_settings(void *arg)
{
	struct cli_follow	*f = arg;
	struct config		*cfg = config_new();
	struct policy		*p = f->policy;
	enum policy_mode	 mode = POLICY_UNTRUSTED;
	const char		*notify;
	char			*cause = NULL, *line, *bad = NULL;

	if (config_load(cfg, f->settings, true, &cause) != 0) {
		line = xasprintf("settings not reloaded, nothing changed: "
		    "config %s", cause);
		f->report(f->user, CLI_REPORT_ERROR, line);
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
		if (notify != NULL && !cli_find_program(notify))
			bad = xasprintf("; notify program %s: %s, the old one "
			    "stays", notify, strerror(errno));
		else
			approval_set_notify(f->approval, notify);
	}
	line = xasprintf("settings reloaded from %s: approval %s%s%s; other "
	    "changes apply at the next start", f->settings,
	    policy_mode_name(policy_mode(p)), f->flags->mode_given ?
	    " (from the command line)" : "", bad != NULL ? bad : "");
	f->report(f->user, bad != NULL ? CLI_REPORT_ERROR : CLI_REPORT_CHANGE,
	    line);
	free(line);
	free(bad);
	config_free(cfg);
}

/* Watch path, calling fn(f) on a change; a failure is reported. */
static struct watch *
cli_follow_watch(struct cli_follow *f, struct loop *loop, const char *what,
    const char *path, void (*fn)(void *))
{
	struct watch	*w;
	char		*cause = NULL, *line;

	if ((w = watch_new(loop, path, fn, f, &cause)) == NULL) {
		line = xasprintf("%s file %s is not followed (%s)", what, path,
		    cause);
		f->report(f->user, CLI_REPORT_NOTE, line);
		free(line);
		free(cause);
	}
	return w;
}

struct cli_follow *
cli_follow_new(struct loop *loop, struct approval *a,
    const struct cli_server_opts *o,
    void (*report)(void *, enum cli_report, const char *), void *user)
{
	struct cli_follow	*f = xcalloc(1, sizeof *f);

	f->policy = approval_policy(a);
	f->approval = a;
	f->flags = o;
	f->settings = cli_settings_path();
	f->report = report;
	f->user = user;
	f->rules_watch = cli_follow_watch(f, loop, "rules", o->rules,
	    cli_follow_rules);
	f->settings_watch = cli_follow_watch(f, loop, "settings", f->settings,
	    cli_follow_settings);
	return f;
}

void
cli_follow_reload(struct cli_follow *f)
{
	cli_follow_settings(f);
	cli_follow_rules(f);
}

void
cli_follow_free(struct cli_follow *f)
{
	if (f == NULL)
		return;
	watch_free(f->rules_watch);
	watch_free(f->settings_watch);
	free(f->settings);
	free(f);
}

char *
cli_trouble_line(const struct session *s)
{
	return xasprintf("session %lu: %s (the command goes on)",
	    session_id(s), session_error(s));
}
