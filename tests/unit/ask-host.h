/*
 * ask-host.h - for the unit tests of the approval queue and the prompt:
 * a host a filtered network's proxy asks for, queued as a "connect"
 * request the way control/requests.c queues one.
 */
#ifndef PTYVISOR_TESTS_ASK_HOST_H
#define PTYVISOR_TESTS_ASK_HOST_H

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "control/approval.h"

/* Submit and dispatch host:port: the request waiting, NULL if decided. */
static inline struct approval_request *
ask_host_request(struct approval *a, const char *host, unsigned int port)
{
	struct approval_from	 from = { 0, NULL, NULL };
	struct approval_request	*r;

	r = approval_submit_host(a, host, port, NULL, &from);
	return approval_dispatch(a, r) == APPROVAL_PENDING ? r : NULL;
}

#endif
