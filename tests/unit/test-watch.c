/*
 * test-watch.c - following a file on a real loop: a write, a replace by
 * rename (as editors save), a creation and a removal each call back once
 * things settle; a burst is one call; other files in the directory are
 * ignored; a directory that does not exist is an error.
 */
#include "base/watch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/loop.h"
#include "base/util.h"
#include "tests/tap.h"

static int calls;

static void
changed(void *user)
{
	(void)user;
	calls++;
}

/* Run the loop for about ms milliseconds. */
static void
run_for(struct loop *l, int ms)
{
	uint64_t	end = util_now_ms() + (uint64_t)ms;

	while (util_now_ms() < end)
		loop_once(l, 20);
}

/*
 * Run until calls reaches want (at most 10 s: a loaded machine), then a
 * while longer so that an extra call would show.
 */
static void
settle(struct loop *l, int want)
{
	uint64_t	end = util_now_ms() + 10000;

	while (calls < want && util_now_ms() < end)
		loop_once(l, 20);
	run_for(l, WATCH_SETTLE_MS * 2);
}

/* Write text to path (truncating). */
static void
put(const char *path, const char *text)
{
	FILE	*f = fopen(path, "w");

	if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0)
		diag("cannot write %s", path);
}

int
main(void)
{
	char		 dir[] = "/tmp/test-watch.XXXXXX", *file, *other, *tmp;
	char		*cause = NULL;
	struct loop	*l;
	struct watch	*w;
	int		 i;

	if (mkdtemp(dir) == NULL || (l = loop_new(&cause)) == NULL) {
		ok(0, "set up: %s", cause != NULL ? cause : "mkdtemp");
		return tap_done();
	}
	file = xasprintf("%s/rules", dir);
	other = xasprintf("%s/other", dir);
	tmp = xasprintf("%s/rules.tmp", dir);

	w = watch_new(l, file, changed, NULL, &cause);
	ok(w != NULL, "a file that does not exist yet can be watched");
	put(file, "one\n");
	settle(l, 1);
	is_int(calls, 1, "its creation is one change");
	for (i = 0; i < 5; i++)
		put(file, "burst\n");
	settle(l, 2);
	is_int(calls, 2, "five writes in a row are one change");
	put(other, "x\n");
	run_for(l, WATCH_SETTLE_MS * 3);
	is_int(calls, 2, "another file of the directory is not ours");
	put(tmp, "two\n");
	calls = 0;
	if (rename(tmp, file) != 0)
		diag("rename failed");
	settle(l, 1);
	is_int(calls, 1, "a replace by rename is one change");
	unlink(file);
	settle(l, 2);
	is_int(calls, 2, "a removal is one change");
	put(file, "three\n");
	run_for(l, WATCH_SETTLE_MS / 3);
	watch_free(w);
	run_for(l, WATCH_SETTLE_MS * 3);
	is_int(calls, 2, "freed while settling: no call after");
	watch_free(NULL);

	free(file);
	file = xasprintf("%s/no-such-dir/rules", dir);
	ok(watch_new(l, file, changed, NULL, &cause) == NULL && cause != NULL &&
	    strstr(cause, "no-such-dir") != NULL,
	    "a missing directory is an error naming it: %s",
	    cause != NULL ? cause : "(none)");
	free(cause);

	unlink(other);
	unlink(tmp);
	free(tmp);
	tmp = xasprintf("%s/rules", dir);
	unlink(tmp);
	rmdir(dir);
	free(tmp);
	free(file);
	free(other);
	loop_free(l);
	return tap_done();
}
