/*
 * exec-opts.h - what `ptyvisor exec`'s command line says (exec-opts.c
 * reads it; cmd-exec.c runs it).
 */
#ifndef PTYVISOR_EXEC_OPTS_H
#define PTYVISOR_EXEC_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/args.h"

/*
 * The request a command line makes (exec's options; ptyvisor-sh's sets
 * argv alone); its strings are argv's, but for the two owned.
 */
struct cmd_exec {
	char		*cwd;
	long		 timeout;	/* seconds; 0: none */
	const char	*sandbox;
	bool		 network;
	char		*network_allow;	/* owned: --network-allow lists, joined */
	char		*why;
	const char	*socket;	/* --socket; NULL: the usual one */
	int		 mode;		/* 'r' raw, 't' text, 0 by stdout */
	const char	*string;	/* -c STRING */
	char		**env;		/* -e */
	size_t		 nenv;
	char		**argv;		/* owned: what runs */
	/*
	 * --cwd-file: a shell's -c command reports the directory it ends
	 * in, written here (empty when it reported none); NULL: not asked.
	 */
	const char	*cwd_file;
};

/* exec's options, for its entry. */
extern const struct args_option *const exec_opts_tables[];

/* exec's help. */
void	exec_opts_usage(FILE *f);

/* Take one option into a struct cmd_exec (args_parse()'s callback). */
int	exec_opts_option(void *state, int key, const char *value,
	    char **cause);

#endif
