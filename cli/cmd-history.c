/*
 * cmd-history.c - `ptyvisor history` (list past sessions) and `ptyvisor show`
 * (one session's metadata and output as text).
 *
 * Both read history.jsonl line by line and keep each raw line next to its
 * decoded entry, so --json prints lines exactly as stored.  Lines that do
 * not decode are skipped, as history_load does.  Oldest first: the newest
 * session is the last line printed, as in a shell's history.  A session
 * whose recording the state directory's budget removed (record/prune.h)
 * is said to be: "recording pruned" in the table and in show, and
 * "recording_pruned": true added to its line for --json.
 */
#include "cli/commands.h"
#include "cli/args.h"
#include "cli/cli.h"

#include <errno.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/quote.h"
#include "record/cast.h"
#include "record/ending.h"
#include "record/history.h"
#include "record/record.h"
#include "record/statedir.h"
#include "base/util.h"

/* Exit status when the history or a recording cannot be read. */
#define CMD_HISTORY_EXIT_READ 1

/* One decoded history line with its raw text. */
struct cmd_history_row {
	struct history_entry	 e;
	char			*line;
	bool			 pruned;	/* its recording is gone */
};

/* All rows of the history file. */
struct cmd_history_rows {
	struct cmd_history_row	*v;
	size_t			 n;
};

/* Free the rows (zeroed or loaded). */
static void
cmd_history_rows_free(struct cmd_history_rows *rows)
{
	size_t	i;

	for (i = 0; i < rows->n; i++) {
		history_entry_clear(&rows->v[i].e);
		free(rows->v[i].line);
	}
	free(rows->v);
	memset(rows, 0, sizeof *rows);
}

/* Read the history of the state directory; a missing file is empty. */
static int
cmd_history_rows_load(struct cmd_history_rows *rows, char **cause)
{
	const struct config *cfg;
	char		*dir, *path, *line = NULL;
	size_t		 cap = 0, npruned;
	unsigned long	*pruned;
	ssize_t		 n;
	FILE		*f;
	struct history_entry e;

	memset(rows, 0, sizeof *rows);
	if (cli_load_config(&cfg, cause) != 0 ||
	    (dir = cli_state_dir(cfg, cause)) == NULL)
		return -1;
	path = statedir_history_path(dir);
	pruned = statedir_pruned(dir, &npruned);
	free(dir);
	if ((f = fopen(path, "re")) == NULL) {
		if (errno == ENOENT) {
			free(path);
			free(pruned);
			return 0;
		}
		*cause = xasprintf("%s: %s", path, strerror(errno));
		free(path);
		free(pruned);
		return -1;
	}
	while ((n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		if (history_decode(line, &e) != 0)
			continue;
		rows->v = xreallocarray(rows->v, rows->n + 1, sizeof *rows->v);
		rows->v[rows->n].e = e;
		rows->v[rows->n].line = xstrdup(line);
		rows->v[rows->n].pruned = statedir_recording_pruned(pruned,
		    npruned, e.id, e.recording);
		rows->n++;
	}
	free(pruned);
	if (ferror(f)) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		fclose(f);
		free(line);
		free(path);
		cmd_history_rows_free(rows);
		return -1;
	}
	fclose(f);
	free(line);
	free(path);
	return 0;
}

/* What becomes of row's recording, for the table: "", pruned or capped. */
static const char *
cmd_history_recording_note(const struct cmd_history_row *row)
{
	if (row->pruned)
		return "  (recording pruned)";
	if (row->e.recording_dropped != 0)
		return "  (recording capped)";
	return "";
}

/* Print row's line for --json: as stored, plus "recording_pruned". */
static void
cmd_history_print_json(const struct cmd_history_row *row)
{
	json_t	*o;
	char	*s = NULL;

	if (row->pruned && (o = json_loads(row->line, 0, NULL)) != NULL) {
		json_object_set_new(o, "recording_pruned", json_true());
		s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
		json_decref(o);
	}
	printf("%s\n", s != NULL ? s : row->line);
	free(s);
}

/* The command of e, quoted; caller frees. */
static char *
cmd_history_command(const struct history_entry *e)
{
	return quote_argv(e->argv);
}

/* How a session ended, in the words of record/ending.h. */
static void
cmd_history_status(const struct history_entry *e, char *out, size_t len)
{
	struct ending	end;

	ending_of_entry(e, &end);
	ending_name(&end, out, len);
}

/* A wall time as local "YYYY-MM-DD HH:MM:SS". */
static void
cmd_history_local_time(int64_t us, char *out, size_t len)
{
	time_t		t = (time_t)(us / 1000000);
	struct tm	tm;

	if (us <= 0 || localtime_r(&t, &tm) == NULL ||
	    strftime(out, len, "%Y-%m-%d %H:%M:%S", &tm) == 0)
		snprintf(out, len, "-");
}

/* "decision/by", or one of them, or "-". */
static void
cmd_history_decided(const struct history_entry *e, char *out, size_t len)
{
	if (e->decision != NULL && e->by != NULL)
		snprintf(out, len, "%s/%s", e->decision, e->by);
	else if (e->decision != NULL || e->by != NULL)
		snprintf(out, len, "%s", e->decision ? e->decision : e->by);
	else
		snprintf(out, len, "-");
}

/* Does e pass the --state and --grep filters? */
static bool
cmd_history_match(const struct history_entry *e, const char *state,
    const char *grep)
{
	char	*cmd;
	bool	 found;

	if (state != NULL && (e->state == NULL ||
	    strncmp(e->state, state, strlen(state)) != 0))
		return false;
	if (grep == NULL)
		return true;
	cmd = cmd_history_command(e);
	found = strstr(cmd, grep) != NULL ||
	    (e->cwd != NULL && strstr(e->cwd, grep) != NULL);
	free(cmd);
	return found;
}

/* The --help text of history. */
static void
cmd_history_usage(FILE *f)
{
	fprintf(f,
	    "usage: ptyvisor history [-n N] [--json] [--state S] "
	    "[--grep TEXT]\n\n"
	    "List past sessions, oldest first (the newest is the last line):\n"
	    "id, start (local time), duration, how it ended (exit 3, signal\n"
	    "SIGKILL, timeout, not found, server died...), sandbox profile,\n"
	    "decision/by whom, command.\n\n"
	    "Options:\n"
	    "  -n N          only the last N (after filtering)\n"
	    "  --json        the history.jsonl lines themselves\n"
	    "  --state S     only sessions whose state begins with S (exited,\n"
	    "                signaled, timed_out, failed_to_start, lost)\n"
	    "  --grep TEXT   only sessions whose command or cwd contains TEXT\n"
	    "  -h, --help    show this help\n\n"
	    "No history yet is an empty list.  'ptyvisor show ID' prints one\n"
	    "session; 'ptyvisor replay ID' plays it.\n");
}

/* What the command line asks of the list. */
struct cmd_history_args {
	size_t		 limit;		/* -n: the last ones */
	bool		 json;
	const char	*state;
	const char	*grep;
};

enum {
	CMD_HISTORY_JSON = 256,
	CMD_HISTORY_STATE,
	CMD_HISTORY_GREP,
};

static const struct args_option cmd_history_options[] = {
	{ NULL, 'n', true, 'n' },
	{ "json", 0, false, CMD_HISTORY_JSON },
	{ "state", 0, true, CMD_HISTORY_STATE },
	{ "grep", 0, true, CMD_HISTORY_GREP },
	ARGS_HELP_OPTION,
	ARGS_END
};
static const struct args_option *const cmd_history_tables[] = {
	cmd_history_options, NULL
};

/* Take one option into a (args_parse()). */
static int
cmd_history_option(void *state, int key, const char *value, char **cause)
{
	struct cmd_history_args	*a = state;
	char			*end;
	long			 v;

	switch (key) {
	case 'n':
		errno = 0;
		v = strtol(value, &end, 10);
		if (errno != 0 || end == value || *end != '\0' || v < 0) {
			*cause = xasprintf("-n: '%s' is not a number of "
			    "sessions", value);
			return -1;
		}
		a->limit = (size_t)v;
		break;
	case CMD_HISTORY_JSON:
		a->json = true;
		break;
	case CMD_HISTORY_STATE:
		a->state = value;
		break;
	case CMD_HISTORY_GREP:
		a->grep = value;
		break;
	}
	return 0;
}

/* Print row as a line of the table. */
static void
cmd_history_print_entry(const struct cmd_history_row *row)
{
	const struct history_entry	*e = &row->e;
	char				 t[32], dur[32], st[64], dec[64], *cmd;

	cmd_history_local_time(e->start_us, t, sizeof t);
	util_format_duration(e->end_us - e->start_us, dur, sizeof dur);
	cmd_history_status(e, st, sizeof st);
	cmd_history_decided(e, dec, sizeof dec);
	cmd = cmd_history_command(e);
	/* A request that never ran has no session id. */
	if (e->id != 0)
		printf("%5lu", e->id);
	else
		printf("%5s", "-");
	printf("  %s  %7s  %-14s  %-17s  %-12s  %s%s\n", t,
	    dur, st, e->profile != NULL ? e->profile : "-", dec, cmd,
	    cmd_history_recording_note(row));
	free(cmd);
}

/* Print the rows a asks for: filtered, the last a->limit of them. */
static void
cmd_history_print(const struct cmd_history_rows *rows,
    const struct cmd_history_args *a)
{
	bool	*keep;
	size_t	 i, n, skip;

	keep = xcalloc(rows->n + 1, sizeof *keep);
	for (i = n = 0; i < rows->n; i++)
		if ((keep[i] = cmd_history_match(&rows->v[i].e, a->state,
		    a->grep)))
			n++;
	skip = n > a->limit ? n - a->limit : 0;
	for (i = 0; i < rows->n; i++) {
		if (!keep[i])
			continue;
		if (skip > 0) {
			skip--;
			continue;
		}
		if (a->json)
			cmd_history_print_json(&rows->v[i]);
		else
			cmd_history_print_entry(&rows->v[i]);
	}
	free(keep);
}

/* `ptyvisor history`: past sessions, oldest first. */
static int
cmd_history_exec(int argc, char **argv)
{
	struct cmd_history_args	 a = { .limit = (size_t)-1 };
	struct cmd_history_rows	 rows = { 0 };
	struct args_end		 end;
	char			*cause = NULL;
	int			 rc;

	/* A wrong settings file stops every command (it may move the state). */
	if (cli_config() == NULL)
		return CLI_EXIT_ERROR;
	if ((rc = args_parse(&cmd_history_entry, argc, argv, &a,
	    &end)) != ARGS_GO_ON)
		goto out;
	if (end.first != argc) {
		cli_error("history", "unexpected argument '%s'",
		    argv[end.first]);
		rc = CLI_EXIT_ERROR;
		goto out;
	}
	if (cmd_history_rows_load(&rows, &cause) != 0) {
		cli_error("history", "%s", cause);
		rc = CMD_HISTORY_EXIT_READ;
		goto out;
	}
	cmd_history_print(&rows, &a);
	rc = 0;
out:
	free(cause);
	cmd_history_rows_free(&rows);
	return rc;
}

const struct cmd_entry cmd_history_entry = {
	.name = "history",
	.summary = "list past sessions",
	.exec = cmd_history_exec,
	.options = cmd_history_tables,
	.flags = ARGS_SEE_HELP,
	.usage = cmd_history_usage,
	.option = cmd_history_option,
};

/* The --help text of show. */
static void
cmd_show_usage(FILE *f)
{
	fprintf(f,
	    "usage: ptyvisor show ID\n\n"
	    "Print what the history knows of session ID (one field a line),\n"
	    "each connection its filtered network made (decision, host:port,\n"
	    "address, bytes sent and received, why) when it had one,\n"
	    "then a line '--- output ---', then its output as plain text:\n"
	    "the final screen with its scrollback, as 'ptyvisor replay --text'\n"
	    "prints it.\n\n"
	    "Exit status: 0; 1 when there is no such session or its recording\n"
	    "cannot be read; 125 bad arguments.\n");
}

/*
 * show for a session with a recording but no history line yet: it is
 * running (or its ptyvisor stopped before it ended).  What its screen
 * shows so far, from the recording.
 */
static int
cmd_show_unfinished(const char *arg, unsigned long id)
{
	struct cast	*c;
	struct buf	 text = { 0 };
	char		*path, *cause = NULL, *warning = NULL, *cmd, *tail;

	if ((path = cli_recording_path(arg, &cause)) == NULL) {
		free(cause);
		cli_error("show", "no session %lu in the history (see "
		    "'ptyvisor history')", id);
		return CMD_HISTORY_EXIT_READ;
	}
	if ((c = cast_open(path, &cause)) == NULL) {
		cli_error("show", "%s", cause);
		free(cause);
		free(path);
		return CMD_HISTORY_EXIT_READ;
	}
	cmd = quote_text(cast_header(c)->command != NULL ?
	    cast_header(c)->command : "-");
	printf("id:        %lu\ncommand:   %s\nstate:     running (no end "
	    "recorded yet; or its ptyvisor stopped first)\nrecording: %s\n",
	    id, cmd, path);
	/* Past half its cap, what came since is in the tail file for now. */
	tail = record_tail_path(path);
	if (access(tail, F_OK) == 0)
		printf("capped:    past half its cap: the output since is in "
		    "%s until it ends\n", tail);
	free(tail);
	printf("--- output so far ---\n");
	fflush(stdout);
	free(cmd);
	cast_free(c);
	if (cli_cast_text(path, -1, &text, &warning, &cause) != 0) {
		cli_error("show", "%s", cause);
		free(cause);
		free(path);
		return CMD_HISTORY_EXIT_READ;
	}
	fwrite(text.data, 1, text.len, stdout);
	buf_free(&text);
	free(warning);	/* a torn last line is the normal state here */
	free(path);
	return 0;
}

/* A string member of a log line, quoted for one line; "-" if absent. */
static char *
cmd_show_net_field(json_t *o, const char *name)
{
	const char	*s = json_string_value(json_object_get(o, name));

	return quote_text(s != NULL && *s != '\0' ? s : "-");
}

/* An integer member of a log line. */
static long long
cmd_show_net_number(json_t *o, const char *name)
{
	return (long long)json_integer_value(json_object_get(o, name));
}

/*
 * A JSON-lines log next to a recording, under a title: fn called with
 * each object line; a count of damaged lines after.  false when there is
 * no such file (nothing printed).
 */
static bool
cmd_show_log(const char *path, const char *title,
    void (*fn)(json_t *o, void *arg), void *arg)
{
	json_error_t	 err;
	json_t		*o;
	FILE		*f;
	char		*line = NULL;
	size_t		 cap = 0;
	unsigned	 bad = 0;

	if ((f = fopen(path, "re")) == NULL)
		return false;
	printf("%s\n", title);
	while (getline(&line, &cap, f) > 0) {
		if ((o = json_loads(line, 0, &err)) == NULL ||
		    !json_is_object(o)) {
			json_decref(o);
			bad++;
			continue;
		}
		fn(o, arg);
		json_decref(o);
	}
	if (bad > 0)
		printf("  (%u damaged lines skipped)\n", bad);
	free(line);
	fclose(f);
	return true;
}

/*
 * Whether o is a capped log's last lines (its bound reached, how many of
 * what went unlisted), printed as such.
 */
static bool
cmd_show_log_end(json_t *o, const char *what)
{
	if (json_object_get(o, "log_full") != NULL) {
		printf("  (the log is full: later %s are counted, not "
		    "listed)\n", what);
		return true;
	}
	if (json_object_get(o, "not_logged") != NULL) {
		printf("  (%lld %s not listed)\n",
		    cmd_show_net_number(o, "not_logged"), what);
		return true;
	}
	return false;
}

/* One connection of a filtered network's log; counted in *arg. */
static void
cmd_show_connection(json_t *o, void *arg)
{
	unsigned	*n = arg;
	char		*host, *addr, *why, *dec;

	if (cmd_show_log_end(o, "connections"))
		return;
	dec = cmd_show_net_field(o, "decision");
	host = cmd_show_net_field(o, "host");
	addr = cmd_show_net_field(o, "address");
	why = cmd_show_net_field(o, "why");
	printf("  %-5s %s:%lld via %s, sent %lld, received %lld: %s\n",
	    dec, host, cmd_show_net_number(o, "port"), addr,
	    cmd_show_net_number(o, "sent"),
	    cmd_show_net_number(o, "received"), why);
	free(dec);
	free(host);
	free(addr);
	free(why);
	(*n)++;
}

/*
 * The connections of a session's filtered network, from the file next to
 * its recording: one line each.  Nothing when there is no such file.
 */
static void
cmd_show_network(const char *recording)
{
	char		*path = statedir_net_log_path(recording);
	unsigned	 n = 0;

	if (cmd_show_log(path, "network:", cmd_show_connection, &n) &&
	    n == 0)
		printf("  no connection\n");
	free(path);
}

/*
 * Print what the history knows of session e, one field a line (pruned:
 * its recording is gone).
 */
static void
cmd_show_fields(const struct history_entry *e, bool pruned)
{
	char	 t[32], dur[32], st[64], *text;

	text = cmd_history_command(e);
	printf("id:        %lu\n", e->id);
	if (e->request != 0)
		printf("request:   %lu (an agent's; 'ptyvisor pending' "
		    "numbers)\n", e->request);
	printf("command:   %s\n", text);
	free(text);
	text = quote_text(e->cwd != NULL ? e->cwd : "-");
	printf("cwd:       %s\n", text);
	free(text);
	if (quote_argv_has_invisible(e->argv) ||
	    (e->cwd != NULL && quote_has_invisible(e->cwd)))
		printf("warning:   invisible characters (bidirectional or "
		    "zero-width), shown as \\uXXXX\n");
	cmd_history_local_time(e->start_us, t, sizeof t);
	printf("start:     %s\n", t);
	cmd_history_local_time(e->end_us, t, sizeof t);
	util_format_duration(e->end_us - e->start_us, dur, sizeof dur);
	printf("end:       %s\nduration:  %s\n", t, dur);
	printf("state:     %s\n", e->state != NULL ? e->state : "-");
	cmd_history_status(e, st, sizeof st);
	printf("ending:    %s\n", st);
	if (e->has_code)
		printf("code:      %d\n", e->code);
	else
		printf("code:      -\n");
	if (e->signal != 0)
		printf("signal:    %d (%s)\n", e->signal, strsignal(e->signal));
	else
		printf("signal:    -\n");
	printf("profile:   %s\ndecision:  %s\nby:        %s\nagent:     %s\n",
	    e->profile != NULL ? e->profile : "-",
	    e->decision != NULL ? e->decision : "-",
	    e->by != NULL ? e->by : "-", e->agent ? "yes" : "no");
	/* Names only: the values never reached the command. */
	if (e->env_dropped != NULL) {
		text = quote_argv(e->env_dropped);
		printf("dropped:   %s (secret variables of the agent's "
		    "environment)\n", text);
		free(text);
	}
	printf("bytes:     %llu\nrecording: %s%s\n",
	    (unsigned long long)e->bytes,
	    e->recording != NULL ? e->recording : "-",
	    pruned ? " (recording pruned)" : "");
	if (e->recording_dropped != 0)
		printf("capped:    %llu bytes of output not recorded (the "
		    "recording keeps its head and tail)\n",
		    (unsigned long long)e->recording_dropped);
	if (e->error != NULL) {
		text = quote_text(e->error);
		printf("error:     %s\n", text);
		free(text);
	}
}

/* One exec of a session's exec log. */
static void
cmd_show_exec_line(json_t *o, void *arg)
{
	json_t		*argv = json_object_get(o, "argv");
	const char	*verdict, *w;
	char		*by, *words, **v;
	size_t		 i;

	(void)arg;
	if (cmd_show_log_end(o, "execs"))
		return;
	v = xcalloc(json_array_size(argv) + 1, sizeof *v);
	for (i = 0; i < json_array_size(argv); i++) {
		w = json_string_value(json_array_get(argv, i));
		v[i] = (char *)(w != NULL ? w : "");
	}
	words = quote_argv(v);
	free(v);
	by = cmd_show_net_field(o, "by");
	verdict = json_string_value(json_object_get(o, "verdict"));
	printf("  %9.3fs %-5s%s pid %lld  %s  (%s)\n",
	    json_number_value(json_object_get(o, "t")),
	    verdict != NULL ? verdict : "?",
	    json_is_true(json_object_get(o, "asked")) ? " asked" : "",
	    cmd_show_net_number(o, "pid"), words, by);
	free(words);
	free(by);
}

/*
 * The execs inside session e: counted, then one line each from the log
 * next to its recording (time, verdict, pid, the words, what decided).
 */
static void
cmd_show_execs(const struct history_entry *e)
{
	char	*path;

	if (e->has_execs)
		printf("execs:     %lu checked, %lu denied\n", e->execs,
		    e->execs_denied);
	if (e->recording == NULL)
		return;
	path = statedir_exec_log_path(e->recording);
	cmd_show_log(path, "exec log:", cmd_show_exec_line, NULL);
	free(path);
}

/* The connections of e's filtered network: summed, then one by one. */
static void
cmd_show_connections(const struct history_entry *e)
{
	if (e->has_net)
		printf("connections: %llu: %llu allowed, %llu denied, %llu "
		    "asked; sent %llu, received %llu bytes\n",
		    (unsigned long long)e->net.connections,
		    (unsigned long long)e->net.allowed,
		    (unsigned long long)e->net.denied,
		    (unsigned long long)e->net.asked,
		    (unsigned long long)e->net.sent,
		    (unsigned long long)e->net.received);
	if (e->recording != NULL)
		cmd_show_network(e->recording);
	cmd_show_execs(e);
}

/*
 * Print the output of session e as text (pruned: say that it is gone);
 * the exit status.
 */
static int
cmd_show_output(const struct history_entry *e, bool pruned)
{
	struct buf	 text = { 0 };
	char		*cause = NULL, *warning = NULL;
	int		 rc = 0;

	if (pruned)
		printf("(recording pruned: the state directory's budget "
		    "removed it)\n");
	else if (e->recording == NULL) {
		cli_error("show", "session %lu has no recording", e->id);
		rc = CMD_HISTORY_EXIT_READ;
	} else if (cli_cast_text(e->recording, -1, &text, &warning,
	    &cause) != 0) {
		cli_error("show", "%s", cause);
		rc = CMD_HISTORY_EXIT_READ;
	} else {
		if (warning != NULL)
			cli_error("show", "warning: %s", warning);
		fwrite(text.data, 1, text.len, stdout);
	}
	buf_free(&text);
	free(cause);
	free(warning);
	return rc;
}

/* show has one option: --help, anywhere before --. */
static const struct args_option cmd_show_options[] = {
	ARGS_HELP_OPTION,
	ARGS_END
};
static const struct args_option *const cmd_show_tables[] = {
	cmd_show_options, NULL
};

/* `ptyvisor show ID`: one session's metadata, then its output as text. */
static int
cmd_show_exec(int argc, char **argv)
{
	struct cmd_history_rows	 rows = { 0 };
	struct history_entry	*e = NULL;
	bool			 pruned = false;
	struct args_end		 end;
	char			*cause = NULL, *endp;
	unsigned long		 id;
	size_t			 i;
	int			 rc;

	/* A wrong settings file stops every command (it may move the state). */
	if (cli_config() == NULL)
		return CLI_EXIT_ERROR;
	if ((rc = args_parse(&cmd_show_entry, argc, argv, NULL,
	    &end)) != ARGS_GO_ON)
		goto out;
	rc = CMD_HISTORY_EXIT_READ;
	if (argc != 2) {
		cli_error("show", "give one session id (usage: ptyvisor show "
		    "ID)");
		rc = CLI_EXIT_ERROR;
		goto out;
	}
	errno = 0;
	id = strtoul(argv[1], &endp, 10);
	if (errno != 0 || endp == argv[1] || *endp != '\0' ||
	    strspn(argv[1], "0123456789") != strlen(argv[1])) {
		cli_error("show", "'%s' is not a session id (see 'ptyvisor "
		    "history')", argv[1]);
		goto out;
	}
	if (cmd_history_rows_load(&rows, &cause) != 0) {
		cli_error("show", "%s", cause);
		goto out;
	}
	for (i = rows.n; i > 0 && e == NULL; i--)
		if (rows.v[i - 1].e.id == id) {
			e = &rows.v[i - 1].e;
			pruned = rows.v[i - 1].pruned;
		}
	if (e == NULL) {
		rc = cmd_show_unfinished(argv[1], id);
		goto out;
	}
	cmd_show_fields(e, pruned);
	cmd_show_connections(e);
	printf("--- output ---\n");
	fflush(stdout);
	rc = cmd_show_output(e, pruned);
out:
	free(cause);
	cmd_history_rows_free(&rows);
	return rc;
}

const struct cmd_entry cmd_show_entry = {
	.name = "show",
	.summary = "one past session: metadata and output text",
	.exec = cmd_show_exec,
	.options = cmd_show_tables,
	.flags = ARGS_EXACT | ARGS_ANYWHERE,
	.usage = cmd_show_usage,
};
