/*
 * fuzz-proto.c - libFuzzer target for the control protocol decoder: parse
 * the input as one request line (a socket client's bytes are untrusted).
 * Besides memory errors, it checks the decoder's promises: a refusal
 * always has a code the parser may give and a message, an id read is
 * bounded, a request obeys the bounds doc/protocol.md states, a request
 * built back by the client's codec (proto-client.h) parses to the same
 * values; the event decoder refuses with a cause or decodes; and the
 * strict base64 decoder agrees with the encoder on what it accepts.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "control/proto-client.h"
#include "base/util.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A parsed request within the bounds the protocol promises. */
static void
check_request(const struct proto_request *req)
{
	const struct proto_exec	*e = &req->exec;
	size_t			 i;

	assert(req->op == PROTO_OP_HELLO || req->id != NULL);
	assert(req->id == NULL || strlen(req->id) <= PROTO_ID_MAX);
	switch (req->op) {
	case PROTO_OP_EXEC:
		assert(e->argv != NULL && e->argv[0] != NULL &&
		    e->argv[0][0] != '\0');
		for (i = 0; e->env != NULL && e->env[i] != NULL; i++)
			assert(strchr(e->env[i], '=') != NULL);
		assert(e->cwd == NULL || e->cwd[0] == '/');
		assert(e->cols >= 1 && e->cols <= PROTO_SIZE_MAX);
		assert(e->rows >= 1 && e->rows <= PROTO_SIZE_MAX);
		assert(e->timeout_ms <= (uint64_t)PROTO_TIMEOUT_MAX_S * 1000);
		break;
	case PROTO_OP_INPUT:
		assert(req->session >= 1 && req->data != NULL);
		assert(req->data[req->datalen] == '\0');
		break;
	case PROTO_OP_KILL:
	case PROTO_OP_SCREEN:
		assert(req->session >= 1);
		break;
	case PROTO_OP_RESIZE:
		assert(req->session >= 1);
		assert(req->cols >= 1 && req->cols <= PROTO_SIZE_MAX);
		assert(req->rows >= 1 && req->rows <= PROTO_SIZE_MAX);
		break;
	case PROTO_OP_DECIDE:
		assert(req->request >= 1);
		break;
	default:
		break;
	}
	assert(proto_op_name(req->op) != NULL);
}

/* Whether two optional strings are the same. */
static bool
same_str(const char *a, const char *b)
{
	return a == NULL || b == NULL ? a == b : strcmp(a, b) == 0;
}

/* The request built back by the client's codec (hello: nothing to build). */
static bool
build_back(const struct proto_request *req, struct buf *b)
{
	switch (req->op) {
	case PROTO_OP_EXEC:
		proto_req_exec(b, req->id, &req->exec);
		break;
	case PROTO_OP_INPUT:
		proto_req_input(b, req->id, req->session, req->to_stdin,
		    req->data, req->datalen, PROTO_ENC_BASE64, req->eof);
		break;
	case PROTO_OP_KILL:
		proto_req_kill(b, req->id, req->session);
		break;
	case PROTO_OP_SCREEN:
		proto_req_screen(b, req->id, req->session);
		break;
	case PROTO_OP_RESIZE:
		proto_req_resize(b, req->id, req->session, req->cols,
		    req->rows);
		break;
	case PROTO_OP_DECIDE:
		proto_req_decide(b, req);
		break;
	case PROTO_OP_ATTACH:
		proto_req_attach(b, req);
		break;
	case PROTO_OP_CONNECT:
		proto_req_connect(b, req->id, req->host, req->port, req->why);
		break;
	case PROTO_OP_LIST:
		proto_req_list(b, req->id);
		break;
	case PROTO_OP_SUBSCRIBE:
		proto_req_subscribe(b, req->id);
		break;
	case PROTO_OP_SHUTDOWN:
		proto_req_shutdown(b, req->id);
		break;
	default:
		return false;
	}
	return true;
}

/* What a request and the one built back from it both say. */
static void
check_same(const struct proto_request *a, const struct proto_request *b)
{
	const struct proto_exec	*x = &a->exec, *y = &b->exec;

	assert(same_str(a->id, b->id));
	assert(strv_equal(x->argv, y->argv) && same_str(x->cwd, y->cwd));
	assert(strv_equal(x->env, y->env) && strv_equal(x->environ, y->environ));
	assert(x->timeout_ms == y->timeout_ms && x->network == y->network);
	assert(x->has_sandbox == y->has_sandbox &&
	    (!x->has_sandbox || x->sandbox == y->sandbox));
	assert(same_str(x->why, y->why));
	assert(same_str(x->network_allow, y->network_allow));
	assert(x->encoding == y->encoding && x->err_joined == y->err_joined);
	assert(memcmp(x->pipes, y->pipes, sizeof x->pipes) == 0);
	assert(x->has_umask == y->has_umask && x->umask == y->umask);
	assert(a->op != PROTO_OP_EXEC || (x->cols == y->cols &&
	    x->rows == y->rows));
	assert(a->session == b->session && a->datalen == b->datalen &&
	    (a->datalen == 0 || memcmp(a->data, b->data, a->datalen) == 0));
	assert(a->to_stdin == b->to_stdin && a->eof == b->eof);
	assert(a->op == PROTO_OP_EXEC || (a->cols == b->cols &&
	    a->rows == b->rows));
	assert(a->request == b->request && a->approve == b->approve);
	assert(a->remember == b->remember && a->once == b->once);
	assert(same_str(a->reason, b->reason) && same_str(a->term, b->term));
	assert(same_str(a->tty, b->tty) && a->readonly == b->readonly);
	assert(a->new_session == b->new_session && a->pass_tty == b->pass_tty);
	assert(same_str(a->host, b->host) && a->port == b->port);
	assert(same_str(a->why, b->why) && same_str(a->by, b->by));
	assert(same_str(a->rule, b->rule));
}

/* A request built back by the codec parses to the same values. */
static void
check_round_trip(const struct proto_request *req)
{
	struct proto_request	*again;
	struct proto_error	 err;
	struct buf		 b = { 0 };

	if (!build_back(req, &b))
		return;
	again = proto_parse(b.data, b.len, &err);
	assert(again != NULL && again->op == req->op);
	check_same(req, again);
	proto_request_free(again);
	buf_free(&b);
}

/* The event decoder: a cause when it refuses, nothing held after. */
static void
check_event(const uint8_t *data, size_t size)
{
	struct proto_event	 ev;
	char			*cause = NULL;

	if (proto_event_parse((const char *)data, size, &ev, &cause) != 0) {
		assert(cause != NULL && ev.json == NULL);
		free(cause);
		return;
	}
	assert(ev.kind != PROTO_EV_OUTPUT || ev.data != NULL);
	proto_event_free(&ev);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proto_request	*req;
	struct proto_error	 err;
	struct buf		 dec, enc, again;

	memset(&err, 0, sizeof err);
	req = proto_parse((const char *)data, size, &err);
	if (req == NULL) {
		assert(err.code <= PROTO_ERR_VERSION);
		assert(err.message[0] != '\0');
		assert(memchr(err.message, '\0', sizeof err.message) != NULL);
		assert(!err.has_id || strlen(err.id) <= PROTO_ID_MAX);
		assert(proto_err_name(err.code) != NULL);
	} else {
		check_request(req);
		check_round_trip(req);
		proto_request_free(req);
	}
	check_event(data, size);

	/* What base64 accepts encodes back to the same text. */
	memset(&dec, 0, sizeof dec);
	memset(&enc, 0, sizeof enc);
	memset(&again, 0, sizeof again);
	if (proto_base64_decode(&dec, (const char *)data, size) == 0) {
		proto_base64_encode(&enc, dec.data, dec.len);
		assert(enc.len == size && memcmp(enc.data, data, size) == 0);
	}
	/* And every byte string survives a round trip. */
	buf_free(&dec);
	memset(&dec, 0, sizeof dec);
	proto_base64_encode(&again, data, size);
	assert(proto_base64_decode(&dec, again.data, again.len) == 0);
	assert(dec.len == size && (size == 0 ||
	    memcmp(dec.data, data, size) == 0));
	/* A cut never splits a UTF-8 sequence it could complete. */
	assert(proto_utf8_complete(data, size) <= size);
	buf_free(&dec);
	buf_free(&enc);
	buf_free(&again);
	return 0;
}
