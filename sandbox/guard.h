/*
 * guard.h - what stays out of a sandboxed command's reach whatever its
 * writable roots: the one list of protected (read-only) and hidden paths,
 * each with its reason (doc/policy.md prints the same list).
 *
 * What steers the supervision (ptyvisor's settings, rules, state and
 * binary, each agent's settings and hooks, git hooks and config, shell
 * start-up files) is read-only; credentials (keys, cloud and forge tokens,
 * the agents' own, the ssh-agent socket, the control socket) are hidden:
 * an empty directory or an empty file nobody may read.
 *
 * A rule's path is written "~/x" (in the home), "/x" (absolute), "$VAR"
 * or "$VAR/x" (what the variable names, ':'-separated lists included), or
 * "x" (in each project root: the command's directory and the writable
 * roots named on purpose, and each git repository found under them for
 * ".git/..." rules).  A trailing '/' marks a directory.
 *
 * Expansion (guard_expand) turns the rules, the caller's own additions and
 * exposures into absolute paths, once, in the parent; the sandbox mounts
 * them (guard-mount.c) and a hook judges an agent's own file writes with
 * them (guard-write.c).
 */
#ifndef PTYVISOR_GUARD_H
#define PTYVISOR_GUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct buf;

enum guard_how {
	GUARD_READ_ONLY,	/* readable, never written, never created */
	GUARD_HIDDEN		/* neither read nor written: empty, mode 0 */
};

/*
 * The list in one sentence, for what an agent reads (a hook's refusals;
 * mcp/tools.h says the same for the MCP tools, which may not include
 * this header).
 */
#define GUARD_SUMMARY	"In every ptyvisor sandbox, ptyvisor's settings, " \
			"rules and state, each agent's settings and hooks, " \
			"git hooks and config and shell start-up files are " \
			"read-only, and credentials are hidden."

/* One rule of the built-in list. */
struct guard_rule {
	const char	*path;		/* as above */
	enum guard_how	 how;
	const char	*keep;		/* a hidden directory: names left
					   visible read-only, ','-separated */
	const char	*why;
};

/* The built-in list, in the order doc/policy.md gives it. */
extern const struct guard_rule guard_rules[];
extern const size_t guard_nrules;

/* One expanded path. */
struct guard_path {
	char		*path;		/* absolute, no trailing '/' */
	enum guard_how	 how;
	const char	*rule;		/* the rule as written (static or the
					   caller's string) */
	const char	*why;
	const char	*keep;		/* see struct guard_rule */
	bool		 dir;		/* a directory (as found, or by rule) */
	bool		 exists;	/* when expanded */
	bool		 writable;	/* under a writable root: needs a mount
					   to be read-only */
	bool		 view;		/* a directory shown as a read-only copy
					   of its entries, hidden ones left out */
	bool		 covered;	/* left out of a view above it: no mount
					   of its own */
	bool		 placeholder;	/* made by us (missing, creatable) */
	dev_t		 ph_dev;	/* the placeholder's identity, to */
	ino_t		 ph_ino;	/* remove it only if still ours */
	char		*ph_top;	/* the first directory made for it */
	char		**entries;	/* a view's entries (names), NULL-ended */
	char		**links;	/* a view's symlink targets, or NULL
					   for an entry that is no symlink */
	mode_t		*modes;		/* a view's entries' types (S_IFMT) */
	int		 wd;		/* the relay's watch on its directory */
};

/* The guarded paths of one sandbox, sorted: a parent before its children. */
struct guard_set {
	struct guard_path	*v;
	size_t			 n;
	char			**exposed;	/* rules taken off, as named */
	size_t			 nexposed;
};

/* What to expand for. */
struct guard_input {
	const char	 *home;		/* NULL: no home rules */
	/*
	 * The command's own HOME (its environ's) when it is another: an
	 * agent started with HOME elsewhere reads its settings there, so
	 * the ~ rules apply there too.  NULL: none.
	 */
	const char	 *agent_home;
	const char *const *roots;	/* the writable roots (resolved) */
	int		  nroots;
	const char *const *projects;	/* the project roots among them */
	int		  nprojects;
	char *const	 *environ;	/* the command's variables ($VAR
					   rules), or NULL */
	const char *const *protect;	/* more read-only paths (rule syntax) */
	const char *const *protect_why;	/* each one's reason, or NULL */
	int		  nprotect;
	const char *const *hide;	/* more hidden paths */
	const char *const *hide_why;
	int		  nhide;
	const char *const *expose;	/* rules taken off, as written */
	int		  nexpose;
	bool		  other_homes;	/* running as root: hide /home/ * and
					   /root but home */
};

/* Largest number of entries a view copies. */
#define GUARD_VIEW_MAX	256

/* Largest number of paths a setting or option may add or expose. */
#define GUARD_MAX_EXTRA	32

/*
 * Expand in into *set (which the caller frees with guard_set_free()):
 * every rule for every base it applies to, what exists noted.  Never
 * fails; a path that cannot be resolved is kept as written.
 */
void	guard_expand(const struct guard_input *in, struct guard_set *set);

/* Release what guard_expand() made; the set is left empty. */
void	guard_set_free(struct guard_set *set);

/*
 * Make the placeholders: a missing read-only path whose parent exists
 * under a writable root becomes an empty directory (mode 0755) or an
 * empty file (mode 0), so the command cannot create it; noted in the set.
 */
void	guard_placeholders_make(struct guard_set *set);

/* Remove the placeholders that are still as made (empty, same inode). */
void	guard_placeholders_remove(struct guard_set *set);

/*
 * The entry that guards path (absolute; a path below a guarded directory
 * counts), or NULL.  For a hook judging an agent's own file tools.
 */
const struct guard_path *guard_find(const struct guard_set *set,
	    const char *path);

/*
 * The entry of set that a write to path (absolute, or relative to cwd)
 * would touch, or NULL (guard-write.c): the path as written ('.' and '..'
 * taken lexically), each symlink followed on the way and where the walk
 * ends, against the set's paths as written and as they resolve.  *target
 * gets the path as written, made absolute (allocated, always).
 */
const struct guard_path *guard_find_write(const struct guard_set *set,
	    const char *cwd, const char *path, char **target);

/*
 * Describe set for --explain into out: each guarded path that exists or
 * would be made, its reason, what was exposed; in_force false says plainly
 * that none of it holds (no namespaces).
 */
void	guard_explain(const struct guard_set *set, bool in_force,
	    struct buf *out);

/* The directory part of path into buf ("/" for a top entry); no malloc. */
void	guard_parent(const char *path, char *buf, size_t len);
/*
 * Whether a missing g may be made (a placeholder, guard-place.c):
 * read-only, under a writable root, not inside .git, and a file's
 * directory there already (a directory is made with the missing
 * directories above it).
 */
bool	guard_creatable(const struct guard_path *g);

/* Whether path is root or below it. */
bool	guard_path_under(const char *path, const char *root);

#endif
