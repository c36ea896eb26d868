/*
 * test-tui.c - the pure parts of the front end: tiling, key decoding,
 * the colour mapper's palette, the help text, a replay pane's title, and
 * the approval prompt's keys over a real approval queue.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curses.h>

#include "base/quote.h"
#include "control/approval.h"
#include "policy/policy.h"
#include "term/screen.h"
#include "base/util.h"
#include "tests/tap.h"
#include "tests/unit/ask-host.h"
#include "tui/askbox.h"
#include "tui/help.h"
#include "tui/keys.h"
#include "tui/layout.h"
#include "tui/render.h"
#include "tui/tui-replay.h"
#include "tui/scroll.h"

/* Panes of a tiling never overlap and stay inside the area. */
static void
test_layout(void)
{
	struct layout_rect	area = { 0, 0, 160, 47 }, r[LAYOUT_MAX_PANES];
	int			n, i, j, cells;
	bool			inside, apart;

	for (n = 1; n <= LAYOUT_MAX_PANES; n++) {
		is_int(layout_tile(area, n, r), 0, "%d panes tile 160x47", n);
		inside = apart = true;
		cells = 0;
		for (i = 0; i < n; i++) {
			if (r[i].x < 0 || r[i].y < 0 ||
			    r[i].x + r[i].w > area.w ||
			    r[i].y + r[i].h > area.h)
				inside = false;
			cells += r[i].w * r[i].h;
			for (j = 0; j < i; j++)
				if (r[i].x < r[j].x + r[j].w &&
				    r[j].x < r[i].x + r[i].w &&
				    r[i].y < r[j].y + r[j].h &&
				    r[j].y < r[i].y + r[i].h)
					apart = false;
		}
		ok(inside && apart, "%d panes inside and apart", n);
		ok(cells >= area.w * area.h - 2 * area.h && cells <=
		    area.w * area.h, "%d panes cover the area but borders", n);
	}
	layout_tile(area, 3, r);
	ok(r[0].y == r[1].y && r[2].y > r[0].y && r[2].w == 160,
	    "3 panes: two on top, one full-width below");
	layout_tile(area, 2, r);
	is_int(r[0].w + 1 + r[1].w, 160, "2 panes side by side with a border");
	area.w = 25;
	area.h = 5;
	is_int(layout_tile(area, 6, r), -1, "6 panes do not fit in 25x5");
	ok(layout_too_small(19, 30), "19 columns is too small");
	ok(layout_too_small(80, 4), "4 rows is too small");
	ok(!layout_too_small(20, 5), "20x5 is enough");
	is_int(layout_window(4, 3), 0, "4 panes: all visible");
	is_int(layout_window(10, 9), 4, "10 panes, focus 10: last six");
	is_int(layout_window(10, 0), 0, "10 panes, focus 1: first six");
	r[0] = layout_content((struct layout_rect){ 3, 4, 10, 6 });
	ok(r[0].y == 5 && r[0].h == 5 && r[0].x == 3 && r[0].w == 10,
	    "content is below the title row");
}

/* Key names and curses codes decode to keys with xterm modifiers. */
static void
test_keys(void)
{
	struct keys_event	ev;
	char			buf[32];

	ok(keys_from_name("kUP5", &ev) == 0 && ev.key == SCREEN_KEY_UP &&
	    ev.mods == SCREEN_MOD_CTRL, "kUP5 is C-Up");
	ok(keys_from_name("kRIT3", &ev) == 0 &&
	    ev.key == SCREEN_KEY_RIGHT && ev.mods == SCREEN_MOD_ALT,
	    "kRIT3 is M-Right");
	ok(keys_from_name("kHOM6", &ev) == 0 && ev.key == SCREEN_KEY_HOME &&
	    ev.mods == (SCREEN_MOD_CTRL | SCREEN_MOD_SHIFT),
	    "kHOM6 is C-S-Home");
	ok(keys_from_name("kUP", &ev) == -1, "kUP without a digit is not ours");
	ok(keys_from_name("kFOO5", &ev) == -1, "unknown names are refused");
	ok(keys_decode(1, KEY_F(5), &ev) == 0 &&
	    ev.key == SCREEN_KEY_F0 + 5 && ev.mods == 0, "F5");
	ok(keys_decode(1, KEY_F(17), &ev) == 0 &&
	    ev.key == SCREEN_KEY_F0 + 5 && ev.mods == SCREEN_MOD_SHIFT,
	    "F17 is S-F5");
	ok(keys_decode(1, KEY_PPAGE, &ev) == 0 &&
	    ev.key == SCREEN_KEY_PAGEUP, "PgUp");
	ok(keys_decode(1, KEY_BTAB, &ev) == 0 && ev.key == SCREEN_KEY_TAB &&
	    ev.mods == SCREEN_MOD_SHIFT, "BackTab is S-Tab");
	ok(keys_decode(0, 0x65e5, &ev) == 0 && ev.type == KEYS_CHAR &&
	    ev.ch == 0x65e5, "a wide character is a character");
	ok(keys_decode(1, 0x6ff0, &ev) == 0 &&
	    ev.type == KEYS_PASTE_START, "paste start marker");
	keys_decode(0, KEYS_CTRL('g'), &ev);
	keys_describe(&ev, buf, sizeof buf);
	is_str(buf, "C-g", "C-g is described as such");
	keys_decode(1, KEY_F(2), &ev);
	keys_describe(&ev, buf, sizeof buf);
	is_str(buf, "F2", "F2 is described as such");
}

/* The palette and nearest-colour searches. */
static void
test_palette(void)
{
	int	i;
	bool	exact = true;

	is_int(render_palette(16), 0x000000, "16 is black");
	is_int(render_palette(231), 0xffffff, "231 is white");
	is_int(render_palette(232), 0x080808, "232 is the darkest grey");
	for (i = 16; i < 256; i++)
		if (render_rgb_to_256(render_palette(i)) != i &&
		    render_palette(render_rgb_to_256(render_palette(i))) !=
		    render_palette(i))
			exact = false;
	ok(exact, "every palette colour maps back to itself");
	is_int(render_rgb_to_ansi(0x00ff00, 16), 10, "green is bright green");
	is_int(render_rgb_to_ansi(0x00ff00, 8), 2, "green on 8 colours");
}

/* The help names every prefix command. */
static void
test_help(void)
{
	const char	*keys[] = { "c ", "x ", "z ", "n  p", "h ", "r ",
			    "[ ", "? ", "q " };
	size_t		 k;
	int		 i;
	bool		 found;

	for (k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		found = false;
		for (i = 0; i < help_lines(); i++)
			if (strncmp(help_line(i), "  ", 2) == 0 &&
			    strncmp(help_line(i) + 2, keys[k],
			    strlen(keys[k])) == 0)
				found = true;
		ok(found, "help lists '%s'", keys[k]);
	}
}

/* The state part of a replay pane's title. */
static void
test_replay_state(void)
{
	char	buf[128], *cause = NULL;

	tui_replay_state(buf, sizeof buf, 3.7, 10.2, 2, true, false, NULL);
	is_str(buf, "0:03/0:10 2x paused", "paused at 3.7 s of 10.2 s, 2x");
	tui_replay_state(buf, sizeof buf, 0, 75, 1, false, false, "exit 3");
	is_str(buf, "0:00/1:15 1x", "playing: no marker before the end");
	tui_replay_state(buf, sizeof buf, 75, 75, 0.5, true, true, "exit 3");
	is_str(buf, "1:15/1:15 0.5x exit 3", "the end shows the exit marker");
	tui_replay_state(buf, sizeof buf, 9, 9, 1, false, true, "signal 9");
	is_str(buf, "0:09/0:09 1x signal 9", "or the signal");
	tui_replay_state(buf, sizeof buf, 9, 9, 1, false, true, NULL);
	is_str(buf, "0:09/0:09 1x ended", "no marker: ended");
	tui_replay_state(buf, sizeof buf, 3725, 7322, 1, false, false, NULL);
	is_str(buf, "1:02:05/2:02:02 1x", "hours");

	ok(tui_replay_open("/nonexistent/x.cast", 4, "true", NULL, NULL, NULL,
	    &cause) == NULL && cause != NULL, "a missing recording: NULL");
	diag("cause: %s", cause != NULL ? cause : "(none)");
	free(cause);
	cause = NULL;
	ok(tui_replay_open(NULL, 4, "true", NULL, NULL, NULL, &cause) ==
	    NULL && cause != NULL && strstr(cause, "no recording") != NULL,
	    "no recording: NULL with a cause");
	free(cause);
	tui_replay_free(NULL);
}

/* What the approval queue decided, one string per decision. */
static struct buf decided;

static void
ask_decided(void *user, struct approval_request *r)
{
	char	*cmd = quote_argv(r->exec.argv);

	(void)user;
	buf_printf(&decided, "%s %llu by %s [%s]%s%s;",
	    approval_state_name(r->state), (unsigned long long)r->id,
	    r->decided_by, cmd, r->reason != NULL ? " reason " : "",
	    r->reason != NULL ? r->reason : "");
	free(cmd);
}

static const struct approval_events ask_events = {
	.decided = ask_decided,
};

/* Reset and return what was decided. */
static const char *
ask_take(void)
{
	static char	out[1024];

	snprintf(out, sizeof out, "%s", decided.len ? buf_cstr(&decided) :
	    "");
	decided.len = 0;
	return out;
}

/* Submit a command (words split at spaces) that the policy asks about. */
static uint64_t
ask_submit(struct approval *a, const char *words)
{
	struct approval_from	 from = { 0, NULL, NULL };
	struct proto_exec	 x;
	struct approval_request	*r;
	char			*copy = xstrdup(words), *argv[16], *w;
	int			 n = 0;

	for (w = strtok(copy, " "); w != NULL && n < 15; w = strtok(NULL, " "))
		argv[n++] = w;
	argv[n] = NULL;
	memset(&x, 0, sizeof x);
	x.argv = strv_dup(argv);
	x.cwd = xstrdup("/tmp");
	x.why = xstrdup("testing");
	r = approval_submit(a, &x, &from);
	free(copy);
	if (approval_dispatch(a, r) != APPROVAL_PENDING)
		return 0;
	return r->id;
}

/* Press a key (a character, or a named key when ch is 0). */
static enum askbox_action
ask_press(struct askbox *b, uint32_t ch, int key, uint64_t now,
    char **message)
{
	struct keys_event	ev;

	memset(&ev, 0, sizeof ev);
	ev.type = ch != 0 ? KEYS_CHAR : KEYS_KEY;
	ev.ch = ch;
	ev.key = key;
	free(*message);
	*message = NULL;
	return askbox_key(b, &ev, now, message);
}

/* Paste text into the box, one character at a time. */
static void
ask_paste(struct askbox *b, const char *text)
{
	struct keys_event	ev;

	for (; *text != '\0'; text++) {
		memset(&ev, 0, sizeof ev);
		ev.type = KEYS_CHAR;
		ev.ch = (unsigned char)*text;
		askbox_pasted_key(b, &ev);
	}
}

/* Type text into the box, one character at a time. */
static void
ask_type(struct askbox *b, const char *text, uint64_t now, char **message)
{
	for (; *text != '\0'; text++)
		ask_press(b, (unsigned char)*text, 0, now, message);
}

/* Queue a host a proxy asks for; its number, 0 when it does not wait. */
static uint64_t
ask_host(struct approval *a, const char *host, unsigned int port)
{
	struct approval_request	*r = ask_host_request(a, host, port);

	return r != NULL ? r->id : 0;
}

/* The scope of the last host decided. */
static enum approval_scope host_scope;

static void
host_decided(void *user, struct approval_request *r)
{
	(void)user;
	host_scope = r->scope;
}

static const struct approval_events host_events = {
	.decided = host_decided,
};

/*
 * A host in the prompt: o once, y the session, a its exact rule shown
 * then saved with y (never edited, e does nothing), n denies; a paste
 * decides nothing.
 */
static void
test_askbox_host(void)
{
	struct policy		*p = policy_new(POLICY_ON_REQUEST);
	struct approval		*a = approval_new(NULL, p);
	struct askbox		*b = askbox_new(a);
	char			*msg = NULL, dir[] = "/tmp/pv-askhost.XXXXXX";
	char			*rules, text[256] = "";
	uint64_t		 id, later = util_now_ms() + 10000;
	FILE			*f;

	if (mkdtemp(dir) == NULL)
		fatal("mkdtemp");
	rules = xasprintf("%s/rules", dir);
	approval_set_rules_path(a, rules);
	approval_subscribe(a, &host_events, NULL);

	id = ask_host(a, "files.test", 443);
	askbox_arrived(b, id);
	is_int(ask_press(b, 'o', 0, util_now_ms(), &msg), ASKBOX_NONE,
	    "host: o at once is ignored (the guard)");
	ask_paste(b, "oya\r");
	ok(approval_find(a, id) != NULL, "host: a pasted o, y, a decide "
	    "nothing");
	is_int(ask_press(b, 'e', 0, later, &msg), ASKBOX_NONE, "host: e "
	    "does not edit a host");
	ok(askbox_stage(b) == ASKBOX_CHOOSE && msg != NULL &&
	    strstr(msg, "o allow this connection") != NULL, "... the keys are "
	    "told instead: %s", msg);
	is_int(ask_press(b, 'o', 0, later, &msg), ASKBOX_APPROVED, "host: o "
	    "approves");
	is_int(host_scope, APPROVAL_SCOPE_ONCE, "... for this connection");

	id = ask_host(a, "files.test", 443);
	askbox_arrived(b, id);
	is_int(ask_press(b, 'y', 0, later, &msg), ASKBOX_APPROVED, "host: y "
	    "approves");
	is_int(host_scope, APPROVAL_SCOPE_SESSION, "... for the session");

	id = ask_host(a, "files.test", 443);
	askbox_arrived(b, id);
	ask_press(b, 'a', 0, later, &msg);
	ok(askbox_stage(b) == ASKBOX_CONFIRM && approval_find(a, id) != NULL,
	    "host: a shows the rule, nothing decided yet");
	ask_press(b, 'e', 0, later, &msg);
	ok(askbox_stage(b) == ASKBOX_CONFIRM, "... e does not edit it");
	is_int(ask_press(b, 'y', 0, later, &msg), ASKBOX_APPROVED, "... y "
	    "approves");
	is_int(host_scope, APPROVAL_SCOPE_RULE, "... and remembers");
	if ((f = fopen(rules, "r")) != NULL) {
		if (fgets(text, sizeof text, f) == NULL)
			text[0] = '\0';
		fclose(f);
	}
	is_str(text, "allow connect files.test:443\n", "... saved to the "
	    "rules file");

	id = ask_host(a, "other.test", 443);
	askbox_arrived(b, id);
	ask_press(b, 'n', 0, later, &msg);
	is_int(ask_press(b, '\r', 0, later, &msg), ASKBOX_DENIED, "host: n "
	    "then Enter denies");

	free(msg);
	askbox_free(b);
	approval_free(a);
	policy_free(p);
	unlink(rules);
	rmdir(dir);
	free(rules);
}

/* The approval prompt's keys decide real requests of a real queue. */
static void
test_askbox(void)
{
	struct policy		*p = policy_new(POLICY_ON_REQUEST);
	struct approval		*a = approval_new(NULL, p);
	struct askbox		*b = askbox_new(a);
	char			*msg = NULL, rules[] = "/tmp/pv-askbox.XXXXXX";
	char			 text[256];
	uint64_t		 id1, id2, later = util_now_ms() + 10000;
	int			 fd;
	FILE			*f;

	approval_subscribe(a, &ask_events, NULL);
	ok(!askbox_is_open(b) && !askbox_open(b), "closed while nothing waits");

	/* y: approve once, but not in the first moments. */
	id1 = ask_submit(a, "make test");
	ok(askbox_arrived(b, id1) && askbox_shown(b) == id1,
	    "a request that arrives opens the box on it");
	is_int(ask_press(b, 'y', 0, util_now_ms(), &msg), ASKBOX_NONE,
	    "y at once is ignored (the guard)");
	ok(msg != NULL && strstr(msg, "just appeared") != NULL &&
	    approval_find(a, id1) != NULL, "... says why, still waiting");
	is_int(ask_press(b, 'y', 0, later, &msg), ASKBOX_APPROVED,
	    "y later approves");
	is_str(ask_take(), "approved 1 by user [make test];", "... once");
	ok(!askbox_is_open(b), "the box closes when nothing else waits");

	/* Esc defers; two waiting; Tab cycles; opening again shows all. */
	id1 = ask_submit(a, "ls one");
	id2 = ask_submit(a, "ls two");
	askbox_arrived(b, id1);
	ok(!askbox_arrived(b, id2) && askbox_shown(b) == id1,
	    "a second request does not take the place of the first");
	ask_press(b, '\t', 0, later, &msg);
	ok(askbox_shown(b) == id2, "Tab shows the next waiting request");
	ask_press(b, '\t', 0, later, &msg);
	ok(askbox_shown(b) == id1, "... and wraps around");
	is_int(ask_press(b, 0, SCREEN_KEY_ESCAPE, later, &msg),
	    ASKBOX_DEFERRED, "Esc defers");
	ok(askbox_shown(b) == id2, "... the other one shows");
	ask_press(b, 0, SCREEN_KEY_ESCAPE, later, &msg);
	ok(!askbox_is_open(b) && approval_pending_count(a) == 2,
	    "deferring both closes the box; both still wait");
	ok(askbox_open(b) && askbox_shown(b) == id1,
	    "opening by hand shows the oldest again");

	/* n: deny with a typed reason (erasing works). */
	ask_press(b, 'n', 0, later, &msg);
	is_int(askbox_stage(b), ASKBOX_REASON, "n asks for a reason");
	ask_type(b, "not nowX", later, &msg);
	ask_press(b, 0x7f, 0, later, &msg);
	is_int(ask_press(b, '\r', 0, later, &msg), ASKBOX_DENIED,
	    "Enter denies");
	is_str(ask_take(), "denied 2 by user [ls one] reason not now;",
	    "... with the reason typed");
	ok(askbox_shown(b) == id2 && askbox_stage(b) == ASKBOX_CHOOSE,
	    "the next request shows, keys reset");

	/* A request decided elsewhere leaves the box while being edited. */
	ask_press(b, 'n', 0, later, &msg);
	approval_approve(a, id2, "someone", NULL);
	ask_take();
	ok(!askbox_is_open(b) && askbox_stage(b) == ASKBOX_CHOOSE,
	    "decided elsewhere: the box closes");

	/* a: remember the suggested rule, saved to the rules file. */
	fd = mkstemp(rules);
	close(fd);
	approval_set_rules_path(a, rules);
	id1 = ask_submit(a, "npm run lint");
	askbox_arrived(b, id1);
	ask_press(b, 'a', 0, later, &msg);
	is_int(askbox_stage(b), ASKBOX_RULE, "a asks for the rule");
	ask_press(b, '\t', 0, later, &msg);
	is_int(ask_press(b, '\r', 0, later, &msg), ASKBOX_NONE,
	    "Enter on the rule does not approve");
	ok(askbox_stage(b) == ASKBOX_CONFIRM && approval_find(a, id1) != NULL &&
	    *ask_take() == '\0', "... it shows the rule once more, nothing "
	    "decided");
	is_int(ask_press(b, '\r', 0, later, &msg), ASKBOX_NONE,
	    "Enter again still does not approve");
	ok(approval_find(a, id1) != NULL && msg != NULL &&
	    strstr(msg, "y approves") != NULL, "... it says y does: %s",
	    msg != NULL ? msg : "(none)");
	is_int(ask_press(b, 'y', 0, later, &msg), ASKBOX_APPROVED,
	    "y approves and remembers");
	ok(msg != NULL && strstr(msg, "saved") != NULL, "... saved: %s",
	    msg != NULL ? msg : "(none)");
	is_int((int)ask_submit(a, "npm run lint"), 0,
	    "the same command is now allowed without asking");
	ask_take();
	f = fopen(rules, "r");
	ok(f != NULL && fgets(text, sizeof text, f) != NULL &&
	    strcmp(text, "allow npm run lint\n") == 0,
	    "the rules file holds the rule");
	if (f != NULL)
		fclose(f);
	unlink(rules);

	/* An edited rule that does not parse is an error, nothing decided. */
	id1 = ask_submit(a, "make deploy");
	askbox_arrived(b, id1);
	ask_press(b, 'a', 0, later, &msg);
	ask_press(b, KEYS_CTRL('u'), 0, later, &msg);
	ask_type(b, "allow 'make", later, &msg);
	is_int(ask_press(b, '\r', 0, later, &msg), ASKBOX_NONE,
	    "a rule that does not parse decides nothing");
	ok(approval_find(a, id1) != NULL && askbox_stage(b) == ASKBOX_RULE,
	    "... still waiting, still editing");
	ask_press(b, 0, SCREEN_KEY_ESCAPE, later, &msg);
	is_int(askbox_stage(b), ASKBOX_CHOOSE, "Esc goes back to the choice");

	/* e: edit the command; one plain command runs as its words. */
	ask_press(b, 'e', 0, later, &msg);
	ask_press(b, KEYS_CTRL('u'), 0, later, &msg);
	ask_type(b, "echo 'a b'", later, &msg);
	is_int(ask_press(b, '\r', 0, later, &msg), ASKBOX_NONE,
	    "Enter on an edited command does not approve it");
	ok(askbox_stage(b) == ASKBOX_CONFIRM && *ask_take() == '\0' &&
	    approval_find(a, id1) != NULL, "... it is shown once more, "
	    "nothing decided");
	is_int(ask_press(b, 0, SCREEN_KEY_ESCAPE, later, &msg), ASKBOX_NONE,
	    "Esc goes back from the check");
	ok(askbox_stage(b) == ASKBOX_CHOOSE && approval_find(a, id1) != NULL,
	    "... to the choice, still waiting");
	ask_press(b, 'e', 0, later, &msg);
	ask_press(b, KEYS_CTRL('u'), 0, later, &msg);
	ask_type(b, "echo 'a b'", later, &msg);
	ask_press(b, '\r', 0, later, &msg);
	ask_press(b, 'e', 0, later, &msg);
	ok(askbox_stage(b) == ASKBOX_EDIT && approval_find(a, id1) != NULL,
	    "e in the check edits again");
	ask_press(b, '\r', 0, later, &msg);
	is_int(ask_press(b, 'y', 0, later, &msg), ASKBOX_APPROVED,
	    "y approves the edited command");
	is_str(ask_take(), "approved 6 by user (edited) [echo 'a b'];",
	    "... as the words typed");
	id1 = ask_submit(a, "make deploy");
	askbox_arrived(b, id1);
	ask_press(b, 'e', 0, later, &msg);
	ask_type(b, " && echo done", later, &msg);
	ask_press(b, '\r', 0, later, &msg);
	ask_press(b, 'y', 0, later, &msg);
	is_str(ask_take(), "approved 7 by user (edited) [/bin/sh -c "
	    "'make deploy && echo done'];", "more than one command runs "
	    "through sh -c");

	/*
	 * Defect seen in use: "echo hi" + Enter typed for a shell pane
	 * reached an open prompt.  e opened the editor, "cho hi" was
	 * appended, Enter approved.  Now Enter only shows the result.
	 */
	id1 = ask_submit(a, "touch never-meant");
	askbox_arrived(b, id1);
	ask_type(b, "echo hi\r", later, &msg);
	ok(approval_find(a, id1) != NULL && *ask_take() == '\0',
	    "\"echo hi\" + Enter typed into the box approves nothing");
	ask_type(b, "ls -l\r", later, &msg);
	ok(approval_find(a, id1) != NULL && *ask_take() == '\0',
	    "... nor does the next line typed");
	ask_press(b, 0, SCREEN_KEY_ESCAPE, later, &msg);
	ask_press(b, 0, SCREEN_KEY_ESCAPE, later, &msg);

	/* A paste never decides: not y, not Enter in a field. */
	ok(askbox_open(b) && askbox_shown(b) == id1, "the box shows it again");
	ask_paste(b, "y\ry");
	ok(approval_find(a, id1) != NULL && askbox_stage(b) == ASKBOX_CHOOSE &&
	    *ask_take() == '\0', "a pasted y and Enter decide nothing");
	ask_press(b, 'n', 0, later, &msg);
	ask_paste(b, "too risky\r");
	ok(approval_find(a, id1) != NULL && askbox_stage(b) == ASKBOX_REASON,
	    "a pasted Enter does not send a denial");
	is_int(ask_press(b, '\r', 0, later, &msg), ASKBOX_DENIED,
	    "the person's own Enter does");
	is_str(ask_take(), "denied 8 by user [touch never-meant] reason too "
	    "risky;", "... with the pasted reason, newline dropped");

	free(msg);
	askbox_free(b);
	askbox_free(NULL);
	approval_free(a);
	policy_free(p);
	buf_free(&decided);
}

/*
 * Scroll mode over a live pane: output that scrolls lines off while the
 * person reads moves the view with them (it does not drift); at the
 * bottom it follows the end.
 */
static void
test_scroll_anchor(void)
{
	struct screen		*scr = screen_new(5, 20, 100, NULL, NULL);
	struct scroll		*sv;
	struct keys_event	 up = { .type = KEYS_CHAR, .ch = 'k' };
	struct keys_event	 down = { .type = KEYS_CHAR, .ch = 'j' };
	char			 line[32];
	int			 i, top;

	for (i = 1; i <= 30; i++) {
		snprintf(line, sizeof line, "line %d\r\n", i);
		screen_feed(scr, line, strlen(line));
	}
	sv = scroll_new(scr, false, "t");
	for (i = 0; i < 10; i++)
		scroll_key(sv, &up);
	top = scroll_top(sv);
	for (i = 31; i <= 37; i++) {
		snprintf(line, sizeof line, "line %d\r\n", i);
		screen_feed(scr, line, strlen(line));
	}
	scroll_key(sv, &down);
	scroll_key(sv, &up);
	is_int(scroll_top(sv), top - 7, "7 lines scrolled off while reading: "
	    "the view moved up 7 rows with its text");
	scroll_free(sv);
	screen_free(scr);
}

int
main(void)
{
	test_layout();
	test_keys();
	test_palette();
	test_help();
	test_replay_state();
	test_askbox();
	test_askbox_host();
	test_scroll_anchor();
	return tap_done();
}
