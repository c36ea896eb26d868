/*
 * askbox-int.h - what the two halves of the approval prompt share: the
 * box's state (askbox.c decides, askbox-draw.c draws).  Not for use
 * outside them.
 */
#ifndef PTYVISOR_ASKBOX_INT_H
#define PTYVISOR_ASKBOX_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tui/askbox.h"
#include "tui/prompt.h"

/* The keys for a host asked for (connect), each saying what it does. */
#define ASKBOX_HOST_KEYS "o allow this connection  y allow for the session  " \
	"a remember (rules file)  n deny  Esc later"

/* At most this many rows for the command, and for a text field. */
#define ASKBOX_COMMAND_ROWS	6
#define ASKBOX_FIELD_ROWS	4

struct askbox {
	struct approval		*a;
	char			*by;		/* who decides: "user" */
	bool			 open;
	uint64_t		 id;		/* the request shown */
	uint64_t		 shown_ms;	/* when it was shown: the guard */
	enum askbox_stage	 stage;
	enum askbox_stage	 confirm_of;	/* CONFIRM: RULE or EDIT */
	char			**confirm_argv;	/* CONFIRM of EDIT: what runs */
	bool			 save;		/* save the remembered rule */
	struct prompt		 field;
	char			*error;		/* the last failure, shown */
	char			*guards;	/* what the guarded paths lack
						   (sandbox_guard_note), or NULL */
	uint64_t		*deferred;
	size_t			 ndeferred;
};

/*
 * askbox.c: make the box true to the queue (the request shown gone or put
 * off: show the next waiting one, or close).
 */
void	askbox_sync(struct askbox *b);

#endif
