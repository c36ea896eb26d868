/*
 * fuzz-config.c - libFuzzer target for the settings file: the input is the
 * file (held in a memfd, read through its /proc path as a real file would
 * be), loaded and its sandbox settings applied.  Besides memory errors, it
 * checks the promises: an error is "FILE:LINE: ..." or "FILE: ...", never
 * empty; a loaded file applies cleanly or with a cause; every getter
 * answers; under each profile every bound comes from the settings with
 * its line, or from the default without one, never from a flag.
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "conf/config.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int		 fd = -1;
	static char		 path[64];
	struct config		*cfg;
	struct sandbox_opts	 opts;
	enum policy_mode	 mode;
	enum sandbox_profile	 profile;
	struct sandbox_limits	 limits;
	enum sandbox_origin	 from[SANDBOX_NLIMITS];
	unsigned		 line[SANDBOX_NLIMITS];
	char			*cause = NULL;
	int			 p, k;

	if (fd < 0) {
		if ((fd = memfd_create("fuzz-config", MFD_CLOEXEC)) < 0)
			abort();
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) !=
	    (ssize_t)size)
		abort();

	cfg = config_new();
	if (config_load(cfg, path, false, &cause) != 0) {
		assert(cause != NULL);
		assert(strncmp(cause, path, strlen(path)) == 0);
		assert(cause[strlen(path)] == ':');
		free(cause);
		config_free(cfg);
		return 0;
	}
	assert(config_path(cfg) != NULL);
	(void)config_approval_mode(cfg, &mode);
	(void)config_sandbox_profile(cfg, &profile);
	(void)config_notify(cfg);
	(void)config_rules(cfg);
	(void)config_prefix(cfg);
	(void)config_scrollback(cfg);
	(void)config_mouse(cfg);
	(void)config_state_dir(cfg);
	(void)config_socket(cfg);
	sandbox_opts_init(&opts);
	if (config_apply_sandbox(cfg, &opts, &cause) != 0) {
		assert(cause != NULL && cause[0] != '\0');
		free(cause);
	} else
		assert(opts.nwritable <= SANDBOX_MAX_ROOTS);
	for (p = 0; p <= SANDBOX_FULL_ACCESS; p++) {
		opts.profile = (enum sandbox_profile)p;
		sandbox_opts_limits(&opts, &limits, from, line);
		for (k = 0; k < SANDBOX_NLIMITS; k++)
			assert(from[k] != SANDBOX_FROM_OPTION &&
			    (from[k] == SANDBOX_FROM_DEFAULT) == (line[k] == 0));
	}
	config_free(cfg);
	return 0;
}
