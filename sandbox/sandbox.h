/*
 * sandbox.h - the sandbox a session's command runs in.
 *
 * The policy is a plain value (struct sandbox_opts).  sandbox_new() checks
 * it and prepares everything that allocates or can be validated, in the
 * parent; sandbox_child() is a pty pre-exec hook run in the forked child
 * that applies, in order and each checked: signal and fd reset, the
 * session's cgroups, namespaces (a filtered network's proxy forked first,
 * outside them) and mounts, chdir, resource bounds, parent-death signal,
 * no_new_privs and a full capability drop, Landlock, seccomp.  Any failure
 * makes the hook return -1 with a stage, so the command never runs (fail
 * closed).
 *
 * This module never prints and never exits the parent.  It depends on the
 * allocators and buffers of base/util.h and, for a filtered network, on
 * net/: the host lists (net/hostlist.h) and the proxy it starts
 * (net/proxy.h, from sandbox/net.c).
 */
#ifndef PTYVISOR_SANDBOX_H
#define PTYVISOR_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "net/hostlist.h"
#include "sandbox/guard.h"

struct asker;
struct buf;

/* How much the command may touch. */
enum sandbox_profile {
	SANDBOX_READ_ONLY,		/* nothing writable (but an empty,
					   private /tmp with private_tmp) */
	SANDBOX_WORKSPACE_WRITE,	/* + the cwd and the writable roots */
	SANDBOX_FULL_ACCESS		/* no sandbox at all */
};

/* Resource bounds; 0 means "leave as inherited". */
struct sandbox_limits {
	uint64_t	address_space;	/* RLIMIT_AS, bytes */
	uint64_t	open_files;	/* RLIMIT_NOFILE */
	uint64_t	processes;	/* pids cgroup, or RLIMIT_NPROC */
	uint64_t	memory;		/* the whole sandbox's memory, bytes:
					   a memory cgroup, without swap */
	uint64_t	file_size;	/* RLIMIT_FSIZE, bytes */
};

/* The bounds by number, for where each comes from (plain values). */
enum sandbox_limit {
	SANDBOX_LIMIT_ADDRESS_SPACE,
	SANDBOX_LIMIT_OPEN_FILES,
	SANDBOX_LIMIT_PROCESSES,
	SANDBOX_LIMIT_MEMORY,
	SANDBOX_LIMIT_FILE_SIZE,
	SANDBOX_NLIMITS
};

/* Where a bound comes from, weakest first: a stronger one wins. */
enum sandbox_origin {
	SANDBOX_FROM_DEFAULT,	/* built in (the profile's own, if it has one) */
	SANDBOX_FROM_SETTINGS,	/* [sandbox] of the settings file */
	SANDBOX_FROM_PROFILE,	/* [sandbox.PROFILE] of the settings file */
	SANDBOX_FROM_OPTION	/* the command line */
};

/* The profiles with a sandbox, so with bounds: read-only, workspace-write. */
#define SANDBOX_NBOUNDED 2

/* The bounds one section of the settings file gives, each with its line. */
struct sandbox_given_limits {
	struct sandbox_limits	limits;
	unsigned		line[SANDBOX_NLIMITS];	/* 0: not given */
};

/* Default bound on the size of a file the command writes: 16 GiB. */
#define SANDBOX_DEFAULT_FILE_SIZE (16ULL << 30)

/*
 * The read-only profile's own default file size, 1 GiB: it writes only to a
 * private /tmp (memory) and to the files its caller hands it as output.
 */
#define SANDBOX_READ_ONLY_FILE_SIZE (1ULL << 30)

/* Largest number of extra writable roots. */
#define SANDBOX_MAX_ROOTS 32

/* Largest number of host lists of each kind (each a list itself). */
#define SANDBOX_MAX_NET_LISTS 16

/*
 * Largest number of [sandbox] pass_env names: each is a secret let through
 * on purpose, one a line; a few are what anyone needs, and a bound keeps
 * the options a plain value.
 */
#define SANDBOX_MAX_PASS_ENV 32

/*
 * The port of the proxy inside a filtered network's namespace, on
 * 127.0.0.1: HTTP (CONNECT and absolute URLs) and SOCKS5 on the one port.
 */
#define SANDBOX_PROXY_PORT 3128

/*
 * The policy, a plain value.  writable[] points at strings the caller owns
 * for as long as the options are used; sandbox_new() copies what it keeps.
 */
/* Whether a session's execs are sent to ptyvisor (sandbox/execcheck.c). */
enum sandbox_exec_checks {
	SANDBOX_EXEC_OFF,	/* none (`ptyvisor sandbox`: nobody to ask) */
	SANDBOX_EXEC_BEST,	/* where the kernel has them: the exec log */
	SANDBOX_EXEC_REQUIRED	/* rules judge them: no start without */
};

struct sandbox_opts {
	enum sandbox_profile	 profile;
	enum sandbox_exec_checks exec_checks;
	bool			 network;	/* allow sockets beyond AF_UNIX */
	const char		*writable[SANDBOX_MAX_ROOTS];
	int			 nwritable;
	/*
	 * Secret variables (policy_env_secret) an agent's environment passes
	 * on all the same ([sandbox] pass_env): exact names, not dropped from
	 * it nor listed; the approval queue drops the others.
	 */
	const char		*pass_env[SANDBOX_MAX_PASS_ENV];
	int			 npass_env;
	bool			 protect_git;	/* .git under roots read-only */
	bool			 private_tmp;	/* fresh /tmp and /dev/shm */
	bool			 allow_no_namespaces; /* fall back to LL+seccomp */
	bool			 allow_no_landlock;   /* run without Landlock */
	/*
	 * The bounds: flag > the profile's section > [sandbox] > default.
	 * limits holds the default, [sandbox] and flags, each marked in
	 * limit_from (with its settings line); profile_limits the sections
	 * of each bounded profile, applied by sandbox_opts_limits() once the
	 * profile is known (an agent's request may change it).
	 */
	struct sandbox_limits	 limits;
	enum sandbox_origin	 limit_from[SANDBOX_NLIMITS];
	unsigned		 limit_line[SANDBOX_NLIMITS];
	struct sandbox_given_limits profile_limits[SANDBOX_NBOUNDED];
	const char		*settings;	/* the settings file, for
						   --explain; NULL: none */
	/*
	 * A filtered network (net/hostlist.h for the lists' syntax): with
	 * an allow or a deny list and without network, the command gets a
	 * network namespace of its own whose only way out is ptyvisor's
	 * proxy, which lets through the hosts the lists allow.
	 */
	const char		*net_allow[SANDBOX_MAX_NET_LISTS];
	int			 nnet_allow;
	const char		*net_deny[SANDBOX_MAX_NET_LISTS];
	int			 nnet_deny;
	const char		*net_log;	/* the proxy's JSON lines, one
						   per connection; NULL: none */
	const char		*net_ask;	/* the control socket where a
						   host on neither list is
						   asked; NULL: refused */
	const struct asker	*net_asker;	/* who asks there (net/ask.h);
						   NULL: refused */
	/*
	 * A person's rules on a host on neither list, before anyone is
	 * asked (the rules file's "connect" rules): called in the proxy's
	 * process, so arg must live as long as the sandbox; NULL: none.
	 * net_rules_file names the file in --explain and in a refusal.
	 */
	hostlist_rules_fn	 net_rules;
	void			*net_rules_arg;
	const char		*net_rules_file;
	/*
	 * Beyond the built-in list of guarded paths (sandbox/guard.h): more
	 * read-only and hidden paths (the caller's own files, the settings'),
	 * and rules taken off, each as written in the list.  Borrowed.
	 */
	const char		*protect[GUARD_MAX_EXTRA];
	const char		*protect_why[GUARD_MAX_EXTRA]; /* or NULL */
	int			 nprotect;
	const char		*hide[GUARD_MAX_EXTRA];
	const char		*hide_why[GUARD_MAX_EXTRA];
	int			 nhide;
	const char		*expose[GUARD_MAX_EXTRA];
	int			 nexpose;
	char *const		*environ;	/* the command's variables, for
						   the list's $VAR paths; NULL:
						   ours only.  Borrowed. */
};

/*
 * Fill opts with the defaults: workspace-write, no network, the shared
 * /tmp writable (private_tmp off), .git not kept read-only (protect_git
 * off), limits as inherited but the process count (1024), the memory (half
 * the machine's RAM) and the file size (SANDBOX_DEFAULT_FILE_SIZE, and
 * SANDBOX_READ_ONLY_FILE_SIZE under read-only), each from the default.
 * --explain states the same.
 */
void	sandbox_opts_init(struct sandbox_opts *opts);

/* Bound k of l. */
uint64_t sandbox_limit_get(const struct sandbox_limits *l,
	    enum sandbox_limit k);

/* Set bound k of l to v. */
void	sandbox_limit_set(struct sandbox_limits *l, enum sandbox_limit k,
	    uint64_t v);

/* Set bound k of opts to v, from a source (its settings line, or 0). */
void	sandbox_opts_set_limit(struct sandbox_opts *opts, enum sandbox_limit k,
	    uint64_t v, enum sandbox_origin from, unsigned line);

/*
 * The bounds in force for opts' profile into *out, and where each came from
 * into from[] and line[] (either may be NULL): a flag, else the profile's
 * section, else [sandbox], else the profile's own default, else the
 * built-in one.
 */
void	sandbox_opts_limits(const struct sandbox_opts *opts,
	    struct sandbox_limits *out, enum sandbox_origin *from,
	    unsigned *line);

/*
 * Parse a profile name ("read-only", "workspace-write",
 * "danger-full-access") into *profile.  Returns 0, or -1 with *cause.
 */
int	sandbox_profile_parse(const char *name, enum sandbox_profile *profile,
	    char **cause);

/*
 * A profile by its own name only ("read-only", "workspace-write",
 * "danger-full-access", not "none"), as the protocol and `serve --sandbox`
 * take it: false when name is none of them.
 */
bool	sandbox_profile_lookup(const char *name,
	    enum sandbox_profile *profile);

/*
 * Whether a profile as a request names it ("danger-full-access", "none")
 * means no sandbox at all; an unknown name is not (it is refused later).
 */
bool	sandbox_profile_is_none(const char *name);

/* The name of a profile (static string). */
const char *sandbox_profile_name(enum sandbox_profile profile);

/* Add a writable root (borrowed); -1 with *cause when there are too many. */
int	sandbox_opts_add_writable(struct sandbox_opts *opts, const char *dir,
	    char **cause);

/*
 * Add a secret variable's name an agent's environment passes on (borrowed);
 * -1 with *cause when there are too many.
 */
int	sandbox_opts_add_pass_env(struct sandbox_opts *opts, const char *name,
	    char **cause);

/*
 * Add a host list (borrowed) to the allow or the deny list, checked first;
 * -1 with *cause when it is bad or there are too many.
 */
int	sandbox_opts_add_network(struct sandbox_opts *opts, bool deny,
	    const char *list, char **cause);

/*
 * Add a guarded path (borrowed, the list's syntax: "~/x", "/x", "$VAR",
 * or "x" in each project root): read-only, hidden, or a rule of the list
 * taken off (exposed).  -1 with *cause when there are too many.
 */
int	sandbox_opts_add_guard(struct sandbox_opts *opts, enum guard_how how,
	    bool expose, const char *path, char **cause);

/* The same with the reason --explain gives (borrowed; NULL: a setting). */
int	sandbox_opts_add_guard_why(struct sandbox_opts *opts,
	    enum guard_how how, const char *path, const char *why,
	    char **cause);

/*
 * The guarded paths a sandbox of opts started in cwd would keep (the
 * built-in list, opts' protect, hide and expose, the home, cwd as a
 * project root, and project too when not NULL: the agent's project, which
 * it reads its settings from whatever its directory now; our own
 * variables for the $VAR rules), into *set, which the caller frees with
 * guard_set_free() while opts' strings still live.  For judging writes
 * made outside any sandbox (an agent's own file tools).
 */
void	sandbox_opts_guards(const struct sandbox_opts *opts, const char *cwd,
	    const char *project, struct guard_set *set);

/* Drop every host list (--no-network). */
void	sandbox_opts_clear_network(struct sandbox_opts *opts);

/*
 * Whether opts ask for a filtered network: a host list and no network
 * otherwise (the network option lets every host through).
 */
bool	sandbox_opts_network_filtered(const struct sandbox_opts *opts);

/*
 * Parse a size such as "512M", "2G", "65536" (bytes; K, M, G, T suffixes
 * are powers of 1024).  Returns 0, or -1 with *cause.
 */
int	sandbox_parse_size(const char *s, uint64_t *out, char **cause);

/*
 * Check opts for a command started in cwd (NULL: the current directory) and
 * prepare the sandbox.  Returns a sandbox the caller frees with
 * sandbox_free(), or NULL with *cause, e.g. "writable root: DIR: No such
 * file or directory".
 */
struct sandbox *sandbox_new(const struct sandbox_opts *opts, const char *cwd,
	    char **cause);

/*
 * Where the proxy of a filtered network logs its connections, when opts
 * did not say (the session's sidecar file).  The path is copied.
 */
void	sandbox_set_network_log(struct sandbox *sb, const char *path);

/*
 * Where the relay tells the command's end, for a parent that need not
 * wait for the relay's own exit (its address space and namespaces torn
 * down): fd, a SOCK_SEQPACKET end the child keeps (pty_spec.keep_fd,
 * close-on-exec).  Once the command's whole tree is gone the relay closes
 * its 0-2 (the terminal and the command's pipes then read EOF), sends the
 * command's wait status there (one int), then ends as the command did;
 * the parent still reaps it.  Without namespaces there is no relay:
 * nothing is sent, and the end closes at the command's exec.  Unset (-1):
 * nothing is told.
 */
void	sandbox_set_end_fd(struct sandbox *sb, int fd);

/* Release a sandbox (and its cgroups, once empty).  NULL is a no-op. */
void	sandbox_free(struct sandbox *sb);

/*
 * Whether the kernel killed a process of the sandbox for its memory bound
 * (the memory cgroup's oom_kill count).  Ask before sandbox_free().
 */
bool	sandbox_memory_exceeded(const struct sandbox *sb);

/* The profile a sandbox was made with. */
enum sandbox_profile sandbox_get_profile(const struct sandbox *sb);

/*
 * The pty pre-exec hook (pty_hook_fn): arg is a struct sandbox.  Applies
 * every stage in the child; returns 0 in the process that is to exec the
 * command, or -1 with errno and *stage ("sandbox: STAGE") on failure.  With
 * a PID namespace it forks an init, which starts the command as a process
 * of its own that calls then(then_ctx, NULL) to exec, or then(then_ctx,
 * stage) on a failure; the calling process waits, relays the command's
 * exact exit status and never returns.
 */
int	sandbox_child(void *arg, int report_fd, const char **stage,
	    void (*then)(void *, const char *), void *then_ctx);

/*
 * Build the command's environment in the parent: the allow-listed variables
 * of parent_env (PATH HOME USER LOGNAME SHELL TERM LANG LC_* TZ TMPDIR
 * COLORTERM; everything but LD_* under danger-full-access) plus extra
 * ("NAME=VALUE", which win).  Either list may be NULL.  With a filtered
 * network, HTTP_PROXY, HTTPS_PROXY, ALL_PROXY and NO_PROXY (and their
 * lower-case forms) name the proxy, whatever the other two say.  The caller frees the
 * result with strv_free().
 */
char	**sandbox_env(const struct sandbox *sb, char *const *parent_env,
	    char *const *extra);

/*
 * Describe the effective policy of opts and which layers and Landlock ABI
 * features the running kernel puts in force, each marked required or
 * best-effort, into out.  Returns 0 when every required layer is
 * available, -1 when a sandboxed command could not start here.
 */
int	sandbox_explain(const struct sandbox_opts *opts, struct buf *out);

/*
 * What a person approving a request under opts must know of the guarded
 * paths (guard.h), for the prompt: that none of them holds (no namespaces
 * here, with allow_no_namespaces), and which the settings exposed.  An
 * allocated line, or NULL when there is nothing to say.
 */
char	*sandbox_guard_note(const struct sandbox_opts *opts);

/* Harden ptyvisor itself: not dumpable, no core files. */
void	sandbox_harden_self(void);

/*
 * Exec checks (sandbox/execcheck.c).  An exec a sandboxed program waits
 * in, as read from its memory and /proc: the notification's id, the
 * calling thread and its parent (our pid namespace), the file (absolute
 * where it can be told: an execveat's fd as /proc names it), the
 * arguments (at most 256 words and 64 KiB, argv_cut then), the
 * directory.  error says why it could not be read (then judge it denied:
 * fail closed).  What a verdict needs is read before the answer; the
 * parent and, for an absolute path, the directory only for the log may
 * come after it (complete false until sandbox_exec_complete).
 */
struct sandbox_exec_call {
	uint64_t	  id;
	pid_t		  pid;
	pid_t		  ppid;		/* 0: unknown */
	bool		  at;		/* execveat */
	char		 *path;
	char		**argv;
	bool		  argv_cut;
	char		 *cwd;
	char		 *error;
	/*
	 * The file as ptyvisor can open it while the exec waits (through
	 * /proc/PID/root or /proc/PID/fd), and what stat(2) said of it
	 * (has_st false when it could not be told: it may not exist).
	 */
	char		 *open_path;
	int		  file_fd;	/* O_PATH of the file, or -1 */
	int		  st_errno;	/* why stat(2) failed, or 0 */
	bool		  has_st;
	dev_t		  dev;
	ino_t		  ino;
	off_t		  size;
	/*
	 * Whether another thread or process shares the caller's memory (a
	 * second thread, a vfork child's parent): it could change the words
	 * after they were read, so what ran is checked after the exec
	 * (sandbox_exec_verify).  Then: the thread group, the file name as
	 * the kernel will record it (AT_EXECFN), the stack's start before.
	 */
	bool		  shared;
	pid_t		  tgid;
	int		  pidfd;	/* the thread group's, or -1 */
	char		 *execfn;
	unsigned long	  stack_before;
	bool		  complete;	/* parent and directory read */
};

/*
 * The process tree one listener watches: its root (opened once, so a
 * file is found as the tree sees it without a /proc lookup of every new
 * pid) and the thread groups in it that made threads (told by the filter:
 * clone with CLONE_THREAD).  While it has none, no exec's words can be
 * changed by another thread (a vfork parent waits, single-threaded), so
 * that is not read from /proc for every exec.
 */
struct sandbox_exec_tree;

/* What sandbox_exec_verify found. */
enum sandbox_exec_verdict {
	SANDBOX_EXEC_NOT_YET,		/* still the image before the exec */
	SANDBOX_EXEC_SAME,		/* it runs what was judged */
	SANDBOX_EXEC_DIFFERS,		/* it runs something else */
	SANDBOX_EXEC_GONE		/* the process has ended */
};

/* Whether exec checks can work here; false with why when not. */
bool	sandbox_exec_available(char *why, size_t len);
/* Whether sb's command will have them (the filter is built). */
bool	sandbox_exec_checks_on(const struct sandbox *sb);
/*
 * pty_spec.passed_ready for a sandbox with exec checks (arg: the sandbox):
 * answers the starting command's own execs; one that comes after its exec
 * is kept for sandbox_exec_deferred.
 */
void	sandbox_exec_prestart(void *arg, int fd, int report_fd);
/* The exec kept while starting, into *c (the caller frees it); false: none. */
bool	sandbox_exec_deferred(struct sandbox *sb, struct sandbox_exec_call *c);
/*
 * Take the next waiting notification from the listener fd of tree t: an
 * exec, read into *c (the caller frees it with sandbox_exec_call_free;
 * c->error set when it could not be read), 0; a thread being made, noted
 * in t and let go, 1.  -1 with errno when none could be taken (ENOENT: it
 * went away).
 */
int	sandbox_exec_receive(struct sandbox_exec_tree *t, int fd,
	    struct sandbox_exec_call *c);
/* A tree of its own (tests: a listener without a sandbox); free below. */
struct sandbox_exec_tree *sandbox_exec_tree_new(void);
void	sandbox_exec_tree_free(struct sandbox_exec_tree *t);
/* sb's tree (made on first use); NULL without a sandbox. */
struct sandbox_exec_tree *sandbox_exec_tree(struct sandbox *sb);
/* Read what c's verdict did not need (its parent, its directory). */
void	sandbox_exec_complete(struct sandbox_exec_call *c);
/*
 * The listener fd wakes whoever it wakes on the waker's CPU: a waiting
 * exec and its answer go to and fro on one CPU, and the exec'd program's
 * memory is not then flushed on two (SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP;
 * nothing where the kernel lacks it).
 */
void	sandbox_exec_sync_wakeups(int fd);
/* Whether exec id still waits for an answer on fd. */
bool	sandbox_exec_answerable(int fd, uint64_t id);
/* Let exec id go on (err 0) or fail it with errno err.  0, or -1. */
int	sandbox_exec_answer(int fd, uint64_t id, int err);
void	sandbox_exec_call_free(struct sandbox_exec_call *c);
/* An empty call (nothing to free; no pidfd). */
void	sandbox_exec_call_init(struct sandbox_exec_call *c);
/*
 * After an exec of a shared caller was let go: whether its process now
 * runs the file name and the words that were judged (AT_EXECFN and
 * /proc/PID/cmdline), not yet, or is gone.
 */
enum sandbox_exec_verdict sandbox_exec_verify(const struct sandbox_exec_call *c);
/* Kill the process of c (through its pidfd: never another one). */
void	sandbox_exec_kill(const struct sandbox_exec_call *c);
/* The parent of pid as /proc/PID/stat says; 0 when unknown. */
pid_t	sandbox_exec_parent_of(pid_t pid);
/*
 * Fields of a /proc/PID/stat line (1-based: 4 the parent, 20 the
 * threads), as numbers, into out[] for each of the n field numbers of
 * want[] (ascending); false when the line has not all of them.
 */
bool	sandbox_exec_stat_parse(const char *line, const int *want,
	    unsigned long *out, int n);
/* path made absolute against dir (NULL: as is), leading "./" dropped.
 * Allocated. */
char	*sandbox_exec_join(const char *dir, const char *path);

#endif
