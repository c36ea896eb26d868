/*
 * test-guard.c - the list of guarded paths: expansion (home, project,
 * variables, repositories found, views, hidden winning, exposure, never
 * hiding the workspace), placeholders made and removed, guard_find, and
 * doc/policy.md naming every rule.
 */
#include "sandbox/guard.h"
#include "sandbox/sandbox.h"
#include "sandbox/sandbox-int.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "tests/tap.h"

static char	dir[] = "/tmp/ptyvisor-guard.XXXXXX";

/* The expanded entry for path, or NULL. */
static const struct guard_path *
entry(const struct guard_set *set, const char *path)
{
	size_t	i;

	for (i = 0; i < set->n; i++)
		if (strcmp(set->v[i].path, path) == 0)
			return &set->v[i];
	return NULL;
}

/* Make a file with contents s under dir. */
static void
put(const char *rel, const char *s)
{
	char	*p = xasprintf("%s/%s", dir, rel);
	FILE	*f = fopen(p, "w");

	if (f != NULL) {
		fputs(s, f);
		fclose(f);
	}
	free(p);
}

/* dir/rel, in one of a few static buffers (no allocation to free). */
static char *
at(const char *rel)
{
	static char	ring[8][512];
	static int	next;
	char		*p = ring[next++ % 8];

	snprintf(p, sizeof ring[0], "%s/%s", dir, rel);
	return p;
}

static void
test_expand(void)
{
	struct guard_input	 in;
	struct guard_set	 set;
	const struct guard_path	*g;
	char			 home[512], ws[512];
	char			*p;
	const char		*roots[] = { ws };
	const char		*hide[] = { "notes.txt", "~/ws" };
	const char		*hide_why[] = { NULL, NULL };
	const char		*expose[] = { "~/.netrc" };
	char			*env[] = { "KUBECONFIG=/k/a:/k/b", NULL, NULL };

	snprintf(home, sizeof home, "%s/home", dir);
	snprintf(ws, sizeof ws, "%s/home/ws", dir);
	p = xasprintf("SSH_AUTH_SOCK=%s/agent.sock", dir);
	env[1] = p;
	memset(&in, 0, sizeof in);
	in.home = home;
	in.roots = roots;
	in.nroots = 1;
	in.projects = roots;
	in.nprojects = 1;
	in.environ = env;
	in.hide = hide;
	in.hide_why = hide_why;
	in.nhide = 2;
	in.expose = expose;
	in.nexpose = 1;
	guard_expand(&in, &set);

	g = entry(&set, at("home/.zshrc"));
	ok(g != NULL && g->how == GUARD_READ_ONLY && !g->exists &&
	    !g->writable, "~/.zshrc: read-only, missing, not writable here");
	g = entry(&set, at("home/.bashrc"));
	ok(g != NULL && g->exists, "~/.bashrc: there");
	g = entry(&set, at("home/ws/.claude"));
	ok(g != NULL && g->dir && g->writable, "a project's .claude/: a "
	    "writable directory");
	g = entry(&set, at("home/ws/.git/config"));
	ok(g != NULL, "the project's repository: .git/config");
	g = entry(&set, at("home/ws/sub/deep/.git/hooks"));
	ok(g != NULL && g->dir, "a repository found below: .git/hooks/");
	ok(entry(&set, at("home/ws/sub/deep/.claude")) == NULL,
	    "but not the agents' files of a repository below");
	g = entry(&set, at("home/.ssh"));
	ok(g != NULL && g->how == GUARD_HIDDEN && g->view,
	    "~/.ssh: hidden, a view keeping some entries");
	ok(g != NULL && g->entries != NULL && g->entries[0] != NULL &&
	    strcmp(g->entries[0], "known_hosts") == 0 && g->entries[1] == NULL,
	    "the view keeps known_hosts only, not the key");
	g = entry(&set, at("home/.claude"));
	ok(g != NULL && g->view, "~/.claude: a view, it holds a login");
	g = entry(&set, at("home/.claude/.credentials.json"));
	ok(g != NULL && g->covered, "the login is left out of the view");
	ok(entry(&set, "/k/a") != NULL && entry(&set, "/k/b") != NULL,
	    "$KUBECONFIG: each path of the list");
	ok(entry(&set, p + strlen("SSH_AUTH_SOCK=")) != NULL,
	    "$SSH_AUTH_SOCK: the agent's socket");
	g = entry(&set, at("home/ws/notes.txt"));
	ok(g != NULL && g->how == GUARD_HIDDEN &&
	    strstr(g->why, "settings") != NULL, "a setting hides a path of "
	    "the project, and says so");
	ok(entry(&set, ws) == NULL, "a hidden path never covers the "
	    "workspace");
	ok(entry(&set, at("home/.netrc")) == NULL && set.nexposed == 1 &&
	    strcmp(set.exposed[0], "~/.netrc") == 0,
	    "an exposed rule is gone, and noted");
	ok(entry(&set, "/etc/shadow") != NULL, "/etc/shadow");
	for (size_t i = 1; i < set.n; i++)
		if (strcmp(set.v[i - 1].path, set.v[i].path) >= 0) {
			ok(0, "sorted, one entry per path: %s", set.v[i].path);
			break;
		} else if (i + 1 == set.n)
			ok(1, "sorted, one entry per path");

	g = guard_find(&set, at("home/ws/.claude/settings.local.json"));
	ok(g != NULL && strcmp(g->path, at("home/ws/.claude")) == 0,
	    "guard_find: a file below a guarded directory");
	ok(guard_find(&set, at("home/ws/src/main.c")) == NULL,
	    "guard_find: an ordinary file is not guarded");
	ok(guard_path_under("/a/b", "/a") && !guard_path_under("/ab", "/a") &&
	    guard_path_under("/a", "/") && guard_path_under("/a", "/a"),
	    "guard_path_under");
	guard_set_free(&set);
	free(p);
}

static void
test_placeholders(void)
{
	struct guard_input	 in;
	struct guard_set	 set, set2;
	struct stat		 st;
	char			 home[512], ws[512], *p;
	const char		*roots[] = { home };
	const char		*projects[] = { ws };

	snprintf(home, sizeof home, "%s/home", dir);
	snprintf(ws, sizeof ws, "%s/home/ws", dir);
	memset(&in, 0, sizeof in);
	in.home = home;
	in.roots = roots;
	in.nroots = 1;
	in.projects = projects;
	in.nprojects = 1;
	guard_expand(&in, &set);
	guard_placeholders_make(&set);
	p = at("home/.zshrc");
	ok(stat(p, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0 &&
	    (st.st_mode & 0777) == 0444, "a missing ~/.zshrc: empty, 0444");
	p = at("home/.bash_profile");
	ok(stat(p, &st) == 0 && (st.st_mode & 0777) == 0,
	    "a missing ~/.bash_profile: unreadable");
	p = at("home/ws/.mcp.json");
	ok(stat(p, &st) == 0 && st.st_size == 3, "a missing .mcp.json: {}");
	p = at("home/.config/systemd/user");
	ok(stat(p, &st) == 0 && S_ISDIR(st.st_mode), "a missing directory "
	    "with the ones above it");
	p = at("home/.bashrc");
	ok(stat(p, &st) == 0 && st.st_size > 3, "an existing one is left "
	    "alone");
	/* One the person replaced meanwhile stays. */
	p = at("home/.zprofile");
	unlink(p);
	put("home/.zprofile", "mine\n");
	guard_placeholders_remove(&set);
	ok(stat(p, &st) == 0, "a placeholder replaced by the person stays");
	unlink(p);
	p = at("home/.zshrc");
	ok(stat(p, &st) != 0, "the others are gone");
	p = at("home/.config");
	ok(stat(p, &st) != 0, "with the directories made above them");
	p = at("home/ws/.mcp.json");
	ok(stat(p, &st) != 0, ".mcp.json too");
	guard_set_free(&set);

	/*
	 * Two sandboxes of one process: the second finds the first's
	 * placeholders and holds them too; they go with the last.
	 */
	guard_expand(&in, &set);
	guard_placeholders_make(&set);
	guard_expand(&in, &set2);
	guard_placeholders_make(&set2);
	guard_placeholders_remove(&set);
	p = at("home/.zshrc");
	ok(stat(p, &st) == 0 && st.st_size == 0, "a placeholder another "
	    "sandbox of ours holds stays when the first goes");
	p = at("home/.config/systemd/user");
	ok(stat(p, &st) == 0 && S_ISDIR(st.st_mode), "a directory too");
	guard_placeholders_remove(&set2);
	p = at("home/.zshrc");
	ok(stat(p, &st) != 0, "and goes with the last");
	p = at("home/.config");
	ok(stat(p, &st) != 0, "the directories made above it too");
	guard_set_free(&set);
	guard_set_free(&set2);
}

/* The whole of a file, or NULL. */
static char *
slurp(const char *path)
{
	struct buf	 b = { 0 };
	char		 chunk[4096], *s;
	size_t		 n;
	FILE		*f = fopen(path, "r");

	if (f == NULL)
		return NULL;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_add(&b, chunk, n);
	fclose(f);
	s = xstrdup(buf_cstr(&b));
	buf_free(&b);
	return s;
}

/* Every rule of the list has its row, with its reason, in the docs. */
static void
test_doc(void)
{
	const char	*top = getenv("top_srcdir");
	char		*path, *doc, *row;
	size_t		 i, missing = 0;

	path = xasprintf("%s/doc/policy.md", top != NULL ? top : "..");
	doc = slurp(path);
	if (!ok(doc != NULL, "doc/policy.md is readable")) {
		free(path);
		return;
	}
	for (i = 0; i < guard_nrules; i++) {
		row = xasprintf("| `%s` | %s | %s", guard_rules[i].path,
		    guard_rules[i].how == GUARD_HIDDEN ? "hidden" :
		    "read-only", guard_rules[i].why);
		if (strstr(doc, row) == NULL) {
			diag("not in doc/policy.md: %s", row);
			missing++;
		}
		free(row);
	}
	ok(missing == 0, "doc/policy.md gives every rule with its reason "
	    "(%zu missing)", missing);
	free(doc);
	free(path);
}

/*
 * An agent started with HOME elsewhere than ours reads its settings
 * there: the ~ rules apply at both homes (sandbox_guard_input takes the
 * command's HOME from its variables).
 */
static void
test_agent_home(void)
{
	struct sandbox_opts	 opts;
	struct guard_input	 in;
	struct guard_set	 set;
	const struct guard_path	*g;
	char			 ws[512];
	char			*env[] = { NULL, NULL }, *p;
	const char		*roots[] = { ws };

	snprintf(ws, sizeof ws, "%s/home/ws", dir);
	env[0] = xasprintf("HOME=%s/agent", dir);
	sandbox_opts_init(&opts);
	opts.environ = env;
	sandbox_guard_input(&opts, &in);
	ok(in.agent_home != NULL && strcmp(in.agent_home, env[0] + 5) == 0,
	    "the command's HOME, another than ours, is the agent's home");
	in.roots = roots;
	in.nroots = 1;
	in.projects = roots;
	in.nprojects = 1;
	guard_expand(&in, &set);
	g = entry(&set, at("agent/.claude"));
	ok(g != NULL && g->how == GUARD_READ_ONLY && g->dir,
	    "its ~/.claude/: read-only, as ours");
	g = entry(&set, at("agent/.ssh"));
	ok(g != NULL && g->how == GUARD_HIDDEN, "its ~/.ssh: hidden");
	if (in.home != NULL) {
		p = xasprintf("%s/.claude", in.home);
		ok(entry(&set, p) != NULL, "ours still guarded beside it (%s)",
		    p);
		free(p);
	} else
		tap_skip(1, "no HOME of ours to compare with");
	guard_set_free(&set);
	free(env[0]);
	env[0] = xasprintf("HOME=%s", getenv("HOME") != NULL ?
	    getenv("HOME") : "/");
	sandbox_guard_input(&opts, &in);
	ok(in.agent_home == NULL, "the command's HOME, ours: nothing more");
	free(env[0]);
}

int
main(void)
{
	char	*cmd;

	if (mkdtemp(dir) == NULL)
		return 1;
	cmd = xasprintf("mkdir -p %s/home/.ssh %s/home/.claude "
	    "%s/home/ws/.git %s/home/ws/sub/deep/.git", dir, dir, dir, dir);
	if (system(cmd) != 0)
		return 1;
	free(cmd);
	put("home/.ssh/id_ed25519", "key\n");
	put("home/.ssh/known_hosts", "host\n");
	put("home/.claude/.credentials.json", "tok\n");
	put("home/.claude/settings.json", "{}\n");
	put("home/.bashrc", "alias x=y\n");
	put("home/.netrc", "machine x\n");
	test_expand();
	test_agent_home();
	test_placeholders();
	test_doc();
	cmd = xasprintf("rm -rf %s", dir);
	if (system(cmd) != 0)
		diag("could not remove %s", dir);
	free(cmd);
	return tap_done();
}
