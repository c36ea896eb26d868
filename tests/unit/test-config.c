/*
 * test-config.c - the settings file: a full valid file and every getter,
 * comments and blanks, each key's bad values, unknown sections and keys,
 * duplicates, line numbers in errors, missing and unreadable files, and
 * what config_apply_sandbox() leaves alone.
 */
#include "conf/config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "tests/tap.h"

static char	*tmpdir;
static unsigned	 nfiles;

/* Write text to a new file in the test directory; caller frees the path. */
static char *
write_file(const char *text, size_t len)
{
	char	*path = xasprintf("%s/config.%u", tmpdir, ++nfiles);
	FILE	*f;

	if ((f = fopen(path, "w")) == NULL ||
	    fwrite(text, 1, len, f) != len || fclose(f) != 0)
		fatal("cannot write %s", path);
	return path;
}

/* Load text as a settings file; *cause is set (caller frees) on error. */
static struct config *
load(const char *text, int *rc, char **cause, char **pathp)
{
	struct config	*cfg = config_new();
	char		*path = write_file(text, strlen(text));

	*cause = NULL;
	*rc = config_load(cfg, path, false, cause);
	if (pathp != NULL)
		*pathp = path;
	else
		free(path);
	return cfg;
}

/* A file with every key. */
static const char full[] =
    "# ptyvisor settings\n"
    "; another comment style\n"
    "\n"
    "[approval]\n"
    "mode = on-request\n"
    "notify = notify-send-json\n"
    "rules = /etc/ptyvisor/rules\n"
    "\n"
    "[sandbox]\n"
    "profile = read-only\n"
    "network = yes\n"
    "writable = /srv/a\n"
    "writable = /srv/b c\n"
    "network_allow = pypi.org, *.pythonhosted.org\n"
    "network_allow = github.com:443\n"
    "network_deny = evil.pythonhosted.org\n"
    "pass_env = GITHUB_TOKEN\n"
    "pass_env = npm_config__auth\n"
    "protect_git = on\n"
    "private_tmp = true\n"
    "allow_no_namespaces = 1\n"
    "max_procs = 64\n"
    "max_files = 256\n"
    "max_memory = 4G\n"
    "max_session_memory = 2G\n"
    "max_file_size = 100M\n"
    "\n"
    "[tui]\n"
    "prefix = C-a\n"
    "scrollback = 5000\n"
    "mouse = yes\n"
    "\n"
    "[paths]\n"
    "state_dir = /var/lib/pv\n"
    "socket = /run/pv/pv.sock\n"
    "\n"
    "[exec]\n"
    "strict = yes\n"
    "judge_own = on\n"
    "\n"
    "[record]\n"
    "max_recording = 64M\n"
    "state_budget = 2G\n";

static void
test_full(void)
{
	struct config		*cfg;
	struct sandbox_opts	 o;
	enum policy_mode	 mode = POLICY_NEVER;
	enum sandbox_profile	 profile = SANDBOX_FULL_ACCESS;
	char			*cause, *path;
	int			 rc;

	cfg = load(full, &rc, &cause, &path);
	is_int(rc, 0, "full file loads");
	if (cause != NULL)
		diag("%s", cause);
	is_str(config_path(cfg), path, "config_path is the file");
	ok(config_approval_mode(cfg, &mode) && mode == POLICY_ON_REQUEST,
	    "mode = on-request");
	is_str(config_notify(cfg), "notify-send-json", "notify");
	is_str(config_rules(cfg), "/etc/ptyvisor/rules", "rules");
	ok(config_sandbox_profile(cfg, &profile) &&
	    profile == SANDBOX_READ_ONLY, "profile = read-only");
	is_int(config_prefix(cfg), 'a', "prefix C-a");
	is_int(config_scrollback(cfg), 5000, "scrollback");
	ok(config_mouse(cfg), "mouse = yes");
	ok(config_exec_strict(cfg), "[exec] strict = yes");
	ok(config_exec_judge_own(cfg), "[exec] judge_own = on");
	is_int(config_max_recording(cfg), 64 << 20, "[record] max_recording");
	is_int(config_state_budget(cfg), 2ULL << 30, "[record] state_budget");
	is_str(config_state_dir(cfg), "/var/lib/pv", "state_dir");
	is_str(config_socket(cfg), "/run/pv/pv.sock", "socket");

	sandbox_opts_init(&o);
	is_int(config_apply_sandbox(cfg, &o, &cause), 0, "apply_sandbox");
	is_int(o.profile, SANDBOX_READ_ONLY, "apply: profile");
	ok(o.network, "apply: network");
	is_int(o.nwritable, 2, "apply: two writable roots");
	is_str(o.nwritable > 0 ? o.writable[0] : NULL, "/srv/a",
	    "apply: first root");
	is_str(o.nwritable > 1 ? o.writable[1] : NULL, "/srv/b c",
	    "apply: second root keeps its space");
	is_int(o.nnet_allow, 2, "apply: two network_allow lines");
	is_str(o.nnet_allow > 0 ? o.net_allow[0] : NULL,
	    "pypi.org, *.pythonhosted.org", "apply: the first as written");
	is_str(o.nnet_allow > 1 ? o.net_allow[1] : NULL, "github.com:443",
	    "apply: the second");
	is_int(o.nnet_deny, 1, "apply: one network_deny line");
	is_str(o.nnet_deny > 0 ? o.net_deny[0] : NULL,
	    "evil.pythonhosted.org", "apply: network_deny");
	is_int(o.npass_env, 2, "apply: two pass_env lines");
	is_str(o.npass_env > 1 ? o.pass_env[1] : NULL, "npm_config__auth",
	    "apply: pass_env as written, in order");
	ok(o.protect_git, "apply: protect_git");
	ok(o.private_tmp, "apply: private_tmp");
	ok(o.allow_no_namespaces, "apply: allow_no_namespaces");
	is_int(o.limits.processes, 64, "apply: max_procs");
	is_int(o.limits.open_files, 256, "apply: max_files");
	is_int(o.limits.address_space, 4ULL << 30, "apply: max_memory");
	is_int(o.limits.memory, 2ULL << 30, "apply: max_session_memory");
	is_int(o.limits.file_size, 100ULL << 20, "apply: max_file_size");
	config_free(cfg);
	free(path);
}

/* Nothing set: getters say so and apply changes nothing. */
static void
test_empty(void)
{
	struct config		*cfg;
	struct sandbox_opts	 o, before;
	enum policy_mode	 mode;
	enum sandbox_profile	 profile;
	char			*cause;
	int			 rc;

	cfg = load("# only a comment\n\n[approval]\n[sandbox]\n[tui]\n"
	    "[paths]\n", &rc, &cause, NULL);
	is_int(rc, 0, "empty sections load");
	ok(!config_approval_mode(cfg, &mode), "empty: mode not set");
	ok(!config_sandbox_profile(cfg, &profile), "empty: profile not set");
	ok(config_notify(cfg) == NULL && config_rules(cfg) == NULL &&
	    config_state_dir(cfg) == NULL && config_socket(cfg) == NULL,
	    "empty: no strings");
	ok(config_prefix(cfg) == 0 && config_scrollback(cfg) == 0 &&
	    !config_mouse(cfg), "empty: no prefix, no scrollback, no mouse");
	ok(!config_exec_strict(cfg) && !config_exec_judge_own(cfg),
	    "empty: exec checks neither strict nor judging a person's own");
	ok(config_max_recording(cfg) == 0 && config_state_budget(cfg) == 0,
	    "empty: no recording cap, no budget (the defaults apply)");

	/* Options unlike the defaults, to see that none is touched. */
	sandbox_opts_init(&o);
	o.profile = SANDBOX_FULL_ACCESS;
	o.network = true;
	o.protect_git = true;
	o.private_tmp = true;
	o.allow_no_namespaces = true;
	o.limits.processes = 7;
	o.limits.open_files = 8;
	o.limits.address_space = 9;
	o.limits.memory = 10;
	o.limits.file_size = 11;
	o.writable[o.nwritable++] = "/w";
	before = o;
	is_int(config_apply_sandbox(cfg, &o, &cause), 0, "empty: apply");
	ok(o.profile == before.profile && o.network && o.protect_git &&
	    o.private_tmp && o.allow_no_namespaces &&
	    o.limits.processes == 7 && o.limits.open_files == 8 &&
	    o.limits.address_space == 9 && o.limits.memory == 10 &&
	    o.limits.file_size == 11 && o.nwritable == 1 &&
	    strcmp(o.writable[0], "/w") == 0,
	    "empty: apply leaves every option alone");
	config_free(cfg);

	/* The opposite values, set, do override. */
	cfg = load("[sandbox]\nprofile = workspace-write\nnetwork = no\n"
	    "protect_git = off\nprivate_tmp = false\n"
	    "allow_no_namespaces = 0\nmax_procs = 0\nmax_files = 0\n"
	    "max_memory = 0\nmax_session_memory = 0\nmax_file_size = 0\n",
	    &rc, &cause, NULL);
	is_int(rc, 0, "false values load");
	o = before;
	config_apply_sandbox(cfg, &o, &cause);
	ok(o.profile == SANDBOX_WORKSPACE_WRITE && !o.network &&
	    !o.protect_git && !o.private_tmp && !o.allow_no_namespaces,
	    "set false values override true ones");
	ok(o.limits.processes == 0 && o.limits.open_files == 0 &&
	    o.limits.address_space == 0 && o.limits.memory == 0 &&
	    o.limits.file_size == 0, "zero limits override");
	is_int(o.nwritable, 1, "no writable in the file: roots kept");
	config_free(cfg);
}

/* Blanks, comments, CRLF, a BOM, indented lines. */
struct good_row {
	const char	*text;
	const char	*notify;	/* expected notify, or NULL */
	const char	*rules;		/* expected rules, or NULL */
	const char	*name;
};

static const struct good_row good_rows[] = {
	{ "[approval]\n   notify   =   prog   \n", "prog", NULL,
	  "blanks around key and value" },
	{ "\t[approval]\n\tnotify\t=\tprog\n", "prog", NULL, "tabs" },
	{ "[approval]\r\nnotify = prog\r\n", "prog", NULL, "CRLF lines" },
	{ "\xef\xbb\xbf[approval]\nnotify = prog\n", "prog", NULL,
	  "UTF-8 byte order mark" },
	{ "[approval]\nnotify = prog ; a comment\n", "prog", NULL,
	  "; after a blank ends the value" },
	{ "[approval]\nnotify = a;b\n", "a;b", NULL,
	  "; inside a word is kept" },
	{ "[approval] # comment\nnotify = prog\n", "prog", NULL,
	  "comment after a section" },
	{ "  # indented comment\n[approval]\n  ; another\nnotify = p\n",
	  "p", NULL, "indented comments" },
	/* libinih would take an indented line as a continuation. */
	{ "[approval]\nnotify = prog\n  rules = /r\n", "prog", "/r",
	  "an indented key is a key, not a continuation" },
	{ "[approval]\nnotify = prog\n[sandbox]\n[approval]\nrules = /r\n",
	  "prog", "/r", "a section may come back" },
	{ "[approval]\nnotify = prog with args\n", "prog with args", NULL,
	  "value with spaces kept whole" },
	{ "[approval]\nnotify = prog", "prog", NULL,
	  "no newline at the end" },
};

static void
test_good(void)
{
	struct config	*cfg;
	char		*cause;
	size_t		 i;
	int		 rc;

	for (i = 0; i < sizeof good_rows / sizeof good_rows[0]; i++) {
		const struct good_row *r = &good_rows[i];

		cfg = load(r->text, &rc, &cause, NULL);
		if (!ok(rc == 0, "loads: %s", r->name) && cause != NULL)
			diag("%s", cause);
		is_str(config_notify(cfg), r->notify, "notify: %s", r->name);
		is_str(config_rules(cfg), r->rules, "rules: %s", r->name);
		free(cause);
		config_free(cfg);
	}
}

/* Every spelling of a boolean. */
static void
test_bools(void)
{
	static const struct {
		const char	*value;
		bool		 want;
	} rows[] = {
		{ "yes", true }, { "no", false }, { "true", true },
		{ "false", false }, { "on", true }, { "off", false },
		{ "1", true }, { "0", false }, { "YES", true },
		{ "Off", false }, { "True", true },
	};
	struct config		*cfg;
	struct sandbox_opts	 o;
	char			*text, *cause;
	size_t			 i;
	int			 rc;

	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		text = xasprintf("[sandbox]\nnetwork = %s\n", rows[i].value);
		cfg = load(text, &rc, &cause, NULL);
		sandbox_opts_init(&o);
		o.network = !rows[i].want;
		config_apply_sandbox(cfg, &o, &cause);
		ok(rc == 0 && o.network == rows[i].want, "network = %s",
		    rows[i].value);
		free(text);
		config_free(cfg);
	}
}

/* Profiles and modes, every name each parser knows. */
static void
test_names(void)
{
	static const struct {
		const char		*value;
		enum sandbox_profile	 want;
	} profiles[] = {
		{ "read-only", SANDBOX_READ_ONLY },
		{ "workspace-write", SANDBOX_WORKSPACE_WRITE },
		{ "danger-full-access", SANDBOX_FULL_ACCESS },
		{ "none", SANDBOX_FULL_ACCESS },
	};
	static const struct {
		const char		*value;
		enum policy_mode	 want;
	} modes[] = {
		{ "untrusted", POLICY_UNTRUSTED },
		{ "on-request", POLICY_ON_REQUEST },
		{ "never", POLICY_NEVER },
	};
	struct config		*cfg;
	enum sandbox_profile	 p;
	enum policy_mode	 m;
	char			*text, *cause;
	size_t			 i;
	int			 rc;

	for (i = 0; i < sizeof profiles / sizeof profiles[0]; i++) {
		text = xasprintf("[sandbox]\nprofile = %s\n",
		    profiles[i].value);
		cfg = load(text, &rc, &cause, NULL);
		ok(rc == 0 && config_sandbox_profile(cfg, &p) &&
		    p == profiles[i].want, "profile = %s", profiles[i].value);
		free(text);
		config_free(cfg);
	}
	for (i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		text = xasprintf("[approval]\nmode = %s\n", modes[i].value);
		cfg = load(text, &rc, &cause, NULL);
		ok(rc == 0 && config_approval_mode(cfg, &m) &&
		    m == modes[i].want, "mode = %s", modes[i].value);
		free(text);
		config_free(cfg);
	}
	for (i = 0; i < 26; i++) {
		text = xasprintf("[tui]\nprefix = %c-%c\n", i % 2 ? 'c' : 'C',
		    (char)('a' + i));
		cfg = load(text, &rc, &cause, NULL);
		if (rc != 0 || config_prefix(cfg) != (char)('a' + i))
			break;
		free(text);
		config_free(cfg);
	}
	ok(i == 26, "prefix C-a to C-z (and c-a) all load");
	if (i < 26) {
		free(text);
		config_free(cfg);
	}
	cfg = load("[tui]\nscrollback = 1000000\n", &rc, &cause, NULL);
	ok(rc == 0 && config_scrollback(cfg) == CONFIG_SCROLLBACK_MAX,
	    "scrollback at its bound loads");
	config_free(cfg);
	cfg = load("[tui]\nscrollback = 1\n", &rc, &cause, NULL);
	ok(rc == 0 && config_scrollback(cfg) == 1, "scrollback = 1 loads");
	config_free(cfg);
	cfg = load("[web]\nlisten = [::1]:8080\ncert = /c.pem\nkey = /k.pem\n"
	    "host = pv.example.org\n", &rc, &cause, NULL);
	ok(rc == 0 && strcmp(config_web_listen(cfg), "[::1]:8080") == 0 &&
	    strcmp(config_web_cert(cfg), "/c.pem") == 0 &&
	    strcmp(config_web_key(cfg), "/k.pem") == 0 &&
	    strcmp(config_web_host(cfg), "pv.example.org") == 0,
	    "[web] listen, cert, key, host load");
	config_free(cfg);
	{
		char		*addr = NULL;
		uint16_t	 port = 1;

		ok(config_parse_listen("localhost:0", &addr, &port,
		    &cause) == 0 && strcmp(addr, "127.0.0.1") == 0 &&
		    port == 0, "localhost:0 is 127.0.0.1, any port");
		free(addr);
	}
	cfg = load("[mcp]\nmax_bytes = 32K\n", &rc, &cause, NULL);
	ok(rc == 0 && config_mcp_max_bytes(cfg) == 32768,
	    "[mcp] max_bytes = 32K loads");
	config_free(cfg);
	cfg = load("[mcp]\nmax_bytes = 1M\n", &rc, &cause, NULL);
	ok(rc == 0 && config_mcp_max_bytes(cfg) == CONFIG_CAP_MAX,
	    "[mcp] max_bytes at its bound loads");
	config_free(cfg);
}

/* "~/" is the home directory in every path and in notify. */
static void
test_home(void)
{
	struct config		*cfg;
	struct sandbox_opts	 o;
	char			*cause, *old = getenv("HOME");
	int			 rc;

	old = old != NULL ? xstrdup(old) : NULL;
	setenv("HOME", "/home/tester", 1);
	cfg = load("[approval]\nnotify = ~/bin/n\nrules = ~/r\n[sandbox]\n"
	    "writable = ~/w\n[paths]\nstate_dir = ~/s\nsocket = ~/k\n", &rc,
	    &cause, NULL);
	is_int(rc, 0, "~/ paths load");
	is_str(config_notify(cfg), "/home/tester/bin/n", "~/ in notify");
	is_str(config_rules(cfg), "/home/tester/r", "~/ in rules");
	is_str(config_state_dir(cfg), "/home/tester/s", "~/ in state_dir");
	is_str(config_socket(cfg), "/home/tester/k", "~/ in socket");
	sandbox_opts_init(&o);
	config_apply_sandbox(cfg, &o, &cause);
	is_str(o.nwritable == 1 ? o.writable[0] : NULL, "/home/tester/w",
	    "~/ in writable");
	config_free(cfg);

	setenv("HOME", "/", 1);
	cfg = load("[paths]\nstate_dir = ~/s\n", &rc, &cause, NULL);
	is_str(config_state_dir(cfg), "/s", "HOME=/ gives no double slash");
	config_free(cfg);

	unsetenv("HOME");
	cfg = load("[paths]\n\nstate_dir = ~/s\n", &rc, &cause, NULL);
	ok(rc == -1 && cause != NULL && strstr(cause, ":3: state_dir: "
	    "'~/s' starts with ~/ but HOME") != NULL,
	    "~/ without HOME is an error naming line and key");
	if (cause != NULL)
		diag("%s", cause);
	free(cause);
	config_free(cfg);
	cfg = load("[paths]\nstate_dir = ~s\n", &rc, &cause, NULL);
	ok(rc == -1, "~user is not expanded (and not absolute)");
	free(cause);
	config_free(cfg);
	if (old != NULL)
		setenv("HOME", old, 1);
	free(old);
}

/* A file that must not load: the line and a piece of the message. */
struct bad_row {
	const char	*text;
	unsigned	 line;
	const char	*want;
};

#define LONG_VALUE \
    "/0123456789012345678901234567890123456789012345678901234567890123456789" \
    "0123456789012345678901234567890123456789012345678901234567890123456789" \
    "0123456789012345678901234567890123456789012345678901234567890123456789"

static const struct bad_row bad_rows[] = {
	/* [sandbox] host lists */
	{ "[sandbox]\nnetwork_allow = pypi.org,bad..name\n", 2,
	  "network_allow: bad host pattern 'bad..name'" },
	{ "[sandbox]\nnetwork_deny = *evil.com\n", 2,
	  "network_deny: bad host pattern '*evil.com'" },
	{ "[sandbox]\nnetwork_allow =\n", 2, "network_allow: no value" },
	/* [approval] */
	{ "[approval]\nmode = sometimes\n", 2,
	  "mode: 'sometimes' is not untrusted, on-request or never" },
	{ "[approval]\nmode = Never\n", 2, "mode: 'Never' is not" },
	{ "[approval]\nmode =\n", 2, "mode: no value" },
	{ "[approval]\nnotify =\n", 2, "notify: no value" },
	{ "[approval]\nrules = my-rules\n", 2,
	  "rules: 'my-rules' is not an absolute path" },
	/* [sandbox] */
	{ "[sandbox]\nprofile = bogus\n", 2,
	  "profile: unknown profile 'bogus'" },
	{ "[sandbox]\nprofile = read-only # no inline #\n", 2,
	  "profile: unknown profile 'read-only # no inline #'" },
	{ "[sandbox]\nnetwork = maybe\n", 2,
	  "network: 'maybe' is not yes or no" },
	{ "[sandbox]\nprotect_git = 2\n", 2,
	  "protect_git: '2' is not yes or no" },
	{ "[sandbox]\nprivate_tmp = yess\n", 2,
	  "private_tmp: 'yess' is not yes or no" },
	{ "[sandbox]\nallow_no_namespaces = \n", 2,
	  "allow_no_namespaces: no value" },
	{ "[sandbox]\nwritable = relative/dir\n", 2,
	  "writable: 'relative/dir' is not an absolute path" },
	{ "[sandbox]\npass_env = A B\n", 2,
	  "pass_env: not one variable's name" },
	{ "[sandbox]\npass_env = 1TOKEN\n", 2,
	  "pass_env: not one variable's name" },
	{ "[sandbox]\npass_env = A=1\n", 2,
	  "pass_env: not one variable's name" },
	{ "[sandbox]\nmax_procs = -1\n", 2, "max_procs: '-1' is not a number" },
	{ "[sandbox]\nmax_procs = +5\n", 2, "max_procs: '+5' is not a number" },
	{ "[sandbox]\nmax_procs = 12abc\n", 2,
	  "max_procs: '12abc' is not a number" },
	{ "[sandbox]\nmax_files = 99999999999999999999999\n", 2,
	  "max_files: '99999999999999999999999' is not a number" },
	{ "[sandbox]\nmax_memory = 4X\n", 2, "max_memory: bad size '4X'" },
	{ "[sandbox]\nmax_memory = -1\n", 2, "max_memory: bad size '-1'" },
	{ "[sandbox]\nmax_memory = 4GB\n", 2, "max_memory: bad size '4GB'" },
	/* [sandbox.PROFILE]: the bounds only, each once a section. */
	{ "[sandbox.read-only]\nmax_file_size = big\n", 2,
	  "max_file_size: bad size 'big'" },
	{ "[sandbox]\n[sandbox.workspace-write]\nmax_procs = -1\n", 3,
	  "max_procs: '-1' is not a number" },
	{ "[sandbox.read-only]\nmax_file_size = 1M\n\nmax_file_size = 2M\n",
	  4, "max_file_size: set twice (first on line 2)" },
	{ "[sandbox.read-only]\nmax_files = 9\n[sandbox.read-only]\n"
	  "max_files = 9\n", 4, "max_files: set twice (first on line 2)" },
	{ "[sandbox.read-only]\nnetwork = yes\n", 2,
	  "unknown key 'network' in [sandbox.read-only] (known: max_procs, "
	  "max_files, max_memory, max_session_memory, max_file_size)" },
	{ "[sandbox.workspace-write]\nprofile = read-only\n", 2,
	  "unknown key 'profile' in [sandbox.workspace-write]" },
	{ "[sandbox.danger-full-access]\nmax_file_size = 1G\n", 1,
	  "unknown section [sandbox.danger-full-access]" },
	{ "[sandbox.none]\n", 1, "unknown section [sandbox.none]" },
	{ "[sandbox.Read-Only]\n", 1, "unknown section [sandbox.Read-Only]" },
	/* [tui] */
	{ "[tui]\nprefix = C-A\n", 2, "prefix: 'C-A' is not C-a to C-z" },
	{ "[tui]\nprefix = C-ab\n", 2, "prefix: 'C-ab' is not C-a to C-z" },
	{ "[tui]\nprefix = M-a\n", 2, "prefix: 'M-a' is not C-a to C-z" },
	{ "[tui]\nprefix = g\n", 2, "prefix: 'g' is not C-a to C-z" },
	{ "[tui]\nscrollback = 0\n", 2,
	  "scrollback: '0' is not a number from 1 to 1000000" },
	{ "[tui]\nscrollback = 1000001\n", 2,
	  "scrollback: '1000001' is not a number from 1 to 1000000" },
	{ "[tui]\nscrollback = ten\n", 2, "scrollback: 'ten' is not a number" },
	/* [mcp] */
	{ "[mcp]\nmax_bytes = 512\n", 2,
	  "max_bytes: '512' is not a size from 1024 to 1048576 bytes" },
	{ "[mcp]\nmax_bytes = 2M\n", 2,
	  "max_bytes: '2M' is not a size from 1024 to 1048576 bytes" },
	{ "[mcp]\nmax_bytes = lots\n", 2,
	  "max_bytes: 'lots' is not a size from 1024 to 1048576 bytes" },
	{ "[mcp]\nwait = 3\n", 2,
	  "unknown key 'wait' in [mcp] (known: max_bytes)" },
	/* [record] */
	{ "[record]\nmax_recording = 63K\n", 2,
	  "max_recording: '63K' is not a size of at least 64K" },
	{ "[record]\nmax_recording = big\n", 2,
	  "max_recording: 'big' is not a size of at least 64K" },
	{ "[record]\nstate_budget = 512K\n", 2,
	  "state_budget: '512K' is not a size of at least 1024K" },
	{ "[record]\nmax_recording = 1M\nmax_recording = 2M\n", 3,
	  "max_recording" },
	{ "[record]\nbudget = 1G\n", 2,
	  "unknown key 'budget' in [record] (known: max_recording, "
	  "state_budget)" },
	/* [web] */
	{ "[web]\nlisten = 127.0.0.1\n", 2,
	  "listen: '127.0.0.1' is not ADDR:PORT" },
	{ "[web]\nlisten = example.org:80\n", 2,
	  "listen: 'example.org' is not an IPv4 address (or localhost)" },
	{ "[web]\nlisten = [::1:80\n", 2, "listen: '[::1:80' is not ADDR:PORT" },
	{ "[web]\nlisten = 127.0.0.1:65536\n", 2,
	  "listen: '65536' is not a port (0 to 65535)" },
	{ "[web]\nhost = a b\n", 2, "host: 'a b' is not a host name" },
	{ "[web]\ncert = c.pem\n", 2, "cert: 'c.pem' is not an absolute path" },
	/* [paths] */
	{ "[paths]\nstate_dir = state\n", 2,
	  "state_dir: 'state' is not an absolute path" },
	{ "[paths]\nsocket = ./s.sock\n", 2,
	  "socket: './s.sock' is not an absolute path" },
	/* Structure. */
	{ "[approval]\nmode = never\n\n[sandbx]\n", 4,
	  "unknown section [sandbx] (known: [approval], [sandbox], "
	  "[sandbox.read-only], [sandbox.workspace-write], [tui], [mcp], "
	  "[paths], [exec], [record], [web])" },
	{ "[exec]\nstrict = yes\nstrictly = no\n", 3,
	  "unknown key 'strictly' in [exec] (known: strict, judge_own)" },
	{ "[Approval]\nmode = never\n", 1, "unknown section [Approval]" },
	{ "[ tui ]\n", 1, "unknown section [ tui ]" },
	{ "[tui] junk\n", 1, "text after the section name: 'junk'" },
	{ "[sandbox]\nnetwrk = yes\n", 2,
	  "unknown key 'netwrk' in [sandbox] (known: profile, network, "
	  "writable, network_allow, network_deny, protect_git, "
	  "private_tmp, allow_no_namespaces, "
	  "max_procs, max_files, max_memory, max_session_memory, "
	  "max_file_size, pass_env, protect, hide, expose)" },
	{ "[approval]\nMode = never\n", 2, "unknown key 'Mode' in [approval]" },
	{ "[tui]\nmode = never\n", 2,
	  "unknown key 'mode' in [tui] (known: prefix, scrollback, mouse)" },
	{ "# top\nmode = never\n[approval]\n", 2,
	  "'mode' before any [section]" },
	{ "[approval]\nmode = never\nnotify = n\nmode = untrusted\n", 4,
	  "mode: set twice (first on line 2)" },
	{ "[approval]\nmode = never\n[sandbox]\n[approval]\nmode = never\n",
	  5, "mode: set twice (first on line 2)" },
	{ "[paths]\nsocket = /a\nsocket = /a\n", 3, "socket: set twice" },
	{ "[approval]\nmode = never\njust words\n", 3,
	  "expected [section] or key = value" },
	{ "[tui\nprefix = C-a\n", 1, "expected [section] or key = value" },
	{ "[approval]\n= never\n", 2, "no key before '='" },
	/* The first error wins, whoever finds it. */
	{ "[approval]\njust words\nbogus = 1\n", 2,
	  "expected [section] or key = value" },
	{ "[approval]\nbogus = 1\njust words\n", 2,
	  "unknown key 'bogus' in [approval]" },
	{ "[approval]\njust words\n[nope]\n", 2,
	  "expected [section] or key = value" },
	{ "[approval]\nmode = never\nmode = never\njust words\n", 3,
	  "mode: set twice" },
	/* Lines libinih cannot hold whole, and NUL bytes. */
	{ "[approval]\n\nrules = " LONG_VALUE "\n", 3,
	  "line longer than 198 characters" },
};

static void
test_bad(void)
{
	struct config	*cfg;
	char		*cause, *path, *prefix;
	size_t		 i;
	int		 rc;

	for (i = 0; i < sizeof bad_rows / sizeof bad_rows[0]; i++) {
		const struct bad_row *r = &bad_rows[i];

		cfg = load(r->text, &rc, &cause, &path);
		prefix = xasprintf("%s:%u: ", path, r->line);
		ok(rc == -1 && cause != NULL &&
		    strncmp(cause, prefix, strlen(prefix)) == 0 &&
		    strstr(cause, r->want) != NULL, "error at line %u: %s",
		    r->line, r->want);
		if (rc != -1 || cause == NULL ||
		    strncmp(cause, prefix, strlen(prefix)) != 0 ||
		    strstr(cause, r->want) == NULL)
			diag("got rc %d, cause '%s'", rc,
			    cause != NULL ? cause : "(null)");
		free(prefix);
		free(cause);
		free(path);
		config_free(cfg);
	}
}

/* Limits: writable roots, the NUL byte. */
static void
test_limits(void)
{
	struct config		*cfg;
	struct sandbox_opts	 o;
	struct buf		 b;
	char			*cause, *path, *want;
	int			 i, rc;

	memset(&b, 0, sizeof b);
	buf_adds(&b, "[sandbox]\n");
	for (i = 0; i < SANDBOX_MAX_ROOTS; i++)
		buf_printf(&b, "writable = /w%d\n", i);
	cfg = load(buf_cstr(&b), &rc, &cause, NULL);
	is_int(rc, 0, "%d writable roots load", SANDBOX_MAX_ROOTS);
	sandbox_opts_init(&o);
	is_int(config_apply_sandbox(cfg, &o, &cause), 0, "and apply");
	is_int(o.nwritable, SANDBOX_MAX_ROOTS, "all of them");
	sandbox_opts_init(&o);
	o.writable[o.nwritable++] = "/cli";
	cause = NULL;
	is_int(config_apply_sandbox(cfg, &o, &cause), -1,
	    "apply over a full list fails");
	ok(cause != NULL, "with a cause");
	if (cause != NULL)
		diag("%s", cause);
	free(cause);
	config_free(cfg);

	buf_adds(&b, "writable = /one-too-many\n");
	cfg = load(buf_cstr(&b), &rc, &cause, &path);
	want = xasprintf("%s:%d: writable: more than %d directories", path,
	    SANDBOX_MAX_ROOTS + 2, SANDBOX_MAX_ROOTS);
	is_str(cause, want, "one writable root too many: error on its line");
	free(want);
	free(path);
	free(cause);
	config_free(cfg);
	buf_free(&b);

	/* libinih's buffer holds 198 characters and the newline. */
	memset(&b, 0, sizeof b);
	buf_adds(&b, "[approval]\nnotify = ");
	for (i = 0; i < 198 - 9; i++)
		buf_addc(&b, 'x');
	buf_adds(&b, "\n");
	cfg = load(buf_cstr(&b), &rc, &cause, NULL);
	ok(rc == 0 && config_notify(cfg) != NULL &&
	    strlen(config_notify(cfg)) == 198 - 9,
	    "a line of 198 characters loads whole");
	config_free(cfg);
	b.len--;
	buf_adds(&b, "y\n");
	cfg = load(buf_cstr(&b), &rc, &cause, &path);
	want = xasprintf("%s:2: line longer than 198 characters", path);
	is_str(rc == -1 ? cause : NULL, want, "one more is an error");
	free(cause);
	free(want);
	free(path);
	config_free(cfg);
	buf_free(&b);

	cfg = config_new();
	path = write_file("[approval]\nmode = ne\0ver\n", 25);
	rc = config_load(cfg, path, false, &cause);
	want = xasprintf("%s:2: a NUL byte in the line", path);
	is_str(rc == -1 ? cause : NULL, want, "a NUL byte is an error");
	if (rc == -1)
		free(cause);
	free(want);
	free(path);
	config_free(cfg);
}

/*
 * Bounds per profile: [sandbox.PROFILE] beats [sandbox] for that profile
 * only, a flag beats both, read-only has its own default file size; each
 * bound says where it came from.
 */
static void
test_profiles(void)
{
	struct config		*cfg;
	struct sandbox_opts	 o;
	struct sandbox_limits	 l;
	enum sandbox_origin	 from[SANDBOX_NLIMITS];
	unsigned		 line[SANDBOX_NLIMITS];
	char			*cause, *path;
	int			 rc;

	cfg = load("[sandbox]\nmax_file_size = 2G\nmax_procs = 50\n"
	    "[sandbox.read-only]\nmax_file_size = 5M\n"
	    "max_session_memory = 1G\n"
	    "[sandbox.workspace-write]\nmax_file_size = 8G\n", &rc, &cause,
	    &path);
	is_int(rc, 0, "[sandbox.read-only] and [sandbox.workspace-write] load");
	sandbox_opts_init(&o);
	is_int(config_apply_sandbox(cfg, &o, &cause), 0, "and apply");
	is_str(o.settings, path, "apply: the file, for --explain");
	is_int(o.limits.file_size, 2ULL << 30,
	    "apply: [sandbox] goes to the options as before");

	o.profile = SANDBOX_READ_ONLY;
	sandbox_opts_limits(&o, &l, from, line);
	ok(l.file_size == 5ULL << 20 && from[SANDBOX_LIMIT_FILE_SIZE] ==
	    SANDBOX_FROM_PROFILE && line[SANDBOX_LIMIT_FILE_SIZE] == 5,
	    "read-only: its section's max_file_size, line 5, beats [sandbox]");
	ok(l.memory == 1ULL << 30 && from[SANDBOX_LIMIT_MEMORY] ==
	    SANDBOX_FROM_PROFILE && line[SANDBOX_LIMIT_MEMORY] == 6,
	    "read-only: its max_session_memory, line 6");
	ok(l.processes == 50 && from[SANDBOX_LIMIT_PROCESSES] ==
	    SANDBOX_FROM_SETTINGS && line[SANDBOX_LIMIT_PROCESSES] == 3,
	    "read-only: [sandbox] max_procs where its section has none");
	ok(l.open_files == 0 && from[SANDBOX_LIMIT_OPEN_FILES] ==
	    SANDBOX_FROM_DEFAULT, "read-only: the default where no one says");

	o.profile = SANDBOX_WORKSPACE_WRITE;
	sandbox_opts_limits(&o, &l, from, line);
	ok(l.file_size == 8ULL << 30 && line[SANDBOX_LIMIT_FILE_SIZE] == 8,
	    "workspace-write: its own section's max_file_size, line 8");
	ok(l.memory == o.limits.memory && from[SANDBOX_LIMIT_MEMORY] ==
	    SANDBOX_FROM_DEFAULT,
	    "workspace-write: read-only's section does not reach it");

	o.profile = SANDBOX_FULL_ACCESS;
	sandbox_opts_limits(&o, &l, from, NULL);
	ok(l.file_size == 2ULL << 30 && from[SANDBOX_LIMIT_FILE_SIZE] ==
	    SANDBOX_FROM_SETTINGS, "no sandbox: no section, [sandbox] stands");

	/* A flag, set after the file, wins over the profile's section. */
	o.profile = SANDBOX_READ_ONLY;
	sandbox_opts_set_limit(&o, SANDBOX_LIMIT_FILE_SIZE, 7,
	    SANDBOX_FROM_OPTION, 0);
	sandbox_opts_limits(&o, &l, from, line);
	ok(l.file_size == 7 && from[SANDBOX_LIMIT_FILE_SIZE] ==
	    SANDBOX_FROM_OPTION, "--max-file-size beats [sandbox.read-only]");
	config_free(cfg);
	free(path);

	/* The built-in defaults: read-only's own file size, unless said. */
	sandbox_opts_init(&o);
	o.profile = SANDBOX_READ_ONLY;
	sandbox_opts_limits(&o, &l, from, NULL);
	ok(l.file_size == SANDBOX_READ_ONLY_FILE_SIZE &&
	    from[SANDBOX_LIMIT_FILE_SIZE] == SANDBOX_FROM_DEFAULT,
	    "read-only's own default file size (1 GiB)");
	o.profile = SANDBOX_WORKSPACE_WRITE;
	sandbox_opts_limits(&o, &l, NULL, NULL);
	is_int(l.file_size, SANDBOX_DEFAULT_FILE_SIZE,
	    "workspace-write: the default file size (16 GiB)");
	cfg = load("[sandbox]\nmax_file_size = 32G\n", &rc, &cause, NULL);
	config_apply_sandbox(cfg, &o, &cause);
	o.profile = SANDBOX_READ_ONLY;
	sandbox_opts_limits(&o, &l, NULL, NULL);
	is_int(l.file_size, 32ULL << 30,
	    "[sandbox] max_file_size beats read-only's own default");
	config_free(cfg);
}

/* Missing and unreadable files. */
static void
test_files(void)
{
	struct config	*cfg;
	char		*cause = NULL, *path, *want;
	enum policy_mode mode;

	path = xasprintf("%s/no-such-file", tmpdir);
	cfg = config_new();
	is_int(config_load(cfg, path, true, &cause), 0,
	    "missing file with missing_ok: 0");
	ok(config_path(cfg) == NULL, "missing file: no path");
	ok(!config_approval_mode(cfg, &mode), "missing file: nothing set");
	config_free(cfg);

	cfg = config_new();
	is_int(config_load(cfg, path, false, &cause), -1,
	    "missing file without missing_ok: -1");
	want = xasprintf("%s: No such file or directory", path);
	is_str(cause, want, "the cause names the file");
	free(want);
	free(cause);
	cause = NULL;
	config_free(cfg);
	free(path);

	/* A directory fails for both, missing_ok or not. */
	cfg = config_new();
	is_int(config_load(cfg, tmpdir, true, &cause), -1,
	    "a directory is an error even with missing_ok");
	want = xasprintf("%s: Is a directory", tmpdir);
	is_str(cause, want, "and says it is a directory");
	free(want);
	free(cause);
	cause = NULL;
	config_free(cfg);

	cfg = config_new();
	is_int(config_load(cfg, "/dev/null", true, &cause), -1,
	    "a device is an error");
	is_str(cause, "/dev/null: not a regular file", "not a regular file");
	free(cause);
	cause = NULL;
	config_free(cfg);

	/* Below a file (ENOTDIR) is not "missing". */
	path = write_file("", 0);
	want = xasprintf("%s/config", path);
	cfg = config_new();
	is_int(config_load(cfg, want, true, &cause), -1,
	    "a path under a file is an error even with missing_ok");
	free(cause);
	config_free(cfg);
	free(want);

	/* An empty file is fine. */
	cfg = config_new();
	is_int(config_load(cfg, path, false, &cause), 0, "an empty file loads");
	is_str(config_path(cfg), path, "and is the path");
	config_free(cfg);
	free(path);

	config_free(NULL);
	ok(1, "config_free(NULL) is a no-op");
}

static void
cleanup(void)
{
	char	*cmd = xasprintf("rm -rf '%s'", tmpdir);

	if (system(cmd) != 0)
		diag("could not remove %s", tmpdir);
	free(cmd);
}

int
main(void)
{
	char	 tmpl[] = "/tmp/test-config.XXXXXX";

	if ((tmpdir = mkdtemp(tmpl)) == NULL)
		fatal("mkdtemp failed");
	test_full();
	test_empty();
	test_good();
	test_bools();
	test_names();
	test_home();
	test_bad();
	test_limits();
	test_profiles();
	test_files();
	cleanup();
	return tap_done();
}
