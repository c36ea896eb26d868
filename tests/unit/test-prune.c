/*
 * test-prune.c - unit tests for the state directory's budget
 * (record/prune.h): the oldest finished sessions' recordings and logs go
 * first until the directory fits, never a history line, a running
 * session's files (marker, tail file) or a session with no history line;
 * a dry run removes nothing; past the budget, down to the target; the ids
 * that went are in pruned and are never given again (statedir_last_id);
 * the default budget.
 */
#include "record/prune.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "record/history.h"
#include "record/statedir.h"
#include "tests/tap.h"

static char	tmpdir[] = "/tmp/test-prune.XXXXXX";

#define MIB	(1024 * 1024)

/* Make dir/sessions/name of size bytes. */
static void
make_file(const char *name, size_t size)
{
	char	*path = xasprintf("%s/sessions/%s", tmpdir, name);
	int	 fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0 || ftruncate(fd, (off_t)size) != 0)
		diag("cannot make %s", path);
	if (fd >= 0)
		close(fd);
	free(path);
}

/* Remove dir/sessions/name. */
static void
rm_file(const char *name)
{
	char	*path = xasprintf("%s/sessions/%s", tmpdir, name);

	unlink(path);
	free(path);
}

/* Whether dir/sessions/name exists. */
static int
has_file(const char *name)
{
	char	*path = xasprintf("%s/sessions/%s", tmpdir, name);
	int	 rc = access(path, F_OK) == 0;

	free(path);
	return rc;
}

/* A history line for session id. */
static void
add_history(unsigned long id)
{
	struct history_entry	 e;
	char			*path = statedir_history_path(tmpdir);
	char			*cast = statedir_cast_path(tmpdir, id);
	char			*cause = NULL;

	memset(&e, 0, sizeof e);
	e.id = id;
	e.argv = (char **)(char *const[]){ "yes", NULL };
	e.state = "exited";
	e.recording = cast;
	if (history_append(path, &e, &cause) != 0) {
		diag("history_append: %s", cause);
		free(cause);
	}
	free(cast);
	free(path);
}

/* The number of lines of dir/history.jsonl. */
static size_t
history_lines(void)
{
	struct history_list	 l;
	char			*path = statedir_history_path(tmpdir);
	char			*cause = NULL;
	size_t			 n;

	if (history_load(path, &l, &cause) != 0) {
		free(cause);
		l.n = 0;
	}
	n = l.n;
	history_list_free(&l);
	free(path);
	return n;
}

int
main(void)
{
	struct prune_result	 r;
	char			*cause = NULL, *cmd;
	unsigned long		*ids;
	size_t			 n;
	uint64_t		 d;

	if (mkdtemp(tmpdir) == NULL || statedir_prepare(tmpdir, &cause) != 0) {
		perror("mkdtemp");
		return 1;
	}
	/* 1 and 2 finished (1 with an exec log), 3 runs (its marker), 4
	 * finished but still writing its tail, 5 has no history line yet. */
	make_file("1.cast", 400000);
	make_file("1.exec.jsonl", 10000);
	make_file("2.cast", 400000);
	make_file("2.net.jsonl", 5000);
	make_file("3.cast", 400000);
	make_file("3.running", 100);
	make_file("4.cast", 400000);
	make_file("4.cast.tail", 100000);
	make_file("5.cast", 400000);
	add_history(1);
	add_history(2);
	add_history(4);

	ok(prune_run(tmpdir, 10 * MIB, 10 * MIB, false, &r, &cause) == 0 &&
	    r.n == 0 && r.usage == r.after, "under the budget nothing goes");
	ok(r.usage > 2115100 && r.usage < 2115100 + 4096,
	    "usage counts every file, the history too (%llu)",
	    (unsigned long long)r.usage);
	prune_result_free(&r);

	ok(prune_run(tmpdir, 1500000, 1500000, true, &r, &cause) == 0,
	    "a dry run past the budget");
	ok(r.n == 2 && r.v[0].id == 1 && r.v[0].bytes == 410000 &&
	    r.v[1].id == 2 && r.v[1].bytes == 405000,
	    "would remove the two oldest finished sessions, logs counted");
	ok(has_file("1.cast") && has_file("1.exec.jsonl") &&
	    has_file("2.cast"), "and removes nothing");
	is_int(statedir_pruned(tmpdir, &n) == NULL && n == 0, 1,
	    "nor notes anything as pruned");
	prune_result_free(&r);

	ok(prune_run(tmpdir, 1500000, 1500000, false, &r, &cause) == 0 &&
	    r.n == 2,
	    "the real run removes them");
	ok(!has_file("1.cast") && !has_file("1.exec.jsonl") &&
	    !has_file("2.cast") && !has_file("2.net.jsonl"),
	    "recordings and their logs are gone");
	ok(r.after == r.usage - 815000 && r.after <= 1500000,
	    "the directory fits its budget now");
	prune_result_free(&r);

	ok(prune_run(tmpdir, MIB, MIB, false, &r, &cause) == 0 &&
	    r.n == 0 && r.after > 1024 * 1024, "past the budget again, nothing "
	    "else may go");
	ok(has_file("3.cast") && has_file("4.cast") && has_file("5.cast"),
	    "running (a marker), tailing and unfinished sessions keep theirs");
	prune_result_free(&r);
	is_int(history_lines(), 3, "every history line stays");

	ids = statedir_pruned(tmpdir, &n);
	ok(n == 2 && ids[0] == 1 && ids[1] == 2 &&
	    statedir_pruned_has(ids, n, 2) && !statedir_pruned_has(ids, n, 3),
	    "pruned lists 1 and 2");
	free(ids);

	/* Once 5 is gone too, its id is still never given again. */
	rm_file("5.cast");
	add_history(5);
	make_file("5.cast", 400000);
	ok(prune_run(tmpdir, MIB, MIB, false, &r, &cause) == 0 &&
	    r.n == 1 && r.v[0].id == 5, "a finished 5 goes");
	prune_result_free(&r);
	rm_file("3.cast");
	rm_file("4.cast");
	is_int(statedir_last_id(tmpdir), 5,
	    "the last id counts the pruned ones");

	/* Past the budget, down to the target; under it, nothing. */
	make_file("6.cast", 300000);
	make_file("7.cast", 300000);
	add_history(6);
	add_history(7);
	ok(prune_run(tmpdir, 2 * MIB, 100000, false, &r, &cause) == 0 &&
	    r.n == 0, "under the budget nothing goes, whatever the target");
	prune_result_free(&r);
	ok(prune_run(tmpdir, 650000, 450000, false, &r, &cause) == 0 &&
	    r.n == 1 && r.v[0].id == 6 && r.after <= 450000,
	    "past the budget, the oldest go until the target is reached");
	prune_result_free(&r);

	d = prune_default_budget(tmpdir);
	ok(d > 0 && d <= PRUNE_BUDGET_MAX_DEFAULT,
	    "default budget: at most 10 GiB (%llu)", (unsigned long long)d);

	cmd = xasprintf("rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		diag("could not remove %s", tmpdir);
	free(cmd);
	return tap_done();
}
