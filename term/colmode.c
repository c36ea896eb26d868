/*
 * colmode.c - DECCOLM, REP and DECSTBM spotted in a byte stream (see
 * colmode.h).
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
	CM_PRIV,	/* ESC [ ? seen: parameters, intermediates */
	CM_PLAIN	/* ESC [ and a parameter seen: REP's parameters */
};

#define CM_PARAM_MAX	10000	/* larger ones are no 3 anyway */

/* A digit or separator of a plain sequence: its first two parameters. */
static void
colmode_plain_param(struct colmode *m, unsigned char c)
{
	unsigned int	*v;

	if (c == ';') {
		m->nparam++;
		return;
	}
	if (c == ':') {
		m->sub = true;
		return;
	}
	if (m->nparam > 1)
		return;
	v = &m->stbm[m->nparam];
	if (*v < CM_PARAM_MAX)
		*v = *v * 10 + (unsigned)(c - '0');
}

/* One byte of a sequence: the sequence it ended, if one of ours. */
static enum colmode_seq
colmode_byte(struct colmode *m, unsigned char c)
{
	if (c == 0x1b) {
		m->state = CM_ESC;
		return COLMODE_NONE;
	}
	if (c == 0x18 || c == 0x1a) {		/* CAN, SUB: abandoned */
		m->state = CM_GROUND;
		return COLMODE_NONE;
	}
	if (c < 0x20 || c == 0x7f)
		return COLMODE_NONE;		/* executed inside, goes on */
	switch (m->state) {
	case CM_ESC:
		m->state = c == '[' ? CM_CSI : CM_GROUND;
		return COLMODE_NONE;
	case CM_CSI:
		if ((c >= '0' && c <= '9') || c == ';' || c == ':') {
			m->state = CM_PLAIN;
			m->inter = m->sub = false;
			m->stbm[0] = m->stbm[1] = 0;
			m->nparam = 0;
			colmode_plain_param(m, c);
			return COLMODE_NONE;
		}
		if (c != '?') {
			m->state = CM_GROUND;
			return c == 'b' ? COLMODE_REP : COLMODE_NONE;
		}
		m->state = CM_PRIV;
		m->param = 0;
		m->has3 = m->inter = false;
		return COLMODE_NONE;
	case CM_PLAIN:
		/* libvterm abandons the sequence at a parameter after an
		 * intermediate byte, at '<' to '?' and at bytes past 0x7f. */
		if (((c >= '0' && c <= '9') || c == ';' || c == ':') &&
		    !m->inter) {
			colmode_plain_param(m, c);
			return COLMODE_NONE;
		}
		if (c >= 0x20 && c <= 0x2f) {
			m->inter = true;
			return COLMODE_NONE;
		}
		m->state = CM_GROUND;
		if (m->inter)
			return COLMODE_NONE;
		return c == 'b' ? COLMODE_REP : c == 'r' && !m->sub ?
		    COLMODE_DECSTBM : COLMODE_NONE;
	case CM_PRIV:
		if (c >= '0' && c <= '9') {
			if (m->param < CM_PARAM_MAX)
				m->param = m->param * 10 + (unsigned)(c - '0');
			return COLMODE_NONE;
		}
		if (c == ';' || c == ':') {
			m->has3 |= m->param == 3;
			m->param = 0;
			return COLMODE_NONE;
		}
		if (c >= 0x20 && c <= 0x2f) {
			m->inter = true;
			return COLMODE_NONE;
		}
		m->state = CM_GROUND;
		m->has3 |= m->param == 3;
		return (c == 'h' || c == 'l') && m->has3 && !m->inter ?
		    COLMODE_DECCOLM : COLMODE_NONE;
	default:
		m->state = CM_GROUND;
		return COLMODE_NONE;
	}
}

size_t
colmode_scan(struct colmode *m, const char *p, size_t len,
    enum colmode_seq *found)
{
	const char	*esc;
	size_t		 i = 0;

	*found = COLMODE_NONE;
	while (i < len) {
		if (m->state == CM_GROUND) {
			esc = memchr(p + i, 0x1b, len - i);
			if (esc == NULL)
				return len;
			i = (size_t)(esc - p);
		}
		if ((*found = colmode_byte(m, (unsigned char)p[i++])) !=
		    COLMODE_NONE)
			return i;
	}
	return len;
}

bool
colmode_stbm_ignored(const struct colmode *m, int rows)
{
	unsigned int	top = m->stbm[0], bottom = m->stbm[1];

	if (top == 0)
		top = 1;
	if (bottom == 0 || bottom > (unsigned int)rows)
		bottom = (unsigned int)rows;
	if (top > (unsigned int)rows)
		top = (unsigned int)rows;
	return top >= bottom;
}
