/*
 * colmode.c - DECCOLM spotted in a byte stream (see colmode.h).
 *
 * Outside a sequence only ESC matters, found with memchr: text costs
 * what memchr costs.
 */
#include "term/colmode.h"

#include <string.h>

enum {
	CM_GROUND,
	CM_ESC,		/* ESC seen */
	CM_CSI,		/* ESC [ seen */
	CM_PRIV		/* ESC [ ? seen: parameters, intermediates */
};

#define CM_PARAM_MAX	10000	/* larger ones are no 3 anyway */

/* One byte of a sequence; true when it ended a DECCOLM. */
static bool
colmode_byte(struct colmode *m, unsigned char c)
{
	if (c == 0x1b) {
		m->state = CM_ESC;
		return false;
	}
	if (c == 0x18 || c == 0x1a) {		/* CAN, SUB: abandoned */
		m->state = CM_GROUND;
		return false;
	}
	if (c < 0x20 || c == 0x7f)
		return false;			/* executed inside, goes on */
	switch (m->state) {
	case CM_ESC:
		m->state = c == '[' ? CM_CSI : CM_GROUND;
		return false;
	case CM_CSI:
		if (c != '?') {
			m->state = CM_GROUND;
			return false;
		}
		m->state = CM_PRIV;
		m->param = 0;
		m->has3 = m->inter = false;
		return false;
	case CM_PRIV:
		if (c >= '0' && c <= '9') {
			if (m->param < CM_PARAM_MAX)
				m->param = m->param * 10 + (unsigned)(c - '0');
			return false;
		}
		if (c == ';' || c == ':') {
			m->has3 |= m->param == 3;
			m->param = 0;
			return false;
		}
		if (c >= 0x20 && c <= 0x2f) {
			m->inter = true;
			return false;
		}
		m->state = CM_GROUND;
		m->has3 |= m->param == 3;
		return (c == 'h' || c == 'l') && m->has3 && !m->inter;
	default:
		m->state = CM_GROUND;
		return false;
	}
}

size_t
colmode_scan(struct colmode *m, const char *p, size_t len, bool *found)
{
	const char	*esc;
	size_t		 i = 0;

	*found = false;
	while (i < len) {
		if (m->state == CM_GROUND) {
			esc = memchr(p + i, 0x1b, len - i);
			if (esc == NULL)
				return len;
			i = (size_t)(esc - p);
		}
		if (colmode_byte(m, (unsigned char)p[i++])) {
			*found = true;
			return i;
		}
	}
	return len;
}
