/*
 * server-opts.c - what the console and `serve` tell their server: the
 * command line's flags first, then the settings file, then the defaults
 * (cli.h, struct cli_server_opts).
 */
#include "cli/cli.h"

#include <stdlib.h>

#include "base/util.h"
#include "conf/config.h"

void
cli_server_opts_defaults(const struct config *cfg, struct cli_server_opts *o)
{
	struct server_opts	*s = &o->srv;

	if (!s->mode_given && (cfg == NULL ||
	    !config_approval_mode(cfg, &s->mode)))
		s->mode = POLICY_UNTRUSTED;
	if (o->rules == NULL && cfg != NULL && config_rules(cfg) != NULL)
		o->rules = xstrdup(config_rules(cfg));
	s->rules_named = o->rules != NULL;
	if (o->rules == NULL)
		o->rules = cli_rules_path();
	s->rules = o->rules;
	if (cfg != NULL) {
		s->exec_strict = config_exec_strict(cfg);
		s->exec_judge_own = config_exec_judge_own(cfg);
	}
	s->notify_given = s->notify != NULL;
	if (s->notify == NULL && cfg != NULL)
		s->notify = config_notify(cfg);
	if (o->socket == NULL)
		o->socket = o->socket_path = cli_socket_path(cfg);
	if (o->settings == NULL)
		o->settings = cli_settings_path();
	s->settings = o->settings;
}

void
cli_server_opts_free(struct cli_server_opts *o)
{
	free(o->rules);
	free(o->socket_path);
	free(o->settings);
	o->rules = o->socket_path = o->settings = NULL;
	o->srv.rules = o->srv.settings = NULL;
}
