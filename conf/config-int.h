/*
 * config-int.h - what the two halves of conf/ share: the keys and the
 * parsed settings.  Not for use outside conf/.
 */
#ifndef PTYVISOR_CONFIG_INT_H
#define PTYVISOR_CONFIG_INT_H

#include "conf/config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sandbox/sandbox.h"

/* Every key; the index into set_line[]. */
enum config_key {
	KEY_MODE,
	KEY_NOTIFY,
	KEY_RULES,
	KEY_PROFILE,
	KEY_NETWORK,
	KEY_WRITABLE,
	KEY_NETWORK_ALLOW,
	KEY_NETWORK_DENY,
	KEY_PASS_ENV,
	KEY_PROTECT_GIT,
	KEY_PRIVATE_TMP,
	KEY_ALLOW_NO_NAMESPACES,
	KEY_MAX_PROCS,
	KEY_MAX_FILES,
	KEY_MAX_MEMORY,
	KEY_MAX_SESSION_MEMORY,
	KEY_MAX_FILE_SIZE,
	KEY_PREFIX,
	KEY_SCROLLBACK,
	KEY_MOUSE,
	KEY_MCP_MAX_BYTES,
	KEY_STATE_DIR,
	KEY_SOCKET,
	KEY_PROTECT,		/* these three in the order of */
	KEY_HIDE,		/* enum config_guard */
	KEY_EXPOSE,
	KEY_EXEC_STRICT,
	KEY_EXEC_JUDGE_OWN,
	KEY_MAX_RECORDING,
	KEY_STATE_BUDGET,
	KEY_WEB_LISTEN,
	KEY_WEB_CERT,
	KEY_WEB_KEY,
	KEY_WEB_HOST,
	CONFIG_NKEYS
};

/* The lists of guarded paths, in the order of their keys. */
enum config_guard {
	CONFIG_PROTECT,
	CONFIG_HIDE,
	CONFIG_EXPOSE,
	CONFIG_NGUARD
};

struct config {
	char			*path;
	unsigned		 set_line[CONFIG_NKEYS];

	enum policy_mode	 mode;
	char			*notify;
	char			*rules;

	enum sandbox_profile	 profile;
	bool			 network;
	char			*writable[SANDBOX_MAX_ROOTS];
	int			 nwritable;
	char			*net_allow[SANDBOX_MAX_NET_LISTS];
	int			 nnet_allow;
	char			*net_deny[SANDBOX_MAX_NET_LISTS];
	int			 nnet_deny;
	char			*pass_env[SANDBOX_MAX_PASS_ENV];
	int			 npass_env;
	bool			 protect_git;
	bool			 private_tmp;
	bool			 allow_no_namespaces;
	/* [sandbox], then [sandbox.PROFILE] of each bounded profile. */
	struct sandbox_given_limits bounds[1 + SANDBOX_NBOUNDED];

	char			 prefix;
	size_t			 scrollback;
	bool			 mouse;

	size_t			 mcp_max_bytes;

	bool			 exec_strict;
	bool			 exec_judge_own;

	uint64_t		 max_recording;
	uint64_t		 state_budget;

	char			*state_dir;
	char			*socket;

	/* [web]: listen as given (checked), the TLS files, the name. */
	char			*web_listen;
	char			*web_cert;
	char			*web_key;
	char			*web_host;

	/* [sandbox] protect, hide, expose: guarded paths (sandbox/guard.h). */
	char			*guard[CONFIG_NGUARD][GUARD_MAX_EXTRA];
	int			 nguard[CONFIG_NGUARD];
};

#endif
