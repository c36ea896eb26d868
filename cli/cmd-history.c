/*
 * cmd-history.c - `ptyvisor history` (list past sessions) and `ptyvisor show`
 * (one session's metadata and output as text).
 *
 * Both read history.jsonl line by line and keep each raw line next to its
 * decoded entry, so --json prints lines exactly as stored.  Lines that do
 * not decode are skipped, as history_load does.  Oldest first: the newest
 * session is the last line printed, as in a shell's history.
 */
#include "cli/commands.h"
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/quote.h"
#include "record/cast.h"
#include "record/ending.h"
#include "record/history.h"
#include "record/statedir.h"
#include "base/util.h"

/* Exit status when the history or a recording cannot be read. */
#define HISTORY_EXIT_READ 1

/* One decoded history line with its raw text. */
struct history_row {
	struct history_entry	 e;
	char			*line;
};

/* All rows of the history file. */
struct history_rows {
	struct history_row	*v;
	size_t			 n;
};

/* Free the rows. */
static void
history_rows_free(struct history_rows *rows)
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
history_rows_load(struct history_rows *rows, char **cause)
{
	const struct config *cfg;
	char		*dir, *path, *line = NULL;
	size_t		 cap = 0;
	ssize_t		 n;
	FILE		*f;
	struct history_entry e;

	memset(rows, 0, sizeof *rows);
	if (cli_load_config(&cfg, cause) != 0 ||
	    (dir = cli_state_dir(cfg, cause)) == NULL)
		return -1;
	path = statedir_history_path(dir);
	free(dir);
	if ((f = fopen(path, "re")) == NULL) {
		if (errno == ENOENT) {
			free(path);
			return 0;
		}
		*cause = xasprintf("%s: %s", path, strerror(errno));
		free(path);
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
		rows->n++;
	}
	if (ferror(f)) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		fclose(f);
		free(line);
		free(path);
		history_rows_free(rows);
		return -1;
	}
	fclose(f);
	free(line);
	free(path);
	return 0;
}

/* The command of e, quoted; caller frees. */
static char *
history_command(const struct history_entry *e)
{
	return quote_argv(e->argv);
}

/* How a session ended, in the words of record/ending.h. */
static void
history_status(const struct history_entry *e, char *out, size_t len)
{
	struct ending	end;

	ending_of_entry(e, &end);
	ending_name(&end, out, len);
}

/* A wall time as local "YYYY-MM-DD HH:MM:SS". */
static void
history_local_time(int64_t us, char *out, size_t len)
{
	time_t		t = (time_t)(us / 1000000);
	struct tm	tm;

	if (us <= 0 || localtime_r(&t, &tm) == NULL ||
	    strftime(out, len, "%Y-%m-%d %H:%M:%S", &tm) == 0)
		snprintf(out, len, "-");
}

/* "decision/by", or one of them, or "-". */
static void
history_decided(const struct history_entry *e, char *out, size_t len)
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
history_match(const struct history_entry *e, const char *state,
    const char *grep)
{
	char	*cmd;
	bool	 found;

	if (state != NULL && (e->state == NULL ||
	    strncmp(e->state, state, strlen(state)) != 0))
		return false;
	if (grep == NULL)
		return true;
	cmd = history_command(e);
	found = strstr(cmd, grep) != NULL ||
	    (e->cwd != NULL && strstr(e->cwd, grep) != NULL);
	free(cmd);
	return found;
}

static void
history_usage(FILE *f)
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

int
cmd_history(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "state", required_argument, NULL, 's' },
		{ "grep", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct history_rows	 rows;
	struct history_entry	*e;
	const char		*state = NULL, *grep = NULL;
	char			*cause = NULL, *end, *cmd;
	char			 t[32], dur[32], st[64], dec[64];
	bool			*keep, json = false;
	size_t			 i, n, limit = (size_t)-1, skip;
	long			 v;
	int			 c;

	/* A wrong settings file stops every command (it may move the state). */
	if (cli_config() == NULL)
		return CLI_EXIT_ERROR;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+n:h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno != 0 || end == optarg || *end != '\0' ||
			    v < 0) {
				cli_error("history", "-n: '%s' is not a "
				    "number of sessions", optarg);
				return CLI_EXIT_ERROR;
			}
			limit = (size_t)v;
			break;
		case 'j':
			json = true;
			break;
		case 's':
			state = optarg;
			break;
		case 'g':
			grep = optarg;
			break;
		case 'h':
			history_usage(stdout);
			return 0;
		case ':':
			cli_error("history", "%s needs a value",
			    argv[optind - 1]);
			return CLI_EXIT_ERROR;
		default:
			cli_error("history", "unknown option '%s' (see "
			    "'ptyvisor history --help')", argv[optind - 1]);
			return CLI_EXIT_ERROR;
		}
	}
	if (optind != argc) {
		cli_error("history", "unexpected argument '%s'", argv[optind]);
		return CLI_EXIT_ERROR;
	}
	if (history_rows_load(&rows, &cause) != 0) {
		cli_error("history", "%s", cause);
		free(cause);
		return HISTORY_EXIT_READ;
	}
	keep = xcalloc(rows.n + 1, sizeof *keep);
	for (i = n = 0; i < rows.n; i++)
		if ((keep[i] = history_match(&rows.v[i].e, state, grep)))
			n++;
	skip = n > limit ? n - limit : 0;
	for (i = 0; i < rows.n; i++) {
		if (!keep[i])
			continue;
		if (skip > 0) {
			skip--;
			continue;
		}
		if (json) {
			printf("%s\n", rows.v[i].line);
			continue;
		}
		e = &rows.v[i].e;
		history_local_time(e->start_us, t, sizeof t);
		util_format_duration(e->end_us - e->start_us, dur, sizeof dur);
		history_status(e, st, sizeof st);
		history_decided(e, dec, sizeof dec);
		cmd = history_command(e);
		/* A request that never ran has no session id. */
		if (e->id != 0)
			printf("%5lu", e->id);
		else
			printf("%5s", "-");
		printf("  %s  %7s  %-14s  %-17s  %-12s  %s\n", t,
		    dur, st, e->profile != NULL ? e->profile : "-", dec, cmd);
		free(cmd);
	}
	free(keep);
	history_rows_free(&rows);
	return 0;
}

static void
show_usage(FILE *f)
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
show_unfinished(const char *arg, unsigned long id)
{
	struct cast	*c;
	struct buf	 text = { 0 };
	char		*path, *cause = NULL, *warning = NULL, *cmd;

	if ((path = cli_recording_path(arg, &cause)) == NULL) {
		free(cause);
		cli_error("show", "no session %lu in the history (see "
		    "'ptyvisor history')", id);
		return HISTORY_EXIT_READ;
	}
	if ((c = cast_open(path, &cause)) == NULL) {
		cli_error("show", "%s", cause);
		free(cause);
		free(path);
		return HISTORY_EXIT_READ;
	}
	cmd = quote_text(cast_header(c)->command != NULL ?
	    cast_header(c)->command : "-");
	printf("id:        %lu\ncommand:   %s\nstate:     running (no end "
	    "recorded yet; or its ptyvisor stopped first)\nrecording: %s\n"
	    "--- output so far ---\n", id, cmd, path);
	fflush(stdout);
	free(cmd);
	cast_free(c);
	if (cli_cast_text(path, -1, &text, &warning, &cause) != 0) {
		cli_error("show", "%s", cause);
		free(cause);
		free(path);
		return HISTORY_EXIT_READ;
	}
	fwrite(text.data, 1, text.len, stdout);
	buf_free(&text);
	free(warning);	/* a torn last line is the normal state here */
	free(path);
	return 0;
}

/* A string member of a log line, quoted for one line; "-" if absent. */
static char *
net_field(json_t *o, const char *name)
{
	const char	*s = json_string_value(json_object_get(o, name));

	return quote_text(s != NULL && *s != '\0' ? s : "-");
}

/* An integer member of a log line. */
static long long
net_number(json_t *o, const char *name)
{
	return (long long)json_integer_value(json_object_get(o, name));
}

/*
 * The connections of a session's filtered network, from the file next to
 * its recording: one line each.  Nothing when there is no such file.
 */
static void
show_network(const char *recording)
{
	json_error_t	 err;
	json_t		*o;
	FILE		*f;
	char		*path, *line = NULL, *host, *addr, *why, *dec;
	size_t		 cap = 0;
	unsigned	 n = 0, bad = 0;

	path = statedir_net_log_path(recording);
	f = fopen(path, "re");
	free(path);
	if (f == NULL)
		return;
	printf("network:\n");
	while (getline(&line, &cap, f) > 0) {
		if ((o = json_loads(line, 0, &err)) == NULL ||
		    !json_is_object(o)) {
			json_decref(o);
			bad++;
			continue;
		}
		dec = net_field(o, "decision");
		host = net_field(o, "host");
		addr = net_field(o, "address");
		why = net_field(o, "why");
		printf("  %-5s %s:%lld via %s, sent %lld, received %lld: %s\n",
		    dec, host, net_number(o, "port"), addr,
		    net_number(o, "sent"), net_number(o, "received"), why);
		free(dec);
		free(host);
		free(addr);
		free(why);
		json_decref(o);
		n++;
	}
	if (n == 0 && bad == 0)
		printf("  no connection\n");
	if (bad > 0)
		printf("  (%u damaged lines skipped)\n", bad);
	free(line);
	fclose(f);
}

int
cmd_show(int argc, char **argv)
{
	struct history_rows	 rows;
	struct history_entry	*e = NULL;
	struct buf		 text = { 0 };
	char			*cause = NULL, *warning = NULL, *end, *cmd, *text_cwd;
	char			 t[32], dur[32], st[64];
	unsigned long		 id;
	size_t			 i;
	int			 rc = 0;

	/* A wrong settings file stops every command (it may move the state). */
	if (cli_config() == NULL)
		return CLI_EXIT_ERROR;
	/* --help anywhere, as for every other sub-command. */
	for (i = 1; i < (size_t)argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "-h") == 0 ||
		    strcmp(argv[i], "--help") == 0) {
			show_usage(stdout);
			return 0;
		}
	if (argc != 2) {
		cli_error("show", "give one session id (usage: ptyvisor show "
		    "ID)");
		return CLI_EXIT_ERROR;
	}
	errno = 0;
	id = strtoul(argv[1], &end, 10);
	if (errno != 0 || end == argv[1] || *end != '\0' ||
	    strspn(argv[1], "0123456789") != strlen(argv[1])) {
		cli_error("show", "'%s' is not a session id (see 'ptyvisor "
		    "history')", argv[1]);
		return HISTORY_EXIT_READ;
	}
	if (history_rows_load(&rows, &cause) != 0) {
		cli_error("show", "%s", cause);
		free(cause);
		return HISTORY_EXIT_READ;
	}
	for (i = rows.n; i > 0 && e == NULL; i--)
		if (rows.v[i - 1].e.id == id)
			e = &rows.v[i - 1].e;
	if (e == NULL) {
		history_rows_free(&rows);
		return show_unfinished(argv[1], id);
	}

	cmd = history_command(e);
	text_cwd = quote_text(e->cwd != NULL ? e->cwd : "-");
	printf("id:        %lu\n", e->id);
	if (e->request != 0)
		printf("request:   %lu (an agent's; 'ptyvisor pending' numbers)\n",
		    e->request);
	printf("command:   %s\ncwd:       %s\n", cmd, text_cwd);
	if (quote_argv_has_invisible(e->argv) ||
	    (e->cwd != NULL && quote_has_invisible(e->cwd)))
		printf("warning:   invisible characters (bidirectional or "
		    "zero-width), shown as \\uXXXX\n");
	free(cmd);
	free(text_cwd);
	history_local_time(e->start_us, t, sizeof t);
	printf("start:     %s\n", t);
	history_local_time(e->end_us, t, sizeof t);
	util_format_duration(e->end_us - e->start_us, dur, sizeof dur);
	printf("end:       %s\nduration:  %s\n", t, dur);
	printf("state:     %s\n", e->state != NULL ? e->state : "-");
	history_status(e, st, sizeof st);
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
	printf("bytes:     %llu\nrecording: %s\n", (unsigned long long)e->bytes,
	    e->recording != NULL ? e->recording : "-");
	if (e->error != NULL) {
		text_cwd = quote_text(e->error);
		printf("error:     %s\n", text_cwd);
		free(text_cwd);
	}
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
		show_network(e->recording);
	printf("--- output ---\n");
	fflush(stdout);

	if (e->recording == NULL) {
		cli_error("show", "session %lu has no recording", id);
		rc = HISTORY_EXIT_READ;
	} else if (cli_cast_text(e->recording, -1, &text, &warning,
	    &cause) != 0) {
		cli_error("show", "%s", cause);
		free(cause);
		rc = HISTORY_EXIT_READ;
	} else {
		if (warning != NULL)
			cli_error("show", "warning: %s", warning);
		fwrite(text.data, 1, text.len, stdout);
	}
	buf_free(&text);
	free(warning);
	history_rows_free(&rows);
	return rc;
}
