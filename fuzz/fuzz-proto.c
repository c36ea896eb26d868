/*
 * fuzz-proto.c - libFuzzer target for the control protocol decoder: parse
 * the input as one request line (a socket client's bytes are untrusted).
 * Besides memory errors, it checks the decoder's promises: a refusal
 * always has a code the parser may give and a message, an id read is
 * bounded, a request obeys the bounds doc/protocol.md states; and the
 * strict base64 decoder agrees with the encoder on what it accepts.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "control/proto.h"
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
		proto_request_free(req);
	}

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
