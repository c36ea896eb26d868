/*
 * config.h - the settings file ($PTYVISOR_CONFIG/config, else
 * $XDG_CONFIG_HOME/ptyvisor/config, else ~/.config/ptyvisor/config; the
 * caller, cli/, chooses the path).
 *
 * An INI file read with libinih.  Sections and keys:
 *
 *   [approval]  mode = untrusted | on-request | never
 *               notify = PROGRAM
 *               rules = FILE
 *   [sandbox]   profile = read-only | workspace-write |
 *                         danger-full-access | none
 *               network, protect_git, private_tmp,
 *               allow_no_namespaces = yes | no (true/false, on/off, 1/0)
 *               writable = DIR (repeatable: one directory per line)
 *               network_allow, network_deny = HOSTS (repeatable: one
 *                         host list per line, net/hostlist.h's syntax)
 *               pass_env = NAME (repeatable: a secret variable an
 *                         agent's environment passes on all the same)
 *               max_procs, max_files = COUNT; max_memory,
 *               max_session_memory, max_file_size = SIZE (4G)
 *   [sandbox.read-only], [sandbox.workspace-write]
 *               the bounds (max_*) of that profile alone, which beat
 *               [sandbox]'s; each key once a section
 *   [tui]       prefix = C-a .. C-z
 *               scrollback = LINES (1 to CONFIG_SCROLLBACK_MAX)
 *               mouse = yes | no
 *   [mcp]       max_bytes = SIZE (CONFIG_CAP_MIN to CONFIG_CAP_MAX, 64K)
 *   [paths]     state_dir = DIR, socket = PATH
 *   [exec]      strict = yes | no: every exec inside an agent's session
 *                         that no rule allows is asked
 *               judge_own = yes | no: the rules judge the execs inside a
 *                         person's own sessions too (else only logged)
 *   [record]    max_recording = SIZE: a recording's cap (at least
 *                         CONFIG_RECORDING_MIN)
 *               state_budget = SIZE: the state directory's budget (at
 *                         least CONFIG_BUDGET_MIN)
 *   [web]       listen = ADDR:PORT (config_parse_listen)
 *               cert, key = FILE: TLS, needed beyond loopback
 *               host = NAME: a name the page is reached by besides the
 *                         address (checked against Host)
 *
 * Lines starting with '#' or ';' are comments, and so is what follows a
 * ';' preceded by whitespace.  Paths are absolute or start with "~/" (the
 * home directory).  Every mistake is an error naming "FILE:LINE" and the
 * key: an unknown section or key, a bad or empty value, a key other than
 * writable, network_allow, network_deny and pass_env given twice, a line
 * longer than libinih reads.  Nothing is ever ignored or silently replaced
 * by a default.
 *
 * A struct config remembers which settings the file gave, so that the
 * command line can override just those: a getter reports "not set" for
 * the others and config_apply_sandbox() leaves their fields alone.  The
 * profiles' bounds go to the options as they are, for the sandbox to pick
 * by the profile the command finally runs under.
 * This module never prints and never exits.
 */
#ifndef PTYVISOR_CONFIG_H
#define PTYVISOR_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sandbox/sandbox.h"
#include "policy/policy.h"

/*
 * The largest scrollback accepted.  Why a bound: a typo with extra zeros
 * should be an error, not gigabytes per session (a line of 80 plain cells
 * costs about 100 bytes; a million lines is about 100 MB a session).
 */
#define CONFIG_SCROLLBACK_MAX 1000000

/*
 * The bounds of [mcp] max_bytes, the text an agent gets back from one
 * call: below 1 KiB a result says nothing; above 1 MiB it floods the
 * agent's context, and the recording has everything anyway.
 */
#define CONFIG_CAP_MIN 1024
#define CONFIG_CAP_MAX (1024 * 1024)

/*
 * The smallest [record] sizes: those of record.h (RECORD_CAP_MIN) and
 * prune.h (PRUNE_BUDGET_MIN), which conf/ does not include; cli/ checks
 * that they agree.
 */
#define CONFIG_RECORDING_MIN	(64ULL * 1024)
#define CONFIG_BUDGET_MIN	(1024ULL * 1024)

struct config;

/* An empty configuration: nothing set.  Never NULL. */
struct config	*config_new(void);

/* Free a configuration and its strings.  NULL is a no-op. */
void		 config_free(struct config *cfg);

/*
 * Read the settings of the file at path into cfg, which must be empty (just
 * made by config_new()).  A file that does not exist is no settings when
 * missing_ok, an error otherwise.  Returns 0, or -1 with *cause (caller
 * frees) as "FILE:LINE: KEY: problem" or "FILE: problem"; cfg may then hold
 * part of the file and should be freed.
 */
int		 config_load(struct config *cfg, const char *path,
		     bool missing_ok, char **cause);

/* The file the settings came from (borrowed), or NULL if none was read. */
const char	*config_path(const struct config *cfg);

/* Whether [approval] mode is set; if so, *mode gets it. */
bool		 config_approval_mode(const struct config *cfg,
		     enum policy_mode *mode);

/* [approval] notify, rules: borrowed strings, NULL when not set. */
const char	*config_notify(const struct config *cfg);
const char	*config_rules(const struct config *cfg);

/* Whether [sandbox] profile is set; if so, *profile gets it. */
bool		 config_sandbox_profile(const struct config *cfg,
		     enum sandbox_profile *profile);

/*
 * Overwrite in opts each sandbox setting the file gives, leaving the
 * others as they are (a bound marked as the settings', with its line);
 * writable roots are appended after opts' own; each profile's bounds and
 * the file's path are copied in.  The strings stay owned by cfg, which
 * must outlive opts.  Returns 0, or -1 with *cause when opts cannot take
 * all the writable roots.
 */
int		 config_apply_sandbox(const struct config *cfg,
		     struct sandbox_opts *opts, char **cause);

/* [tui] prefix: the letter of Ctrl-<letter> ('a' to 'z'), 0 if not set. */
char		 config_prefix(const struct config *cfg);

/* [tui] scrollback in lines, 0 if not set. */
size_t		 config_scrollback(const struct config *cfg);

/* [tui] mouse: the console takes the mouse (off if not set). */
bool		 config_mouse(const struct config *cfg);

/* [mcp] max_bytes, 0 if not set. */
size_t		 config_mcp_max_bytes(const struct config *cfg);

/* [exec] strict, judge_own (off if not set). */
bool		 config_exec_strict(const struct config *cfg);
bool		 config_exec_judge_own(const struct config *cfg);

/* [record] max_recording, state_budget in bytes, 0 if not set. */
uint64_t	 config_max_recording(const struct config *cfg);
uint64_t	 config_state_budget(const struct config *cfg);
/*
 * [web] listen (as written), cert, key (absolute paths) and host: borrowed,
 * NULL when not set.
 */
const char	*config_web_listen(const struct config *cfg);
const char	*config_web_cert(const struct config *cfg);
const char	*config_web_key(const struct config *cfg);
const char	*config_web_host(const struct config *cfg);

/*
 * Read "ADDR:PORT": ADDR an IPv4 address, an IPv6 one in brackets, or
 * "localhost" (127.0.0.1); PORT 0 to 65535 (0: any free port).  0 with
 * *addr (caller frees; the address without brackets) and *port (either may
 * be NULL), or -1 with *cause.
 */
int		 config_parse_listen(const char *s, char **addr,
		     uint16_t *port, char **cause);

/* [paths] state_dir, socket: borrowed absolute paths, NULL when not set. */
const char	*config_state_dir(const struct config *cfg);
const char	*config_socket(const struct config *cfg);

#endif
