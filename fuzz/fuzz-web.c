/*
 * fuzz-web.c - libFuzzer target over what a browser sends `ptyvisor web`:
 * a page's message read as what it asks (web/web-page.c: a decision, a
 * session shown live, keys typed into it), and the headers a token, a
 * Host and an Origin travel in (web/web-auth.c).  Besides memory errors
 * it checks their promises: a decision read is one the server's parser
 * takes back as it was built (every field within the protocol's bounds,
 * named "web (ADDRESS, token NAME)"), and a refused one says why; keys
 * read become an input request the server's parser takes back byte for
 * byte; a header yields a token only from within itself, and no made-up
 * secret logs in.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "control/proto-client.h"
#include "web/web-auth.h"
#include "web/web-page.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A page's message: refused with a cause, or a decide the server takes. */
static void
decide(const char *msg, size_t len)
{
	struct proto_request	*r, *back;
	struct proto_error	 err;
	struct buf		 line = { 0 };
	char			*tag = NULL, *cause = NULL;

	if (web_page_decide(msg, len, "d1", "127.0.0.1", "approver", &r, &tag,
	    &cause) != 0) {
		assert(r == NULL && tag == NULL && cause != NULL);
		free(cause);
		return;
	}
	assert(r->op == PROTO_OP_DECIDE && r->request >= 1);
	assert(strcmp(r->by, "web (127.0.0.1, token approver)") == 0);
	proto_req_decide(&line, r);
	back = proto_parse(line.data, line.len, &err);
	assert(back != NULL);
	assert(back->request == r->request && back->approve == r->approve &&
	    back->remember == r->remember && back->once == r->once);
	assert((back->exec.argv == NULL) == (r->exec.argv == NULL));
	assert(strcmp(back->by, r->by) == 0);
	proto_request_free(back);
	proto_request_free(r);
	buf_free(&line);
	free(tag);
}

/* A page's message about a session: refused with a cause, or taken. */
static void
message(const char *msg, size_t len)
{
	struct web_page_msg	 m;
	struct proto_request	*back;
	struct proto_error	 err;
	struct buf		 line = { 0 };
	char			*cause = NULL;

	if (web_page_message(msg, len, &m, &cause) != 0) {
		assert(cause != NULL && m.data == NULL);
		free(cause);
		return;
	}
	assert(m.op == WEB_PAGE_DECIDE || m.session >= 1);
	assert((m.op == WEB_PAGE_INPUT) == (m.data != NULL));
	if (m.op == WEB_PAGE_INPUT) {
		proto_req_input(&line, "i1", m.session, false, m.data, m.len,
		    PROTO_ENC_TEXT, false);
		back = proto_parse(line.data, line.len, &err);
		assert(back != NULL && back->session == m.session);
		assert(back->datalen == m.len &&
		    memcmp(back->data, m.data, m.len) == 0);
		proto_request_free(back);
		buf_free(&line);
	}
	free(m.data);
}

/* Headers: a token found lies within them; a guess never logs in. */
static void
headers(const char *h)
{
	static struct web_auth	*wa;
	const struct web_token	*t;
	const char		*s;
	size_t			 len = 0;
	char			*cause = NULL;

	if (wa == NULL && (wa = web_auth_new("127.0.0.1", 8461, NULL, false,
	    &cause)) == NULL)
		abort();
	if ((s = web_auth_bearer(h, &len)) != NULL)
		assert(s >= h && s + len <= h + strlen(h) && len > 0);
	if ((s = web_auth_subprotocol(h, &len)) != NULL)
		assert(s >= h && s + len <= h + strlen(h) && len > 0);
	if (s != NULL)
		assert(web_auth_check(wa, s, len, 0, &t) != WEB_AUTH_OK);
	(void)web_auth_host_ok(wa, h);
	(void)web_auth_origin_ok(wa, h, "127.0.0.1:8461");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	*s;

	if (size == 0)
		return 0;
	if (data[0] & 1) {
		decide((const char *)data + 1, size - 1);
		message((const char *)data + 1, size - 1);
		return 0;
	}
	s = xstrndup((const char *)data + 1, size - 1);
	headers(s);
	free(s);
	return 0;
}
