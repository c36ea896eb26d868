# server/: the server, built once for `serve` and the console: loop,
# sessions, approval queue, control socket, consoles, followed files, and
# what an approved request runs with.  Uses every folder below it, tui/
# for the consoles' front ends; never cli/.
noinst_LIBRARIES += libserver.a
libserver_a_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
libserver_a_SOURCES = \
	server/server.c server/server.h \
	server/server-spawn.c server/server-spawn.h \
	server/follow.c server/follow.h \
	server/consoles.c server/consoles.h \
	server/exec-judge.c server/exec-judge.h
