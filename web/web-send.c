/*
 * web-send.c - what ptyvisor web sends: a line to the server (its list
 * asked for again), a message to a page (queued, a page far behind
 * closed), and the loop stopped with its cause.  web.c's loop and a live
 * view (web-view.c) both send through here.
 */
#include "web/web-int.h"

#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/util.h"
#include "control/client.h"
#include "control/proto-client.h"

/* Stop the loop, keeping the first cause (NULL: a signal asked). */
void
web_stop(struct web *w, const char *cause)
{
	if (!w->stop && cause != NULL)
		w->cause = xstrdup(cause);
	w->stop = true;
}

/* Send line to the server; the loop stops when it cannot. */
void
web_send(struct web *w, struct buf *line)
{
	char	*cause = NULL;

	if (client_send_line(w->cl, line, &cause) != 0) {
		web_stop(w, cause);
		free(cause);
	}
}

/* Ask the server for its list now, or once the one awaited comes. */
void
web_refresh(struct web *w)
{
	struct buf	 line = { 0 };
	char		 id[32];

	if (w->list_asked) {
		w->list_again = true;
		return;
	}
	snprintf(id, sizeof id, "L%lu", ++w->serial);
	proto_req_list(&line, id);
	web_send(w, &line);
	w->list_asked = !w->stop;
	buf_free(&line);
}

/* Queue message s (taken) for page c; a page far behind is closed. */
void
web_conn_send(struct web_conn *c, char *s)
{
	if (c->nqueue == WEB_CONN_QUEUE) {
		free(s);
		lws_set_timeout(c->wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
		return;
	}
	c->queue[c->nqueue++] = s;
	lws_callback_on_writable(c->wsi);
}
