/*
 * test-player.c - the recording player driven by loop_once on short
 * recordings: order of callbacks, final screen text, pause and step,
 * seeking both ways, speed and idle limit through the computed delays
 * (never through wall-clock durations), bad files.
 */
#include "record/player.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/loop.h"
#include "base/util.h"
#include "tests/tap.h"

static char	 tmpdir[] = "/tmp/test-player.XXXXXX";
static int	 nfiles;

/* The absolute value, without libm. */
static double
absd(double x)
{
	return x < 0 ? -x : x;
}

/* What the callbacks saw. */
struct seen {
	struct buf	 order;		/* one letter per callback */
	struct buf	 out;		/* output bytes, concatenated */
	double		 delays[64];
	size_t		 ndelays;
	struct player	*p;
};

static void
seen_output(void *user, const char *data, size_t len)
{
	struct seen	*s = user;

	buf_addc(&s->order, 'o');
	buf_add(&s->out, data, len);
	if (s->ndelays < 64)
		s->delays[s->ndelays++] = player_next_delay(s->p);
}

static void
seen_redraw(void *user)
{
	buf_addc(&((struct seen *)user)->order, 'R');
}

static void
seen_finished(void *user)
{
	buf_addc(&((struct seen *)user)->order, 'F');
}

static const struct player_events seen_events = {
	.output = seen_output,
	.redraw = seen_redraw,
	.finished = seen_finished,
};

/* Write text to a new file in the temporary directory; caller frees. */
static char *
write_file(const char *text)
{
	char	*path = xasprintf("%s/%d.cast", tmpdir, nfiles++);
	FILE	*f = fopen(path, "w");

	if (f == NULL)
		fatal("%s", path);
	fputs(text, f);
	fclose(f);
	return path;
}

/* The screen's text, scrollback included; caller frees. */
static char *
screen_str(struct player *p)
{
	struct buf	 b = { 0 };
	char		*s;

	screen_text(player_screen(p), true, &b);
	s = xstrdup(buf_cstr(&b));
	buf_free(&b);
	return s;
}

/* Turn the loop until the player finishes (at most n turns). */
static void
run_until_finished(struct loop *l, struct player *p, int n)
{
	while (!player_finished(p) && n-- > 0)
		loop_once(l, 1000);
}

static const char rec_a[] =
    "{\"version\": 2, \"width\": 20, \"height\": 5}\n"
    "[0.1, \"o\", \"hello\\r\\n\"]\n"
    "[0.2, \"o\", \"\\u001b[31mred\\u001b[0m\\r\\n\"]\n"
    "[0.25, \"i\", \"typed\"]\n"
    "[0.3, \"r\", \"30x6\"]\n"
    "[0.4, \"o\", \"x\\u001b[2;5Hy\\u001b[4;1Hbar [##  ]\\rbar [####]\"]\n"
    "[0.5, \"m\", \"exit 3\"]\n";

static const char rec_a_text[] = "hello\nred y\nx\nbar [####]\n";

static void
test_play(struct loop *l)
{
	struct player_opts	 o = { .speed = 100 };
	struct seen		 s = { 0 };
	struct player		*p;
	char			*path = write_file(rec_a), *cause = NULL, *t;

	p = player_open(path, l, &o, &seen_events, &s, &cause);
	s.p = p;
	if (!ok(p != NULL, "open a v2 recording")) {
		diag("%s", cause);
		return;
	}
	ok(player_paused(p) && !player_finished(p), "paused until played");
	ok(absd(player_duration(p) - 0.5) < 1e-9, "duration is the last time");
	is_int(screen_cols(player_screen(p)), 20, "screen has the header width");
	player_play(p);
	run_until_finished(l, p, 100);
	ok(player_finished(p), "plays to the end");
	is_str(buf_cstr(&s.order), "ooRoF", "callbacks in order: output, "
	    "resize redraw, output, finished");
	t = screen_str(p);
	is_str(t, rec_a_text, "final screen text");
	free(t);
	is_int(screen_cols(player_screen(p)), 30, "resize event honoured");
	is_str(player_end(p), "exit 3", "end marker is the end state");
	ok(absd(player_position(p) - 0.5) < 1e-9, "position at the end");
	ok(s.ndelays == 3 && absd(s.delays[0] - 0.001) < 1e-9 &&
	    absd(s.delays[1] - 0.001) < 1e-9,
	    "speed 100: 0.1 s pauses become 1 ms");
	player_free(p);
	buf_free(&s.order);
	buf_free(&s.out);
	free(path);
}

static void
test_idle_speed(struct loop *l)
{
	static const char rec[] =
	    "{\"version\": 2, \"width\": 20, \"height\": 5, "
	    "\"idle_time_limit\": 3}\n"
	    "[1, \"o\", \"a\"]\n"
	    "[2, \"o\", \"b\"]\n"
	    "[6, \"o\", \"c\"]\n"
	    "[6.25, \"o\", \"d\"]\n";
	struct player_opts	 o = { .speed = 100, .idle_limit = 0.5 };
	struct seen		 s = { 0 };
	struct player		*p;
	char			*path = write_file(rec), *cause = NULL;

	p = player_open(path, l, &o, &seen_events, &s, &cause);
	s.p = p;
	ok(p != NULL && absd(player_idle_limit(p) - 0.5) < 1e-9,
	    "idle limit option beats the header's");
	player_play(p);
	run_until_finished(l, p, 100);
	is_str(buf_cstr(&s.out), "abcd", "all output played");
	ok(s.ndelays == 4 && absd(s.delays[0] - 0.005) < 1e-9 &&
	    absd(s.delays[1] - 0.005) < 1e-9 &&
	    absd(s.delays[2] - 0.005) < 1e-9 &&
	    absd(s.delays[3] - 0.0025) < 1e-9,
	    "pauses squeezed to 0.5 s then divided by the speed");
	player_free(p);

	o.idle_limit = -1;
	p = player_open(path, l, &o, NULL, NULL, &cause);
	ok(p != NULL && absd(player_idle_limit(p) - 3) < 1e-9,
	    "no option: the header's idle limit");
	player_set_speed(p, 10);
	ok(absd(player_speed(p) - 10) < 1e-9, "set speed");
	player_faster(p);
	ok(absd(player_speed(p) - 20) < 1e-9, "faster doubles");
	player_slower(p);
	player_slower(p);
	ok(absd(player_speed(p) - 5) < 1e-9, "slower halves");
	player_set_speed(p, 1e9);
	ok(player_speed(p) <= PLAYER_SPEED_MAX, "speed is bounded");
	player_free(p);
	buf_free(&s.order);
	buf_free(&s.out);
	free(path);
}

static void
test_step(struct loop *l)
{
	struct seen	 s = { 0 };
	struct player	*p;
	char		*path = write_file(rec_a), *cause = NULL, *t;

	p = player_open(path, l, NULL, &seen_events, &s, &cause);
	s.p = p;
	is_int(player_step(p), 1, "step plays one event");
	is_str(buf_cstr(&s.out), "hello\r\n", "the first output event");
	ok(player_paused(p), "still paused after a step");
	loop_once(l, 0);
	is_str(buf_cstr(&s.out), "hello\r\n", "nothing more plays while paused");
	is_int(player_step(p), 1, "second step");
	is_int(player_step(p), 1, "third step: the resize (input skipped)");
	is_str(buf_cstr(&s.order), "ooR", "output, output, redraw");
	ok(absd(player_position(p) - 0.3) < 1e-9, "position follows steps");
	player_step(p);
	is_int(player_step(p), 1, "the marker is a step");
	ok(player_finished(p), "finished after the last event");
	is_str(player_end(p), "exit 3", "end state after stepping");
	is_int(player_step(p), 0, "no step past the end");
	t = screen_str(p);
	is_str(t, rec_a_text, "stepped screen equals played screen");
	free(t);
	player_free(p);
	buf_free(&s.order);
	buf_free(&s.out);
	free(path);
}

static void
test_seek(struct loop *l)
{
	struct seen	 s = { 0 };
	struct player	*p;
	char		*path = write_file(rec_a), *cause = NULL, *t;

	p = player_open(path, l, NULL, &seen_events, &s, &cause);
	s.p = p;
	is_int(player_seek_to(p, 0.25, &cause), 0, "seek forward");
	t = screen_str(p);
	is_str(t, "hello\nred\n", "screen at 0.25 s");
	free(t);
	is_str(buf_cstr(&s.order), "R", "seek: no output reported, one redraw");
	ok(absd(player_position(p) - 0.25) < 1e-9, "position is the target");
	is_int(player_seek(p, -0.1, &cause), 0, "seek back");
	t = screen_str(p);
	is_str(t, "hello\n", "screen at 0.15 s after seeking back");
	free(t);
	is_int(screen_cols(player_screen(p)), 20, "seek back: header size");
	is_int(player_seek(p, 100, &cause), 0, "seek past the end");
	ok(player_finished(p), "finished");
	t = screen_str(p);
	is_str(t, rec_a_text, "seeking to the end gives the played screen");
	free(t);
	is_str(player_end(p), "exit 3", "end state after seeking");
	is_int(player_seek_to(p, 0, &cause), 0, "seek to the start");
	ok(!player_finished(p) && player_end(p) == NULL,
	    "not finished after seeking back");
	t = screen_str(p);
	is_str(t, "", "empty screen at 0");
	free(t);
	/* Resume playing after seeking: it goes on from there. */
	buf_free(&s.out);
	memset(&s.out, 0, sizeof s.out);
	player_set_speed(p, 1000);
	player_seek_to(p, 0.15, &cause);
	player_play(p);
	run_until_finished(l, p, 100);
	is_str(buf_cstr(&s.out), "\033[31mred\033[0m\r\nx\033[2;5Hy\033[4;1H"
	    "bar [##  ]\rbar [####]", "play after a seek starts at the target");
	player_free(p);
	buf_free(&s.order);
	buf_free(&s.out);
	free(path);
}

static void
test_pause_resume(struct loop *l)
{
	struct seen	 s = { 0 };
	struct player	*p;
	char		*path = write_file(rec_a), *cause = NULL;
	int		 n = 100;

	p = player_open(path, l, &(struct player_opts){ .speed = 10 },
	    &seen_events, &s, &cause);
	s.p = p;
	player_play(p);
	while (s.out.len == 0 && n-- > 0)
		loop_once(l, 1000);
	player_pause(p);
	ok(player_paused(p), "paused mid-play");
	loop_once(l, 30);
	is_str(buf_cstr(&s.out), "hello\r\n", "nothing plays while paused");
	player_toggle(p);
	ok(!player_paused(p), "toggle resumes");
	run_until_finished(l, p, 100);
	is_str(buf_cstr(&s.order), "ooRoF", "the rest plays after resuming");
	player_free(p);
	buf_free(&s.order);
	buf_free(&s.out);
	free(path);
}

static void
test_batch(struct loop *l)
{
	struct buf	 rec = { 0 }, want = { 0 };
	struct seen	 s = { 0 };
	struct player	*p;
	char		*path, *cause = NULL;
	int		 i;

	buf_adds(&rec, "{\"version\": 2, \"width\": 80, \"height\": 24}\n");
	for (i = 0; i < 2000; i++) {
		buf_printf(&rec, "[0.5, \"o\", \"%d\\r\\n\"]\n", i);
		buf_printf(&want, "%d\r\n", i);
	}
	path = write_file(buf_cstr(&rec));
	p = player_open(path, l, NULL, &seen_events, &s, &cause);
	s.p = p;
	player_seek_to(p, 0.4, &cause);
	player_play(p);
	run_until_finished(l, p, 1000);
	ok(player_finished(p) && s.out.len == want.len &&
	    memcmp(s.out.data, want.data, want.len) == 0,
	    "2000 simultaneous events all played, in order, in batches");
	ok(screen_scrollback_count(player_screen(p)) > 0, "scrollback kept");
	player_free(p);
	buf_free(&rec);
	buf_free(&want);
	buf_free(&s.order);
	buf_free(&s.out);
	free(path);
}

static void
test_files(struct loop *l)
{
	struct player	*p;
	char		*path, *cause = NULL, *t;

	p = player_open("/nonexistent/x.cast", l, NULL, NULL, NULL, &cause);
	ok(p == NULL && cause != NULL && strstr(cause, "/nonexistent/x.cast"),
	    "missing file: cause names it");
	free(cause);
	cause = NULL;

	p = player_open(tmpdir, l, NULL, NULL, NULL, &cause);
	ok(p == NULL && cause != NULL, "a directory is an error");
	free(cause);
	cause = NULL;

	path = write_file("\x7f" "ELF garbage\n\x01\x02");
	p = player_open(path, l, NULL, NULL, NULL, &cause);
	ok(p == NULL && cause != NULL, "garbage is an error");
	free(cause);
	cause = NULL;
	free(path);

	path = write_file("{\"version\": 2, \"width\": 20, \"height\": 5}\n"
	    "[0.1, \"o\", \"ok\\r\\n\"]\n[0.2, \"o\", \"bad");
	p = player_open(path, l, NULL, NULL, NULL, &cause);
	ok(p != NULL && player_warning(p) != NULL,
	    "truncated last line: opens with a warning");
	if (p != NULL) {
		player_seek_to(p, 1e9, &cause);
		t = screen_str(p);
		is_str(t, "ok\n", "the complete events play");
		free(t);
	}
	player_free(p);
	free(path);

	path = write_file("{\"version\": 2, \"width\": 20, \"height\": 5}\n"
	    "[0.1, \"o\", \"ok\"]\nnot json\n[0.3, \"o\", \"x\"]\n");
	p = player_open(path, l, NULL, NULL, NULL, &cause);
	ok(p == NULL && cause != NULL, "a bad line in the middle is an error");
	free(cause);
	cause = NULL;
	free(path);

	path = write_file("{\"version\": 3, \"term\": {\"cols\": 10, "
	    "\"rows\": 3}}\n[0.1, \"o\", \"v3\"]\n[0.5, \"x\", \"0\"]\n");
	p = player_open(path, l, NULL, NULL, NULL, &cause);
	if (ok(p != NULL, "v3 opens")) {
		player_seek_to(p, 1e9, &cause);
		is_str(player_end(p), "exit 0", "v3 exit event is the end");
		ok(absd(player_duration(p) - 0.6) < 1e-9,
		    "v3 duration from intervals");
	}
	player_free(p);
	free(path);
	player_free(NULL);
	ok(1, "player_free(NULL) is a no-op");
}

/* The final screen of a recording, for output views, without a player. */
static void
test_final_screen(void)
{
	struct screen	*scr;
	struct buf	 b = { 0 };
	char		*path = write_file(rec_a), *warning = NULL, *cause = NULL;

	scr = player_final_screen(path, 0, &warning, &cause);
	ok(scr != NULL && warning == NULL, "the final screen of a recording");
	if (scr != NULL) {
		screen_text(scr, true, &b);
		is_str(buf_cstr(&b), rec_a_text, "... is what the player ends on");
		is_int(screen_cols(scr), 30, "... resized as the recording was");
		screen_free(scr);
	}
	buf_free(&b);
	free(path);
	path = write_file("{\"version\": 2, \"width\": 10, \"height\": 3}\n"
	    "[0.1, \"o\", \"torn\"]\n[0.2, \"o\", \"wi");
	scr = player_final_screen(path, 0, &warning, &cause);
	ok(scr != NULL && warning != NULL, "a torn last line: the screen and a "
	    "warning (%s)", warning != NULL ? warning : "none");
	screen_free(scr);
	free(warning);
	free(path);
	ok(player_final_screen("/nonexistent/x.cast", 0, &warning, &cause) ==
	    NULL && cause != NULL, "a missing file: NULL and the cause");
	free(cause);
}

int
main(void)
{
	struct loop	*l;
	char		*cause = NULL;
	char		*cmd;

	if (mkdtemp(tmpdir) == NULL)
		fatal("mkdtemp");
	if ((l = loop_new(&cause)) == NULL)
		fatal("%s", cause);
	test_play(l);
	test_idle_speed(l);
	test_step(l);
	test_seek(l);
	test_pause_resume(l);
	test_batch(l);
	test_files(l);
	test_final_screen();
	loop_free(l);
	cmd = xasprintf("rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		diag("cannot remove %s", tmpdir);
	free(cmd);
	return tap_done();
}
