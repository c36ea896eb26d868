/*
 * config-apply.c - what the settings say, for the commands: each value
 * read by config.c handed out, and the [sandbox] settings applied to a
 * sandbox's options (see config.h).
 *
 * Invariant: a setting the file did not set changes nothing here; the
 * caller's defaults and flags stay as they were.
 */
#include "conf/config-int.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

const char *
config_path(const struct config *cfg)
{
	return cfg->path;
}

bool
config_approval_mode(const struct config *cfg, enum policy_mode *mode)
{
	if (cfg->set_line[KEY_MODE] == 0)
		return false;
	*mode = cfg->mode;
	return true;
}

const char *
config_notify(const struct config *cfg)
{
	return cfg->notify;
}

const char *
config_rules(const struct config *cfg)
{
	return cfg->rules;
}

bool
config_sandbox_profile(const struct config *cfg,
    enum sandbox_profile *profile)
{
	if (cfg->set_line[KEY_PROFILE] == 0)
		return false;
	*profile = cfg->profile;
	return true;
}

int
config_apply_sandbox(const struct config *cfg, struct sandbox_opts *opts,
    char **cause)
{
	const unsigned		*set = cfg->set_line;
	enum sandbox_limit	 k;
	int			 i, g;

	if (set[KEY_PROFILE] != 0)
		opts->profile = cfg->profile;
	if (set[KEY_NETWORK] != 0)
		opts->network = cfg->network;
	if (set[KEY_PROTECT_GIT] != 0)
		opts->protect_git = cfg->protect_git;
	if (set[KEY_PRIVATE_TMP] != 0)
		opts->private_tmp = cfg->private_tmp;
	if (set[KEY_ALLOW_NO_NAMESPACES] != 0)
		opts->allow_no_namespaces = cfg->allow_no_namespaces;
	for (k = 0; k < SANDBOX_NLIMITS; k++)
		if (cfg->bounds[0].line[k] != 0)
			sandbox_opts_set_limit(opts, k,
			    sandbox_limit_get(&cfg->bounds[0].limits, k),
			    SANDBOX_FROM_SETTINGS, cfg->bounds[0].line[k]);
	/* Each profile's own, for sandbox_opts_limits() to pick. */
	for (i = 0; i < SANDBOX_NBOUNDED; i++)
		opts->profile_limits[i] = cfg->bounds[1 + i];
	opts->settings = cfg->path;
	for (i = 0; i < cfg->nwritable; i++)
		if (sandbox_opts_add_writable(opts, cfg->writable[i],
		    cause) != 0)
			return -1;
	for (i = 0; i < cfg->nnet_allow; i++)
		if (sandbox_opts_add_network(opts, false, cfg->net_allow[i],
		    cause) != 0)
			return -1;
	for (i = 0; i < cfg->nnet_deny; i++)
		if (sandbox_opts_add_network(opts, true, cfg->net_deny[i],
		    cause) != 0)
			return -1;
	for (g = 0; g < CONFIG_NGUARD; g++)
		for (i = 0; i < cfg->nguard[g]; i++)
			if (sandbox_opts_add_guard(opts, g == CONFIG_HIDE ?
			    GUARD_HIDDEN : GUARD_READ_ONLY, g == CONFIG_EXPOSE,
			    cfg->guard[g][i], cause) != 0)
				return -1;
	for (i = 0; i < cfg->npass_env; i++)
		if (sandbox_opts_add_pass_env(opts, cfg->pass_env[i],
		    cause) != 0)
			return -1;
	return 0;
}

char
config_prefix(const struct config *cfg)
{
	return cfg->prefix;
}

size_t
config_mcp_max_bytes(const struct config *cfg)
{
	return cfg->mcp_max_bytes;
}

size_t
config_scrollback(const struct config *cfg)
{
	return cfg->scrollback;
}

bool
config_mouse(const struct config *cfg)
{
	return cfg->mouse;
}

bool
config_exec_strict(const struct config *cfg)
{
	return cfg->exec_strict;
}

bool
config_exec_judge_own(const struct config *cfg)
{
	return cfg->exec_judge_own;
}

const char *
config_state_dir(const struct config *cfg)
{
	return cfg->state_dir;
}

const char *
config_socket(const struct config *cfg)
{
	return cfg->socket;
}

uint64_t
config_max_recording(const struct config *cfg)
{
	return cfg->max_recording;
}

uint64_t
config_state_budget(const struct config *cfg)
{
	return cfg->state_budget;
}

const char *
config_web_listen(const struct config *cfg)
{
	return cfg->web_listen;
}

const char *
config_web_cert(const struct config *cfg)
{
	return cfg->web_cert;
}

const char *
config_web_key(const struct config *cfg)
{
	return cfg->web_key;
}

const char *
config_web_host(const struct config *cfg)
{
	return cfg->web_host;
}

/* ADDR:PORT, for [web] listen and `ptyvisor web --listen` (config.h). */
int
config_parse_listen(const char *s, char **addr, uint16_t *port,
    char **cause)
{
	const char	*colon, *a = s, *a_end;
	char		*host, *end;
	unsigned char	 bin[sizeof(struct in6_addr)];
	unsigned long	 n;
	bool		 v6 = *s == '[';

	if (v6) {
		a = s + 1;
		if ((a_end = strchr(a, ']')) == NULL || a_end[1] != ':') {
			*cause = xasprintf("'%s' is not ADDR:PORT ([::1]:PORT "
			    "for IPv6)", s);
			return -1;
		}
		colon = a_end + 1;
	} else if ((colon = strrchr(s, ':')) == NULL) {
		*cause = xasprintf("'%s' is not ADDR:PORT", s);
		return -1;
	} else
		a_end = colon;
	host = xstrndup(a, (size_t)(a_end - a));
	if (!v6 && strcmp(host, "localhost") == 0) {
		free(host);
		host = xstrdup("127.0.0.1");
	}
	if (inet_pton(v6 ? AF_INET6 : AF_INET, host, bin) != 1) {
		*cause = xasprintf("'%s' is not an IPv%d address (or "
		    "localhost)", host, v6 ? 6 : 4);
		free(host);
		return -1;
	}
	errno = 0;
	n = strtoul(colon + 1, &end, 10);
	if (colon[1] == '\0' || *end != '\0' || errno != 0 || n > 65535 ||
	    !isdigit((unsigned char)colon[1])) {
		*cause = xasprintf("'%s' is not a port (0 to 65535)",
		    colon + 1);
		free(host);
		return -1;
	}
	if (port != NULL)
		*port = (uint16_t)n;
	if (addr != NULL)
		*addr = host;
	else
		free(host);
	return 0;
}
