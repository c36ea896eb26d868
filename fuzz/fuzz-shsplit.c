/*
 * fuzz-shsplit.c - libFuzzer target for the shell-string splitter, in both
 * of its modes (an agent's `sh -c` string, a rules-file line).  Besides
 * memory errors, it checks the splitter's promises: a result always comes
 * back, words are NUL-terminated with a quoted flag per byte, the rules
 * mode gives at most one command, and a word without unquoted glob
 * characters turns into a pattern that matches exactly itself.
 */
#include <assert.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy/shsplit.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Whether the word has an unquoted glob character. */
static int
has_glob(const struct shsplit_word *w)
{
	size_t	i;

	for (i = 0; i < w->len; i++)
		if (!w->quoted[i] && strchr("*?[]\\", w->text[i]) != NULL)
			return 1;
	return 0;
}

static void
check(const char *s, int flags)
{
	struct shsplit	*sp;
	size_t		 i, j;
	char		*pat;

	sp = shsplit_parse(s, flags);
	assert(sp != NULL);
	if ((flags & SHSPLIT_RULE) && sp->error == NULL)
		assert(sp->ncmds <= 1);
	for (i = 0; sp->error == NULL && i < sp->ncmds; i++) {
		for (j = 0; j < sp->cmds[i].nwords; j++) {
			const struct shsplit_word *w = &sp->cmds[i].words[j];

			assert(w->text != NULL && w->text[w->len] == '\0');
			assert(w->len == 0 || w->quoted != NULL);
			pat = shsplit_pattern(w);
			assert(pat != NULL);
			/* Quoted globs are literal: the word matches. */
			if (strlen(w->text) == w->len && !has_glob(w))
				assert(fnmatch(pat, w->text, 0) == 0);
			free(pat);
		}
	}
	shsplit_free(sp);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	*s;

	if ((s = malloc(size + 1)) == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	check(s, 0);
	check(s, SHSPLIT_RULE);
	free(s);
	return 0;
}
