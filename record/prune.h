/*
 * prune.h - the state directory's budget: how many bytes its files take,
 * and the oldest finished sessions' files removed until they fit.
 *
 * What a session leaves in sessions/ (its recording, its exec log, its
 * network log) may go; its history line never does, and neither does
 * anything of a session that has no history line yet (it runs, or its
 * ptyvisor died and the next start has not written its line) or that has a
 * running marker or a recording's tail file.  The id of each session whose
 * files went is appended to dir/pruned (statedir.h), so that history and
 * show can say "recording pruned" and an id is never given twice.
 * This module never prints.
 */
#ifndef PTYVISOR_PRUNE_H
#define PTYVISOR_PRUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The largest default budget.  Why 10 GiB: forty full recordings at the
 * default cap, or years of ordinary sessions, and still small beside
 * today's disks; a smaller filesystem gets a tenth of itself instead.
 */
#define PRUNE_BUDGET_MAX_DEFAULT	(10ULL * 1024 * 1024 * 1024)
/* The smallest budget a setting may give (a few capped recordings). */
#define PRUNE_BUDGET_MIN		(1ULL * 1024 * 1024)

/* One session whose files went (or would go). */
struct prune_item {
	unsigned long	id;
	uint64_t	bytes;		/* of its recording and logs */
};

/* What prune_run() found and did. */
struct prune_result {
	uint64_t		 usage;		/* bytes before */
	uint64_t		 after;		/* bytes after (or would be) */
	struct prune_item	*v;		/* oldest first */
	size_t			 n;
};

/*
 * The budget when no setting gives one: the smaller of
 * PRUNE_BUDGET_MAX_DEFAULT and a tenth of the size of dir's filesystem
 * (PRUNE_BUDGET_MAX_DEFAULT when statvfs fails).
 */
uint64_t	prune_default_budget(const char *dir);

/*
 * When the files of state directory dir (its regular files and those of
 * dir/sessions) take more than budget bytes, remove the oldest finished
 * sessions' files (with dry_run, only list them) until they take at most
 * target bytes (target <= budget), or nothing more may go.  *out is
 * filled either way (free it with prune_result_free()).  -1 with *cause
 * when a file could not be removed or dir/pruned not written; *out then
 * says what did go.
 */
int	prune_run(const char *dir, uint64_t budget, uint64_t target,
	    bool dry_run, struct prune_result *out, char **cause);

/*
 * The target a session's end prunes down to: a tenth below the budget.
 * Why not the budget itself: the directory would then sit just under it,
 * and every next session's end would read the whole history again.
 */
#define PRUNE_TARGET(budget)	((budget) - (budget) / 10)

/* Free what prune_run() put in r (not r itself). */
void	prune_result_free(struct prune_result *r);

#endif
