/*
 * test-sandbox.c - the sandbox policy: profile names, defaults, option
 * checks in sandbox_new(), the scrubbed environment and --explain.
 */
#include "sandbox/sandbox.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "tests/tap.h"

/* Whether env holds exactly the entry s. */
static int
has_entry(char **env, const char *s)
{
	for (; *env != NULL; env++)
		if (strcmp(*env, s) == 0)
			return 1;
	return 0;
}

/* Whether env sets a variable called name. */
static int
has_name(char **env, const char *name)
{
	size_t	len = strlen(name);

	for (; *env != NULL; env++)
		if (strncmp(*env, name, len) == 0 && (*env)[len] == '=')
			return 1;
	return 0;
}

int
main(void)
{
	struct sandbox_opts	 opts;
	struct sandbox		*sb;
	enum sandbox_profile	 p;
	struct buf		 out;
	uint64_t		 size;
	char			*cause = NULL, **env;
	char			*parent[] = { "PATH=/bin", "HOME=/h", "API_KEY=s",
	    "LD_PRELOAD=/x.so", "LC_ALL=C", "TERM=xterm", "AWS_SECRET=y",
	    "EDITOR=vi", NULL };
	char			*extra[] = { "EDITOR=nano", "TERM=dumb", NULL };

	sandbox_opts_init(&opts);
	is_int(opts.profile, SANDBOX_WORKSPACE_WRITE, "default: workspace-write");
	ok(!opts.network, "default: no network");
	ok(!opts.private_tmp, "default: the shared /tmp");
	ok(opts.limits.processes > 0, "default: processes bounded");
	ok(opts.limits.memory > 0, "default: memory bounded");
	is_int(opts.limits.file_size, SANDBOX_DEFAULT_FILE_SIZE,
	    "default: file size bounded");

	ok(sandbox_profile_parse("read-only", &p, &cause) == 0 &&
	    p == SANDBOX_READ_ONLY, "parse read-only");
	ok(sandbox_profile_parse("workspace-write", &p, &cause) == 0 &&
	    p == SANDBOX_WORKSPACE_WRITE, "parse workspace-write");
	ok(sandbox_profile_parse("danger-full-access", &p, &cause) == 0 &&
	    p == SANDBOX_FULL_ACCESS, "parse danger-full-access");
	ok(sandbox_profile_parse("full", &p, &cause) == -1, "unknown profile");
	is_str(cause, "unknown profile 'full' (read-only, workspace-write, "
	    "danger-full-access or none)", "unknown profile: the cause");
	free(cause);
	cause = NULL;
	ok(sandbox_profile_parse("none", &p, &cause) == 0 &&
	    p == SANDBOX_FULL_ACCESS, "none is danger-full-access");
	free(cause);
	cause = NULL;
	ok(sandbox_profile_is_none("none") &&
	    sandbox_profile_is_none("danger-full-access"),
	    "none and danger-full-access are no sandbox");
	ok(!sandbox_profile_is_none("workspace-write") &&
	    !sandbox_profile_is_none("read-only") &&
	    !sandbox_profile_is_none("None ") && !sandbox_profile_is_none(NULL),
	    "the others, an unknown name and none at all are not");
	is_str(sandbox_profile_name(SANDBOX_READ_ONLY), "read-only", "name");
	is_str(sandbox_profile_name(SANDBOX_FULL_ACCESS), "danger-full-access",
	    "name of full access");

	ok(sandbox_parse_size("512M", &size, &cause) == 0 &&
	    size == 512ULL << 20, "size 512M");
	ok(sandbox_parse_size("2g", &size, &cause) == 0 &&
	    size == 2ULL << 30, "size 2g");
	ok(sandbox_parse_size("4096", &size, &cause) == 0 && size == 4096,
	    "size in bytes");
	ok(sandbox_parse_size("12X", &size, &cause) == -1, "bad size suffix");
	free(cause);
	cause = NULL;
	ok(sandbox_parse_size("-1", &size, &cause) == -1, "negative size");
	free(cause);
	cause = NULL;

	sandbox_opts_init(&opts);
	sandbox_opts_add_writable(&opts, "/nonexistent-ptyvisor-root", &cause);
	sb = sandbox_new(&opts, "/", &cause);
	ok(sb == NULL, "missing writable root fails");
	is_str(cause, "writable root: /nonexistent-ptyvisor-root: No such "
	    "file or directory", "missing writable root: the cause");
	free(cause);
	cause = NULL;

	sandbox_opts_init(&opts);
	opts.profile = SANDBOX_READ_ONLY;
	sandbox_opts_add_writable(&opts, "/", &cause);
	ok(sandbox_new(&opts, "/", &cause) == NULL,
	    "read-only refuses writable roots");
	free(cause);
	cause = NULL;

	sandbox_opts_init(&opts);
	opts.profile = SANDBOX_FULL_ACCESS;
	sb = sandbox_new(&opts, "/", &cause);
	ok(sb != NULL, "full access needs no kernel support");
	env = sandbox_env(sb, parent, NULL);
	ok(has_entry(env, "API_KEY=s"), "full access: environment kept");
	ok(!has_name(env, "LD_PRELOAD"), "full access: LD_* dropped");
	strv_free(env);
	sandbox_free(sb);

	sandbox_opts_init(&opts);
	opts.allow_no_landlock = 1;	/* the policy, not the kernel, here */
	sb = sandbox_new(&opts, "/", &cause);
	ok(sb != NULL, "workspace-write in /");
	if (sb == NULL) {
		diag("%s", cause);
		free(cause);
		return tap_done();
	}
	is_int(sandbox_get_profile(sb), SANDBOX_WORKSPACE_WRITE, "profile kept");
	env = sandbox_env(sb, parent, extra);
	ok(has_entry(env, "PATH=/bin"), "env: PATH passes");
	ok(has_entry(env, "HOME=/h"), "env: HOME passes");
	ok(has_entry(env, "LC_ALL=C"), "env: LC_* passes");
	ok(!has_name(env, "API_KEY"), "env: secrets do not pass");
	ok(!has_name(env, "AWS_SECRET"), "env: other variables do not pass");
	ok(!has_name(env, "LD_PRELOAD"), "env: LD_* does not pass");
	ok(has_entry(env, "EDITOR=nano"), "env: explicit extras pass");
	ok(has_entry(env, "TERM=dumb") && !has_entry(env, "TERM=xterm"),
	    "env: extras override the parent");
	strv_free(env);
	sandbox_free(sb);
	sandbox_free(NULL);
	ok(1, "sandbox_free(NULL) is a no-op");

	sandbox_opts_init(&opts);
	memset(&out, 0, sizeof out);
	sandbox_explain(&opts, &out);
	buf_cstr(&out);
	ok(strstr(out.data, "profile: workspace-write\n") != NULL,
	    "explain: the profile");
	ok(strstr(out.data, "network: denied") != NULL, "explain: network");
	ok(strstr(out.data, "landlock") != NULL, "explain: landlock layer");
	ok(strstr(out.data, "seccomp") != NULL, "explain: seccomp layer");
	ok(strstr(out.data, "memory cgroup") != NULL ||
	    strstr(out.data, "memory bound") != NULL,
	    "explain: the memory bound's layer or its absence");
	ok(strstr(out.data, "file size ") != NULL, "explain: file size");
	ok(strstr(out.data, "[required]") != NULL, "explain: required marks");
	ok(strstr(out.data, "passed anyway ([sandbox] pass_env): none\n") !=
	    NULL, "explain: no secret variable passed by default");
	buf_free(&out);
	ok(sandbox_opts_add_pass_env(&opts, "GITHUB_TOKEN", &cause) == 0 &&
	    sandbox_opts_add_pass_env(&opts, "HF_TOKEN", &cause) == 0,
	    "pass_env: names added");
	memset(&out, 0, sizeof out);
	sandbox_explain(&opts, &out);
	buf_cstr(&out);
	ok(strstr(out.data, "passed anyway ([sandbox] pass_env): GITHUB_TOKEN "
	    "HF_TOKEN\n") != NULL, "explain: the secret variables passed anyway");
	buf_free(&out);
	opts.npass_env = 0;

	/* Each bound in force with where it came from. */
	opts.profile = SANDBOX_READ_ONLY;
	opts.settings = "/cfg";
	opts.profile_limits[SANDBOX_READ_ONLY].limits.open_files = 64;
	opts.profile_limits[SANDBOX_READ_ONLY].line[SANDBOX_LIMIT_OPEN_FILES] =
	    4;
	sandbox_opts_set_limit(&opts, SANDBOX_LIMIT_PROCESSES, 99,
	    SANDBOX_FROM_SETTINGS, 2);
	sandbox_opts_set_limit(&opts, SANDBOX_LIMIT_ADDRESS_SPACE,
	    (1ULL << 20) + 1, SANDBOX_FROM_OPTION, 0);
	memset(&out, 0, sizeof out);
	sandbox_explain(&opts, &out);
	buf_cstr(&out);
	ok(strstr(out.data, "  file size       1024 MiB per file "
	    "(read-only's default)\n") != NULL,
	    "explain: read-only's own default file size, said so");
	ok(strstr(out.data, "  open files      64 ([sandbox.read-only], "
	    "/cfg:4)\n") != NULL, "explain: a bound from the profile's section");
	ok(strstr(out.data, "  processes       99 ([sandbox], /cfg:2)\n") !=
	    NULL, "explain: a bound from [sandbox]");
	ok(strstr(out.data, "  address space   1048577 bytes (command "
	    "line)\n") != NULL, "explain: a flag's, in bytes when not MiB");
	if (strstr(out.data, "read-only's default") == NULL)
		diag("%s", out.data);
	buf_free(&out);

	opts.profile = SANDBOX_FULL_ACCESS;
	memset(&out, 0, sizeof out);
	is_int(sandbox_explain(&opts, &out), 0, "explain full access");
	ok(strstr(buf_cstr(&out), "no sandbox") != NULL,
	    "explain: full access is no sandbox");
	buf_free(&out);

	/* A filtered network: the lists, the plan, the variables. */
	sandbox_opts_init(&opts);
	ok(!sandbox_opts_network_filtered(&opts), "no list: not filtered");
	is_int(sandbox_opts_add_network(&opts, false, "pypi.org,*.x.org",
	    &cause), 0, "an allow list");
	is_int(sandbox_opts_add_network(&opts, true, "evil.x.org", &cause),
	    0, "a deny list");
	ok(sandbox_opts_add_network(&opts, false, "a..b", &cause) == -1 &&
	    strstr(cause, "bad host pattern") != NULL, "a bad list refused");
	free(cause);
	cause = NULL;
	is_int(opts.nnet_allow, 1, "the bad list not added");
	ok(sandbox_opts_network_filtered(&opts), "lists: filtered");
	opts.network = true;
	ok(!sandbox_opts_network_filtered(&opts), "the network on: not "
	    "filtered");
	opts.network = false;
	memset(&out, 0, sizeof out);
	sandbox_explain(&opts, &out);
	ok(strstr(buf_cstr(&out), "network: filtered by host name") != NULL &&
	    strstr(out.data, "allow: pypi.org,*.x.org") != NULL &&
	    strstr(out.data, "deny:  evil.x.org") != NULL,
	    "explain: the network plan and its lists");
	buf_free(&out);
	opts.allow_no_landlock = 1;
	sb = sandbox_new(&opts, "/", &cause);
	ok(sb != NULL, "a sandbox with a filtered network");
	if (sb != NULL) {
		char	*over[] = { "HTTPS_PROXY=http://elsewhere:1", NULL };

		env = sandbox_env(sb, parent, over);
		ok(has_entry(env, "HTTPS_PROXY=http://127.0.0.1:3128") &&
		    !has_entry(env, "HTTPS_PROXY=http://elsewhere:1"),
		    "env: the proxy wins over the request's own");
		ok(has_entry(env, "http_proxy=http://127.0.0.1:3128") &&
		    has_entry(env, "ALL_PROXY=socks5h://127.0.0.1:3128") &&
		    has_entry(env, "no_proxy=localhost,127.0.0.1,::1"),
		    "env: every proxy variable, both cases");
		strv_free(env);
	} else {
		diag("%s", cause);
		free(cause);
		cause = NULL;
	}
	sandbox_free(sb);
	sandbox_opts_clear_network(&opts);
	ok(!sandbox_opts_network_filtered(&opts), "cleared: not filtered");
	opts.profile = SANDBOX_FULL_ACCESS;
	is_int(sandbox_opts_add_network(&opts, false, "pypi.org", &cause), 0,
	    "a list with full access");
	ok(sandbox_new(&opts, "/", &cause) == NULL &&
	    strstr(cause, "needs the sandbox") != NULL,
	    "refused without the sandbox");
	free(cause);
	return tap_done();
}
