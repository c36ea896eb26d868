# The ncurses front end.
noinst_LIBRARIES += libtui.a
libtui_a_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
libtui_a_SOURCES = \
	tui/askbox.c tui/askbox.h tui/askbox-int.h tui/askbox-draw.c \
	tui/draw.c \
	tui/help.c tui/help.h \
	tui/tui-history.c tui/tui-history.h \
	tui/input.c \
	tui/keys.c tui/keys.h \
	tui/layout.c tui/layout.h \
	tui/panes.c \
	tui/prompt.c tui/prompt.h \
	tui/render.c tui/render.h \
	tui/tui-replay.c tui/tui-replay.h \
	tui/scroll.c tui/scroll.h \
	tui/tui-term.c \
	tui/tui.c tui/tui.h tui/tui-int.h \
	tui/views.c
