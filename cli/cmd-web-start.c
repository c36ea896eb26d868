/*
 * cmd-web-start.c - `ptyvisor web` in the main program: it runs the
 * program ptyvisor-web with the same words.  The browser front end (its
 * HTTP, WebSocket and TLS libraries) is a program of its own so that no
 * other command loads them: every ptyvisor process, the exec client and
 * the shell shim above all, starts without mapping and relocating
 * libwebsockets and OpenSSL (doc/architecture.md).
 *
 * Where: beside this program first (a build tree, or both installed in
 * one directory), then the package's libexec directory.
 */
#include "cli/commands.h"
#include "cli/cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

#ifndef PV_PKGLIBEXECDIR
#define PV_PKGLIBEXECDIR	"/usr/local/libexec/ptyvisor"
#endif
#define CMD_WEB_PROGRAM		"ptyvisor-web"

/* The program's path, or NULL when it is in neither place. */
static char *
cmd_web_program(char **looked)
{
	char	*self = cli_self_path(), *beside, *slash;

	if ((slash = strrchr(self, '/')) != NULL)
		*slash = '\0';
	beside = xasprintf("%s/" CMD_WEB_PROGRAM, self);
	free(self);
	if (access(beside, X_OK) == 0)
		return beside;
	if (access(PV_PKGLIBEXECDIR "/" CMD_WEB_PROGRAM, X_OK) == 0) {
		free(beside);
		return xstrdup(PV_PKGLIBEXECDIR "/" CMD_WEB_PROGRAM);
	}
	*looked = xasprintf("%s, " PV_PKGLIBEXECDIR "/" CMD_WEB_PROGRAM,
	    beside);
	free(beside);
	return NULL;
}

/* Become ptyvisor-web, with the words after "web". */
static int
cmd_web_start(int argc, char **argv)
{
	char	**v, *path, *looked = NULL;
	int	  i;

	if ((path = cmd_web_program(&looked)) == NULL) {
		cli_error("web", "the browser front end is not installed (no "
		    CMD_WEB_PROGRAM " in %s)", looked);
		free(looked);
		return CLI_EXIT_ERROR;
	}
	v = xcalloc((size_t)argc + 1, sizeof *v);
	v[0] = (char *)CMD_WEB_PROGRAM;
	for (i = 1; i < argc; i++)
		v[i] = argv[i];
	v[argc] = NULL;
	fflush(NULL);
	execv(path, v);
	cli_error("web", "%s: %s", path, strerror(errno));
	free(v);
	free(path);
	return CLI_EXIT_ERROR;
}

const struct cmd_entry cmd_web_start_entry = {
	.name = "web",
	.summary = "the browser front end: approvals and sessions on a page",
	.exec = cmd_web_start,
};
