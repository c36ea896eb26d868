/*
 * recopts.h - the bounds of what sessions leave on disk, as the commands
 * that start them (run, serve, the console) take them: --max-recording
 * SIZE over the settings file's [record] max_recording, then the default
 * (RECORD_CAP_DEFAULT); the state directory's budget from [record]
 * state_budget, else prune_default_budget().
 */
#ifndef PTYVISOR_RECOPTS_H
#define PTYVISOR_RECOPTS_H

#include <stdint.h>

#include "cli/args.h"
#include "session/session.h"

struct config;

/* Help lines for the options below, for --help texts. */
extern const char recopts_help[];

/* The options, for a command's entry (args.h); keys RECOPTS_KEY and up. */
#define RECOPTS_KEY	0x200
extern const struct args_option recopts_options[];

/* What the command line said. */
struct recopts {
	uint64_t	max_recording;	/* 0: not given */
};

/*
 * Apply the option of key (one of recopts_options[]) with its value to o.
 * 0, or -1 with *cause when the value is wrong.
 */
int	recopts_apply(struct recopts *o, int key, const char *value,
	    char **cause);

/*
 * If argv[*i] is one of the options, apply it and advance *i past its
 * value: 1; 0 when it is not one; -1 with *cause when it is wrong.  For
 * a command that reads its words itself (the console).
 */
int	recopts_parse(struct recopts *o, int argc, char **argv, int *i,
	    char **cause);

/*
 * The bounds of the sessions recorded in state_dir: o's (may be NULL),
 * else cfg's (may be NULL), else the defaults.
 */
void	recopts_bounds(const struct recopts *o, const struct config *cfg,
	    const char *state_dir, struct session_bounds *out);

#endif
