/*
 * cmd-web.c - `ptyvisor web`: its options and the settings' [web]
 * section, then the browser front end of web/web.h.  Everything it does
 * is there.
 */
#include "cli/commands.h"
#include "cli/args.h"
#include "cli/cli.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "conf/config.h"
#include "record/statedir.h"
#include "web/web.h"

/*
 * Where xterm.js is, for the console on the page: installed under the
 * data directory by `make install`, or beside a build in the source tree
 * (web/vendor/node_modules, from `npm ci` there).
 */
#ifndef PV_PKGDATADIR
#define PV_PKGDATADIR	"/usr/local/share/ptyvisor"
#endif
#define CMD_WEB_XTERM	"/web/xterm"
#define CMD_WEB_XTERM_TREE "/../web/vendor/node_modules/@xterm/xterm"

/* Where it listens unless told: loopback, a port of its own. */
#define CMD_WEB_LISTEN	"127.0.0.1:8461"

/* The --help text. */
static void
cmd_web_usage(FILE *f)
{
	fprintf(f,
	    "usage: ptyvisor web [--listen ADDR:PORT] [--socket PATH]\n\n"
	    "The browser front end of the running server (the console or "
	    "'serve'): a page,\nmade for a phone first, with every request "
	    "waiting for a decision (approve,\napprove and remember, deny "
	    "with a reason, edit first) and the sessions.\n"
	    "It prints the page's address and two links once, each with a "
	    "secret token:\napprover (decides) and watch-only (sees).  It "
	    "listens on 127.0.0.1 unless\ntold; beyond loopback only with TLS "
	    "([web] cert and key in the settings\nfile).  From another machine, "
	    "forward the port instead:\n  ssh -L 8461:127.0.0.1:8461 HOST\n"
	    "See doc/web.md.\n\n"
	    "Options:\n"
	    "  --listen ADDR:PORT  where to listen (default [web] listen of "
	    "the settings\n"
	    "                      file, else " CMD_WEB_LISTEN "; port 0: any "
	    "free port)\n"
	    "  --socket PATH       the server's socket (default "
	    "$PTYVISOR_SOCKET,\n"
	    "                      the settings file's, else the usual one)\n"
	    "  -h, --help          show this help\n");
}

/* What web's command line says. */
struct cmd_web {
	const char	*listen;
	const char	*sock;
};

enum {
	CMD_WEB_SOCKET = 256,
	CMD_WEB_LISTEN_OPT,
};

static const struct args_option cmd_web_options[] = {
	{ "socket", 0, true, CMD_WEB_SOCKET },
	{ "listen", 0, true, CMD_WEB_LISTEN_OPT },
	ARGS_HELP_OPTION,
	ARGS_END
};
static const struct args_option *const cmd_web_tables[] = {
	cmd_web_options, NULL
};

/* Take one option (args_parse()); --listen checked at once. */
static int
cmd_web_option(void *state, int key, const char *value, char **cause)
{
	struct cmd_web	*c = state;
	char		*why = NULL;

	switch (key) {
	case CMD_WEB_SOCKET:
		c->sock = value;
		break;
	case CMD_WEB_LISTEN_OPT:
		if (config_parse_listen(value, NULL, NULL, &why) != 0) {
			*cause = xasprintf("--listen: %s", why);
			free(why);
			return -1;
		}
		c->listen = value;
		break;
	}
	return 0;
}

/* `ptyvisor web`: the options, the settings, then the front end. */
static int
cmd_web_exec(int argc, char **argv)
{
	const struct config	*cfg;
	struct cmd_web		 c = { NULL, NULL };
	struct web_opts		 o = { 0 };
	struct args_end		 end;
	const char		*listen, *dirs[3];
	char			*path = NULL, *addr = NULL, *cause = NULL;
	char			*self, *tree, *state, *history = NULL;
	int			 rc;

	if ((rc = args_parse(&cmd_web_entry, argc, argv, &c,
	    &end)) != ARGS_GO_ON)
		return rc;
	if (end.first < argc) {
		cli_error("web", "unexpected argument '%s'", argv[end.first]);
		return CLI_EXIT_ERROR;
	}
	if ((cfg = cli_config()) == NULL)
		return CLI_EXIT_ERROR;
	listen = c.listen != NULL ? c.listen : config_web_listen(cfg) !=
	    NULL ? config_web_listen(cfg) : CMD_WEB_LISTEN;
	rc = CLI_EXIT_ERROR;
	if (config_parse_listen(listen, &addr, &o.port, &cause) != 0)
		goto out;
	path = c.sock != NULL ? xstrdup(c.sock) : cli_socket_path(cfg);
	o.socket = path;
	o.addr = addr;
	o.cert = config_web_cert(cfg);
	o.key = config_web_key(cfg);
	o.host = config_web_host(cfg);
	/* The history the page shows; none when there is no state dir. */
	if ((state = cli_state_dir(cfg, &cause)) != NULL) {
		history = statedir_history_path(state);
		o.history = history;
		o.state_dir = state;
	}
	free(cause);
	cause = NULL;
	self = cli_self_path();
	if (strrchr(self, '/') != NULL)
		*strrchr(self, '/') = '\0';
	tree = xasprintf("%s" CMD_WEB_XTERM_TREE, self);
	dirs[0] = PV_PKGDATADIR CMD_WEB_XTERM;
	dirs[1] = tree;
	dirs[2] = NULL;
	o.xterm_dirs = dirs;
	if (web_run(&o, stdout, &cause) == 0)
		rc = 0;
	free(tree);
	free(self);
	free(history);
	free(state);
out:
	if (cause != NULL)
		cli_error("web", "%s", cause);
	free(cause);
	free(addr);
	free(path);
	return rc;
}

const struct cmd_entry cmd_web_entry = {
	.name = "web",
	.summary = "the browser front end: approvals and sessions on a page",
	.exec = cmd_web_exec,
	.options = cmd_web_tables,
	.flags = ARGS_SEE_HELP,
	.usage = cmd_web_usage,
	.option = cmd_web_option,
};
