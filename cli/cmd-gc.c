/*
 * cmd-gc.c - `ptyvisor gc [--dry-run]`: bring the state directory within
 * its budget now ([record] state_budget, else the default; record/prune.h),
 * saying which sessions' recordings and logs go, or with --dry-run would.
 * The history is never touched; sessions that run keep their files.
 */
#include "cli/commands.h"
#include "cli/args.h"
#include "cli/cli.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/util.h"
#include "cli/recopts.h"
#include "record/prune.h"

/* What the command line says. */
struct cmd_gc_args {
	bool	dry_run;
};

enum {
	CMD_GC_DRY_RUN = 256,
};

static const struct args_option cmd_gc_options[] = {
	{ "dry-run", 'n', false, CMD_GC_DRY_RUN },
	ARGS_HELP_OPTION,
	ARGS_END
};
static const struct args_option *const cmd_gc_tables[] = {
	cmd_gc_options, NULL
};

/* The --help text. */
static void
cmd_gc_usage(FILE *f)
{
	fprintf(f,
	    "usage: ptyvisor gc [--dry-run]\n\n"
	    "Bring the state directory within its budget ([record]\n"
	    "state_budget of the settings file, else the smaller of 10G and a\n"
	    "tenth of its filesystem): the oldest finished sessions'\n"
	    "recordings, exec logs and network logs are removed until it fits.\n"
	    "History lines are never removed ('history' and 'show' then say\n"
	    "\"recording pruned\"), nor anything of a running session.  Every\n"
	    "session that ends does the same by itself.\n\n"
	    "Options:\n"
	    "  -n, --dry-run  only list what would be removed\n"
	    "  -h, --help     show this help\n\n"
	    "Output: one line per session (id, bytes), then the directory's\n"
	    "size before and after, and the budget.\n");
}

/* Take one option into a (args_parse()). */
static int
cmd_gc_option(void *state, int key, const char *value, char **cause)
{
	struct cmd_gc_args	*a = state;

	(void)value;
	(void)cause;
	if (key == CMD_GC_DRY_RUN)
		a->dry_run = true;
	return 0;
}

/* Print what r says went (or would go), and the sizes. */
static void
cmd_gc_print(const struct prune_result *r, uint64_t budget, bool dry_run)
{
	size_t	i;

	for (i = 0; i < r->n; i++)
		printf("%s session %lu: %llu bytes (recording and logs)\n",
		    dry_run ? "would remove" : "removed", r->v[i].id,
		    (unsigned long long)r->v[i].bytes);
	printf("state directory: %llu bytes, %s %llu bytes; budget %llu "
	    "bytes\n", (unsigned long long)r->usage,
	    dry_run ? "would be" : "now", (unsigned long long)r->after,
	    (unsigned long long)budget);
	if (r->after > budget)
		printf("over the budget: what is left is history, running "
		    "sessions or files that are not a session's\n");
}

/* `ptyvisor gc`: prune the state directory to its budget. */
static int
cmd_gc_exec(int argc, char **argv)
{
	struct cmd_gc_args	 a = { 0 };
	struct args_end		 end;
	struct session_bounds	 b;
	struct prune_result	 r = { 0 };
	const struct config	*cfg;
	char			*dir = NULL, *cause = NULL;
	int			 rc;

	if ((cfg = cli_config()) == NULL)
		return CLI_EXIT_ERROR;
	if ((rc = args_parse(&cmd_gc_entry, argc, argv, &a,
	    &end)) != ARGS_GO_ON)
		return rc;
	rc = CLI_EXIT_ERROR;
	if (end.first != argc)
		cause = xasprintf("unexpected argument '%s'",
		    argv[end.first]);
	else if ((dir = cli_state_dir(cfg, &cause)) != NULL) {
		recopts_bounds(NULL, cfg, dir, &b);
		if (prune_run(dir, b.state_budget, b.state_budget, a.dry_run,
		    &r, &cause) == 0)
			rc = 0;
		cmd_gc_print(&r, b.state_budget, a.dry_run);
	}
	if (cause != NULL)
		cli_error("gc", "%s", cause);
	prune_result_free(&r);
	free(cause);
	free(dir);
	return rc;
}

const struct cmd_entry cmd_gc_entry = {
	.name = "gc",
	.summary = "prune the state directory to its budget",
	.exec = cmd_gc_exec,
	.options = cmd_gc_tables,
	.flags = ARGS_SEE_HELP,
	.usage = cmd_gc_usage,
	.option = cmd_gc_option,
};
