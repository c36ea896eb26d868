/*
 * web-view.c - the sessions a page shows live: a session's screen as the
 * server draws it (its screen request), then the session's output as the
 * front end gets it as a subscriber, how it ended and its entries of the
 * history; an approver's keys typed into it sent on as input requests.
 * The protocol's own path, as every client follows a session: nothing is
 * emulated or drawn here.
 *
 * Invariants: a view's output is kept for its page only once its screen
 * came (what came before is in the screen: the server answers in order,
 * and output it sent before the answer went into the drawing); a view has
 * one screen asked for at most (a new ask takes over the id, the old
 * answer is dropped); its output waiting for the page past WEB_VIEW_BEHIND
 * is dropped and the screen asked for again, as after a new size or a gap
 * in what the server sent (skipped: this front end fell behind); at most
 * WEB_VIEWS_MAX views a page; keys only from an approver's page, only into
 * a session that page shows.
 */
#include "web/web-int.h"

#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "control/client.h"
#include "control/proto-client.h"
#include "record/history.h"
#include "record/statedir.h"

/* Empty view v: what it waits to send, gone. */
static void
web_view_clear(struct web_view *v)
{
	free(v->screen);
	free(v->ended);
	free(v->entries);
	free(v->entries_sent);
	buf_free(&v->out);
	memset(v, 0, sizeof *v);
}

/* Ask the server for v's screen; output waits for it. */
static void
web_view_ask(struct web *w, struct web_conn *c, struct web_view *v)
{
	struct buf	line = { 0 };

	snprintf(v->id, sizeof v->id, "v%lu", ++w->serial);
	v->live = false;
	v->out.len = 0;
	free(v->screen);
	v->screen = NULL;
	proto_req_screen(&line, v->id, v->session);
	web_send(w, &line);
	buf_free(&line);
	lws_callback_on_writable(c->wsi);
}

/* Page c's view of session, or NULL. */
static struct web_view *
web_view_find(struct web_conn *c, int64_t session)
{
	int	i;

	for (i = 0; i < WEB_VIEWS_MAX; i++)
		if (c->views[i].session == session)
			return &c->views[i];
	return NULL;
}

/* Tell page c why its message changed nothing. */
static void
web_view_refuse(struct web_conn *c, const char *why)
{
	web_conn_send(c, web_page_result(NULL, 0, why));
}

/* Keys typed into session, from page c: an approver's, shown there. */
static void
web_view_input(struct web *w, struct web_conn *c,
    const struct web_page_msg *m)
{
	struct buf	 line = { 0 };
	char		 id[32], *why;

	if (c->token->role != WEB_ROLE_APPROVER) {
		why = xasprintf("token %s watches only: it cannot type",
		    c->token->name);
		web_view_refuse(c, why);
		free(why);
		return;
	}
	if (web_view_find(c, m->session) == NULL) {
		web_view_refuse(c, "that session is not shown on this page");
		return;
	}
	/* Its answer (ok, or an ended session's error) changes nothing. */
	snprintf(id, sizeof id, "i%lu", ++w->serial);
	proto_req_input(&line, id, m->session, false, m->data, m->len,
	    PROTO_ENC_TEXT, false);
	web_send(w, &line);
	buf_free(&line);
}

void
web_view_message(struct web *w, struct web_conn *c,
    const struct web_page_msg *m)
{
	struct web_view	*v = web_view_find(c, m->session);
	char		*why;

	switch (m->op) {
	case WEB_PAGE_VIEW:
		if (v == NULL && (v = web_view_find(c, 0)) == NULL) {
			why = xasprintf("a page shows at most %d sessions at "
			    "once: close one first", WEB_VIEWS_MAX);
			web_view_refuse(c, why);
			free(why);
			return;
		}
		/* Shown already: drawn anew. */
		web_view_clear(v);
		v->session = m->session;
		web_view_ask(w, c, v);
		web_refresh(w);		/* its history entries */
		return;
	case WEB_PAGE_UNVIEW:
		if (v != NULL)
			web_view_clear(v);
		return;
	case WEB_PAGE_INPUT:
		web_view_input(w, c, m);
		return;
	case WEB_PAGE_DECIDE:
		return;
	}
}

/* The view whose screen the answer with id is, and its page. */
static struct web_view *
web_view_asked(struct web *w, const char *id, struct web_conn **cp)
{
	struct web_conn	*c;
	int		 i;

	for (c = w->conns; c != NULL; c = c->next)
		for (i = 0; i < WEB_VIEWS_MAX; i++)
			if (c->views[i].session != 0 &&
			    strcmp(c->views[i].id, id) == 0) {
				*cp = c;
				return &c->views[i];
			}
	return NULL;
}

/*
 * Output for view v: what a subscriber gets as text; a pipe's (stream)
 * shown as a terminal shows it, "\n" as "\r\n", as the server's screen
 * does.
 */
static void
web_view_output(struct web *w, struct web_conn *c, struct web_view *v,
    const struct proto_event *ev)
{
	size_t	i, start = 0;

	if (ev->fd == 0)
		buf_add(&v->out, ev->data, ev->len);
	else {
		for (i = 0; i < ev->len; i++)
			if (ev->data[i] == '\n') {
				buf_add(&v->out, ev->data + start, i - start);
				buf_add(&v->out, "\r\n", 2);
				start = i + 1;
			}
		buf_add(&v->out, ev->data + start, ev->len - start);
	}
	if (v->out.len > WEB_VIEW_BEHIND)
		web_view_ask(w, c, v);
	lws_callback_on_writable(c->wsi);
}

/* One event about a session some page shows. */
static void
web_view_session(struct web *w, const struct proto_event *ev)
{
	struct web_conn	*c;
	struct web_view	*v;

	for (c = w->conns; c != NULL; c = c->next) {
		if ((v = web_view_find(c, ev->session)) == NULL ||
		    ev->session == 0)
			continue;
		if (ev->kind == PROTO_EV_OUTPUT && v->live)
			web_view_output(w, c, v, ev);
		else if ((ev->kind == PROTO_EV_RESIZED ||
		    ev->kind == PROTO_EV_SKIPPED) && !v->over)
			web_view_ask(w, c, v);	/* a new size, or a gap */
		else if (ev->kind == PROTO_EV_EXIT) {
			v->over = true;
			free(v->ended);
			v->ended = web_page_ended(ev->session,
			    ev->exit.ending);
			lws_callback_on_writable(c->wsi);
		}
	}
}

void
web_view_event(struct web *w, const struct proto_event *ev)
{
	struct web_conn	*c = NULL;
	struct web_view	*v;

	if (ev->id == NULL) {
		web_view_session(w, ev);
		return;
	}
	if (ev->id[0] != 'v' || (v = web_view_asked(w, ev->id, &c)) == NULL)
		return;		/* an input's answer, or a view closed */
	v->id[0] = '\0';
	free(v->screen);
	if (ev->kind == PROTO_EV_SCREEN) {
		v->screen = web_page_screen(ev);
		v->live = true;
	} else
		v->screen = web_page_screen_error(v->session,
		    ev->message != NULL ? ev->message : "no screen");
	lws_callback_on_writable(c->wsi);
}

void
web_view_entries(struct web *w, const struct history_list *history)
{
	struct web_conn	*c;
	struct web_view	*v;
	unsigned long	*ids = NULL;
	size_t		 nids = 0, i;
	bool		*pruned = NULL;
	char		*s;
	int		 k;

	for (c = w->conns; c != NULL; c = c->next)
		for (k = 0; k < WEB_VIEWS_MAX; k++) {
			v = &c->views[k];
			if (v->session == 0)
				continue;
			/* Which recordings the budget took: once, if asked. */
			if (pruned == NULL) {
				if (w->state_dir != NULL)
					ids = statedir_pruned(w->state_dir,
					    &nids);
				pruned = xcalloc(history->n + 1,
				    sizeof *pruned);
				for (i = 0; i < history->n; i++)
					pruned[i] = statedir_recording_pruned(
					    ids, nids, history->v[i].id,
					    history->v[i].recording);
			}
			s = web_page_entries(v->session, history, pruned);
			if (v->entries_sent != NULL &&
			    strcmp(s, v->entries_sent) == 0) {
				free(s);
				continue;
			}
			free(v->entries);
			v->entries = s;
			lws_callback_on_writable(c->wsi);
		}
	free(pruned);
	free(ids);
}

/* What view v is due to send its page next. */
enum web_view_due {
	WEB_VIEW_NOTHING,
	WEB_VIEW_SCREEN,
	WEB_VIEW_OUTPUT,
	WEB_VIEW_ENDED,		/* once its screen and output are out */
	WEB_VIEW_ENTRIES
};

static enum web_view_due
web_view_what(const struct web_view *v)
{
	if (v->session == 0)
		return WEB_VIEW_NOTHING;
	if (v->screen != NULL)
		return WEB_VIEW_SCREEN;
	if (v->live && v->out.len > 0)
		return WEB_VIEW_OUTPUT;
	if (v->ended != NULL && v->id[0] == '\0' && v->out.len == 0)
		return WEB_VIEW_ENDED;
	if (v->entries != NULL)
		return WEB_VIEW_ENTRIES;
	return WEB_VIEW_NOTHING;
}

/* The next message view v is due, or NULL. */
static char *
web_view_take(struct web_view *v)
{
	char	*s = NULL;
	size_t	 n;

	switch (web_view_what(v)) {
	case WEB_VIEW_NOTHING:
		break;
	case WEB_VIEW_SCREEN:
		s = v->screen;
		v->screen = NULL;
		break;
	case WEB_VIEW_OUTPUT:
		n = utf8_cut(v->out.data, v->out.len, WEB_VIEW_CHUNK);
		if (n == 0)	/* no character starts within a chunk */
			n = WEB_VIEW_CHUNK;
		s = web_page_output(v->session, v->out.data, n);
		buf_consume(&v->out, n);
		break;
	case WEB_VIEW_ENDED:
		s = v->ended;
		v->ended = NULL;
		break;
	case WEB_VIEW_ENTRIES:
		s = v->entries;
		v->entries = NULL;
		free(v->entries_sent);
		v->entries_sent = xstrdup(s);
		break;
	}
	return s;
}

char *
web_view_next(struct web_conn *c)
{
	char	*s;
	int	 i, k;

	/* The views in turn: one that floods does not starve the others. */
	for (i = 0; i < WEB_VIEWS_MAX; i++) {
		k = (c->next_view + i) % WEB_VIEWS_MAX;
		if ((s = web_view_take(&c->views[k])) != NULL) {
			c->next_view = (k + 1) % WEB_VIEWS_MAX;
			return s;
		}
	}
	return NULL;
}

bool
web_view_due(const struct web_conn *c)
{
	int	i;

	for (i = 0; i < WEB_VIEWS_MAX; i++)
		if (web_view_what(&c->views[i]) != WEB_VIEW_NOTHING)
			return true;
	return false;
}

void
web_view_close_all(struct web_conn *c)
{
	int	i;

	for (i = 0; i < WEB_VIEWS_MAX; i++)
		web_view_clear(&c->views[i]);
}
