/*
 * sandbox-int.h - what the files of sandbox/ share: the prepared sandbox
 * and one entry point per layer.  Not for use outside sandbox/.
 *
 * Layer functions named *_apply run in the child and return 0, or -1 with
 * errno set and sb->stage filled; they never allocate with malloc.
 */
#ifndef PTYVISOR_SANDBOX_INT_H
#define PTYVISOR_SANDBOX_INT_H

#include "sandbox/sandbox.h"

#include <stdbool.h>
#include <sys/types.h>

struct buf;
struct hostlist;
struct proxy_relay;

/* A prepared sandbox: everything the child needs, resolved in the parent. */
struct sandbox {
	struct sandbox_opts	 opts;		/* writable[] emptied: see roots */
	char			*cwd;		/* absolute, resolved */
	char			**roots;	/* resolved writable roots */
	int			 nroots;
	char			**readonly;	/* .git dirs kept read-only */
	int			 nreadonly;
	bool			 is_root;	/* euid 0: no user namespace */
	pid_t			 parent;	/* ptyvisor, for the death check */
	int			 landlock_abi;	/* 0: no Landlock */
	int			 cap_last;	/* highest capability number */
	char			*cgroup;	/* pids cgroup dir, or NULL */
	char			*cgroup_procs;	/* its cgroup.procs */
	bool			 cgroup_v2;	/* the pids cgroup is v2's */
	uint64_t		 cgroup_max;	/* its pids.max */
	char			*memcg;		/* memory cgroup dir (may be
						   the pids one), or NULL */
	char			*memcg_procs;	/* its cgroup.procs */
	char			*memcg_events;	/* where oom_kill is counted */
	int			 memcg_version;	/* 1 or 2 */
	uint64_t		 memcg_max;	/* its memory bound */
	char			 memcg_why[160]; /* why there is none */
	const struct sandbox_bpf *seccomp;	/* the filter, exported */
	const struct sandbox_bpf *seccomp_no_ns; /* the one for a sandbox
						   without namespaces, or NULL */
	struct hostlist		*hosts;		/* a filtered network's lists,
						   or NULL */
	char			*hosts_file;	/* tests: the proxy's resolver */
	char			*net_log;	/* the proxy's log, or NULL */
	char			*net_ask;	/* where to ask, or NULL */
	char			*net_rules_file; /* the rules' file, or NULL */
	struct proxy_relay	*relays;	/* the host's services relayed
						   (hostsvc.c), or NULL */
	unsigned char		*relay_at;	/* where each listens inside */
	int			 nrelays;
	bool			 unix_relays;	/* a UNIX socket among them */
	int			 relay_src;	/* child: the sockets' relays'
						   tmpfs, or -1 */
	int			 proxy_channel;	/* child: to the proxy, or -1 */
	int			 end_fd;	/* child: where the relay tells
						   the end, or -1 */
	pid_t			 proxy_pid;	/* child: the proxy, or 0 */
	bool			 in_ns;		/* child: namespaces are on */
	bool			 own_devpts;	/* child: a devpts of our own */
	struct guard_set	 guards;	/* guarded paths (guard.h) */
	int			 guard_src;	/* child: the hidden stand-ins'
						   tmpfs, or -1 */
	char			 stage[192];	/* child: the failed stage */
	void			*exec_prog;	/* the exec checks' filter, or
						   NULL (execcheck.c) */
	char			 exec_why[256];	/* why none, when wanted */
	struct sandbox_exec_call *exec_deferred; /* parent: see
						   sandbox_exec_deferred */
	struct sandbox_exec_tree *exec_tree;	/* parent: the listener's */
};

/*
 * What exec-read.c and execcheck.c keep of the tree one listener watches
 * (see sandbox.h): the root, the thread groups that made threads (their
 * pidfds and pids), whether one could not be told, and the execs' system
 * call numbers (looked up once, not per exec).
 */
struct sandbox_exec_tree {
	int		 root;		/* O_PATH, or -1: not yet opened */
	int		*threaded;	/* pidfds */
	pid_t		*threaded_pid;
	size_t		 nthreaded;
	bool		 unknown;	/* a thread whose group is unknown */
	int		 nr_execve;
	int		 nr_execveat;
};

/* stage.c: fill sb->stage with "sandbox: " and a formatted stage name. */
void	sandbox_set_stage(struct sandbox *sb, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* stage.c: write a short string to a file (/proc, cgroupfs); 0 or -1. */
int	sandbox_write_file(const char *path, const char *s);
/* stage.c: a tmpfs of the sandbox's own, mounted nowhere (mode 0755,
 * nosuid, nodev, noexec): its fd, or -1. */
int	sandbox_tmpfs(void);

/*
 * ns.c: enter the namespaces.  Returns 0 only without them (where that is
 * allowed), -1 on a failure.  In them the command is a process of its own
 * that calls next(arg, NULL), which runs its stages and execs, and a
 * failure of the init's is reported by next(arg, stage); neither call
 * returns, and neither does the caller's process (the relay).
 */
int	sandbox_ns_enter(struct sandbox *sb, int report_fd,
	    void (*next)(void *, const char *), void *arg);
/* ns.c: read-only filesystem, writable roots, fresh /proc, private /tmp if
 * asked for (opts.private_tmp). */
int	sandbox_ns_mount(struct sandbox *sb);
/* ns.c: whether this kernel lets us create the namespaces we need. */
bool	sandbox_ns_available(bool network, char *why, size_t len);

/* guard-mount.c: relay, in the new namespaces: the hidden stand-ins. */
int	sandbox_guard_source(struct sandbox *sb);
/* guard-mount.c: command, after the roots: every guarded path in force. */
int	sandbox_guard_mount(struct sandbox *sb);
/* guard-mount.c: relay: watch the guarded paths' directories, the events
 * announced by signal sig; the inotify fd, or -1 (nothing to watch). */
int	sandbox_guard_watch(struct sandbox *sb, int sig);
/* guard-mount.c: relay: put back what a rename outside detached. */
void	sandbox_guard_event(struct sandbox *sb, int fd);

/*
 * What opts add to the built-in list of guarded paths (guard.h), and the
 * home, into *in: everything of it but the roots, the projects and
 * other_homes (guard-write.c).
 */
void	sandbox_guard_input(const struct sandbox_opts *opts,
	    struct guard_input *in);

/* landlock.c: the running Landlock ABI, 0 when absent or disabled. */
int	sandbox_landlock_abi(void);
/* landlock.c: restrict this process and its future children. */
int	sandbox_landlock_apply(struct sandbox *sb);
/* landlock.c: what the ABI gives and lacks, for --explain. */
void	sandbox_landlock_explain(int abi, bool network, struct buf *out);

/*
 * A BPF program libseccomp built, exported in the parent so that the
 * child loads it with one system call: libseccomp would generate it
 * again in every child, between fork and exec (seccomp.c).
 */
struct sock_filter;
struct sandbox_bpf {
	struct sock_filter	*insns;
	unsigned short		 len;
};
/* seccomp.c: export ctx's program into p; -1 with *cause (what: whose). */
int	sandbox_bpf_export(void *ctx, struct sandbox_bpf *p, const char *what,
	    char **cause);
/* seccomp.c: the filter (parent), built once for each kind and kept;
 * NULL with *cause on failure.
 * filtered: internet sockets only (a filtered network's namespace), and
 * UNIX stream ones too with unix_relays (Landlock limits their connects);
 * no_namespaces adds what the missing read-only view no longer stops. */
const struct sandbox_bpf *sandbox_seccomp_build(bool network, bool filtered,
	    bool unix_relays, bool no_namespaces, char **cause);
/* seccomp.c: load the built filter into this process. */
int	sandbox_seccomp_apply(struct sandbox *sb);

/* limits.c: make a pids cgroup below ours; NULL dir when impossible. */
int	sandbox_cgroup_create(struct sandbox *sb, char *why, size_t len);
/*
 * limits.c: the cgroup v2 directory below mount where a session's cgroup
 * goes, for a process in the cgroup path ("/..." as /proc/self/cgroup says):
 * path's own or its nearest ancestor's that hands every controller of the
 * NULL-ended ctls to its children (the mount's root asked to, where it does
 * not yet); NULL where none.  Allocated.
 */
char	*sandbox_cgroup2_parent(const char *mount, const char *path,
	    const char *const *ctls);
/*
 * value, lowered to the smallest bound in file (pids.max, memory.max) of
 * the cgroups left behind when a session's cgroup is made in parent, an
 * ancestor of mount+path: those from mount+path up to, not including,
 * parent.  Their bounds hold ptyvisor and what it starts; a session in
 * a cgroup beside them would no longer be counted in them.
 */
uint64_t	sandbox_cgroup2_bound(const char *mount, const char *path,
		    const char *parent, const char *file, uint64_t value);
/* limits.c: make the memory cgroup (v2, else v1); -1 with why when none. */
int	sandbox_memcg_create(struct sandbox *sb, char *why, size_t len);
/* limits.c: move this process into the sandbox's cgroups. */
int	sandbox_cgroup_join(struct sandbox *sb);
/* limits.c: remove the sandbox's cgroups once they are empty. */
void	sandbox_cgroup_remove(struct sandbox *sb);
/* limits.c: no core, RLIMIT_AS, RLIMIT_NOFILE, RLIMIT_FSIZE, RLIMIT_NPROC
 * (non-root). */
int	sandbox_limits_apply(struct sandbox *sb);

/* net.c: the host lists, the proxy's log and resolver (parent). */
int	sandbox_net_prepare(struct sandbox *sb, const struct sandbox_opts *opts,
	    char **cause);
/* net.c: release what sandbox_net_prepare made. */
void	sandbox_net_free(struct sandbox *sb);
/* net.c: the proxy variables for the command, or NULL (unfiltered). */
char	**sandbox_net_env(const struct sandbox *sb);
/* net.c: the network plan, for --explain. */
void	sandbox_net_explain(const struct sandbox_opts *opts, int landlock_abi,
	    struct buf *out);
/* net.c: child, before the namespaces: fork the proxy, outside them. */
int	sandbox_net_start_proxy(struct sandbox *sb, int report_fd);
/* net.c: child, in the new network namespace: loopback up, the proxy's
 * listening socket on 127.0.0.1:SANDBOX_PROXY_PORT handed to the proxy. */
int	sandbox_net_listen(struct sandbox *sb);

/* execcheck.c: build the exec checks' filter (parent), as opts want. */
int	sandbox_exec_prepare(struct sandbox *sb, char **cause);
/* execcheck.c: release it and anything kept. */
void	sandbox_exec_free(struct sandbox *sb);
/* execcheck.c: child: load it, hand the listener to the parent. */
int	sandbox_exec_apply(struct sandbox *sb, int report_fd);
/* exec-read.c: read what the exec of req, taken from the listener fd of
 * tree t, asks for into c (c->error set when it cannot be); -1 then. */
struct seccomp_notif;
int	sandbox_exec_read(struct sandbox_exec_tree *t, int fd,
	    const struct seccomp_notif *req, struct sandbox_exec_call *c);
/* exec-tree.c: note that the caller of a clone(CLONE_THREAD) req, in the
 * tree t, makes a thread (before it is let go). */
void	sandbox_exec_thread(struct sandbox_exec_tree *t,
	    const struct seccomp_notif *req);
/* exec-tree.c: the thread group of pid as /proc/PID/status says (a
 * thread's own pid is not its group's); 0 when unread. */
pid_t	sandbox_exec_tgid(pid_t pid);
/* exec-tree.c: open t's root from the caller of notification id on the
 * listener fd, once (kept only while id still waits). */
void	sandbox_exec_tree_root(struct sandbox_exec_tree *t, int fd, pid_t pid,
	    uint64_t id);
/* exec-tree.c: whether no thread group of t has made a thread that lives
 * (those that ended forgotten first). */
bool	sandbox_exec_tree_quiet(struct sandbox_exec_tree *t);
/* execcheck.c: the --explain line. */
void	sandbox_exec_explain(const struct sandbox *sb, struct buf *out);

/* hostsvc.c: the host's loopback ports and UNIX sockets a filtered
 * network relays, each checked (parent, once the lists are made). */
int	sandbox_hostsvc_prepare(struct sandbox *sb, char **cause);
/* hostsvc.c: release what sandbox_hostsvc_prepare made. */
void	sandbox_hostsvc_free(struct sandbox *sb);
/* hostsvc.c: child, in the new network namespace: each relay's listening
 * socket (the loopback's port, a socket in a tmpfs of its own) handed to
 * the proxy. */
int	sandbox_hostsvc_listen(struct sandbox *sb);
/* hostsvc.c: command, once its view of the filesystem is made: each UNIX
 * socket's relay mounted on the socket's path. */
int	sandbox_hostsvc_mount(struct sandbox *sb);
/* hostsvc.c: the paths of the UNIX sockets relayed, at most max; how
 * many (for Landlock's rules). */
int	sandbox_hostsvc_paths(const struct sandbox *sb, const char **out,
	    int max);
/* hostsvc.c: the host's services of opts' lists, for --explain. */
void	sandbox_hostsvc_explain(const struct sandbox_opts *opts,
	    int landlock_abi, struct buf *out);

/* caps.c: parent-death signal and re-check, no_new_privs, no capability. */
int	sandbox_caps_apply(struct sandbox *sb);
/* caps.c: the highest capability number this kernel knows. */
int	sandbox_caps_last(void);

#endif
