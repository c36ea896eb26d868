# term/: the terminal model: cells, grids driven by libvterm's state, scrollback,
# a command's output as the text a terminal shows.
# Uses base/.
noinst_LIBRARIES += libterm.a
libterm_a_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
libterm_a_SOURCES = \
	term/cell.h \
	term/colmode.c term/colmode.h \
	term/feed.c \
	term/grid.c term/grid.h \
	term/reflow.c term/reflow.h \
	term/screen.c term/screen.h term/screen-int.h term/screen-read.c \
	term/screen-redraw.c \
	term/scrollback.c term/scrollback.h \
	term/textout.c term/textout.h
