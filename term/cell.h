/*
 * cell.h - one character cell of a session's screen, as front ends see it.
 *
 * A plain value shared by the screen, its scrollback and the renderers, so
 * that none of them depends on libvterm's own cell layout.
 */
#ifndef PTYVISOR_CELL_H
#define PTYVISOR_CELL_H

#include <stdint.h>

#define CELL_MAX_CHARS 6		/* as libvterm: base + combining */

/* Colours: the type in the top byte, the index or 0xRRGGBB below. */
#define CELL_COLOR_DEFAULT	0x00000000u
#define CELL_COLOR_INDEXED	0x01000000u
#define CELL_COLOR_RGB		0x02000000u
#define CELL_COLOR_TYPE(c)	((c) & 0xff000000u)

/* Attribute flags. */
#define CELL_BOLD	0x0001u
#define CELL_UNDERLINE	0x0002u		/* single */
#define CELL_UNDERLINE2	0x0004u		/* double or curly */
#define CELL_ITALIC	0x0008u
#define CELL_BLINK	0x0010u
#define CELL_REVERSE	0x0020u
#define CELL_STRIKE	0x0040u
#define CELL_CONCEAL	0x0080u

struct cell_attr {
	uint16_t	flags;
	uint32_t	fg;
	uint32_t	bg;
};

struct cell {
	uint32_t	chars[CELL_MAX_CHARS];	/* 0-terminated unless full */
	uint8_t		width;	/* 1, 2 for a wide char, 0 for its right half */
	struct cell_attr attr;
};

/* True when two attributes render the same. */
static inline int
cell_attr_eq(const struct cell_attr *a, const struct cell_attr *b)
{
	return a->flags == b->flags && a->fg == b->fg && a->bg == b->bg;
}

#endif
