/*
 * recopts.c - the recordings' cap and the state directory's budget as the
 * commands that start sessions take them (see recopts.h).
 */
#include "cli/recopts.h"

#include <stdlib.h>

#include "base/util.h"
#include "conf/config.h"
#include "record/prune.h"
#include "record/record.h"
#include "sandbox/sandbox.h"

_Static_assert(CONFIG_RECORDING_MIN == RECORD_CAP_MIN,
    "[record] max_recording's minimum is the recorder's");
_Static_assert(CONFIG_BUDGET_MIN == PRUNE_BUDGET_MIN,
    "[record] state_budget's minimum is the pruner's");

const char recopts_help[] =
"  --max-recording SIZE\n"
"                      cap each recording at SIZE (e.g. 64M; default\n"
"                      [record] max_recording, else 256M): past it the\n"
"                      head and the tail are kept, the gap marked\n";

enum {
	RECOPTS_MAX_RECORDING = RECOPTS_KEY,
};

const struct args_option recopts_options[] = {
	{ "max-recording", 0, true, RECOPTS_MAX_RECORDING },
	ARGS_END
};

int
recopts_apply(struct recopts *o, int key, const char *value, char **cause)
{
	uint64_t	 n;
	char		*why = NULL;

	(void)key;	/* the only one */
	if (sandbox_parse_size(value, &n, &why) != 0 || n < RECORD_CAP_MIN) {
		*cause = xasprintf("--max-recording: '%s' is not a size of at "
		    "least %lluK", value,
		    (unsigned long long)(RECORD_CAP_MIN / 1024));
		free(why);
		return -1;
	}
	o->max_recording = n;
	return 0;
}

int
recopts_parse(struct recopts *o, int argc, char **argv, int *i,
    char **cause)
{
	const struct args_option	*opt;
	const char			*value;
	int				 r;

	r = args_match(recopts_options, argc, argv, i, &opt, &value, cause);
	if (r <= 0)
		return r;
	return recopts_apply(o, opt->key, value, cause) != 0 ? -1 : 1;
}

void
recopts_bounds(const struct recopts *o, const struct config *cfg,
    const char *state_dir, struct session_bounds *out)
{
	out->max_recording = RECORD_CAP_DEFAULT;
	if (o != NULL && o->max_recording != 0)
		out->max_recording = o->max_recording;
	else if (cfg != NULL && config_max_recording(cfg) != 0)
		out->max_recording = config_max_recording(cfg);
	if (cfg != NULL && config_state_budget(cfg) != 0)
		out->state_budget = config_state_budget(cfg);
	else
		out->state_budget = prune_default_budget(state_dir);
}
