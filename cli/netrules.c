/*
 * netrules.c - the rules file for `run` and `sandbox` (see netrules.h).
 *
 * Invariant: a host is judged here only when neither host list decided
 * (the proxy asks after the lists), and only by rules whose first word is
 * "connect" (policy_check_host), so a rule of the file means the same
 * here as under the server; an "ask" rule, or none, leaves the host to a
 * person, or to a refusal when nobody can be asked.
 */
#include "cli/netrules.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "cli/cli.h"
#include "conf/config.h"
#include "control/ask-server.h"
#include "policy/policy.h"
#include "sandbox/sandbox.h"

const char netrules_help[] =
"  --rules FILE        the rules file whose 'allow connect HOST:PORT' and\n"
"                      'deny connect ...' rules judge a host on neither\n"
"                      host list ([approval] rules, else\n"
"                      $PTYVISOR_CONFIG/rules, else\n"
"                      $XDG_CONFIG_HOME/ptyvisor/rules)\n";

struct cli_netrules {
	struct policy	*policy;
	char		*path;
	char		*socket;
};

/*
 * The rules' verdict on host:port, named as a "connect" request names it
 * to the server: an allow or a deny rule decides, an ask rule does not.
 */
static bool
netrules_judge(void *arg, const char *host, uint16_t port,
    struct hostlist_judgement *j)
{
	struct cli_netrules	*nr = arg;
	struct policy_verdict	 v;
	char			*hostport;
	bool			 found;

	hostport = xasprintf(strchr(host, ':') != NULL ? "[%s]:%u" : "%s:%u",
	    host, (unsigned)port);
	found = policy_check_host(nr->policy, hostport, &v);
	free(hostport);
	if (!found || v.decision == POLICY_ASK)
		return false;
	j->verdict = v.decision == POLICY_ALLOW ? HOSTLIST_ALLOW :
	    HOSTLIST_DENY;
	snprintf(j->why, sizeof j->why, "%s by rule '%s' (%s)",
	    v.decision == POLICY_ALLOW ? "allowed" : "denied",
	    v.rule != NULL ? v.rule : "?", v.where != NULL ? v.where : "?");
	return true;
}

struct cli_netrules *
netrules_new(const struct config *cfg, const char *flag,
    struct sandbox_opts *opts, char **cause)
{
	struct cli_netrules	*nr = xcalloc(1, sizeof *nr);
	bool			 named = true;
	int			 fd;

	if (flag != NULL)
		nr->path = xstrdup(flag);
	else if (cfg != NULL && config_rules(cfg) != NULL)
		nr->path = xstrdup(config_rules(cfg));
	else {
		nr->path = cli_rules_path();
		named = false;
	}
	if (flag == NULL && (opts->profile == SANDBOX_FULL_ACCESS ||
	    !sandbox_opts_network_filtered(opts)))
		return nr;
	/* As the server: a file named must be there, the default may not. */
	if (named) {
		if ((fd = open(nr->path, O_RDONLY | O_CLOEXEC)) < 0) {
			*cause = xasprintf("rules file %s: %s", nr->path,
			    strerror(errno));
			netrules_free(nr);
			return NULL;
		}
		close(fd);
	}
	nr->policy = policy_new(POLICY_ON_REQUEST);
	if (policy_load_file(nr->policy, nr->path, cause) != 0) {
		netrules_free(nr);
		return NULL;
	}
	nr->socket = cli_socket_path(cfg);
	opts->net_rules = netrules_judge;
	opts->net_rules_arg = nr;
	opts->net_rules_file = nr->path;
	opts->net_ask = nr->socket;
	opts->net_asker = &ask_server;
	return nr;
}

void
netrules_free(struct cli_netrules *nr)
{
	if (nr == NULL)
		return;
	policy_free(nr->policy);
	free(nr->path);
	free(nr->socket);
	free(nr);
}
