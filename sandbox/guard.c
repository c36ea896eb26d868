/*
 * guard.c - the list of protected and hidden paths (guard.h), its
 * expansion for one sandbox (the placeholders that keep a missing
 * protected path from being created: guard-place.c).
 *
 * Invariants: the expanded set is sorted by path, one entry per path
 * (hidden wins over read-only); a view's hidden children are marked
 * covered.
 */
#include "sandbox/guard.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

/* Why for the shell start-up files, said once. */
#define WHY_SHELL	"run by the person's next shell, outside any sandbox"
#define WHY_GIT		"programs the person's next git runs, outside any " \
			"sandbox (core.hooksPath, core.fsmonitor, aliases, " \
			"filters, credential helpers)"

const struct guard_rule guard_rules[] = {
	/* The agents' own settings: turning the hook off ends supervision. */
	{ ".claude/", GUARD_READ_ONLY, NULL, "Claude Code's project settings: "
	  "its hooks (ptyvisor's), permissions, disableAllHooks" },
	{ ".codex/", GUARD_READ_ONLY, NULL, "Codex's project config and "
	  "hooks" },
	{ ".gemini/", GUARD_READ_ONLY, NULL, "Gemini CLI's project settings "
	  "and hooks" },
	{ ".mcp.json", GUARD_READ_ONLY, NULL, "the project's MCP servers, "
	  "which the agent starts" },
	{ "~/.claude/", GUARD_READ_ONLY, NULL, "Claude Code's user settings "
	  "and hooks, where ptyvisor's hook is installed" },
	{ "~/.claude.json", GUARD_READ_ONLY, NULL, "Claude Code's user "
	  "state: its MCP servers and trusted projects" },
	{ "~/.codex/", GUARD_READ_ONLY, NULL, "Codex's user config.toml "
	  "and hooks" },
	{ "~/.gemini/", GUARD_READ_ONLY, NULL, "Gemini CLI's user settings "
	  "and hooks" },
	/* git: what the person's next git runs. */
	{ ".git/hooks/", GUARD_READ_ONLY, NULL, "run by the person's next "
	  "git commit, merge or push, outside any sandbox" },
	{ ".git/config", GUARD_READ_ONLY, NULL, WHY_GIT },
	{ "~/.gitconfig", GUARD_READ_ONLY, NULL, WHY_GIT },
	{ "~/.config/git/", GUARD_READ_ONLY, NULL, WHY_GIT },
	/* The shell's start-up files. */
	{ "~/.profile", GUARD_READ_ONLY, NULL, WHY_SHELL },
	{ "~/.bashrc", GUARD_READ_ONLY, NULL, WHY_SHELL },
	{ "~/.bash_profile", GUARD_READ_ONLY, NULL, WHY_SHELL },
	{ "~/.bash_login", GUARD_READ_ONLY, NULL, WHY_SHELL },
	{ "~/.bash_logout", GUARD_READ_ONLY, NULL, WHY_SHELL },
	{ "~/.zshenv", GUARD_READ_ONLY, NULL, WHY_SHELL },
	{ "~/.zprofile", GUARD_READ_ONLY, NULL, WHY_SHELL },
	{ "~/.zshrc", GUARD_READ_ONLY, NULL, WHY_SHELL },
	{ "~/.zlogin", GUARD_READ_ONLY, NULL, WHY_SHELL },
	{ "~/.zlogout", GUARD_READ_ONLY, NULL, WHY_SHELL },
	{ "~/.config/fish/", GUARD_READ_ONLY, NULL, WHY_SHELL },
	/* What starts by itself later. */
	{ "~/.config/systemd/user/", GUARD_READ_ONLY, NULL, "services "
	  "systemd starts for the person" },
	{ "~/.config/autostart/", GUARD_READ_ONLY, NULL, "programs the "
	  "desktop starts at login" },
	{ "~/.config/environment.d/", GUARD_READ_ONLY, NULL, "variables "
	  "every service of the person's session gets" },
	/* ssh: keys hidden; who may log in and how ssh connects read-only. */
	{ "~/.ssh/", GUARD_HIDDEN, "known_hosts,known_hosts2,config",
	  "private keys; only known_hosts and config stay (read-only: "
	  "ProxyCommand runs programs), authorized_keys is gone" },
	/* Credentials. */
	{ "$SSH_AUTH_SOCK", GUARD_HIDDEN, NULL, "the ssh-agent signs as the "
	  "person with every key it holds" },
	{ "~/.aws/", GUARD_HIDDEN, NULL, "AWS credentials" },
	{ "$AWS_SHARED_CREDENTIALS_FILE", GUARD_HIDDEN, NULL,
	  "AWS credentials" },
	{ "~/.config/gcloud/", GUARD_HIDDEN, NULL, "Google Cloud "
	  "credentials" },
	{ "$CLOUDSDK_CONFIG/", GUARD_HIDDEN, NULL, "Google Cloud "
	  "credentials" },
	{ "$GOOGLE_APPLICATION_CREDENTIALS", GUARD_HIDDEN, NULL,
	  "a Google service account's key" },
	{ "~/.azure/", GUARD_HIDDEN, NULL, "Azure credentials" },
	{ "~/.kube/", GUARD_HIDDEN, NULL, "Kubernetes clusters' "
	  "credentials" },
	{ "$KUBECONFIG", GUARD_HIDDEN, NULL, "Kubernetes clusters' "
	  "credentials" },
	{ "~/.netrc", GUARD_HIDDEN, NULL, "passwords for hosts (curl, git, "
	  "ftp)" },
	{ "~/.git-credentials", GUARD_HIDDEN, NULL, "git's stored "
	  "passwords and tokens" },
	{ "~/.config/git/credentials", GUARD_HIDDEN, NULL, "git's stored "
	  "passwords and tokens" },
	{ "~/.config/gh/", GUARD_HIDDEN, NULL, "GitHub CLI's token" },
	{ "~/.npmrc", GUARD_HIDDEN, NULL, "npm registry tokens" },
	{ "~/.pypirc", GUARD_HIDDEN, NULL, "PyPI tokens" },
	{ "~/.docker/config.json", GUARD_HIDDEN, NULL, "container "
	  "registries' credentials" },
	{ "$DOCKER_CONFIG/config.json", GUARD_HIDDEN, NULL, "container "
	  "registries' credentials" },
	{ "~/.cargo/credentials", GUARD_HIDDEN, NULL, "crates.io token" },
	{ "~/.cargo/credentials.toml", GUARD_HIDDEN, NULL, "crates.io "
	  "token" },
	{ "~/.gnupg/", GUARD_HIDDEN, NULL, "private OpenPGP keys" },
	{ "$GNUPGHOME/", GUARD_HIDDEN, NULL, "private OpenPGP keys" },
	{ "~/.password-store/", GUARD_HIDDEN, NULL, "pass's passwords" },
	{ "$PASSWORD_STORE_DIR/", GUARD_HIDDEN, NULL, "pass's passwords" },
	{ "~/.local/share/keyrings/", GUARD_HIDDEN, NULL, "the desktop's "
	  "key rings" },
	{ "~/.mozilla/", GUARD_HIDDEN, NULL, "browser profiles: cookies "
	  "and saved passwords" },
	{ "~/.config/google-chrome/", GUARD_HIDDEN, NULL, "browser "
	  "profiles: cookies and saved passwords" },
	{ "~/.config/chromium/", GUARD_HIDDEN, NULL, "browser profiles: "
	  "cookies and saved passwords" },
	{ "~/.claude/.credentials.json", GUARD_HIDDEN, NULL, "Claude Code's "
	  "login" },
	{ "~/.codex/auth.json", GUARD_HIDDEN, NULL, "Codex's login and API "
	  "key" },
	{ "~/.gemini/oauth_creds.json", GUARD_HIDDEN, NULL, "Gemini CLI's "
	  "login" },
	{ "/etc/shadow", GUARD_HIDDEN, NULL, "password hashes" },
	{ "/etc/gshadow", GUARD_HIDDEN, NULL, "password hashes" },
	{ "/etc/shadow-", GUARD_HIDDEN, NULL, "password hashes (backup)" },
	{ "/etc/gshadow-", GUARD_HIDDEN, NULL, "password hashes (backup)" },
};
const size_t guard_nrules = sizeof guard_rules / sizeof guard_rules[0];

/* Bounds of the search for repositories under a project root. */
#define GUARD_GIT_DEPTH		3
#define GUARD_GIT_BUDGET	2000	/* directories read, all roots */

void
guard_parent(const char *path, char *buf, size_t len)
{
	const char	*slash = strrchr(path, '/');
	size_t		 n = slash == NULL || slash == path ? 1 :
			    (size_t)(slash - path);

	if (n >= len)
		n = len - 1;
	memcpy(buf, path, n);
	buf[n] = '\0';
}

bool
guard_path_under(const char *path, const char *root)
{
	size_t	n = strlen(root);

	if (n == 1 && root[0] == '/')
		return path[0] == '/';
	return strncmp(path, root, n) == 0 &&
	    (path[n] == '\0' || path[n] == '/');
}

/* A growing list of expanded paths. */
struct guard_list {
	struct guard_set	*set;
	size_t			 cap;
	const struct guard_input *in;
};

/* Add one path for a rule (path is taken). */
static void
guard_add(struct guard_list *l, char *path, bool dir, enum guard_how how,
    const char *rule, const char *keep, const char *why)
{
	struct guard_path	*g;
	struct stat		 st;
	size_t			 n;
	int			 i;

	while ((n = strlen(path)) > 1 && path[n - 1] == '/')
		path[n - 1] = '\0';
	if (path[0] != '/') {
		free(path);
		return;
	}
	/*
	 * Never hide what holds the command's own directory or a writable
	 * root: the person chose to work there (another user's home as
	 * root, say, where ssh puts a session).
	 */
	for (i = 0; how == GUARD_HIDDEN && i < l->in->nroots + l->in->nprojects;
	    i++) {
		if (guard_path_under(i < l->in->nroots ? l->in->roots[i] :
		    l->in->projects[i - l->in->nroots], path)) {
			free(path);
			return;
		}
	}
	if (l->set->n == l->cap) {
		l->cap = l->cap == 0 ? 64 : l->cap * 2;
		l->set->v = xreallocarray(l->set->v, l->cap, sizeof *g);
	}
	g = &l->set->v[l->set->n++];
	memset(g, 0, sizeof *g);
	g->path = path;
	g->how = how;
	g->rule = rule;
	g->keep = keep;
	g->why = why;
	g->dir = dir;
	if (lstat(path, &st) == 0) {
		g->exists = true;
		g->dir = S_ISDIR(st.st_mode);
	}
	for (i = 0; i < l->in->nroots; i++)
		if (guard_path_under(path, l->in->roots[i]))
			g->writable = true;
}

/* Whether rule was taken off by an exposure (as written, or expanded). */
static bool
guard_exposed(const struct guard_input *in, const char *rule,
    const char *path)
{
	int	i;

	for (i = 0; i < in->nexpose; i++)
		if (strcmp(in->expose[i], rule) == 0 ||
		    (path != NULL && strcmp(in->expose[i], path) == 0))
			return true;
	return false;
}

/* The value of NAME in env, or in ours when env is NULL; or NULL. */
static const char *
guard_var(char *const *env, const char *name, size_t len)
{
	char	var[128];
	size_t	i;

	if (env == NULL) {
		if (len >= sizeof var)
			return NULL;
		memcpy(var, name, len);
		var[len] = '\0';
		return getenv(var);
	}
	for (i = 0; env[i] != NULL; i++)
		if (strncmp(env[i], name, len) == 0 && env[i][len] == '=')
			return env[i] + len + 1;
	return NULL;
}

/* Expand one rule relative to base ("~/", "$", absolute or a root). */
static void
guard_rule_at(struct guard_list *l, const char *base, const char *rest,
    enum guard_how how, const char *rule, const char *keep, const char *why)
{
	size_t	n = strlen(rest);
	bool	dir = n > 0 && rest[n - 1] == '/';
	char	*p;

	p = xasprintf("%s%s%s", base, base[0] != '\0' && rest[0] != '\0' ?
	    "/" : "", rest);
	if (guard_exposed(l->in, rule, p)) {
		free(p);
		return;
	}
	guard_add(l, p, dir, how, rule, keep, why);
}

/*
 * Expand "$VAR" or "$VAR/rest": each path the variable names, in the
 * command's variables and in ours (a command may be given either).
 */
static void
guard_rule_var(struct guard_list *l, const char *path, enum guard_how how,
    const char *keep, const char *why)
{
	const char	*name = path + 1, *slash, *val, *p, *end;
	char		*one;
	size_t		 len;
	int		 k;

	slash = strchr(name, '/');
	len = slash != NULL ? (size_t)(slash - name) : strlen(name);
	for (k = 0; k < 2; k++) {
		if (k == 0 && l->in->environ == NULL)
			continue;
		val = guard_var(k == 0 ? l->in->environ : NULL, name, len);
		if (val == NULL)
			continue;
		/* A list such as KUBECONFIG's: each of its paths. */
		for (p = val; *p != '\0'; p = *end == ':' ? end + 1 : end) {
			end = strchr(p, ':');
			if (end == NULL)
				end = p + strlen(p);
			if (end == p || *p != '/')
				continue;
			one = xstrndup(p, (size_t)(end - p));
			guard_rule_at(l, one, slash != NULL ? slash + 1 : "",
			    how, path, keep, why);
			free(one);
		}
	}
}

/* Add dir/.git's rules for a repository found at dir. */
static void
guard_git_at(struct guard_list *l, const char *dir)
{
	size_t	i;

	for (i = 0; i < guard_nrules; i++)
		if (strncmp(guard_rules[i].path, ".git/", 5) == 0)
			guard_rule_at(l, dir, guard_rules[i].path,
			    guard_rules[i].how, guard_rules[i].path,
			    guard_rules[i].keep, guard_rules[i].why);
}

/* Find the repositories under dir, depth first, within the budget. */
static void
guard_git_walk(struct guard_list *l, const char *dir, int depth, int *budget)
{
	struct dirent	*d;
	struct stat	 st;
	DIR		*dp;
	char		*sub;

	if (--*budget < 0 || (dp = opendir(dir)) == NULL)
		return;
	while ((d = readdir(dp)) != NULL) {
		if ((d->d_type != DT_DIR && d->d_type != DT_UNKNOWN) ||
		    strcmp(d->d_name, ".") == 0 ||
		    strcmp(d->d_name, "..") == 0 ||
		    strcmp(d->d_name, "node_modules") == 0)
			continue;
		sub = xasprintf("%s/%s", strcmp(dir, "/") == 0 ? "" : dir,
		    d->d_name);
		if (lstat(sub, &st) != 0 || !S_ISDIR(st.st_mode))
			;
		else if (strcmp(d->d_name, ".git") == 0)
			guard_git_at(l, dir);
		else if (depth < GUARD_GIT_DEPTH)
			guard_git_walk(l, sub, depth + 1, budget);
		free(sub);
	}
	closedir(dp);
}

/* As root: every other home. */
static void
guard_other_homes(struct guard_list *l)
{
	struct dirent	*d;
	DIR		*dp;
	char		*p;

	if ((dp = opendir("/home")) != NULL) {
		while ((d = readdir(dp)) != NULL) {
			if (d->d_name[0] == '.')
				continue;
			p = xasprintf("/home/%s", d->d_name);
			if (l->in->home != NULL &&
			    guard_path_under(l->in->home, p))
				free(p);
			else
				guard_add(l, p, true, GUARD_HIDDEN, "/home/*",
				    NULL, "another user's home (running as "
				    "root)");
		}
		closedir(dp);
	}
	if (l->in->home == NULL || !guard_path_under(l->in->home, "/root"))
		guard_add(l, xstrdup("/root"), true, GUARD_HIDDEN, "/root",
		    NULL, "another user's home (running as root)");
}

/* Order by path; the same path once, hidden winning. */
static int
guard_cmp(const void *a, const void *b)
{
	const struct guard_path	*x = a, *y = b;

	return strcmp(x->path, y->path);
}

/* Whether name is in the ','-separated list. */
static bool
guard_kept(const char *list, const char *name)
{
	size_t	n = strlen(name);
	const char *p;

	for (p = list; p != NULL && *p != '\0'; ) {
		if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return true;
		p = strchr(p, ',');
		p = p != NULL ? p + 1 : NULL;
	}
	return false;
}

/* Whether set holds a hidden entry for exactly path. */
static struct guard_path *
guard_hidden_child(struct guard_set *set, const char *path)
{
	struct guard_path	key, *g;

	key.path = (char *)path;
	g = bsearch(&key, set->v, set->n, sizeof *set->v, guard_cmp);
	return g != NULL && g->how == GUARD_HIDDEN ? g : NULL;
}

/* Undo what guard_view() began on g: no view after all. */
static void
guard_no_view(struct guard_set *set, struct guard_path *g, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(g->entries[i]);
		free(g->links[i]);
	}
	free(g->entries);
	free(g->links);
	free(g->modes);
	g->entries = g->links = NULL;
	g->modes = NULL;
	for (i = 0; i < set->n; i++)
		if (set->v[i].covered && guard_path_under(set->v[i].path,
		    g->path) && set->v[i].path != g->path)
			set->v[i].covered = false;
}

/* Whether set hides an entry of directory dir itself (dir/NAME). */
static bool
guard_hides_child(const struct guard_set *set, const char *dir)
{
	size_t		 i, len = strlen(dir);
	const char	*p;

	for (i = 0; i < set->n; i++) {
		p = set->v[i].path;
		if (set->v[i].how == GUARD_HIDDEN &&
		    strncmp(p, dir, len) == 0 && p[len] == '/' &&
		    p[len + 1] != '\0' && strchr(p + len + 1, '/') == NULL)
			return true;
	}
	return false;
}

/*
 * Make g a view when it must be one: a hidden directory that keeps some
 * entries, or a read-only one with hidden entries of its own.  One with
 * more entries than a view copies is mounted whole instead (its hidden
 * entries each get their own mount).  Neither: its entries are not read
 * (a session's start read every directory it guards, ptyvisor's state
 * with its recordings among them).
 */
static void
guard_view(struct guard_set *set, struct guard_path *g)
{
	struct dirent	*d;
	struct stat	 st;
	struct guard_path *h;
	DIR		*dp;
	size_t		 n = 0;
	bool		 any = g->how == GUARD_HIDDEN && g->keep != NULL;
	bool		 full = false, out;
	char		 buf[PATH_MAX], *p;
	ssize_t		 len;

	if (!g->exists || !g->dir)
		return;
	if (g->how == GUARD_HIDDEN ? g->keep == NULL :
	    !guard_hides_child(set, g->path))
		return;
	if ((dp = opendir(g->path)) == NULL)
		return;
	g->entries = xcalloc(GUARD_VIEW_MAX + 1, sizeof *g->entries);
	g->links = xcalloc(GUARD_VIEW_MAX + 1, sizeof *g->links);
	g->modes = xcalloc(GUARD_VIEW_MAX + 1, sizeof *g->modes);
	while (!full && (d = readdir(dp)) != NULL) {
		if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0)
			continue;
		p = xasprintf("%s/%s", g->path, d->d_name);
		if (g->how == GUARD_HIDDEN)
			out = !guard_kept(g->keep, d->d_name);
		else if ((h = guard_hidden_child(set, p)) != NULL) {
			h->covered = true;
			out = any = true;
		} else
			out = false;
		if (!out && lstat(p, &st) == 0) {
			if (n == GUARD_VIEW_MAX)
				full = true;
			else {
				g->modes[n] = st.st_mode & S_IFMT;
				if (S_ISLNK(st.st_mode) && (len = readlink(p,
				    buf, sizeof buf - 1)) >= 0) {
					buf[len] = '\0';
					g->links[n] = xstrdup(buf);
				}
				g->entries[n++] = xstrdup(d->d_name);
			}
		}
		free(p);
	}
	closedir(dp);
	if (any && !full)
		g->view = true;
	else
		guard_no_view(set, g, n);
}

/* Sort, merge duplicates and mark the views. */
static void
guard_finish(struct guard_set *set)
{
	size_t	i, j;

	qsort(set->v, set->n, sizeof *set->v, guard_cmp);
	for (i = 0, j = 0; i < set->n; i++) {
		if (j > 0 && strcmp(set->v[j - 1].path, set->v[i].path) == 0) {
			if (set->v[i].how == GUARD_HIDDEN &&
			    set->v[j - 1].how != GUARD_HIDDEN) {
				free(set->v[j - 1].path);
				set->v[j - 1] = set->v[i];
			} else
				free(set->v[i].path);
			continue;
		}
		set->v[j++] = set->v[i];
	}
	set->n = j;
	for (i = 0; i < set->n; i++)
		guard_view(set, &set->v[i]);
}

void
guard_expand(const struct guard_input *in, struct guard_set *set)
{
	struct guard_list	 l;
	const char		*path;
	size_t			 i, k;
	int			 j, budget = GUARD_GIT_BUDGET;

	memset(set, 0, sizeof *set);
	memset(&l, 0, sizeof l);
	l.set = set;
	l.in = in;
	for (i = 0; i < guard_nrules + (size_t)(in->nprotect + in->nhide);
	    i++) {
		enum guard_how	how;
		const char	*keep = NULL, *why;

		if (i < guard_nrules) {
			path = guard_rules[i].path;
			how = guard_rules[i].how;
			keep = guard_rules[i].keep;
			why = guard_rules[i].why;
		} else if (i < guard_nrules + (size_t)in->nprotect) {
			k = i - guard_nrules;
			path = in->protect[k];
			how = GUARD_READ_ONLY;
			why = in->protect_why != NULL &&
			    in->protect_why[k] != NULL ? in->protect_why[k] :
			    "named by the settings (protect)";
		} else {
			k = i - guard_nrules - (size_t)in->nprotect;
			path = in->hide[k];
			how = GUARD_HIDDEN;
			why = in->hide_why != NULL && in->hide_why[k] != NULL ?
			    in->hide_why[k] : "named by the settings (hide)";
		}
		if (i < guard_nrules && guard_exposed(in, path, NULL)) {
			set->exposed = xreallocarray(set->exposed,
			    set->nexposed + 1, sizeof *set->exposed);
			set->exposed[set->nexposed++] = xstrdup(path);
			continue;
		}
		if (strncmp(path, "~/", 2) == 0) {
			if (in->home != NULL)
				guard_rule_at(&l, in->home, path + 2, how,
				    path, keep, why);
			if (in->agent_home != NULL)
				guard_rule_at(&l, in->agent_home, path + 2,
				    how, path, keep, why);
		} else if (path[0] == '$')
			guard_rule_var(&l, path, how, keep, why);
		else if (path[0] == '/')
			guard_rule_at(&l, "", path, how, path, keep, why);
		else if (strncmp(path, ".git/", 5) == 0)
			continue;	/* per repository, below */
		else
			for (j = 0; j < in->nprojects; j++)
				guard_rule_at(&l, in->projects[j], path, how,
				    path, keep, why);
	}
	for (j = 0; j < in->nprojects; j++)
		guard_git_walk(&l, in->projects[j], 1, &budget);
	if (in->other_homes)
		guard_other_homes(&l);
	guard_finish(set);
}

void
guard_set_free(struct guard_set *set)
{
	size_t	i, k;

	for (i = 0; i < set->n; i++) {
		free(set->v[i].path);
		free(set->v[i].ph_top);
		for (k = 0; set->v[i].entries != NULL &&
		    set->v[i].entries[k] != NULL; k++) {
			free(set->v[i].entries[k]);
			free(set->v[i].links[k]);
		}
		free(set->v[i].entries);
		free(set->v[i].links);
		free(set->v[i].modes);
	}
	free(set->v);
	for (i = 0; i < set->nexposed; i++)
		free(set->exposed[i]);
	free(set->exposed);
	memset(set, 0, sizeof *set);
}

bool
guard_creatable(const struct guard_path *g)
{
	struct stat	 st;
	char		 parent[PATH_MAX];

	if (g->exists || g->how != GUARD_READ_ONLY || !g->writable)
		return false;
	/* Not inside .git: git would not read a placeholder well. */
	if (strstr(g->path, "/.git/") != NULL)
		return false;
	if (g->dir)
		return true;
	guard_parent(g->path, parent, sizeof parent);
	return stat(parent, &st) == 0 && S_ISDIR(st.st_mode);
}

const struct guard_path *
guard_find(const struct guard_set *set, const char *path)
{
	const struct guard_path	*found = NULL;
	size_t			 i;

	/* The deepest entry that holds path. */
	for (i = 0; i < set->n; i++)
		if (guard_path_under(path, set->v[i].path))
			found = &set->v[i];
	return found;
}

void
guard_explain(const struct guard_set *set, bool in_force, struct buf *out)
{
	const struct guard_path	*g;
	size_t			 i;

	buf_printf(out, "guarded paths (doc/policy.md says why):%s\n",
	    in_force ? "" : " NOT IN FORCE without namespaces: only what "
	    "Landlock keeps read-only is, and nothing is hidden");
	for (i = 0; i < set->n; i++) {
		g = &set->v[i];
		if (!g->exists && !guard_creatable(g))
			continue;
		buf_printf(out, "  %-9s %s%s%s  (%s)\n",
		    g->how == GUARD_HIDDEN ? "hidden" : "read-only", g->path,
		    g->dir ? "/" : "", !g->exists ? " [missing: an empty "
		    "stand-in is made while a session runs]" : g->view ?
		    " [a read-only copy of its other entries]" : "", g->why);
	}
	for (i = 0; i < set->nexposed; i++)
		buf_printf(out, "  exposed   %s  (taken off the list by the "
		    "setting expose)\n", set->exposed[i]);
}
